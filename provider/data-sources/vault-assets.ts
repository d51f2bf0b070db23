/** Data sources `getVaultAssets` and `getVaultAsset`. */

import {
  type AssetInfo,
  ListOwnedAssetsQuery,
  type OwnedAsset as OwnedAssetRecord,
} from "@pulumi-custody/sdk";
import { z } from "zod";
import { type Projected, project, withoutUndefined } from "../core/field-tables";
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

/** Balances in minor units (decimal strings). Older records have only `mined` and `pendingIncoming`. */
export interface AssetBalances {
  /** Total mined balance. */
  totalMined?: string;
  /** Total incoming, not yet mined. */
  totalPendingIncoming?: string;
  /** Available mined balance. */
  availableMined?: string;
  /** Available incoming, not yet mined. */
  availablePendingIncoming?: string;
  /** Frozen mined balance. */
  frozenMined?: string;
  /** Frozen incoming, not yet mined. */
  frozenPendingIncoming?: string;
  /** Mined balance (older records). */
  mined?: string;
  /** Incoming balance (older records). */
  pendingIncoming?: string;
}

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
  assetId: (owned: OwnedAssetRecord): string => owned.priced_asset.asset_info.id,
  /** Asset name, e.g. `Ether`. */
  name: (owned: OwnedAssetRecord): string => owned.priced_asset.asset_info.name,
  /** Ticker symbol, e.g. `ETH`. */
  symbol: (owned: OwnedAssetRecord): string => owned.priced_asset.asset_info.symbol,
  /** Decimals of the minor unit. */
  decimals: (owned: OwnedAssetRecord): number => owned.priced_asset.asset_info.decimals,
  /** Whether the platform verified the asset. */
  verified: (owned: OwnedAssetRecord): boolean => owned.priced_asset.asset_info.verified,
  /** Whether it is flagged as spam. */
  isSpam: (owned: OwnedAssetRecord): boolean => owned.priced_asset.asset_info.is_spam,
  /** Chain family of the asset identifier (`evm`, `utxo`, …). */
  assetType: (owned: OwnedAssetRecord): string => owned.priced_asset.asset_info.asset_identifier.type,
  /** Kind within the family: `native`, `erc20`, `spl`, … */
  // Exchange assets have no `details`: the field then reads "undefined", as it always has.
  assetKind: (owned: OwnedAssetRecord): string =>
    String(owned.priced_asset.asset_info.asset_identifier.details?.type),
  /** Chain unique id, when the record names it. */
  chain: (owned: OwnedAssetRecord): string | undefined => {
    const identifier = owned.priced_asset.asset_info.asset_identifier;
    return identifier.chain?.unique_id ?? detailsChain(identifier.details);
  },
  /** Balances in minor units. */
  balances: ({ balances }: OwnedAssetRecord): AssetBalances =>
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
  /** Deprecated single balance (minor units). */
  balance: (owned: OwnedAssetRecord): string | undefined => owned.balance,
  /** Price in minor units of the fiat currency, with its decimals. */
  price: (
    owned: OwnedAssetRecord,
  ):
    | {
        /** The price in minor units of the fiat currency, as a decimal string. */
        price: string;
        /** The same price in whole fiat units, as a decimal string, e.g. `"3012.45"`. */
        priceFloat: string;
        /** Fiat currency symbol, e.g. `usd`. */
        currency: string;
        /** Decimals of the fiat currency's minor unit (2 for cents). */
        decimals: number;
      }
    | undefined => {
    const price = owned.priced_asset.price;
    if (!price) return undefined;
    return {
      price: price.price,
      priceFloat: price.price_float,
      currency: price.fiat_currency.currency_symbol,
      decimals: price.fiat_currency.decimals,
    };
  },
};

/** An asset held by a vault. */
export interface OwnedAssetInfo extends Projected<typeof ownedAssetFields> {}

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
