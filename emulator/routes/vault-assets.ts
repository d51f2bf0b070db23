/** Owned assets of a vault. Default order: the order assets were added. */
import { notFound } from "../api-error";
import { findAsset } from "../seed/assets";
import { findChain } from "../seed/chains";
import { matches, sortItems } from "../state/list-query";
import type { OwnedAssetRecord } from "../state/types";
import { listResult } from "./list-result";
import type { Handlers } from "./types";
import { requireVault } from "./vaults";

type Row = { created_at: string; owned: OwnedAssetRecord };

function marketValue(owned: OwnedAssetRecord): number | undefined {
  const asset = findAsset(owned.asset_id)!;
  if (asset.priceUsd === undefined) return undefined;
  return (Number(owned.balances.total_mined) / 10 ** asset.info.decimals) * Number(asset.priceUsd);
}

export const vaultAssetHandlers: Pick<Handlers, "listVaultAssets" | "getVaultAsset"> = {
  listVaultAssets(ctx) {
    const { store, views } = ctx.emulator;
    const vault = requireVault(ctx, ctx.params.id);
    const q = ctx.query;
    const chains = q.chains?.map((c) => findChain(c)?.unique_id ?? c);
    const search = q.search?.toLowerCase();
    const rows: Row[] = store
      .ownedAssetsOf(vault.id)
      // No timestamps: the stable sort keeps the order the assets were added for ties.
      .map((owned) => ({ created_at: "", owned }))
      .filter(({ owned }) => {
        const asset = findAsset(owned.asset_id)!;
        return (
          matches(chains, asset.chainUniqueId) &&
          matches(q.asset_ids, owned.asset_id) &&
          (q.is_hidden === undefined || owned.is_hidden === q.is_hidden) &&
          (!search ||
            asset.info.name.toLowerCase().includes(search) ||
            asset.info.symbol.toLowerCase().includes(search))
        );
      });
    const sorted = sortItems(rows, q.sort_by, {
      asset_name: (r) => findAsset(r.owned.asset_id)!.info.name,
      chain_identifier: (r) => findAsset(r.owned.asset_id)!.chainUniqueId,
      balance: (r) => BigInt(r.owned.balances.total_mined),
      market_value: (r) => marketValue(r.owned),
      price: (r) => {
        const price = findAsset(r.owned.asset_id)!.priceUsd;
        return price === undefined ? undefined : Number(price);
      },
    });
    return listResult("owned_assets", sorted, q, (r) => views.ownedAsset(r.owned));
  },

  getVaultAsset(ctx) {
    const { store, views } = ctx.emulator;
    const vault = requireVault(ctx, ctx.params.id);
    const owned = store.ownedAssetsOf(vault.id).find((o) => o.asset_id === ctx.params.asset_id);
    if (!owned) throw notFound("asset", ctx.params.asset_id);
    return { status: 200, body: views.ownedAsset(owned) };
  },
};
