/** Data sources `getVaults`, `getVault` and `exportVaultBalances`. */

import {
  type CustodyClient,
  type Export,
  ExportVaultsQuery,
  isModelledVault,
  ListVaultsQuery,
  type Vault,
} from "@pulumi-custody/sdk";
import { z } from "zod";
import { field, type Projected, project } from "../core/field-tables";
import { keyHolder, liveVaultGroupIds, vaultDetailFields, vaultFields } from "../core/vault/fields";
import { type DataSourceEntry, getDataSource, listDataSource, type QueryOf } from "./define";
import { ownedAssetInfo, toOwnedAsset } from "./vault-assets";

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

/** The shape of a {@link VaultGroupInfo}. */
const vaultGroupInfo = z.object({
  /** Vault group id. */
  id: z.string(),
  /** Vault group name. */
  name: z.string(),
});

/** A vault group a vault belongs to. */
export interface VaultGroupInfo extends z.output<typeof vaultGroupInfo> {}

/** The vault groups of a vault record, with names (older records carry a single `vault_group`). */
function liveVaultGroups(vault: Vault): VaultGroupInfo[] {
  const groups = vault.vault_groups ?? (vault.vault_group ? [vault.vault_group] : []);
  return groups.map((group) => ({ id: group.id, name: group.name }));
}

/** What the vault data sources show: every field the `Vault` resource shows, and a few more. */
const vaultInfoFields = {
  /** Vault id. */
  id: field(z.string(), (vault: Vault) => vault.id),
  ...vaultFields,
  ...vaultDetailFields,
  /** Exchange (exchange vaults). */
  exchangeType: field(z.string().optional(), (vault: Vault) =>
    isModelledVault(vault) && vault.type === "exchange" ? vault.exchange_type : undefined,
  ),
  /** Vault groups it belongs to. */
  vaultGroupIds: field(z.array(z.string()), (vault: Vault) => liveVaultGroupIds(vault) ?? []),
  /** The same vault groups with their names; the API has no endpoint that lists vault groups. */
  vaultGroups: field(z.array(vaultGroupInfo), liveVaultGroups),
  /** UserInfo holding the key, if any. */
  keyHolderId: field(z.string().optional(), (vault: Vault) => keyHolder(vault)?.id),
  /** Whether an external signer holds the key. */
  isExternalSigner: field(z.boolean().optional(), (vault: Vault) => vault.is_external_signer),
  /** Positive native balances, when `positiveNativeBalanceChainIds` was given. */
  nativeAssets: field(z.array(ownedAssetInfo).optional(), (vault: Vault) =>
    vault.native_assets?.map(toOwnedAsset),
  ),
};

/** A vault as the data sources report it (read-only; see the `Vault` resource to manage one). */
export interface VaultInfo extends Projected<typeof vaultInfoFields> {}

/** Maps one API vault record to a {@link VaultInfo}. */
function toVaultInfo(vault: Vault): VaultInfo {
  return project(vaultInfoFields, vault);
}

const vaults = listDataSource<GetVaultsArgs, typeof ListVaultsQuery>(ListVaultsQuery)({
  name: "getVaults",
  query: {
    vaultIds: "vault_ids",
    names: "names",
    vaultTypes: "vault_types",
    vaultStates: "vault_states",
    keyHolderIds: "key_holder_ids",
    vaultGroupIds: "vault_group_ids",
    excludeVaultGroupIds: "exclude_vault_group_ids",
    excludeVaultIds: "exclude_vault_ids",
    originType: "origin_type",
    accountAddresses: "account_addresses",
    positiveNativeBalanceChainIds: "positive_native_balance_chain_ids",
    sortBy: "sort_by",
  },
  whenNoArgs: {},
  fields: vaultInfoFields,
  list: (client, { query }) => client.vaults.listAll(query),
  map: toVaultInfo,
});

/** Lists vaults (every page). @function */
export const getVaults = vaults.run;

/** {@link getVaults} taking Inputs and returning an Output. */
export const getVaultsOutput = vaults.output;

/** Arguments of {@link getVault}: exactly one of `id` and `name`. */
export interface GetVaultArgs {
  /** Vault id. */
  id?: string;
  /** Full vault name; matches the one vault of that name that is not archived. */
  name?: string;
}

