/** From the API's address record to the `VaultAddress` outputs. */
import type { UtxoVaultAddress } from "@pulumi-custody/sdk";
import { readVaultAddressFields, vaultAddressFields } from "./fields";
import type { AddressAcquisition, VaultAddressOutputs, VaultAddressResourceState } from "./types";

/** Every output of a `VaultAddress`, for the resource to declare: the address's fields and the resource's state. */
export const VAULT_ADDRESS_OUTPUT_NAMES: readonly (keyof VaultAddressOutputs)[] = [
  ...(Object.keys(vaultAddressFields) as (keyof typeof vaultAddressFields)[]),
  ...(Object.keys({
    acquisition: true,
    nameIsDefault: true,
  } satisfies Record<keyof VaultAddressResourceState, true>) as (keyof VaultAddressResourceState)[]),
];

/** The outputs for an address record. */
export function addressOutputs(
  record: UtxoVaultAddress,
  acquisition: AddressAcquisition,
  nameIsDefault: boolean,
): VaultAddressOutputs {
  return {
    ...readVaultAddressFields(record),
    acquisition,
    ...(nameIsDefault ? { nameIsDefault: true } : {}),
  };
}
