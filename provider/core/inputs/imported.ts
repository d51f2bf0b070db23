/**
 * The inputs that declare an existing object as it is, for an import: what `read` reports for an object it
 * adopts, made acceptable to `check`, so that the code generated from them runs unchanged and has no diff.
 * One definition for both ways in: the plugin's `read` on `pulumi import`, and `custody import`, which writes
 * the import file and, for the dynamic provider, the program itself.
 */
import type { UtxoVaultAddress, Vault as VaultRecord } from "@pulumi-custody/sdk";
import { CreatableUtxoAddressType } from "@pulumi-custody/sdk/schema";
import { liveInputs as liveInputsOf } from "../fields/state";
import type { CustodyResourceKind } from "../resources";
import { liveInputs, vaultOutputs } from "../vault/outputs";
import { vaultAddressDeclaration } from "../vault-address/declaration";
import { addressOutputs } from "../vault-address/outputs";
import { isAdoptOnlyVaultType } from "./schemas";

/**
 * The live inputs of an imported object, made declarable: a vault declares the vault groups the API reports it
 * in (its approved membership, from the outputs' `vaultGroupIds`), so that the program says where it stands
 * and a later change of membership is a reviewed one; a vault of a type that can only be adopted (safe,
 * exchange) gets `adoptExisting: true`; and an address of a type the API cannot create (`p2sh`, `merkleroot`)
 * leaves `addressType` unset, which means "whatever the API chose" and so never differs.
 */
export function declarableImportInputs(
  kind: CustodyResourceKind,
  inputs: Readonly<Record<string, unknown>>,
  outputs: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  if (kind === "Vault") {
    const declared: Record<string, unknown> = { ...inputs };
    const groups = Array.isArray(outputs.vaultGroupIds)
      ? outputs.vaultGroupIds
          .filter((id): id is string => typeof id === "string")
          .map((id) => id.toLowerCase())
      : [];
    // A vault in no group leaves membership alone: an empty list is not a declaration `check` accepts.
    if (declared.vaultGroupIds === undefined && groups.length > 0) declared.vaultGroupIds = groups;
    if (isAdoptOnlyVaultType(inputs.type)) declared.adoptExisting = true;
    return declared;
  }
  const { addressType, ...rest } = inputs;
  return CreatableUtxoAddressType.options.includes(addressType as never) ? { ...inputs } : rest;
}

/** The inputs that declare a vault as it is (what an import of it records). */
export function importedVaultInputs(vault: VaultRecord): Record<string, unknown> {
  const outputs = vaultOutputs(vault, { declared: {}, acquisition: "adopted" });
  return declarableImportInputs("Vault", liveInputs(outputs), outputs as unknown as Record<string, unknown>);
}

/** The inputs that declare an address as it is (what an import of it records). */
export function importedVaultAddressInputs(address: UtxoVaultAddress): Record<string, unknown> {
  const outs = addressOutputs(address, "adopted", false);
  return declarableImportInputs(
    "VaultAddress",
    liveInputsOf(vaultAddressDeclaration, outs as unknown as Record<string, unknown>),
  );
}
