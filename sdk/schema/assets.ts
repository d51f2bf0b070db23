/** Owned assets (spec §4 vault assets; api-fields.md §7.5). */
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
export type Balances = z.infer<typeof Balances>;

export const AssetIdentifier = z.looseObject({
  type: z.string(),
  details: z.looseObject({ type: z.string() }),
  chain: z.looseObject({ chain_type: z.string(), unique_id: ChainUniqueId }).optional(),
});

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
export type AssetInfo = z.infer<typeof AssetInfo>;

export const PricedAsset = z.looseObject({
  type: z.literal("asset_price"),
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

export const OwnedAsset = z.looseObject({
  priced_asset: PricedAsset,
  balances: Balances,
  /** Deprecated single balance, still sent by the real service. */
  balance: DecimalString.optional(),
});
export type OwnedAsset = z.infer<typeof OwnedAsset>;

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
export type ListOwnedAssetsQuery = z.input<typeof ListOwnedAssetsQuery>;
export const ListOwnedAssetsResponse = listEnvelope("owned_assets", OwnedAsset);
export type ListOwnedAssetsResponse = z.infer<typeof ListOwnedAssetsResponse>;

/** `GET /vaults/{id}/assets/{asset_id}` accepts the paging params too (spec §4). */
export const GetOwnedAssetQuery = z.object({ ...pagingQuery() });
export type GetOwnedAssetQuery = z.input<typeof GetOwnedAssetQuery>;
