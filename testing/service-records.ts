/**
 * Records shaped as the service sends them, as recorded traffic shows them (older `vault_group.vault_count`,
 * extra `keyset`), with fixed ids: the answers that every package's tests script.
 */

// ---- ids ------------------------------------------------------------------------------------------------

export const IDS = {
  vault: "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  utxoVault: "7c2d9e1f-3a4b-4c5d-9e6f-0a1b2c3d4e5f",
  vaultGroup: "5b8f0a1c-2d3e-4f5a-9b6c-7d8e9f0a1b2c",
  vaultGroup2: "6c9a1b2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
  user: "1a2b3c4d-5e6f-4718-9a0b-1c2d3e4f5a6b",
  apiUser: "2b3c4d5e-6f70-4819-8a1b-2c3d4e5f6a7b",
  userGroup: "4d5e6f70-8192-4a3b-9c4d-5e6f7a8b9c0d",
  asset: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b",
  address: "9f0a1b2c-3d4e-4f5a-9b6c-8d9e0f1a2b3c",
  transaction: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  auditLog: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
  export: "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e",
  master: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f",
  keyset: "d3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a",
  organization: "e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b",
} as const;

const AT = "2025-02-13T15:27:16.186000Z";

// ---- response bodies ------------------------------------------------------------------------------------

/** An API user as embedded in records (`created_by`). */
export const apiUserRef = {
  id: IDS.apiUser,
  user_type: "api_user",
  name: "ci-bot",
  state: "active",
  role: "trader",
};

/** A vault shaped like observed traffic: older `vault_group.vault_count`, extra `keyset`. */
export const evmVault = {
  id: IDS.vault,
  created_at: AT,
  modified_at: AT,
  name: "treasury",
  created_by: apiUserRef,
  vault_group: {
    id: IDS.vaultGroup,
    name: "Default",
    vault_count: 3,
    can_current_user_create_or_edit_vaults: true,
  },
  state: "active",
  are_all_chains_disabled: false,
  derivation_path: "m/44/60/1/0/0",
  public_key_compressed: "A5p0Yp3+U0h3VbX7i2dPqS4yGz1f1oA3Tq7cQm9nR2sD",
  derivation_info: {
    derivation_path: "m/44/60/1/0/0",
    master_public_key: {
      id: IDS.master,
      xpub: "xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz",
    },
  },
  keyset: { id: IDS.keyset, name: "default", scope: "organization" },
  type: "evm",
  address: "0xB519a7f0e0C5e2b5C1d8b1B4b7E6b2F0c3D4e5F6",
};

/** A UTXO vault address. */
export const utxoVaultAddress = {
  id: IDS.address,
  created_at: AT,
  modified_at: AT,
  vault: { id: IDS.utxoVault, name: "btc-ops", state: "active", type: "utxo" },
  name: "deposit-1",
  public_key_compressed: "AkPwJx8xqV3ZbYdC0sQFv7Qm4fJ1b0Y8wKzR1rH2s3Tt",
  derivation_path: "m/84/0/0/0/3",
  type: "utxo",
  address: {
    type: "utxo",
    address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    address_type: "segwit",
    chain: { chain_type: "utxo", unique_id: "bitcoin_mainnet" },
  },
};

const { address: _evmAddress, ...mpcVaultFields } = evmVault;

/** A UTXO vault (its `default_address` is a UtxoVaultAddress). */
export const utxoVault = {
  ...mpcVaultFields,
  id: IDS.utxoVault,
  name: "btc-ops",
  type: "utxo",
  derivation_path: "m/44/0/1/0/0",
  chain: { chain_type: "utxo", unique_id: "bitcoin_mainnet", name: "Bitcoin" },
  default_address: utxoVaultAddress,
  default_next_address_name: "Address 2",
};

/** A person. */
export const personUser = {
  id: IDS.user,
  created_at: AT,
  modified_at: AT,
  user_type: "person",
  name: "Ada Lovelace",
  email: "ada@example.com",
  state: "active",
  role: "admin",
  acknowledged_banners: ["welcome_message"],
  user_groups: [{ id: IDS.userGroup, name: "Signers", users_count: 3, admins_count: 1, state: "active" }],
};

/** An API user. */
export const apiUser = {
  id: IDS.apiUser,
  created_at: AT,
  modified_at: AT,
  user_type: "api_user",
  name: "ci-bot",
  state: "active",
  role: "trader",
  allowed_ip_settings: { allow_type: "ip_list", ip_list: ["203.0.113.7"] },
};

/** A user group. */
export const userGroup = {
  id: IDS.userGroup,
  created_at: AT,
  modified_at: AT,
  name: "Signers",
  users_count: 3,
  admins_count: 1,
  state: "active",
  modified_by: apiUserRef,
};

