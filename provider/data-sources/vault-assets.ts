/** Data sources `getVaultAssets` and `getVaultAsset`. */

import {
  type AssetInfo,
  ListOwnedAssetsQuery,
  type OwnedAsset as OwnedAssetRecord,
} from "@pulumi-custody/sdk";
import { z } from "zod";
import { field, type Projected, project, tableType, withoutUndefined } from "../core/field-tables";
import { type DataSourceEntry, getDataSource, listDataSource } from "./define";

/** Filters of {@link getVaultAssets} (`GET /vaults/{id}/assets`). */
export interface GetVaultAssetsArgs {
  /** The vault. */
  vaultId: string;
  /** Only assets on these chains (chain unique ids). */
  chains?: string[];
  /** Only these asset ids. */
  assetIds?: string[];
  /** Only hidden (true) or only visible (false) assets. */
  isHidden?: boolean;
  /** Substring search over asset name and symbol. */
  search?: string;
  /** Sort order, e.g. `["balance_desc"]`. */
  sortBy?: string[];
  /** Stop after this many assets; all of them when unset. */
  maxItems?: number;
}

/** The shape of {@link AssetBalances}. */
const assetBalances = z.object({
  /** Total mined balance. */
  totalMined: z.string().optional(),
  /** Total incoming, not yet mined. */
  totalPendingIncoming: z.string().optional(),
  /** Available mined balance. */
  availableMined: z.string().optional(),
  /** Available incoming, not yet mined. */
  availablePendingIncoming: z.string().optional(),
  /** Frozen mined balance. */
  frozenMined: z.string().optional(),
  /** Frozen incoming, not yet mined. */
  frozenPendingIncoming: z.string().optional(),
  /** Mined balance (older records). */
  mined: z.string().optional(),
  /** Incoming balance (older records). */
  pendingIncoming: z.string().optional(),
});

/** Balances in minor units (decimal strings). Older records have only `mined` and `pendingIncoming`. */
export interface AssetBalances extends z.output<typeof assetBalances> {}

/** The shape of an asset's price. */
const assetPrice = z.object({
  /** The price in minor units of the fiat currency, as a decimal string. */
  price: z.string(),
  /** The same price in whole fiat units, as a decimal string, e.g. `"3012.45"`. */
  priceFloat: z.string(),
  /** Fiat currency symbol, e.g. `usd`. */
  currency: z.string(),
  /** Decimals of the fiat currency's minor unit (2 for cents). */
  decimals: z.number(),
});

/** An asset's `details`: its `type` is typed, the rest is as the API sends it. */
type AssetDetails = AssetInfo["asset_identifier"]["details"];

/** The chain that an asset's `details` name, as `chain` or `token.chain` (fields the sdk leaves untyped). */
function detailsChain(details: AssetDetails): string | undefined {
  if (typeof details?.chain === "string") return details.chain;
  const token = details?.token;
  return typeof token === "object" && token !== null && "chain" in token && typeof token.chain === "string"
    ? token.chain
    : undefined;
}

