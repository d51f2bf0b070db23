/**
 * The fields of a UTXO vault address that the `VaultAddress` resource's outputs and the address data sources
 * show, each read once from the sdk's typed record. Adding a field is one entry here.
 */
import type { UtxoVaultAddress } from "@pulumi-custody/sdk";
import { type Projected, project } from "../field-tables";

/** The fields every view of an address shows, read from the API's record. */
export const vaultAddressFields = {
  /** Id of the vault that owns the address. */
  vaultId: (record: UtxoVaultAddress): string => record.vault.id.toLowerCase(),
  /** Current name of the address. */
  name: (record: UtxoVaultAddress): string => record.name,
  /** The address itself (what senders pay to). */
  address: (record: UtxoVaultAddress): string => record.address.address,
  /** Address type: `legacy`, `segwit`, `taproot` (also `p2sh` or `merkleroot` for adopted ones). */
  addressType: (record: UtxoVaultAddress): string => record.address.address_type,
  /** UTXO chain unique id, e.g. `bitcoin_mainnet`. */
  chain: (record: UtxoVaultAddress): string => record.address.chain.unique_id,
  /** BIP-32 derivation path of the address key, e.g. `m/84/0/0/0/3`. */
  derivationPath: (record: UtxoVaultAddress): string => record.derivation_path,
  /** Base64 public key of the address. */
  publicKeyCompressed: (record: UtxoVaultAddress): string => record.public_key_compressed,
  /** Creation time (ISO-8601). */
  createdAt: (record: UtxoVaultAddress): string => record.created_at,
  /** Last modification time (ISO-8601). */
  modifiedAt: (record: UtxoVaultAddress): string => record.modified_at,
};

/** The {@link vaultAddressFields} of one address. */
export type VaultAddressFields = Projected<typeof vaultAddressFields>;

/** Reads the {@link vaultAddressFields} of an address record. */
export function readVaultAddressFields(record: UtxoVaultAddress): VaultAddressFields {
  return project(vaultAddressFields, record);
}
