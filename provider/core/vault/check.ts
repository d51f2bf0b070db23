/**
 * `check` of the Vault resource: validates the declared inputs at preview time and normalizes them.
 * Values still unknown during a preview (outputs of other resources) are skipped, not guessed.
 */
import { z } from "zod";
import { isUnknown } from "../host/unknown-values";
import {
  ADOPT_ONLY_VAULT_TYPES,
  booleanSchema,
  type CheckFailure,
  engineSafeFailures,
  failuresFromIssues,
  isAdoptOnlyVaultType,
  keyTypeSchema,
  nameSchema,
  parseCheckedInputs,
  utxoChainSchema,
  uuidSchema,
  uuidSetSchema,
  vaultTypeSchema,
} from "../inputs/schemas";
import { VAULT_NAME_IS_SECRET } from "./secret-name";
import type { VaultInputs } from "./types";

/** The inputs a `Vault` accepts. */
export const VAULT_INPUTS = [
  "name",
  "type",
  "chain",
  "keyType",
  "vaultGroupIds",
  "endUserId",
  "adoptExisting",
  "archived",
] as const;

const vaultInputSchema = z.strictObject({
  name: nameSchema("a vault needs a name"),
  type: vaultTypeSchema,
  chain: utxoChainSchema.optional(),
  keyType: keyTypeSchema.optional(),
  vaultGroupIds: uuidSetSchema("vault group").optional(),
  endUserId: uuidSchema().optional(),
  adoptExisting: booleanSchema.optional(),
  archived: booleanSchema.optional(),
}) satisfies z.ZodType<VaultInputs>;

/** The inputs that `check` accepted, typed (see {@link parseCheckedInputs}). */
export function checkedVaultInputs(inputs: Record<string, unknown>): VaultInputs {
  const { [VAULT_NAME_IS_SECRET]: _secret, ...declared } = inputs;
  return parseCheckedInputs(vaultInputSchema, declared, VAULT_INPUTS);
}

/** The result of `check`: normalized inputs, or the failures that stop the preview. */
export interface CheckResult {
  /** The inputs to use from now on (normalized; unknown values kept as they are). */
  inputs: Record<string, unknown>;
  /** Failures, each naming the input property. */
  failures?: CheckFailure[];
}

/**
 * Validates the new inputs of a vault. `olds` (the previous inputs) is not needed: what may change in place and
 * what forces a replacement is decided by `diff`. Besides the declared inputs, it accepts the internal
 * `__nameIsSecret: true` that the `Vault` class adds for a secret name (./secret-name.ts), and keeps it.
 */
export function checkVault(_olds: Record<string, unknown>, news: Record<string, unknown>): CheckResult {
  const { __provider: _provider, [VAULT_NAME_IS_SECRET]: nameIsSecret, ...declared } = news;
  const { known, unknownKeys } = splitUnknown(declared);

  const failures: CheckFailure[] = [];
  // Required inputs that are unknown in preview are present, just not resolved yet.
  const mask = Object.fromEntries(unknownKeys.map((k) => [k, true])) as { name?: true; type?: true };
  const partial = vaultInputSchema.partial(mask);
  const parsed = (unknownKeys.length > 0 ? partial : vaultInputSchema).safeParse(known);
  if (!parsed.success) failures.push(...failuresFromIssues(parsed.error.issues, VAULT_INPUTS));
  failures.push(...crossFieldFailures(declared));
  if (nameIsSecret !== undefined && nameIsSecret !== true) {
    failures.push({ property: VAULT_NAME_IS_SECRET, reason: "is internal and can only be true" });
  }

  if (failures.length > 0) return { inputs: news, failures: engineSafeFailures(news, dedupe(failures)) };
  return {
    inputs: {
      ...normalize(declared),
      ...(nameIsSecret === true ? { [VAULT_NAME_IS_SECRET]: true } : {}),
      ...(news.__provider !== undefined ? { __provider: news.__provider } : {}),
    },
  };
}

/** Rules between inputs; skipped when the value they depend on is not known yet. */
function crossFieldFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { type, chain, keyType, adoptExisting } = inputs;
  if (typeof type !== "string" || isUnknown(type)) return failures;
  if (!vaultTypeSchema.safeParse(type).success) return failures;

  if (type === "utxo" && chain === undefined) {
    failures.push({ property: "chain", reason: 'is required for "utxo" vaults (e.g. "bitcoin_mainnet")' });
  }
  if (type !== "utxo" && chain !== undefined) {
    failures.push({
      property: "chain",
      reason: `is only for "utxo" vaults; a "${type}" vault must not set it`,
    });
  }
  if (type === "black_box" && keyType === undefined) {
    failures.push({
      property: "keyType",
      reason: 'is required for "black_box" vaults (e.g. "ecdsa_secp256k1")',
    });
  }
  if (type !== "black_box" && keyType !== undefined) {
    failures.push({
      property: "keyType",
      reason: `is only for "black_box" vaults; a "${type}" vault must not set it`,
    });
  }
  if (isAdoptOnlyVaultType(type) && adoptExisting !== true && !isUnknown(adoptExisting)) {
    failures.push({
      property: "type",
      reason: `${ADOPT_ONLY_VAULT_TYPES[type]}; set adoptExisting: true to manage a "${type}" vault that already exists`,
    });
  }
  return failures;
}

/** Separates unknown values (skipped by validation) from known ones; unknown list items are dropped. */
function splitUnknown(inputs: Record<string, unknown>): {
  known: Record<string, unknown>;
  unknownKeys: string[];
} {
  const known: Record<string, unknown> = {};
  const unknownKeys: string[] = [];
  for (const [key, value] of Object.entries(inputs)) {
    if (isUnknown(value)) {
      unknownKeys.push(key);
    } else if (Array.isArray(value) && value.some(isUnknown)) {
      const rest = value.filter((v) => !isUnknown(v));
      // A list whose items are all unknown may still turn out non-empty: skip its rules.
      if (rest.length === 0) unknownKeys.push(key);
      else known[key] = rest;
    } else if (value !== undefined && value !== null) {
      known[key] = value;
    }
  }
  return { known, unknownKeys };
}

/** Lower-cases UUIDs (the API's spelling, so they compare equal to what it returns) and drops unset options. */
function normalize(inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (value === undefined || value === null) continue;
    if (key === "endUserId" && typeof value === "string" && !isUnknown(value)) out[key] = value.toLowerCase();
    else if (key === "vaultGroupIds" && Array.isArray(value)) {
      out[key] = value.map((v) => (typeof v === "string" && !isUnknown(v) ? v.toLowerCase() : v));
    } else out[key] = value;
  }
  return out;
}

function dedupe(failures: CheckFailure[]): CheckFailure[] {
  const seen = new Set<string>();
  return failures.filter((f) => {
    const key = `${f.property}\u0000${f.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The zod schema of the inputs a `Vault` accepts (the provider plugin's schema is generated from it). */
export function vaultInputsSchema(): z.ZodType<VaultInputs> {
  return vaultInputSchema;
}
