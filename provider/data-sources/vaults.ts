/** Data sources `getVaults`, `getVault` and `exportVaultBalances`. */
import { liveVaultGroupIds, mainAddress } from "../runtime/vault-outputs";
import { type ApiRecord, arr, bool, collect, compact, num, obj, str } from "./fields";
import {
  type DataSourceOptions,
  dataSourceClient,
  liftToOutput,
  liftToOutputOptional,
  named,
} from "./options";
import { type OwnedAsset, toOwnedAsset } from "./vault-assets";

/** Filters of {@link getVaults} (`GET /vaults`). */
export interface GetVaultsArgs {
  /** Only these vault ids. */
  vaultIds?: string[];
  /** Only vaults with these full names. */
  names?: string[];
  /** Only these vault types. */
  vaultTypes?: string[];
  /** Only vaults in these states: `active`, `archived`, `deleted`, `pending`, `aborted`. */
  vaultStates?: string[];
  /** Only vaults whose key is held by these users. */
  keyHolderIds?: string[];
  /** Only vaults in (or pending addition to) these vault groups. */
  vaultGroupIds?: string[];
  /** Exclude vaults in these vault groups. */
  excludeVaultGroupIds?: string[];
  /** Exclude these vault ids. */
  excludeVaultIds?: string[];
  /** Only `native` or only `imported` vaults. */
  originType?: "native" | "imported";
  /** Only vaults with these account addresses. */
  accountAddresses?: string[];
  /** Fill `nativeAssets` with the positive native balances on these chains. */
  positiveNativeBalanceChainIds?: string[];
  /** Sort order, e.g. `["name_asc"]`. */
  sortBy?: string[];
  /** Stop after this many vaults; all of them when unset. */
  maxItems?: number;
}

/** A vault as the data sources report it (read-only; see the `Vault` resource to manage one). */
export interface VaultInfo {
  /** Vault id. */
  id: string;
  /** Name. */
  name: string;
  /** Vault type. */
  type: string;
  /** Lifecycle state. */
  state: string;
  /** Main address, for types that have one (see `Vault.address`). */
  address?: string;
  /** UTXO chain unique id (utxo vaults). */
  chain?: string;
  /** Key type (black_box vaults). */
  keyType?: string;
  /** Exchange (exchange vaults). */
  exchangeType?: string;
  /** Creation time (ISO-8601). */
  createdAt: string;
  /** Last modification time (ISO-8601). */
  modifiedAt: string;
  /** Vault groups it belongs to. */
  vaultGroupIds: string[];
  /** The same vault groups with their names; the API has no endpoint that lists vault groups. */
  vaultGroups: VaultGroupInfo[];
  /** Base64 public key (MPC vaults). */
  publicKeyCompressed?: string;
  /** BIP-32 derivation path (MPC vaults). */
  derivationPath?: string;
  /** `native` or `imported`. */
  originType?: string;
  /** End user holding the key, if any. */
  keyHolderId?: string;
  /** Whether an external signer holds the key. */
  isExternalSigner?: boolean;
  /** Name of the default address (utxo vaults). */
  defaultAddressName?: string;
  /** Positive native balances, when `positiveNativeBalanceChainIds` was given. */
  nativeAssets?: OwnedAsset[];
}

/** A vault group a vault belongs to. */
export interface VaultGroupInfo {
  /** Vault group id. */
  id: string;
  /** Vault group name. */
  name: string;
}

/** The vault groups of a vault record, with names (older records carry a single `vault_group`). */
function liveVaultGroups(vault: ApiRecord): VaultGroupInfo[] {
  const groups = Array.isArray(vault.vault_groups) ? vault.vault_groups : [vault.vault_group];
  return groups
    .map((g) => obj(g))
    .filter((g): g is ApiRecord => g !== undefined && str(g.id) !== undefined)
    .map((g) => ({ id: String(g.id), name: str(g.name) ?? "" }));
}

/** Maps one API vault record to a {@link VaultInfo}. */
export function toVaultInfo(vault: ApiRecord): VaultInfo {
  const derivation = obj(vault.derivation_info);
  return compact({
    id: String(vault.id),
    name: String(vault.name),
    type: String(vault.type),
    state: String(vault.state),
    address: mainAddress(vault),
    chain: vault.type === "utxo" ? str(obj(vault.chain)?.unique_id) : undefined,
    keyType: vault.type === "black_box" ? str(obj(vault.details)?.type) : undefined,
    exchangeType: str(vault.exchange_type),
    createdAt: String(vault.created_at),
    modifiedAt: String(vault.modified_at),
    vaultGroupIds: liveVaultGroupIds(vault) ?? [],
    vaultGroups: liveVaultGroups(vault),
    publicKeyCompressed: str(vault.public_key_compressed),
    derivationPath: str(derivation?.derivation_path) ?? str(vault.derivation_path),
    originType: str(vault.origin_type),
    keyHolderId: str(obj(vault.key_holder)?.id),
    isExternalSigner: bool(vault.is_external_signer),
    defaultAddressName: str(obj(vault.default_address)?.name),
    nativeAssets: Array.isArray(vault.native_assets)
      ? arr(vault.native_assets).map((a) => toOwnedAsset(obj(a) ?? {}))
      : undefined,
  });
}

