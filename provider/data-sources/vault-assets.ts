/** Data sources `getVaultAssets` and `getVaultAsset`. */
import { type ApiRecord, collect, compact, num, obj, str } from "./fields";
import { type DataSourceOptions, dataSourceClient, liftToOutput, named } from "./options";

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

/** An asset held by a vault. */
export interface OwnedAsset {
  /** Asset id. */
  assetId: string;
  /** Asset name, e.g. `Ether`. */
  name: string;
  /** Ticker symbol, e.g. `ETH`. */
  symbol: string;
  /** Decimals of the minor unit. */
  decimals: number;
  /** Whether the platform verified the asset. */
  verified: boolean;
  /** Whether it is flagged as spam. */
  isSpam: boolean;
  /** Chain family of the asset identifier (`evm`, `utxo`, …). */
  assetType: string;
  /** Kind within the family: `native`, `erc20`, `spl`, … */
  assetKind: string;
  /** Chain unique id, when the record names it. */
  chain?: string;
  /** Balances in minor units. */
  balances: AssetBalances;
  /** Deprecated single balance (minor units). */
  balance?: string;
  /** Price in minor units of the fiat currency, with its decimals. */
  price?: {
    /** The price in minor units of the fiat currency, as a decimal string. */
    price: string;
    /** The same price in whole fiat units, as a decimal string, e.g. `"3012.45"`. */
    priceFloat: string;
    /** Fiat currency symbol, e.g. `usd`. */
    currency: string;
    /** Decimals of the fiat currency's minor unit (2 for cents). */
    decimals: number;
  };
}

/** Maps one API owned-asset record to an {@link OwnedAsset}. */
export function toOwnedAsset(owned: ApiRecord): OwnedAsset {
  const priced = obj(owned.priced_asset);
  const info = obj(priced?.asset_info);
  const identifier = obj(info?.asset_identifier);
  const details = obj(identifier?.details);
  const balances = obj(owned.balances);
  const price = obj(priced?.price);
  const fiat = obj(price?.fiat_currency);
  const chain =
    str(obj(identifier?.chain)?.unique_id) ?? str(details?.chain) ?? str(obj(details?.token)?.chain);
  return compact({
    assetId: String(info?.id),
    name: String(info?.name),
    symbol: String(info?.symbol),
    decimals: num(info?.decimals) ?? 0,
    verified: info?.verified === true,
    isSpam: info?.is_spam === true,
    assetType: String(identifier?.type),
    assetKind: String(details?.type),
    chain,
    balances: compact({
      totalMined: str(balances?.total_mined),
      totalPendingIncoming: str(balances?.total_pending_incoming),
      availableMined: str(balances?.available_mined),
      availablePendingIncoming: str(balances?.available_pending_incoming),
      frozenMined: str(balances?.frozen_mined),
      frozenPendingIncoming: str(balances?.frozen_pending_incoming),
      mined: str(balances?.mined),
      pendingIncoming: str(balances?.pending_incoming),
    }),
    balance: str(owned.balance),
    price: price
      ? {
          price: String(price.price),
          priceFloat: String(price.price_float),
          currency: String(fiat?.currency_symbol),
          decimals: num(fiat?.decimals) ?? 0,
        }
      : undefined,
  });
}

/** Lists the assets a vault holds (every page). */
export function getVaultAssets(args: GetVaultAssetsArgs, options?: DataSourceOptions): Promise<OwnedAsset[]> {
  return named("getVaultAssets", async () => {
    const client = dataSourceClient(options);
    const query = compact({
      chains: args.chains,
      asset_ids: args.assetIds,
      is_hidden: args.isHidden,
      search: args.search,
      sort_by: args.sortBy,
    });
    const assets = client.vaults.assets.listAll(
      args.vaultId,
      query as Parameters<typeof client.vaults.assets.listAll>[1],
    );
    return (await collect(assets, args.maxItems)).map(toOwnedAsset);
  });
}

/** {@link getVaultAssets} taking Inputs and returning an Output. */
export const getVaultAssetsOutput = liftToOutput(getVaultAssets);

/** Arguments of {@link getVaultAsset}. */
export interface GetVaultAssetArgs {
  /** The vault. */
  vaultId: string;
  /** The asset. */
  assetId: string;
}

/** Reads one asset a vault holds. */
export function getVaultAsset(args: GetVaultAssetArgs, options?: DataSourceOptions): Promise<OwnedAsset> {
  return named("getVaultAsset", async () => {
    const client = dataSourceClient(options);
    return toOwnedAsset((await client.vaults.assets.get(args.vaultId, args.assetId)) as unknown as ApiRecord);
  });
}

/** {@link getVaultAsset} taking Inputs and returning an Output. */
export const getVaultAssetOutput = liftToOutput(getVaultAsset);
