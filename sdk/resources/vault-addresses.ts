/** `client.vaults.addresses`: addresses of UTXO vaults (`/vaults/{id}/addresses`). */
import { type ListAllOptions, listAllOf } from "../pagination";
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type {
  CreateVaultAddressRequest,
  ListVaultAddressesQuery,
  ListVaultAddressesResponse,
  UtxoVaultAddress,
} from "../schema";
import type { ListAllQuery } from "./list-all-query";

/** Addresses of UTXO vaults. */
export class VaultAddresses {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /** One page of a vault's addresses: `GET /api/v1/vaults/{id}/addresses`. Resolves to `{ …, addresses }`. */
  list(
    vaultId: string,
    query: ListVaultAddressesQuery = {},
    options: CallOptions = {},
  ): Promise<ListVaultAddressesResponse> {
    return this.#pipeline.request("listVaultAddresses", { pathParams: { id: vaultId }, query, ...options });
  }

  /** Every address of the vault matching the filters. */
  listAll(
    vaultId: string,
    query: ListAllQuery<ListVaultAddressesQuery> = {},
    options: ListAllOptions = {},
  ): AsyncGenerator<UtxoVaultAddress, void, undefined> {
    return listAllOf<UtxoVaultAddress>(
      this.#pipeline,
      "listVaultAddresses",
      { pathParams: { id: vaultId }, query },
      options,
    );
  }

  /**
   * Derives (or imports) a new address: `POST /api/v1/vaults/{id}/addresses` → 201.
   *
   * Never retried: a repeat could create a second address. When the outcome is unknown (the error has
   * `outcomeUnknown: true`), list the vault's addresses by name before trying again.
   */
  create(
    vaultId: string,
    body: CreateVaultAddressRequest,
    options: CallOptions = {},
  ): Promise<UtxoVaultAddress> {
    return this.#pipeline.request("createVaultAddress", { pathParams: { id: vaultId }, body, ...options });
  }

  /** Renames an address: `PUT /api/v1/vaults/addresses/{id}/name` → 204. */
  rename(addressId: string, name: string, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("renameVaultAddress", {
      pathParams: { id: addressId },
      body: { name },
      ...options,
    });
  }
}