/** What the asset data sources show, read from the sdk's record. */
const ownedAssetFields = {
  /** Asset id. */
  assetId: field(z.string(), (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.id),
  /** Asset name, e.g. `Ether`. */
  name: field(z.string(), (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.name),
  /** Ticker symbol, e.g. `ETH`. */
  symbol: field(z.string(), (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.symbol),
  /** Decimals of the minor unit. */
  decimals: field(z.number(), (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.decimals),
  /** Whether the platform verified the asset. */
  verified: field(z.boolean(), (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.verified),
  /** Whether it is flagged as spam. */
  isSpam: field(z.boolean(), (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.is_spam),
  /** Chain family of the asset identifier (`evm`, `utxo`, …). */
  assetType: field(
    z.string(),
    (owned: OwnedAssetRecord) => owned.priced_asset.asset_info.asset_identifier.type,
  ),
  /** Kind within the family: `native`, `erc20`, `spl`, … */
  // Exchange assets have no `details`: the field then reads "undefined", as it always has.
  assetKind: field(z.string(), (owned: OwnedAssetRecord) =>
    String(owned.priced_asset.asset_info.asset_identifier.details?.type),
  ),
  /** Chain unique id, when the record names it. */
  chain: field(z.string().optional(), (owned: OwnedAssetRecord) => {
    const identifier = owned.priced_asset.asset_info.asset_identifier;
    return identifier.chain?.unique_id ?? detailsChain(identifier.details);
  }),
  /** Balances in minor units. */
  balances: field(assetBalances, ({ balances }: OwnedAssetRecord) =>
    withoutUndefined({
      totalMined: balances.total_mined,
      totalPendingIncoming: balances.total_pending_incoming,
      availableMined: balances.available_mined,
      availablePendingIncoming: balances.available_pending_incoming,
      frozenMined: balances.frozen_mined,
      frozenPendingIncoming: balances.frozen_pending_incoming,
      mined: balances.mined,
      pendingIncoming: balances.pending_incoming,
    }),
  ),
  /** Deprecated single balance (minor units). */
  balance: field(z.string().optional(), (owned: OwnedAssetRecord) => owned.balance),
  /** Price in minor units of the fiat currency, with its decimals. */
  price: field(assetPrice.optional(), (owned: OwnedAssetRecord) => {
    const price = owned.priced_asset.price;
    if (!price) return undefined;
    return {
      price: price.price,
      priceFloat: price.price_float,
      currency: price.fiat_currency.currency_symbol,
      decimals: price.fiat_currency.decimals,
    };
  }),
};

/** An asset held by a vault. */
export interface OwnedAssetInfo extends Projected<typeof ownedAssetFields> {}

/** The type of an {@link OwnedAssetInfo}, for the fields that hold assets (a vault's `nativeAssets`). */
export const ownedAssetInfo = tableType(ownedAssetFields);

/** Maps one API owned-asset record to an {@link OwnedAssetInfo}. */
export function toOwnedAsset(owned: OwnedAssetRecord): OwnedAssetInfo {
  return project(ownedAssetFields, owned);
}

const vaultAssets = listDataSource<GetVaultAssetsArgs, typeof ListOwnedAssetsQuery>(ListOwnedAssetsQuery)({
  name: "getVaultAssets",
  callArgs: ({ vaultId }: GetVaultAssetsArgs) => ({ vaultId }),
  callArgTypes: { vaultId: z.string().describe("Vault id.") },
  fields: ownedAssetFields,
  query: {
    chains: "chains",
    assetIds: "asset_ids",
    isHidden: "is_hidden",
    search: "search",
    sortBy: "sort_by",
  },
  list: (client, { vaultId, query }) => client.vaults.assets.listAll(vaultId, query),
  map: toOwnedAsset,
});

/** Lists the assets a vault holds (every page). @function */
export const getVaultAssets = vaultAssets.run;

/** {@link getVaultAssets} taking Inputs and returning an Output. */
export const getVaultAssetsOutput = vaultAssets.output;

/** Arguments of {@link getVaultAsset}. */
export interface GetVaultAssetArgs {
  /** The vault. */
  vaultId: string;
  /** The asset. */
  assetId: string;
}

const vaultAsset = getDataSource<GetVaultAssetArgs>()({
  name: "getVaultAsset",
  callArgs: ({ vaultId, assetId }: GetVaultAssetArgs) => ({ vaultId, assetId }),
  callArgTypes: { vaultId: z.string().describe("Vault id."), assetId: z.string().describe("Asset id.") },
  fields: ownedAssetFields,
  query: {},
  get: (client, { vaultId, assetId }) => client.vaults.assets.get(vaultId, assetId),
  map: toOwnedAsset,
});

/** Reads one asset a vault holds. @function */
export const getVaultAsset = vaultAsset.run;

/** {@link getVaultAsset} taking Inputs and returning an Output. */
export const getVaultAssetOutput = vaultAsset.output;

/** The data sources of this module, for the registry (`./index.ts`). */
export const vaultAssetDataSources: readonly DataSourceEntry[] = [vaultAssets, vaultAsset];
