/**
 * Enumerations of the custody API v0.2.0. The spec names them but hides their values; these come from the
 * real service's published schema (shared notes `api-fields.md` §3, §6).
 */
import { z } from "zod";

export const VAULT_TYPES = [
  "aptos",
  "arch",
  "black_box",
  "canton",
  "cosmos",
  "evm",
  "safe",
  "solana",
  "stacks",
  "starknet",
  "stellar",
  "sui",
  "ton",
  "tron",
  "utxo",
  "exchange",
] as const;
export const VaultType = z.enum(VAULT_TYPES);
export type VaultType = z.infer<typeof VaultType>;

/** Vault types that `POST /vaults` can create: exchange vaults are connected, not created. */
export const CREATABLE_VAULT_TYPES = VAULT_TYPES.filter((t) => t !== "exchange") as Exclude<
  VaultType,
  "exchange"
>[];

export const VaultState = z.enum(["active", "archived", "deleted", "pending", "aborted"]);
export type VaultState = z.infer<typeof VaultState>;
export const VaultOriginType = z.enum(["native", "imported"]);
export type VaultOriginType = z.infer<typeof VaultOriginType>;

export const UtxoAddressType = z.enum(["legacy", "p2sh", "segwit", "taproot", "merkleroot"]);
export type UtxoAddressType = z.infer<typeof UtxoAddressType>;
/** The address types a client may ask for; the real API rejects `p2sh` here with 422. */
export const CreatableUtxoAddressType = z.enum(["legacy", "segwit", "taproot"]);
export type CreatableUtxoAddressType = z.infer<typeof CreatableUtxoAddressType>;

export const UTXO_CHAIN_IDS = [
  "bitcoin_mainnet",
  "bitcoin_testnet",
  "bitcoin_testnet_v4",
  "dogecoin_mainnet",
  "bitcoin_cash_mainnet",
  "pearl_testnet",
  "pearl_mainnet",
] as const;
export const UtxoChainUniqueId = z.enum(UTXO_CHAIN_IDS);
export type UtxoChainUniqueId = z.infer<typeof UtxoChainUniqueId>;

export const CHAIN_TYPES = [
  "aptos",
  "arch",
  "canton",
  "cosmos",
  "evm",
  "exchange",
  "solana",
  "stellar",
  "stacks",
  "starknet",
  "sui",
  "ton",
  "tron",
  "utxo",
] as const;
export const ChainType = z.enum(CHAIN_TYPES);
export type ChainType = z.infer<typeof ChainType>;
export const ChainSource = z.enum(["default", "custom"]);
export type ChainSource = z.infer<typeof ChainSource>;
export const GasType = z.enum(["dynamic", "legacy"]);

export const UserType = z.enum(["person", "api_signer", "api_user", "system"]);
export type UserType = z.infer<typeof UserType>;
export const UserRole = z.enum(["admin", "trader", "viewer"]);
export type UserRole = z.infer<typeof UserRole>;
export const UserState = z.enum([
  "active",
  "onboarding_pending_code_generation",
  "onboarding_pending_activation",
  "reset_device_pending_code_generation",
  "reset_device_pending_activation",
  "pending_approval",
  "deleted",
]);
export type UserState = z.infer<typeof UserState>;
export const UserStateOnGroup = z.enum(["active", "pending_addition", "pending_removal"]);
export type UserStateOnGroup = z.infer<typeof UserStateOnGroup>;
export const UserGroupState = z.enum(["active", "deleted"]);
export type UserGroupState = z.infer<typeof UserGroupState>;

export const BlackBoxKeyType = z.enum([
  "ecdsa_stark",
  "ecdsa_secp256k1",
  "eddsa_ed25519",
  "schnorr_secp256k1",
]);
export type BlackBoxKeyType = z.infer<typeof BlackBoxKeyType>;

export const ExchangeType = z.enum([
  "binance",
  "bybit",
  "coinbase_international",
  "coinbase_us",
  "okx",
  "kraken",
]);