/** The vault that {@link getVault} reads: by `id` or by `name`, exactly one of them. */
function vaultKey({ id, name }: GetVaultArgs): { id: string } | { name: string } {
  if (id !== undefined && name === undefined) return { id };
  if (name !== undefined && id === undefined) return { name };
  throw new Error("give exactly one of `id` and `name`");
}

/** The vault of that name that is not archived. */
async function vaultNamed(client: CustodyClient, name: string): Promise<Vault> {
  const query: QueryOf<typeof ListVaultsQuery> = { names: [name], vault_states: ["active", "pending"] };
  const match = (await client.vaults.list(query)).vaults.find((vault) => vault.name === name);
  if (!match) throw new Error(`no vault named "${name}" (active or pending)`);
  return match;
}

const vault = getDataSource<GetVaultArgs>()({
  name: "getVault",
  callArgs: vaultKey,
  callArgTypes: {
    id: z.string().optional().describe("Vault id; give exactly one of `id` and `name`."),
    name: z
      .string()
      .optional()
      .describe("Full vault name; matches the one vault of that name that is not archived."),
  },
  fields: vaultInfoFields,
  query: {},
  get: (client, key) => ("id" in key ? client.vaults.get(key.id) : vaultNamed(client, key.name)),
  map: toVaultInfo,
});

/** Reads one vault, by id or by name. @function */
export const getVault = vault.run;

/** {@link getVault} taking Inputs and returning an Output. */
export const getVaultOutput = vault.output;

/** Arguments of {@link exportVaultBalances} (`GET /vaults/export_async`). */
export interface ExportVaultBalancesArgs {
  /** Number of vault/asset pairs to export; unlimited when unset. */
  limit?: number;
  /** Only these vaults. */
  vaultIds?: string[];
  /** Only these vault types. */
  vaultTypes?: string[];
}

/** The fields of a {@link BalanceExport}, read from the API's export record. */
const balanceExportFields = {
  /** Export id. */
  id: field(z.string(), (record: Export) => record.id),
  /** When it was requested (ISO-8601). */
  creationTime: field(z.string(), (record: Export) => record.creation_time),
  /** File type: `csv` or `zip`. */
  type: field(z.string(), (record: Export) => record.type),
  /** `created`, `in_progress`, `aborted`, `ready` or `error`. */
  state: field(z.string(), (record: Export) => record.state),
  /** Where to download the file once ready. */
  downloadUrl: field(z.string(), (record: Export) => record.download_url),
  /** When the download link expires (ISO-8601). */
  expirationTime: field(z.string(), (record: Export) => record.expiration_time),
  /** Items exported so far. */
  successfulItemsCount: field(z.number(), (record: Export) => record.successful_items_count),
  /** Items that failed. */
  failedItemsCount: field(z.number(), (record: Export) => record.failed_items_count),
  /** Items to export. */
  totalItemsCount: field(z.number(), (record: Export) => record.total_items_count),
  /** Kind of export (`vault`). */
  resourceType: field(z.string(), (record: Export) => record.resource_type),
  /** Request id, to quote to support. */
  requestId: field(z.string(), (record: Export) => record.request_id),
};

/** An asynchronous CSV export of vault balances. */
export interface BalanceExport extends Projected<typeof balanceExportFields> {}

/** Maps the API's export record to a {@link BalanceExport}. */
function toBalanceExport(record: Export): BalanceExport {
  return project(balanceExportFields, record);
}

const balanceExport = getDataSource<ExportVaultBalancesArgs, typeof ExportVaultsQuery>(ExportVaultsQuery)({
  name: "exportVaultBalances",
  query: { limit: "limit", vaultIds: "vaults_ids", vaultTypes: "vault_types" },
  whenNoArgs: {},
  fields: balanceExportFields,
  get: (client, { query }) => client.vaults.exportBalances(query),
  map: (record) => (record === undefined ? undefined : toBalanceExport(record)),
});

/** Starts a balance export; `undefined` when there is nothing to export (204). @function */
export const exportVaultBalances = balanceExport.run;

/** {@link exportVaultBalances} taking Inputs and returning an Output. */
export const exportVaultBalancesOutput = balanceExport.output;

/** The data sources of this module, for the registry (`./index.ts`). */
export const vaultDataSources: readonly DataSourceEntry[] = [vaults, vault, balanceExport];
