/**
 * The fields of a UTXO vault address that the `VaultAddress` resource's outputs and the address data sources
 * show, each read once from the sdk's typed record. Adding a field is one entry here.
 */
import type { UtxoVaultAddress } from "@pulumi-custody/sdk";
import { z } from "zod";
import { field, type Projected, project } from "../field-tables";

/** The fields every view of an address shows, read from the API's record. */
export const vaultAddressFields = {
  /** Id of the vault that owns the address. */
  vaultId: field(z.string(), (record: UtxoVaultAddress) => record.vault.id.toLowerCase()),
  /** Current name of the address. */
  name: field(z.string(), (record: UtxoVaultAddress) => record.name),
  /** The address itself (what senders pay to). */
  address: field(z.string(), (record: UtxoVaultAddress) => record.address.address),
  /** Address type: `legacy`, `segwit`, `taproot` (also `p2sh` or `merkleroot` for adopted ones). */
  addressType: field(z.string(), (record: UtxoVaultAddress) => record.address.address_type),
  /** UTXO chain unique id, e.g. `bitcoin_mainnet`. */
  chain: field(z.string(), (record: UtxoVaultAddress) => record.address.chain.unique_id),
  /** BIP-32 derivation path of the address key, e.g. `m/84/0/0/0/3`. */
  derivationPath: field(z.string(), (record: UtxoVaultAddress) => record.derivation_path),
  /** Base64 public key of the address. */
  publicKeyCompressed: field(z.string(), (record: UtxoVaultAddress) => record.public_key_compressed),
  /** Creation time (ISO-8601). */
  createdAt: field(z.string(), (record: UtxoVaultAddress) => record.created_at),
  /** Last modification time (ISO-8601). */
  modifiedAt: field(z.string(), (record: UtxoVaultAddress) => record.modified_at),
};

/** The {@link vaultAddressFields} of one address. */
export type VaultAddressFields = Projected<typeof vaultAddressFields>;

/** Reads the {@link vaultAddressFields} of an address record. */
export function readVaultAddressFields(record: UtxoVaultAddress): VaultAddressFields {
  return project(vaultAddressFields, record);
}
