/** `client.vaults.assets`: the assets a vault holds (`/vaults/{id}/assets`). */
import { type ListAllOptions, listAllOf } from "../pagination";
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type {
  GetOwnedAssetQuery,
  ListOwnedAssetsQuery,
  ListOwnedAssetsResponse,
  OwnedAsset,
} from "../schema";
import type { ListAllQuery } from "./list-all-query";

/** Owned assets of vaults. */
export class VaultAssets {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /** One page of a vault's assets: `GET /api/v1/vaults/{id}/assets`. Resolves to `{ …, owned_assets }`. */
  list(
    vaultId: string,
    query: ListOwnedAssetsQuery = {},
    options: CallOptions = {},
  ): Promise<ListOwnedAssetsResponse> {
    return this.#pipeline.request("listVaultAssets", { pathParams: { id: vaultId }, query, ...options });
  }

  /** Every asset of the vault matching the filters. */
  listAll(
    vaultId: string,
    query: ListAllQuery<ListOwnedAssetsQuery> = {},
    options: ListAllOptions = {},
  ): AsyncGenerator<OwnedAsset, void, undefined> {
    return listAllOf<OwnedAsset>(
      this.#pipeline,
      "listVaultAssets",
      { pathParams: { id: vaultId }, query },
      options,
    );
  }

  /** One asset of a vault: `GET /api/v1/vaults/{id}/assets/{asset_id}`. */
  get(
    vaultId: string,
    assetId: string,
    query: GetOwnedAssetQuery = {},
    options: CallOptions = {},
  ): Promise<OwnedAsset> {
    return this.#pipeline.request("getVaultAsset", {
      pathParams: { id: vaultId, asset_id: assetId },
      query,
      ...options,
    });
  }
}
