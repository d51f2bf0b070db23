/** From the API's address record to the `VaultAddress` outputs. */
import type { UtxoVaultAddress } from "@pulumi-custody/sdk";
import { outputNames } from "../fields/declare";
import { declaredOutputs } from "../fields/state";
import { vaultAddressDeclaration } from "./declaration";
import type { AddressAcquisition, VaultAddressOutputs } from "./types";

/** Every output of a `VaultAddress`, for the resource to declare, in the declaration's order. */
export const VAULT_ADDRESS_OUTPUT_NAMES = outputNames(
  vaultAddressDeclaration,
) as readonly (keyof VaultAddressOutputs)[];

/** The outputs for an address record. */
export function addressOutputs(
  record: UtxoVaultAddress,
  acquisition: AddressAcquisition,
  nameIsDefault: boolean,
): VaultAddressOutputs {
  const declared = nameIsDefault ? { nameIsDefault: true } : {};
  return {
    ...declaredOutputs(vaultAddressDeclaration, record, declared),
    acquisition,
  } as VaultAddressOutputs;
}