/** Lists vaults (every page). */
export function getVaults(args: GetVaultsArgs = {}, options?: DataSourceOptions): Promise<VaultInfo[]> {
  return named("getVaults", async () => {
    const client = dataSourceClient(options);
    const query = compact({
      vault_ids: args.vaultIds,
      names: args.names,
      vault_types: args.vaultTypes,
      vault_states: args.vaultStates,
      key_holder_ids: args.keyHolderIds,
      vault_group_ids: args.vaultGroupIds,
      exclude_vault_group_ids: args.excludeVaultGroupIds,
      exclude_vault_ids: args.excludeVaultIds,
      origin_type: args.originType,
      account_addresses: args.accountAddresses,
      positive_native_balance_chain_ids: args.positiveNativeBalanceChainIds,
      sort_by: args.sortBy,
    });
    const vaults = client.vaults.listAll(query as Parameters<typeof client.vaults.listAll>[0]);
    return (await collect(vaults, args.maxItems)).map(toVaultInfo);
  });
}

/** {@link getVaults} taking Inputs and returning an Output. */
export const getVaultsOutput = liftToOutputOptional(getVaults);

/** Arguments of {@link getVault}: exactly one of `id` and `name`. */
export interface GetVaultArgs {
  /** Vault id. */
  id?: string;
  /** Full vault name; matches the one vault of that name that is not archived. */
  name?: string;
}

/** Reads one vault, by id or by name. */
export function getVault(args: GetVaultArgs, options?: DataSourceOptions): Promise<VaultInfo> {
  return named("getVault", async () => {
    if ((args.id === undefined) === (args.name === undefined)) {
      throw new Error("give exactly one of `id` and `name`");
    }
    const client = dataSourceClient(options);
    if (args.id !== undefined) return toVaultInfo((await client.vaults.get(args.id)) as unknown as ApiRecord);
    const page = await client.vaults.list({
      names: [args.name as string],
      vault_states: ["active", "pending"],
    });
    const matches = (page.vaults as unknown as ApiRecord[]).filter((v) => v.name === args.name);
    if (matches.length === 0) throw new Error(`no vault named "${args.name}" (active or pending)`);
    return toVaultInfo(matches[0] as ApiRecord);
  });
}

/** {@link getVault} taking Inputs and returning an Output. */
export const getVaultOutput = liftToOutput(getVault);

/** Arguments of {@link exportVaultBalances} (`GET /vaults/export_async`). */
export interface ExportVaultBalancesArgs {
  /** Number of vault/asset pairs to export; unlimited when unset. */
  limit?: number;
  /** Only these vaults. */
  vaultIds?: string[];
  /** Only these vault types. */
  vaultTypes?: string[];
}

/** An asynchronous CSV export of vault balances. */
export interface BalanceExport {
  /** Export id. */
  id: string;
  /** When it was requested (ISO-8601). */
  creationTime: string;
  /** File type: `csv` or `zip`. */
  type: string;
  /** `created`, `in_progress`, `aborted`, `ready` or `error`. */
  state: string;
  /** Where to download the file once ready. */
  downloadUrl: string;
  /** When the download link expires (ISO-8601). */
  expirationTime: string;
  /** Items exported so far. */
  successfulItemsCount: number;
  /** Items that failed. */
  failedItemsCount: number;
  /** Items to export. */
  totalItemsCount: number;
  /** Kind of export (`vault`). */
  resourceType: string;
  /** Request id, to quote to support. */
  requestId: string;
}

/** Maps the API's export record to a {@link BalanceExport}. */
export function toBalanceExport(record: ApiRecord): BalanceExport {
  return {
    id: String(record.id),
    creationTime: String(record.creation_time),
    type: String(record.type),
    state: String(record.state),
    downloadUrl: String(record.download_url),
    expirationTime: String(record.expiration_time),
    successfulItemsCount: num(record.successful_items_count) ?? 0,
    failedItemsCount: num(record.failed_items_count) ?? 0,
    totalItemsCount: num(record.total_items_count) ?? 0,
    resourceType: String(record.resource_type),
    requestId: String(record.request_id),
  };
}

/** Starts a balance export; `undefined` when there is nothing to export (204). */
export function exportVaultBalances(
  args: ExportVaultBalancesArgs = {},
  options?: DataSourceOptions,
): Promise<BalanceExport | undefined> {
  return named("exportVaultBalances", async () => {
    const client = dataSourceClient(options);
    const result = await client.vaults.exportBalances(
      compact({ limit: args.limit, vaults_ids: args.vaultIds, vault_types: args.vaultTypes }) as Parameters<
        typeof client.vaults.exportBalances
      >[0],
    );
    return result ? toBalanceExport(result as unknown as ApiRecord) : undefined;
  });
}

/** {@link exportVaultBalances} taking Inputs and returning an Output. */
export const exportVaultBalancesOutput = liftToOutputOptional(exportVaultBalances);
