/**
 * The namespaces of `CustodyClient` (`client.vaults`, `client.vaults.assets`, `client.users`, …), declared as
 * data: each method names the endpoint of the table (`schema/endpoints.ts`) it calls, which alone holds its
 * HTTP method, path, schemas and retry safety, and the positional arguments it maps to the request. Every method
 * also takes, last, its call options (`CallOptions`; `ListAllOptions` for `listAll`).
 */
import { defineNamespace } from "./define-namespace";

/** Blockchains supported by the organization: the chain catalogue and suggested fees. */
export const Blockchains = defineNamespace("Blockchains", {
  /** One page of chains (the `listBlockchains` endpoint). Resolves to the envelope `{ total, page, size, chains }`. */
  list: { endpoint: "listBlockchains", args: ["query"] },
  /** Every chain matching the filters, paging with the largest page size. */
  listAll: { listAll: "listBlockchains", args: ["query"] },
  /** Suggested network fees (the `getSuggestedFees` endpoint). */
  suggestedFees: { endpoint: "getSuggestedFees", args: ["query"] },
});
/** `client.blockchains`. */
export type Blockchains = InstanceType<typeof Blockchains>;

/** Users: people, API users, API signers and system users (a union on `user_type`). */
export const Users = defineNamespace("Users", {
  /** One page of users (the `listUsers` endpoint; page size up to 400). Resolves to `{ total, page, size, users }`. */
  list: { endpoint: "listUsers", args: ["query"] },
  /** Every user matching the filters, 400 per page. */
  listAll: { listAll: "listUsers", args: ["query"] },
  /** One user (the `getUser` endpoint). @throws {CustodyNotFoundError} when there is none. */
  get: { endpoint: "getUser", args: ["id"] },
});
/** `client.users`. */
export type Users = InstanceType<typeof Users>;

/** The organization's user groups. */
export const UserGroups = defineNamespace("UserGroups", {
  /** One page of groups (the `listUserGroups` endpoint). Resolves to `{ total, page, size, user_groups }`. */
  list: { endpoint: "listUserGroups", args: ["query"] },
  /** Every group matching the filters. */
  listAll: { listAll: "listUserGroups", args: ["query"] },
  /** One group (the `getUserGroup` endpoint). @throws {CustodyNotFoundError} when there is none. */
  get: { endpoint: "getUserGroup", args: ["id"] },
});
/** `client.userGroups`. */
export type UserGroups = InstanceType<typeof UserGroups>;

/** The assets a vault holds. */
export const VaultAssets = defineNamespace("VaultAssets", {
  /** One page of a vault's assets (the `listVaultAssets` endpoint). Resolves to `{ …, owned_assets }`. */
  list: { endpoint: "listVaultAssets", args: ["vaultId", "query"] },
  /** Every asset of the vault matching the filters. */
  listAll: { listAll: "listVaultAssets", args: ["vaultId", "query"] },
  /** One asset of a vault (the `getVaultAsset` endpoint). */
  get: { endpoint: "getVaultAsset", args: ["vaultId", "assetId", "query"] },
});
/** `client.vaults.assets`. */
export type VaultAssets = InstanceType<typeof VaultAssets>;

/** The addresses of UTXO vaults. */
export const VaultAddresses = defineNamespace("VaultAddresses", {
  /** One page of a vault's addresses (the `listVaultAddresses` endpoint). Resolves to `{ …, addresses }`. */
  list: { endpoint: "listVaultAddresses", args: ["vaultId", "query"] },
  /** Every address of the vault matching the filters. */
  listAll: { listAll: "listVaultAddresses", args: ["vaultId", "query"] },
  /**
   * Derives (or imports) a new address of the vault (the `createVaultAddress` endpoint).
   *
   * Never retried: a repeat could create a second address. When the outcome is unknown (the error has
   * `outcomeUnknown: true`), list the vault's addresses by name before trying again.
   */
  create: { endpoint: "createVaultAddress", args: ["vaultId", "body"] },
  /** Renames an address (the `renameVaultAddress` endpoint). */
  rename: { endpoint: "renameVaultAddress", args: ["addressId", "name"] },
});
/** `client.vaults.addresses`. */
export type VaultAddresses = InstanceType<typeof VaultAddresses>;

