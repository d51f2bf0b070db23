/** Owned assets (docs/api-notes.md, "Assets and balances"). */
import { z } from "zod";
import {
  ChainUniqueId,
  DecimalString,
  listEnvelope,
  pagingQuery,
  queryArray,
  queryBool,
  Uuid,
} from "./common";
import { OwnedAssetsSortableFields } from "./enums";
import { openLiteral } from "./open";

/**
 * `Balances`. The published shape has six `*_mined`/`*_pending_incoming` fields; real traffic from late 2024
 * shows an older `{mined, pending_incoming}`. Every field is optional so both parse.
 */
export const Balances = z.looseObject({
  total_mined: DecimalString.optional(),
  total_pending_incoming: DecimalString.optional(),
  available_mined: DecimalString.optional(),
  available_pending_incoming: DecimalString.optional(),
  frozen_mined: DecimalString.optional(),
  frozen_pending_incoming: DecimalString.optional(),
  trustline_limit: z.string().optional(),
  is_auto_approved: z.boolean().optional(),
  mined: DecimalString.optional(),
  pending_incoming: DecimalString.optional(),
});
/** Balances of one asset in a vault; amounts are decimal strings in the asset's minor unit. */
export type Balances = z.infer<typeof Balances>;

/**
 * `AssetIdentifier`: which asset, a union on `type` (the chain family) whose `details` name the native coin
 * or a token on a chain, e.g. `{ type: "native", chain: "evm_1" }`.
 */
export const AssetIdentifier = z.looseObject({
  type: z.string(),
  /** Absent for an exchange asset, which is named by `exchange_type` and `asset_symbol` instead. */
  details: z.looseObject({ type: z.string() }).optional(),
  chain: z.looseObject({ chain_type: z.string(), unique_id: ChainUniqueId }).optional(),
});

/**
 * `AssetInfo`: an asset's identity and display data; `decimals` converts minor-unit amounts to whole units.
 */
export const AssetInfo = z.looseObject({
  id: Uuid,
  asset_identifier: AssetIdentifier,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0),
  verified: z.boolean(),
  metadata_uri: z.string().optional(),
  is_spam: z.boolean(),
  logo_url: z.string().optional(),
  explorer_url: z.string().optional(),
});
/** An asset's identity and display data. */
export type AssetInfo = z.infer<typeof AssetInfo>;

/**
 * `PricedAsset`: an asset with its current fiat `price` when known (`price` in the fiat currency's minor unit
 * with `fiat_currency.decimals`, `price_float` as a decimal string).
 */
export const PricedAsset = z.looseObject({
  type: openLiteral("asset_price"),
  asset_info: AssetInfo,
  price: z
    .looseObject({
      price: DecimalString,
      price_float: z.string(),
      is_negative: z.boolean().optional(),
      fiat_currency: z.looseObject({ currency_symbol: z.string(), decimals: z.number().int() }),
    })
    .optional(),
});

/**
 * `OwnedAsset` (= `GetOwnedAssetResponse`): an asset held in a vault, with its price and balances.
 */
export const OwnedAsset = z.looseObject({
  priced_asset: PricedAsset,
  balances: Balances,
  /** Deprecated single balance, still sent by the real service. */
  balance: DecimalString.optional(),
});
/** An asset held in a vault. */
export type OwnedAsset = z.infer<typeof OwnedAsset>;

/** Query of `GET /vaults/{id}/assets`: paging, sort order and filters. */
export const ListOwnedAssetsQuery = z.object({
  ...pagingQuery(),
  /** Only assets on these chains. */
  chains: queryArray(ChainUniqueId),
  /** Only these asset ids. */
  asset_ids: queryArray(Uuid),
  /** Only hidden (true) or only visible (false) assets. */
  is_hidden: queryBool(),
  /** Substring search over asset name and symbol. */
  search: z.string().optional(),
  /** Sort order. */
  sort_by: queryArray(OwnedAssetsSortableFields),
});
/** Query parameters of `GET /vaults/{id}/assets`, as the client accepts them. */
export type ListOwnedAssetsQuery = z.input<typeof ListOwnedAssetsQuery>;
/** `ListOwnedAssetsResponse`: one page of a vault's assets, `{ total, page, size, owned_assets }`. */
export const ListOwnedAssetsResponse = listEnvelope("owned_assets", OwnedAsset);
/** One page of `GET /vaults/{id}/assets`. */
export type ListOwnedAssetsResponse = z.infer<typeof ListOwnedAssetsResponse>;

/** `GET /vaults/{id}/assets/{asset_id}` accepts the paging params too (docs/api-notes.md, "Paging"). */
export const GetOwnedAssetQuery = z.object({ ...pagingQuery() });
/** Query parameters of `GET /vaults/{id}/assets/{asset_id}`. */
export type GetOwnedAssetQuery = z.input<typeof GetOwnedAssetQuery>;
