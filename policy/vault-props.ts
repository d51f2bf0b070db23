/**
 * Reading a `Vault`'s inputs as a policy sees them. During a preview, an input that depends on another
 * resource's output is not known yet; `@pulumi/policy` hands the inputs over wrapped in a proxy that throws on
 * such a value. The rules must not fail on it, and must not guess it either: they read the unwrapped inputs
 * and treat the placeholders as unknown (docs/policy.md, "Values not known during a preview").
 */

import { custodyResourceKind, vaultResource } from "pulumi-custody/core";

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

/** A vault's inputs, read for the rules: each one known, unknown, or unset. */
export interface VaultView {
  /** The vault name (`name` input). */
  name: Maybe<string | undefined>;
  /** The vault type (`type` input). */
  type: Maybe<string | undefined>;
  /** The UTXO chain (`chain` input). */
  chain: Maybe<string | undefined>;
  /**
   * The declared vault groups (`vaultGroupIds` input): the known ids, and whether some items are not known
   * yet. `undefined` when unset.
   */
  vaultGroupIds: Maybe<{ known: string[]; someUnknown: boolean } | undefined>;
  /** The `adoptExisting` input. */
  adoptExisting: Maybe<boolean | undefined>;
  /** The `archived` input: `true` when the program declares the vault archived. */
  archived: Maybe<boolean | undefined>;
}

function read<T>(
  raw: Record<string, unknown>,
  key: string,
  kind: "string" | "boolean",
): Maybe<T | undefined> {
  const value = raw[key];
  if (isUnknownValue(value)) return UNKNOWN;
  if (value === undefined || value === null) return undefined;
  // `check` of the resource rejects other types before a policy runs; a value of another type is not one
  // the rules can judge, so it counts as unset.
  return typeof value === kind ? (value as T) : undefined;
}

/** Reads a vault's inputs (the props a policy receives, proxied or plain). */
export function vaultView(props: Record<string, unknown>): VaultView {
  const raw = unwrap(props);
  const groups = raw.vaultGroupIds;
  let vaultGroupIds: VaultView["vaultGroupIds"];
  if (isUnknownValue(groups)) vaultGroupIds = UNKNOWN;
  else if (Array.isArray(groups)) {
    const known = groups.filter((g): g is string => typeof g === "string" && !isUnknownValue(g));
    vaultGroupIds = { known, someUnknown: groups.some(isUnknownValue) };
  } else vaultGroupIds = undefined;
  return {
    name: read<string>(raw, "name", "string"),
    type: read<string>(raw, "type", "string"),
    chain: read<string>(raw, "chain", "string"),
    vaultGroupIds,
    adoptExisting: read<boolean>(raw, "adoptExisting", "boolean"),
    archived: read<boolean>(raw, "archived", "boolean"),
  };
}

/**
 * `Vault resource treasury`: a violation names the vault by its resource name alone. A policy receives secret
 * inputs unwrapped, with no mark of which were secret, and its messages reach CI logs and pull requests: the
 * vault name, which a program may declare as a secret, stays out of them.
 */
export function describeVault(resourceName: string): string {
  return `Vault resource ${resourceName}`;
}
