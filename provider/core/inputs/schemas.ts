/**
 * zod schemas of resource inputs (camelCase, as the program declares them), and the mapping of zod issues to
 * Pulumi check failures `{ property, reason }`. The reasons name the rule, so a preview explains itself.
 */

import {
  BlackBoxKeyType,
  CreatableUtxoAddressType,
  nameRuleViolations,
  UTXO_CHAIN_IDS,
  UUID_PATTERN,
  VAULT_TYPES,
} from "@pulumi-custody/sdk/schema";
import { z } from "zod";
import { maskStrings } from "../host/secret-masking";
import { escapeControls, isShownAsIs, printsAsIs, shownValue } from "./shown";

/** A Pulumi check failure: the input property and why it is wrong. */
export interface CheckFailure {
  /** The input property, as the program spells it (`vaultGroupIds`). */
  property: string;
  /** What rule the value broke. */
  reason: string;
}

function list(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(", ");
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * A name a program declares: one that the lookup by name can carry and that cannot pass for another name, by
 * the sdk's one rule of names for a declared name (`nameRuleViolations`; docs/provider.md, "Names"). Each broken
 * rule is its own issue, so `check` reports them all.
 */
export function nameSchema(what: string) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined ? "is required" : `must be a string, got ${typeName(iss.input)}`,
    })
    .superRefine((name, ctx) => {
      for (const { rule, reason } of nameRuleViolations(name, "declared")) {
        ctx.addIssue({ code: "custom", message: rule === "blank" ? `${reason} (${what})` : reason });
      }
    });
}

/** The types of identifiers the API compares without case: `check` lower-cases them (../fields/check.ts). */
const CASE_INSENSITIVE = new WeakSet<z.ZodType>();

/** Whether `check` lower-cases values of this type (see {@link uuidSchema}). */
export function isCaseInsensitive(type: z.ZodType): boolean {
  return CASE_INSENSITIVE.has(type);
}

/** A UUID, as the API writes them; `check` lower-cases it, the API's spelling. */
export function uuidSchema() {
  const type = z
    .string({
      error: (iss) =>
        iss.input === undefined ? "is required" : `must be a UUID string, got ${typeName(iss.input)}`,
    })
    .regex(UUID_PATTERN, { message: "must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)" });
  CASE_INSENSITIVE.add(type);
  return type;
}

/** One value of a fixed set (a non-empty list). */
export function oneOf<const T extends string>(
  values: readonly T[],
  hint?: (input: unknown) => string | undefined,
) {
  return z.enum(values as readonly [T, ...T[]], {
    error: (iss) => {
      if (iss.input === undefined) return "is required";
      if (typeof iss.input !== "string") return `must be a string, got ${typeName(iss.input)}`;
      return hint?.(iss.input) ?? `must be one of ${list(values)}, got ${shownValue(iss.input)}`;
    },
  });
}

export const booleanSchema = z.boolean({
  error: (iss) => `must be true or false, got ${typeName(iss.input)}`,
});

/**
 * Vault types a `Vault` can only adopt (`adoptExisting: true`), each with why it cannot create one: the API
 * cannot create exchange vaults, and a Safe vault imports a Safe account that exists outside the platform.
 */
export const ADOPT_ONLY_VAULT_TYPES: Readonly<Record<"safe" | "exchange", string>> = {
  safe: '"safe" vaults import an existing Safe account, which this resource cannot create',
  exchange: '"exchange" vaults cannot be created: they are connected to an exchange account in the console',
};

/** Whether a `Vault` of this type can only be adopted (see {@link ADOPT_ONLY_VAULT_TYPES}). */
export function isAdoptOnlyVaultType(type: unknown): type is keyof typeof ADOPT_ONLY_VAULT_TYPES {
  return typeof type === "string" && Object.hasOwn(ADOPT_ONLY_VAULT_TYPES, type);
}

/**
 * The `type` input of a vault: every type the API knows, so that any existing vault can be declared (and
 * imported). Whether one may be created is a rule of its own (`check`: adopt-only types need `adoptExisting`).
 */
