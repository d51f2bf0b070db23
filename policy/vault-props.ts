/**
 * Reading a `Vault`'s inputs as a policy sees them. During a preview, an input that depends on another
 * resource's output is not known yet; `@pulumi/policy` hands the inputs over wrapped in a proxy that throws on
 * such a value. The rules must not fail on it, and must not guess it either: they read the unwrapped inputs
 * and treat the placeholders as unknown (docs/policy.md, "Values not known during a preview").
 */

import {
  custodyResourceKind,
  inputNames,
  inputOf,
  type ProgramInputsOf,
  type ValueKind,
  valueKindOf,
  vaultDeclaration,
  vaultResource,
} from "pulumi-custody/core";

/**
 * The Pulumi type token of a `Vault` of the dynamic provider (`pulumi-nodejs:dynamic/custody:Vault`); the rules
 * apply as well to the plugin's `custody:index:Vault` (`isVaultType`).
 */
export const VAULT_TYPE_TOKEN = vaultResource.dynamicType;

/** True for the type token of a vault on either path (dynamic provider or plugin). */
export function isVaultType(type: string): boolean {
  return custodyResourceKind(type) === "Vault";
}

/** The placeholders of unknown values, one per value kind, as the engine sends them to a policy pack. */
const UNKNOWN_PLACEHOLDERS: ReadonlySet<string> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** What `@pulumi/policy`'s proxy answers for this key: the object it wraps. */
const PROXY_TARGET = "__getSpecialProxyTarget";

/** Marks a value that is not known yet (during a preview). */
export const UNKNOWN: unique symbol = Symbol("unknown during preview");

/** A value as a rule sees it: known, or {@link UNKNOWN}. */
export type Maybe<T> = T | typeof UNKNOWN;

/** True for an engine placeholder of a value not known yet. */
export function isUnknownValue(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_PLACEHOLDERS.has(value);
}

/** The inputs without the proxy, so that reading an unknown value does not throw. */
function unwrap(props: Record<string, unknown>): Record<string, unknown> {
  const target = (props as Record<string, unknown>)[PROXY_TARGET];
  return target !== null && typeof target === "object" ? (target as Record<string, unknown>) : props;
}

/** How the rules see an input's value: a list as its known items and whether any is unknown; an enum as text. */
type Viewed<T> = [T] extends [readonly (infer U)[]]
  ? { known: U[]; someUnknown: boolean }
  : [T] extends [string]
    ? string
    : T;

/**
 * A vault's inputs, read for the rules: each input a program declares (one per input of the `Vault`'s
 * declaration, pulumi-custody/core `vaultDeclaration`, with its documentation), known, unknown, or unset. A list
 * (`vaultGroupIds`) is its known items, and whether some items are not known yet.
 */
export type VaultView = {
  [K in keyof ProgramInputsOf<typeof vaultDeclaration>]-?: Maybe<
    Viewed<Exclude<ProgramInputsOf<typeof vaultDeclaration>[K], undefined>> | undefined
  >;
};

/** An input as the rules see it, by the kind of its values (`valueKindOf` of its declared type). */
function viewOf(value: unknown, kind: { kind: ValueKind; items?: ValueKind }): unknown {
  if (isUnknownValue(value)) return UNKNOWN;
  if (value === undefined || value === null) return undefined;
  if (kind.kind === "list") {
    if (!Array.isArray(value)) return undefined;
    const known = value.filter((item) => !isUnknownValue(item) && ofKind(item, kind.items ?? "object"));
    return { known, someUnknown: value.some(isUnknownValue) };
  }
  // `check` of the resource rejects other types before a policy runs; a value of another type is not one the
  // rules can judge, so it counts as unset.
  return ofKind(value, kind.kind) ? value : undefined;
}

function ofKind(value: unknown, kind: ValueKind): boolean {
  if (kind === "list") return Array.isArray(value);
  if (kind === "object") return value !== null && typeof value === "object" && !Array.isArray(value);
  return typeof value === kind;
}

/** The inputs a program declares, each with the kind of its values. */
const VIEWED_INPUTS = inputNames(vaultDeclaration)
  .filter((name) => inputOf(vaultDeclaration, name)?.setByResource !== true)
  .map((name) => ({ name, kind: valueKindOf(inputOf(vaultDeclaration, name)!.type) }));

/** Reads a vault's inputs (the props a policy receives, proxied or plain). */
export function vaultView(props: Record<string, unknown>): VaultView {
  const raw = unwrap(props);
  return Object.fromEntries(
    VIEWED_INPUTS.map(({ name, kind }) => [name, viewOf(raw[name], kind)]),
  ) as VaultView;
}

/**
 * `Vault resource treasury`: a violation names the vault by its resource name alone. A policy receives secret
 * inputs unwrapped, with no mark of which were secret, and its messages reach CI logs and pull requests: the
 * vault name, which a program may declare as a secret, stays out of them.
 */
export function describeVault(resourceName: string): string {
  return `Vault resource ${resourceName}`;
}
