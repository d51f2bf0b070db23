/**
 * `check` and `diff` of the VaultAddress resource, by the rules of its declaration (./declaration.ts, through
 * ../fields/check.ts and ../fields/diff.ts).
 */
import { type CheckResult, checkedInputs, checkInputs } from "../fields/check";
import { replaceOnChanges } from "../fields/declare";
import { changedInputs } from "../fields/diff";
import { notifyUser } from "../host/notices";
import { vaultAddressDeclaration } from "./declaration";
import type { VaultAddressInputs } from "./types";

export { nameToApply } from "./declaration";

/** Inputs that cannot change in place: a new value means a new address. */
export const VAULT_ADDRESS_REPLACE_INPUTS: readonly string[] = replaceOnChanges(vaultAddressDeclaration);

/** The inputs that `check` accepted, typed (see {@link checkedInputs}). */
export function checkedVaultAddressInputs(inputs: Record<string, unknown>): VaultAddressInputs {
  return checkedInputs<VaultAddressInputs>(vaultAddressDeclaration, inputs);
}

/** Validates the inputs of an address; unknown values are skipped. */
export function checkVaultAddress(
  _olds: Record<string, unknown>,
  news: Record<string, unknown>,
): CheckResult {
  return checkInputs(vaultAddressDeclaration, news, {
    noun: "address",
    // The program declares no name: say where the name came from, or the failure points at nothing written.
    explain: (failure, declared) =>
      declared.nameIsDefault === true && failure.property === "name"
        ? {
            ...failure,
            reason: `${failure.reason} (no name is declared, so the name is the resource name: declare a name)`,
          }
        : failure,
  });
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
  const { replaces, updates } = changedInputs(vaultAddressDeclaration, olds, news);
  if (replaces.length > 0) {
    await notifyUser(
      `vault address "${String(olds.name)}" (${String(olds.address)}) must be replaced (${replaces.join(", ")} changed). ` +
        "The custody API cannot delete addresses: the old address is only forgotten by Pulumi and stays in its " +
        "vault, where it can still receive funds.",
      { resourceId: id },
    );
    return { changes: true, replaces };
  }
  return { changes: updates.length > 0 };
}
