/**
 * The endpoint table of custody API v0.2.0 (docs/api-notes.md, "Endpoints and paths"), as data.
 *
 * The client builds its requests from it, the emulator registers its routes and validates from it, and the
 * OpenAPI document is generated from it. One table means the three cannot drift apart.
 */
import { z } from "zod";
import {
  CreateVaultAddressRequest,
  ListVaultAddressesQuery,
  ListVaultAddressesResponse,
  UtxoVaultAddress,
} from "./addresses";
import { GetOwnedAssetQuery, ListOwnedAssetsQuery, ListOwnedAssetsResponse, OwnedAsset } from "./assets";
import {
  GetSuggestedFeesQuery,
  GetSuggestedFeesResponse,
  ListBlockchainsQuery,
  ListBlockchainsResponse,
} from "./chains";
import { MAX_PAGE_SIZE, MAX_USERS_PAGE_SIZE, Uuid } from "./common";
import { CreateTransactionRequest, Transaction } from "./transactions";
import {
  ListUserGroupsQuery,
  ListUserGroupsResponse,
  ListUsersQuery,
  ListUsersResponse,
  User,
  UserGroup,
} from "./users";
import {
  CreateVaultRequest,
  Export,
  ExportVaultsQuery,
  ListVaultsQuery,
  ListVaultsResponse,
  RenameVaultRequest,
  SubmitUpdateVaultChangeProposalRequest,
  Vault,
} from "./vaults";
import { TestWebhookRequest } from "./webhooks";

/** The path prefix of every endpoint, which also carries the API version. */
export const API_PREFIX = "/api/v1";

/**
 * How a failed call may be retried.
 * - `safe`: reads, renames (PUT) and archive/restore; doing them twice ends in the same state (a repeated
 *   archive or restore may answer that the vault already is so, which callers treat as done).
 * - `idempotency-key`: safe because the request carries `x-idempotence-id`.
 * - `never`: writes the service cannot recognise as repeats (creates, change proposals, webhook sends); a
 *   retry after a lost answer could do it twice (a second vault, a second proposal for the approvers, a
 *   second delivery), so callers look up what happened instead.
 */
export type RetrySafety = "safe" | "idempotency-key" | "never";

/** One endpoint of the table: method, path, schemas, statuses, and how a failure may be retried. */
export interface EndpointSpec {
  /** HTTP method. */
  method: "GET" | "POST" | "PUT";
  /** Path template with `{param}` placeholders, including `/api/v1`. */
  path: string;
  /** One line on what the endpoint does (the OpenAPI `summary`). */
  summary: string;
  /** Schema of the path parameters, e.g. `{ id: Uuid }`. */
  pathParams?: z.ZodObject;
  /** Schema of the query string. */
  query?: z.ZodObject;
  /** Request body schema; when set, the body is required (an empty body is a 422). */
  body?: z.ZodType;
  /** Success body; absent for 204. */
  response?: z.ZodType;
  /** Status of a success: 200 for reads, 201 for creates, 204 for actions without a body. */
  successStatus: 200 | 201 | 204;
  /** Statuses documented for this endpoint beyond the common set (docs/api-notes.md, "Errors"). */
  errorStatuses: number[];
  /** Whether a failed call may be retried, and why. */
  retry: RetrySafety;
  /** Request signing is required (docs/api-notes.md, "Request signing"). */
  signed?: boolean;
  /** For paginated lists: the items key of the envelope and the largest `size`. */
  list?: { itemsKey: string; maxPageSize: number };
  /** `ResourceError.resource` reported on a 404 for this endpoint's path id. */
  resource?: string;
}

const idParam = z.object({ id: Uuid });

/**
 * Every endpoint of the API, by operation name (`listVaults`, `createVault`, …). The client, the emulator's
 * routes and the OpenAPI document are all built from this table.
 */