/** The real Arbitrum chain record. */
export const evmChain = {
  chain_type: "evm",
  named_chain_id: "arbitrum_mainnet",
  chain_id: 42161,
  unique_id: "evm_arbitrum_mainnet",
  name: "Arbitrum One",
  native_currency_symbol: "ETH",
  native_currency_name: "Ether",
  blockchain_explorer: {
    transaction_url: "https://arbiscan.io/tx",
    address_url: "https://arbiscan.io/address",
    root_url: "https://arbiscan.io",
    transaction_format_url: "https://arbiscan.io/tx/%s",
    address_format_url: "https://arbiscan.io/address/%s",
  },
  logo_url: "https://logos.example.com/chains/evm/default/42161.svg",
  is_testnet: false,
  is_enabled: true,
  gas_type: "legacy",
  supports_secure_node: false,
  source: "default",
};

/** A Cosmos chain record. */
export const cosmosChain = {
  chain_type: "cosmos",
  unique_id: "cosmos_cosmoshub-4",
  name: "Cosmos Hub",
  native_currency_symbol: "ATOM",
  native_currency_name: "Atom",
  logo_url: "https://logos.example.com/chains/cosmos/cosmoshub-4.svg",
  is_testnet: false,
  is_enabled: true,
  base_denom: "uatom",
  bech32_prefix: "cosmos",
};

/** An owned asset with the older real `balances` shape. */
export const ownedAsset = {
  priced_asset: {
    type: "asset_price",
    asset_info: {
      id: IDS.asset,
      asset_identifier: {
        type: "evm",
        details: { type: "native", chain: "evm_arbitrum_mainnet" },
        chain: { chain_type: "evm", unique_id: "evm_arbitrum_mainnet" },
      },
      name: "Ether",
      symbol: "ETH",
      decimals: 18,
      verified: true,
      is_spam: false,
    },
    price: {
      price: "268312",
      price_float: "2683.12",
      fiat_currency: { currency_symbol: "usd", decimals: 2 },
    },
  },
  balance: "300000",
  balances: { mined: "300000", pending_incoming: "0" },
};

/** An export. */
export const exportRecord = {
  id: IDS.export,
  creation_time: AT,
  type: "csv",
  state: "created",
  organization_id: IDS.organization,
  user_id: IDS.apiUser,
  resource_type: "vault",
  successful_items_count: 0,
  failed_items_count: 0,
  total_items_count: 12,
  request_id: "5c1f2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
  download_url: "https://exports.example.com/b1c2d3e4.csv",
  expiration_time: "2025-02-14T15:27:16.186000Z",
};

/** A created transaction, trimmed. */
export function transactionRecord(idempotenceId: string) {
  return {
    id: IDS.transaction,
    created_at: AT,
    modified_at: AT,
    type: "evm_transaction",
    state: "approved",
    direction: "outgoing",
    organization_id: IDS.organization,
    signatures: [],
    interacted_vaults: [{ id: IDS.vault, name: "treasury", state: "active", type: "evm" }],
    state_changes: [
      { changed_at: AT, new_state: "waiting_for_approval" },
      { changed_at: AT, previous_state: "waiting_for_approval", new_state: "approved" },
    ],
    managed_transaction_data: {
      idempotence_id: idempotenceId,
      signer_type: "api_signer",
      vault: { id: IDS.vault, name: "treasury", state: "active", type: "evm" },
    },
    is_cancelation: false,
    is_acceleration: false,
  };
}

/** Suggested fees. */
export const suggestedFees = {
  suggested_fees: {
    evm_arbitrum_mainnet: {
      type: "evm",
      chain_unique_id: "evm_arbitrum_mainnet",
      fees: {
        type: "dynamic",
        low: { max_priority_fee_per_gas: "0", max_fee_per_gas: "10000000" },
        medium: { max_priority_fee_per_gas: "1000", max_fee_per_gas: "12000000" },
        high: { max_priority_fee_per_gas: "2000", max_fee_per_gas: "15000000" },
      },
    },
    bitcoin_mainnet: { type: "utxo", chain_unique_id: "bitcoin_mainnet", low: "3", medium: "5", high: "9" },
  },
};

/** A create-transaction body: the real request that returned 201. */
export const evmTransferRequest = {
  signer_type: "api_signer",
  vault_id: IDS.vault,
  type: "evm_transaction",
  details: {
    type: "evm_transfer",
    gas: { type: "priority", priority_level: "medium" },
    asset_identifier: { type: "evm", details: { type: "native", chain: "evm_arbitrum_mainnet" } },
    to: "0xB519a7f0e0C5e2b5C1d8b1B4b7E6b2F0c3D4e5F6",
    value: { type: "value", value: "1" },
  },
} as const;
