/** `check` and `diff` of the VaultAddress resource. */
import { z } from "zod";
import { notifyUser } from "../host/notices";
import { containsUnknown, isUnknown } from "../host/unknown-values";
import {
  addressTypeSchema,
  type CheckFailure,
  engineSafeFailures,
  failuresFromIssues,
  nameSchema,
  parseCheckedInputs,
  uuidSchema,
} from "../inputs/schemas";
import type { CheckResult } from "../vault/check";
import type { VaultAddressInputs } from "./types";

/** The inputs a `VaultAddress` accepts. */
export const VAULT_ADDRESS_INPUTS = ["vaultId", "name", "addressType", "nameIsDefault"] as const;

/** Inputs that cannot change in place: a new value means a new address. */
export const VAULT_ADDRESS_REPLACE_INPUTS = ["vaultId", "addressType"] as const;

const addressInputSchema = z.strictObject({
  vaultId: uuidSchema(),
  name: nameSchema("leave name unset to use the resource name").optional(),
  addressType: addressTypeSchema.optional(),
  nameIsDefault: z.literal(true).optional(),
}) satisfies z.ZodType<VaultAddressInputs>;

/** The inputs that `check` accepted, typed (see {@link parseCheckedInputs}). */
export function checkedVaultAddressInputs(inputs: Record<string, unknown>): VaultAddressInputs {
  return parseCheckedInputs(addressInputSchema, inputs, VAULT_ADDRESS_INPUTS);
}

/**
 * The name the address must have, or `undefined` when its name is left alone: no name declared, or only the
 * default (the resource name) while the address already has a name of its own. That keeps addresses that an
 * earlier release created without a name, or whose declared name was removed, as they are.
 */
export function nameToApply(olds: Record<string, unknown>, news: Record<string, unknown>): unknown {
  if (news.name === undefined || news.name === null) return undefined;
  if (news.nameIsDefault === true && olds.nameIsDefault !== true) return undefined;
  return news.name;
}

/** Validates the inputs of an address; unknown values are skipped. */
export function checkVaultAddress(
  _olds: Record<string, unknown>,
  news: Record<string, unknown>,
): CheckResult {
  const { __provider: provider, ...declared } = news;
  const known: Record<string, unknown> = {};
  const unknownKeys: string[] = [];
  for (const [key, value] of Object.entries(declared)) {
    if (isUnknown(value)) unknownKeys.push(key);
    else if (value !== undefined && value !== null) known[key] = value;
  }
  const schema =
    unknownKeys.length > 0
      ? addressInputSchema.partial(
          Object.fromEntries(unknownKeys.map((k) => [k, true])) as { vaultId?: true },
        )
      : addressInputSchema;
  const parsed = schema.safeParse(known);
  if (!parsed.success) {
    const failures: CheckFailure[] = failuresFromIssues(parsed.error.issues, VAULT_ADDRESS_INPUTS);
    // The program declares no name: say where the name came from, or the failure points at nothing written.
    const defaulted = known.nameIsDefault === true;
    return {
      inputs: news,
      failures: engineSafeFailures(
        news,
        failures.map((f) =>
          defaulted && f.property === "name"
            ? {
                ...f,
                reason: `${f.reason} (no name is declared, so the name is the resource name: declare a name)`,
              }
            : f,
        ),
      ),
    };
  }
  const inputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(declared)) {
    if (value === undefined || value === null) continue;
    inputs[key] =
      key === "vaultId" && typeof value === "string" && !isUnknown(value) ? value.toLowerCase() : value;
  }
  if (provider !== undefined) inputs.__provider = provider;
  return { inputs };
}

/** What `diff` tells the engine. */
export interface AddressDiff {
  /** Whether anything must change. */
  changes: boolean;
  /** Inputs whose change forces a replacement. */
  replaces?: string[];
}

/**
 * A new `vaultId` or `addressType` replaces the address; a new `name` renames it (see {@link nameToApply}).
 * An unset `addressType` means "whatever the API chose", so it never differs. Unknown values count as changes.
 */
export async function diffVaultAddress(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<AddressDiff> {
  const differs = (key: string, optional: boolean) => {
    const desired = news[key];
    if (containsUnknown(desired)) return true;
    if (optional && (desired === undefined || desired === null)) return false;
    return olds[key] !== desired;
  };
  // `addressType` is optional: unset means "whatever the API chose".
  const replaces: string[] = VAULT_ADDRESS_REPLACE_INPUTS.filter((key) =>
    differs(key, key === "addressType"),
  );
  if (replaces.length > 0) {
    await notifyUser(
      `vault address "${String(olds.name)}" (${String(olds.address)}) must be replaced (${replaces.join(", ")} changed). ` +
        "The custody API cannot delete addresses: the old address is only forgotten by Pulumi and stays in its " +
        "vault, where it can still receive funds.",
      { resourceId: id },
    );
    return { changes: true, replaces };
  }
  const name = nameToApply(olds, news);
  return { changes: containsUnknown(name) || (name !== undefined && olds.name !== name) };
}

/**
 * What a program declares of a `VaultAddress`, the inputs the provider plugin's schema is generated from:
 * `vaultId`, `name`, `addressType`. `nameIsDefault` is not among them: the dynamic resource class sets it when
 * the program declares no name (the name is then the resource name), and it is an output of both paths.
 */
const declaredAddressInputSchema = addressInputSchema.omit({ nameIsDefault: true });

/** The zod schema of the inputs a program declares for a `VaultAddress` (the plugin's schema declares them). */
export function vaultAddressInputsSchema(): z.ZodType<VaultAddressInputs> {
  return declaredAddressInputSchema;
}