/** Vaults (a union on `type`) and their lifecycle, with `assets` and `addresses` sub-namespaces. */
export const Vaults = defineNamespace("Vaults", {
  /** The assets held in a vault. */
  assets: VaultAssets,
  /** The addresses of a UTXO vault. */
  addresses: VaultAddresses,
  /** One page of vaults (the `listVaults` endpoint). Resolves to `{ total, page, size, vaults }`. */
  list: { endpoint: "listVaults", args: ["query"] },
  /** Every vault matching the filters. */
  listAll: { listAll: "listVaults", args: ["query"] },
  /** One vault (the `getVault` endpoint). @throws {CustodyNotFoundError} when there is none. */
  get: { endpoint: "getVault", args: ["id"] },
  /**
   * Creates a vault (the `createVault` endpoint) and resolves to it.
   *
   * Never retried: the endpoint takes no idempotency key, so a repeat could create a second vault. When the
   * outcome is unknown (`outcomeUnknown: true` on the error), look the vault up by name before trying again.
   *
   * @throws {CustodyConflictError} when the name is taken (409).
   * @throws {CustodyBadRequestError} with `errorType` from `CreateVaultErrorType` (400).
   */
  create: { endpoint: "createVault", args: ["body"] },
  /** Renames a vault (the `renameVault` endpoint). @throws {CustodyConflictError} when the name is taken. */
  rename: { endpoint: "renameVault", args: ["id", "name"] },
  /** Archives a vault (the `archiveVault` endpoint). */
  archive: { endpoint: "archiveVault", args: ["id"] },
  /** Restores an archived vault (the `restoreVault` endpoint). */
  restore: { endpoint: "restoreVault", args: ["id"] },
  /**
   * Proposes a change of the vault's groups (the `submitVaultChangeProposal` endpoint). Approval happens
   * elsewhere, asynchronously.
   */
  submitChangeProposal: { endpoint: "submitVaultChangeProposal", args: ["id", "body"] },
  /**
   * Starts a CSV export of vault balances (the `exportVaultBalances` endpoint). Resolves to the `Export`, or to
   * `undefined` when the service answers 204 (nothing to export).
   */
  exportBalances: { endpoint: "exportVaultBalances", args: ["query"], emptyOn204: true },
});
/** `client.vaults`. */
export type Vaults = InstanceType<typeof Vaults>;

/** Transactions. */
export const Transactions = defineNamespace("Transactions", {
  /**
   * Creates a transaction (the `createTransaction` endpoint; the service answers 201, or 200 when the
   * idempotency id was seen before).
   *
   * The request is signed with `apiUserPrivateKey` (`x-signature`, `x-timestamp` in ms). Retries carry the same
   * idempotency id and the same body bytes, with a fresh timestamp and signature.
   *
   * @throws {CustodyConfigurationError} (`ERR_CUSTODY_SIGNING_KEY_MISSING`) without `apiUserPrivateKey`.
   */
  create: { endpoint: "createTransaction", args: ["body"], options: "idempotency" },
});
/** `client.transactions`. */
export type Transactions = InstanceType<typeof Transactions>;

/** Webhook triggers: manual deliveries. */
export const Webhooks = defineNamespace("Webhooks", {
  /** Sends a test delivery to `body.url` (the `testWebhook` endpoint). */
  test: { endpoint: "testWebhook", args: ["body"] },
  /** Resends a transaction's create and latest-state events (the `triggerTransactionWebhook` endpoint). */
  triggerTransaction: { endpoint: "triggerTransactionWebhook", args: ["transactionId"] },
  /** Redelivers one audit-log record (the `triggerAuditLogWebhook` endpoint). */
  triggerAuditLog: { endpoint: "triggerAuditLogWebhook", args: ["auditLogId"] },
});
/** `client.webhooks`. */
export type Webhooks = InstanceType<typeof Webhooks>;