export const ListVaultsSortableFields = z.enum([
  "created_at_asc",
  "created_at_desc",
  "name_asc",
  "name_desc",
  "vault_type_asc",
  "vault_type_desc",
  "is_favorite_asc",
  "is_favorite_desc",
]);
export const VaultAddressSortableFields = z.enum([
  "created_at_asc",
  "created_at_desc",
  "name_asc",
  "name_desc",
]);
export const OwnedAssetsSortableFields = z.enum([
  "asset_name_asc",
  "asset_name_desc",
  "chain_identifier_asc",
  "chain_identifier_desc",
  "balance_asc",
  "balance_desc",
  "market_value_asc",
  "market_value_desc",
  "price_asc",
  "price_desc",
]);
// Note `created_asc`, not `created_at_asc`: the real enum differs from the other lists.
export const UserSortableFields = z.enum([
  "role_asc",
  "role_desc",
  "email_asc",
  "email_desc",
  "created_asc",
  "created_desc",
  "name_asc",
  "name_desc",
  "last_keep_alive_asc",
  "last_keep_alive_desc",
  "state_asc",
  "state_desc",
  "type_asc",
  "type_desc",
]);
export const UserGroupSortableFields = z.enum([
  "created_at_asc",
  "created_at_desc",
  "modified_at_asc",
  "modified_at_desc",
  "name_asc",
  "name_desc",
  "users_count_asc",
  "users_count_desc",
]);

export const CreateVaultErrorType = z.enum([
  "vault_type_not_supported",
  "max_vaults_reached",
  "mpc_key_is_missing",
  "keyset_is_missing",
  "keyset_not_ready",
  "vault_creation_lock_failed",
]);
export const CreateVaultAddressErrorType = z.enum(["invalid_vault_type"]);
export const TestWebhookErrorType = z.enum([
  "http_error",
  "server_disconnected",
  "timeout",
  "client_connection_error",
  "unexpected_error",
]);
export type TestWebhookErrorType = z.infer<typeof TestWebhookErrorType>;
export const WebhookEventType = z.enum(["enriched_transaction_state_update", "audit_log"]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** `ResourceError.resource` values. */
export const ResourceKind = z.enum([
  "user",
  "user_change_proposals",
  "user_group",
  "user_group_change_proposal",
  "vault",
  "vault_address",
  "vault_group",
  "address_group",
  "transaction",
  "batch_transaction",
  "path",
  "keyset",
  "auth_token",
  "access_token",
  "asset",
  "asset_info",
  "vault_derivation_path",
  "blockchain",
  "export",
  "quote",
  "import_keys_request",
  "vault_address_account",
  "exchange_asset_mapping",
  "dapp_group",
  "safe_address",
  "audit_log",
]);
export type ResourceKind = z.infer<typeof ResourceKind>;

export const TRANSACTION_TYPES = [
  "aptos_message",
  "aptos_transaction",
  "arch_transaction",
  "black_box_signature",
  "canton_transaction",
  "cosmos_message",
  "cosmos_transaction",
  "evm_message",
  "evm_transaction",
  "exchange_transaction",
  "solana_message",
  "solana_transaction",
  "stacks_transaction",
  "starknet_message",
  "starknet_transaction",
  "stellar_message",
  "stellar_transaction",
  "sui_message",
  "sui_transaction",
  "ton_message",
  "ton_transaction",
  "tron_message",
  "tron_transaction",
  "utxo_message",
  "utxo_transaction",
] as const;
export const TransactionType = z.enum(TRANSACTION_TYPES);
export type TransactionType = z.infer<typeof TransactionType>;

export const PushableTransactionState = z.enum([
  "waiting_for_approval",
  "waiting_for_signing_trigger",
  "approved",
  "finalized_for_signing",
  "signed",
  "pushed_to_blockchain",
  "mined",
  "completed",
  "aborted",
  "error_pushing_to_blockchain",
  "mined_reverted",
  "completed_reverted",
  "error_signing",
  "stuck",
  "dropped",
  "queued",
  "accelerating",
  "canceling",
  "accelerated",
  "cancelled",
  "insufficient_funds",
]);
export const SignerType = z.enum(["initiator", "api_signer", "end_user", "multiple_signers", "api_user"]);
