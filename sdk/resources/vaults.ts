/** `client.vaults`: vaults and their lifecycle. */
import { type ListAllOptions, listAllOf } from "../pagination";
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type {
  CreateVaultRequest,
  Export,
  ExportVaultsQuery,
  ListVaultsQuery,
  ListVaultsResponse,
  SubmitUpdateVaultChangeProposalRequest,
  Vault,
} from "../schema";
import type { ListAllQuery } from "./list-all-query";
import { VaultAddresses } from "./vault-addresses";
import { VaultAssets } from "./vault-assets";

/** Vaults (a union on `type`), with `assets` and `addresses` sub-namespaces. */
export class Vaults {
  /** The assets held in a vault. */
  readonly assets: VaultAssets;
  /** The addresses of a UTXO vault. */
  readonly addresses: VaultAddresses;
  readonly #pipeline: RequestPipeline;

  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
    this.assets = new VaultAssets(pipeline);
    this.addresses = new VaultAddresses(pipeline);
  }

  /** One page of vaults: `GET /api/v1/vaults`. Resolves to `{ total, page, size, vaults }`. */
  list(query: ListVaultsQuery = {}, options: CallOptions = {}): Promise<ListVaultsResponse> {
    return this.#pipeline.request("listVaults", { query, ...options });
  }

  /** Every vault matching the filters. */
  listAll(
    query: ListAllQuery<ListVaultsQuery> = {},
    options: ListAllOptions = {},
  ): AsyncGenerator<Vault, void, undefined> {
    return listAllOf<Vault>(this.#pipeline, "listVaults", { query }, options);
  }

  /** One vault: `GET /api/v1/vaults/{id}`. @throws {CustodyNotFoundError} when there is none. */
  get(id: string, options: CallOptions = {}): Promise<Vault> {
    return this.#pipeline.request("getVault", { pathParams: { id }, ...options });
  }

  /**
   * Creates a vault: `POST /api/v1/vaults` → 201 with the vault.
   *
   * Never retried: the endpoint takes no idempotency key, so a repeat could create a second vault. When the
   * outcome is unknown (`outcomeUnknown: true` on the error), look the vault up by name before trying again.
   *
   * @throws {CustodyConflictError} when the name is taken (409).
   * @throws {CustodyBadRequestError} with `errorType` from `CreateVaultErrorType` (400).
   */
  create(body: CreateVaultRequest, options: CallOptions = {}): Promise<Vault> {
    return this.#pipeline.request("createVault", { body, ...options });
  }

  /** Renames a vault: `PUT /api/v1/vaults/{id}/name` → 204. @throws {CustodyConflictError} when taken. */
  rename(id: string, name: string, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("renameVault", { pathParams: { id }, body: { name }, ...options });
  }

  /** Archives a vault: `POST /api/v1/vaults/{id}/archive` → 204. */
  archive(id: string, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("archiveVault", { pathParams: { id }, ...options });
  }

  /** Restores an archived vault: `POST /api/v1/vaults/{id}/restore` → 204. */
  restore(id: string, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("restoreVault", { pathParams: { id }, ...options });
  }

  /**
   * Proposes a change of the vault's groups: `POST /api/v1/vaults/{id}/proposals` → 204. Approval happens
   * elsewhere, asynchronously.
   */
  submitChangeProposal(
    id: string,
    body: SubmitUpdateVaultChangeProposalRequest,
    options: CallOptions = {},
  ): Promise<void> {
    return this.#pipeline.request("submitVaultChangeProposal", { pathParams: { id }, body, ...options });
  }

  /**
   * Starts a CSV export of vault balances: `GET /api/v1/vaults/export_async`. Resolves to the `Export`, or to
   * `undefined` when the service answers 204 (nothing to export).
   */
  exportBalances(query: ExportVaultsQuery = {}, options: CallOptions = {}): Promise<Export | undefined> {
    return this.#pipeline.request("exportVaultBalances", { query, ...options });
  }
}