export const vaultTypeSchema = oneOf(VAULT_TYPES);

/** The `chain` input of a utxo vault. */
export const utxoChainSchema = oneOf(UTXO_CHAIN_IDS);

/** The `keyType` input of a black_box vault. */
export const keyTypeSchema = oneOf(BlackBoxKeyType.options);

/** The `addressType` input of a vault address (`p2sh` cannot be requested from the API). */
export const addressTypeSchema = oneOf(CreatableUtxoAddressType.options, (input) =>
  input === "p2sh"
    ? `"p2sh" addresses cannot be created through the API (use "legacy", "segwit" or "taproot")`
    : undefined,
);

/** A non-empty list of distinct UUIDs (compared case-insensitively). */
export function uuidSetSchema(what: string) {
  return z
    .array(uuidSchema(), {
      error: (iss) => `must be a list of ${what} ids, got ${typeName(iss.input)}`,
    })
    .min(1, {
      message: `must not be empty: a vault always belongs to at least one vault group (leave ${what} ids unset to leave membership alone)`,
    })
    .superRefine((ids, ctx) => {
      const seen = new Map<string, number>();
      ids.forEach((id, index) => {
        const key = id.toLowerCase();
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [index],
            message: `lists ${id} twice (at positions ${first} and ${index}); each ${what} may appear once`,
          });
        } else {
          seen.set(key, index);
        }
      });
    });
}

/**
 * Turns zod issues into check failures. The property is the top-level input name; a position inside a list or
 * an object is named in the reason (`vaultGroupIds`: "item 2: must be a UUID").
 */
export function failuresFromIssues(
  issues: readonly z.core.$ZodIssue[],
  known: readonly string[],
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        failures.push({
          property: key,
          reason: `is not an input of this resource (inputs: ${known.join(", ")})`,
        });
      }
      continue;
    }
    const [property, ...rest] = issue.path;
    // Inside a list, "item 2: …"; inside an object, the key's path, "keyId: …".
    const inside = rest.map(String).join(".");
    const where = rest.length === 0 ? "" : typeof rest[0] === "number" ? `item ${inside}: ` : `${inside}: `;
    failures.push({
      property: property === undefined ? "" : String(property),
      reason: where + issue.message,
    });
  }
  return failures;
}

/**
 * The inputs that `check` accepted, typed by the schema. The engine hands `create` and `update` what `check`
 * returned, so this only fails on a bug; it then names every property and rule, as `check` would.
 */
export function parseCheckedInputs<T>(
  schema: z.ZodType<T>,
  inputs: Record<string, unknown>,
  known: readonly string[],
): T {
  const { __provider: _provider, ...declared } = inputs;
  const parsed = schema.safeParse(declared);
  if (parsed.success) return parsed.data;
  const failures = failuresFromIssues(parsed.error.issues, known);
  throw new Error(`invalid inputs: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
}

/**
 * The failures as the engine is to get them. For a failure with a property, the engine prints the input's value
 * itself (`property 'name' value {…} has a problem: …`), raw and whole; a value it cannot print safely (a
 * control character, a bidi override, too long: see {@link printsAsIs}) is reported without a property, so the
 * engine prints only the reason, which then starts with the property's name. Reasons have their control
 * characters escaped.
 */
export function engineSafeFailures(
  inputs: Record<string, unknown>,
  failures: readonly CheckFailure[],
  secret: readonly string[] = [],
): CheckFailure[] {
  return failures.map(({ property, reason }) => {
    // A secret input's value is neither printed by the engine nor quoted by the reason.
    const isSecret = secret.includes(property);
    const safeReason = escapeControls(isSecret ? maskStrings(reason, stringsOf(inputs[property])) : reason);
    if (property === "") return { property, reason: safeReason };
    if (!isShownAsIs(property))
      return { property: "", reason: `input ${shownValue(property)} ${safeReason}` };
    if (isSecret || !printsAsIs(inputs[property]))
      return { property: "", reason: `${property} ${safeReason}` };
    return { property, reason: safeReason };
  });
}

/** Every string in a value, at any depth. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}