export const endpoints = {
  listBlockchains: {
    method: "GET",
    path: "/api/v1/blockchains",
    summary: "List blockchains",
    query: ListBlockchainsQuery,
    response: ListBlockchainsResponse,
    successStatus: 200,
    errorStatuses: [],
    retry: "safe",
    list: { itemsKey: "chains", maxPageSize: MAX_PAGE_SIZE },
  },
  getSuggestedFees: {
    method: "GET",
    path: "/api/v1/blockchains/suggested-fees",
    summary: "Get suggested fees",
    query: GetSuggestedFeesQuery,
    response: GetSuggestedFeesResponse,
    successStatus: 200,
    errorStatuses: [],
    retry: "safe",
  },
  listUsers: {
    method: "GET",
    path: "/api/v1/users",
    summary: "List users",
    query: ListUsersQuery,
    response: ListUsersResponse,
    successStatus: 200,
    errorStatuses: [],
    retry: "safe",
    list: { itemsKey: "users", maxPageSize: MAX_USERS_PAGE_SIZE },
  },
  getUser: {
    method: "GET",
    path: "/api/v1/users/{id}",
    summary: "Get user",
    pathParams: idParam,
    response: User,
    successStatus: 200,
    errorStatuses: [404],
    retry: "safe",
    resource: "user",
  },
  listUserGroups: {
    method: "GET",
    path: "/api/v1/user-groups",
    summary: "List user groups",
    query: ListUserGroupsQuery,
    response: ListUserGroupsResponse,
    successStatus: 200,
    errorStatuses: [],
    retry: "safe",
    list: { itemsKey: "user_groups", maxPageSize: MAX_PAGE_SIZE },
  },
  getUserGroup: {
    method: "GET",
    path: "/api/v1/user-groups/{id}",
    summary: "Get user group",
    pathParams: idParam,
    response: UserGroup,
    successStatus: 200,
    errorStatuses: [404],
    retry: "safe",
    resource: "user_group",
  },
  listVaults: {
    method: "GET",
    path: "/api/v1/vaults",
    summary: "List vaults",
    query: ListVaultsQuery,
    response: ListVaultsResponse,
    successStatus: 200,
    errorStatuses: [],
    retry: "safe",
    list: { itemsKey: "vaults", maxPageSize: MAX_PAGE_SIZE },
  },
  createVault: {
    method: "POST",
    path: "/api/v1/vaults",
    summary: "Create vault",
    body: CreateVaultRequest,
    response: Vault,
    successStatus: 201,
    errorStatuses: [400, 409],
    retry: "never",
  },
  exportVaultBalances: {
    method: "GET",
    path: "/api/v1/vaults/export_async",
    summary: "Export vault balances (CSV)",
    query: ExportVaultsQuery,
    response: Export,
    successStatus: 200, // or 204 when there is nothing to export
    errorStatuses: [],
    retry: "safe",
  },
  getVault: {
    method: "GET",
    path: "/api/v1/vaults/{id}",
    summary: "Get vault",
    pathParams: idParam,
    response: Vault,
    successStatus: 200,
    errorStatuses: [404],
    retry: "safe",
    resource: "vault",
  },
  listVaultAssets: {
    method: "GET",
    path: "/api/v1/vaults/{id}/assets",
    summary: "List owned assets of a vault",
    pathParams: idParam,
    query: ListOwnedAssetsQuery,
    response: ListOwnedAssetsResponse,
    successStatus: 200,
    errorStatuses: [404],
    retry: "safe",
    list: { itemsKey: "owned_assets", maxPageSize: MAX_PAGE_SIZE },
    resource: "vault",
  },
  getVaultAsset: {
    method: "GET",
    path: "/api/v1/vaults/{id}/assets/{asset_id}",
    summary: "Get one owned asset of a vault",
    pathParams: z.object({ id: Uuid, asset_id: Uuid }),
    query: GetOwnedAssetQuery,
    response: OwnedAsset,
    successStatus: 200,
    errorStatuses: [404],
    retry: "safe",
    resource: "asset",
  },
  submitVaultChangeProposal: {
    method: "POST",
    path: "/api/v1/vaults/{id}/proposals",
    summary: "Submit an update-vault change proposal",
    pathParams: idParam,
    body: SubmitUpdateVaultChangeProposalRequest,
    successStatus: 204,
    errorStatuses: [404],
    retry: "never",
    resource: "vault",
  },
  archiveVault: {
    method: "POST",
    path: "/api/v1/vaults/{id}/archive",
    summary: "Archive vault",
    pathParams: idParam,
    successStatus: 204,
    errorStatuses: [400],
    retry: "safe",
    resource: "vault",
  },
  restoreVault: {
    method: "POST",
    path: "/api/v1/vaults/{id}/restore",
    summary: "Restore an archived vault",
    pathParams: idParam,
    successStatus: 204,
    errorStatuses: [400],
    retry: "safe",
    resource: "vault",
  },
  renameVault: {
    method: "PUT",
    path: "/api/v1/vaults/{id}/name",
    summary: "Rename vault",
    pathParams: idParam,
    body: RenameVaultRequest,
    successStatus: 204,
    errorStatuses: [404, 409],
    retry: "safe",
    resource: "vault",
  },
  createVaultAddress: {
    method: "POST",
    path: "/api/v1/vaults/{id}/addresses",
    summary: "Create a UTXO vault address",
    pathParams: idParam,
    body: CreateVaultAddressRequest,
    response: UtxoVaultAddress,
    successStatus: 201,
    errorStatuses: [400, 404],
    retry: "never",
    resource: "vault",
  },
  listVaultAddresses: {
    method: "GET",
    path: "/api/v1/vaults/{id}/addresses",
    summary: "List the addresses of a UTXO vault",
    pathParams: idParam,
    query: ListVaultAddressesQuery,
    response: ListVaultAddressesResponse,
    successStatus: 200,
    errorStatuses: [404],
    retry: "safe",
    list: { itemsKey: "addresses", maxPageSize: MAX_PAGE_SIZE },
    resource: "vault",
  },
  renameVaultAddress: {
    method: "PUT",
    path: "/api/v1/vaults/addresses/{id}/name",
    summary: "Rename a vault address",
    pathParams: idParam,
    body: RenameVaultRequest,
    successStatus: 204,
    errorStatuses: [404, 409],
    retry: "safe",
    resource: "vault_address",
  },
  createTransaction: {
    method: "POST",
    path: "/api/v1/transactions",
    summary: "Create a transaction (signed)",
    body: CreateTransactionRequest,
    response: Transaction,
    successStatus: 201, // 200 on an idempotent replay
    errorStatuses: [400],
    retry: "idempotency-key",
    signed: true,
  },
  testWebhook: {
    method: "POST",
    path: "/api/v1/webhooks/test",
    summary: "Send a test webhook",
    body: TestWebhookRequest,
    successStatus: 204,
    errorStatuses: [400],
    retry: "never",
  },
  triggerTransactionWebhook: {
    method: "POST",
    path: "/api/v1/webhooks/trigger/transaction/{id}",
    summary: "Resend a transaction's create and latest-state webhooks",
    pathParams: idParam,
    successStatus: 204,
    errorStatuses: [404],
    retry: "never",
    resource: "transaction",
  },
  triggerAuditLogWebhook: {
    method: "POST",
    path: "/api/v1/webhooks/trigger/audit-log/{id}",
    summary: "Resend an audit-log record webhook",
    pathParams: idParam,
    successStatus: 204,
    errorStatuses: [404],
    retry: "never",
    resource: "audit_log",
  },
} as const satisfies Record<string, EndpointSpec>;

/** An operation name of {@link endpoints}, e.g. `"createVault"`. */
export type EndpointName = keyof typeof endpoints;

/** Fills a path template: `/api/v1/vaults/{id}` + `{id}` → `/api/v1/vaults/<id>`, each value URL-encoded. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}
