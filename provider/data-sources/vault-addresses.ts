/** Data source `getVaultAddresses`. */
import { type ApiRecord, collect, compact, obj, str } from "./fields";
import { type DataSourceOptions, dataSourceClient, liftToOutput, named } from "./options";

/** Filters of {@link getVaultAddresses} (`GET /vaults/{id}/addresses`). */
export interface GetVaultAddressesArgs {
  /** The UTXO vault. */
  vaultId: string;
  /** Substring search over address names and addresses. */
  search?: string;
  /** Only these addresses. */
  addresses?: string[];
  /** Only these address types: `legacy`, `p2sh`, `segwit`, `taproot`, `merkleroot`. */
  addressTypes?: string[];
  /** Sort order, e.g. `["created_at_asc"]`. */
  sortBy?: string[];
  /** Stop after this many addresses; all of them when unset. */
  maxItems?: number;
}

/** An address of a UTXO vault. */
export interface VaultAddressInfo {
  /** Address id. */
  id: string;
  /** Vault id. */
  vaultId: string;
  /** Name, unique within the vault. */
  name: string;
  /** The address. */
  address: string;
  /** Address type. */
  addressType: string;
  /** UTXO chain unique id. */
  chain: string;
  /** BIP-32 derivation path. */
  derivationPath: string;
  /** Base64 public key. */
  publicKeyCompressed?: string;
  /** Creation time (ISO-8601). */
  createdAt: string;
  /** Last modification time (ISO-8601). */
  modifiedAt?: string;
}

/** Maps one API address record to a {@link VaultAddressInfo}. */
export function toVaultAddressInfo(record: ApiRecord): VaultAddressInfo {
  const address = obj(record.address);
  return compact({
    id: String(record.id),
    vaultId: String(obj(record.vault)?.id),
    name: String(record.name),
    address: String(address?.address),
    addressType: String(address?.address_type),
    chain: String(obj(address?.chain)?.unique_id),
    derivationPath: String(record.derivation_path),
    publicKeyCompressed: str(record.public_key_compressed),
    createdAt: String(record.created_at),
    modifiedAt: str(record.modified_at),
  });
}

/** Lists the addresses of a UTXO vault (every page). */
export function getVaultAddresses(
  args: GetVaultAddressesArgs,
  options?: DataSourceOptions,
): Promise<VaultAddressInfo[]> {
  return named("getVaultAddresses", async () => {
    const client = dataSourceClient(options);
    const query = compact({
      search: args.search,
      addresses: args.addresses,
      address_types: args.addressTypes,
      sort_by: args.sortBy,
    });
    const addresses = client.vaults.addresses.listAll(
      args.vaultId,
      query as Parameters<typeof client.vaults.addresses.listAll>[1],
    );
    return (await collect(addresses, args.maxItems)).map(toVaultAddressInfo);
  });
}

/** {@link getVaultAddresses} taking Inputs and returning an Output. */
export const getVaultAddressesOutput = liftToOutput(getVaultAddresses);
