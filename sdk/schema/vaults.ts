/** Vaults (docs/api-notes.md, "Vaults"). */
import { z } from "zod";
import { UtxoVaultAddress } from "./addresses";
import { OwnedAsset } from "./assets";
import { ChainRef } from "./chains";
import { ChainUniqueId, DateTime, listEnvelope, pagingQuery, queryArray, queryInt, Uuid } from "./common";
import {
  BlackBoxKeyType,
  CREATABLE_VAULT_TYPES,
  ExchangeType,
  ListVaultsSortableFields,
  UtxoChainUniqueId,
  VAULT_TYPES,
  VaultOriginType,
  VaultState,
  VaultType,
} from "./enums";
import { ServiceName } from "./name-rules";
import { openUnion, type UnknownVariant } from "./open";
import { KeysetRef, Timestamps, UserRef, VaultGroupRef } from "./refs";

const vaultCommon = {
  id: Uuid,
  ...Timestamps,
  name: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  created_by: UserRef.optional(),
  /** Deprecated single group; real traffic still sends it. */
  vault_group: VaultGroupRef.optional(),
  /** Older responses have no `vault_groups`; treat a missing list as unknown, not empty. */
  vault_groups: z.array(VaultGroupRef).optional(),
  skip_indexing_reason: z.string().optional(),
  is_external_signer: z.boolean().optional(),
  native_assets: z.array(OwnedAsset).optional(),
  /**
   * `false` on every recorded vault; the published schema requires it without defining its type, so any value
   * is kept.
   */
  are_all_chains_disabled: z.unknown().optional(),
  state: VaultState.or(z.string()),
};

/** Fields of every MPC vault (all types but exchange and safe). */
const mpcFields = {
  /** Deprecated in favour of `derivation_info`. */
  derivation_path: z.string().optional(),
  /** Base64 SEC1-compressed (ECDSA/Schnorr) or raw 32-byte (EdDSA) public key. */
  public_key_compressed: z.string().optional(),
  derivation_info: z
    .looseObject({
      derivation_path: z.string(),
      master_public_key: z.looseObject({ id: Uuid, xpub: z.string() }),
    })
    .optional(),
  key_holder: UserRef.optional(),
  origin_type: VaultOriginType.or(z.string()).optional(),
  /** Not in the published schema; seen on real MPC vaults. */
  keyset: KeysetRef.optional(),
};

function mpcVault<T extends string, S extends z.core.$ZodLooseShape>(type: T, extra: S) {
  return z.looseObject({ ...vaultCommon, ...mpcFields, type: z.literal(type), ...extra });
}

/** `EvmVault` (`type: "evm"`): an MPC vault with a `0x`-prefixed 20-byte hex `address`. */
export const EvmVault = mpcVault("evm", {
  address: z.string(),
  smart_contract_states: z.record(z.string(), z.string()).optional(),
});
/** `SolanaVault` (`type: "solana"`): an MPC vault with a base58 `address` (32–44 characters). */
export const SolanaVault = mpcVault("solana", { address: z.string() });
/** `AptosVault` (`type: "aptos"`): an MPC vault with a `0x` hex `address` (66 characters). */
export const AptosVault = mpcVault("aptos", { address: z.string() });
/** `SuiVault` (`type: "sui"`): an MPC vault with a `0x` hex `address` (66 characters). */
export const SuiVault = mpcVault("sui", { address: z.string() });
/**
 * `StarknetVault` (`type: "starknet"`): an MPC vault whose account is activated on chain; `activation_state`
 * is `inactive`, `activating` or `active`.
 */
export const StarknetVault = mpcVault("starknet", {
  address: z.string(),
  activation_state: z.string().optional(),
  activating_transaction_id: Uuid.optional(),
});
/** `StellarVault` (`type: "stellar"`): an MPC vault with a 56-character `address`. */
export const StellarVault = mpcVault("stellar", { address: z.string() });
/** `StacksVault` (`type: "stacks"`): an MPC vault with an `address` starting with `S`. */
export const StacksVault = mpcVault("stacks", { address: z.string() });
/**
 * `TronVault` (`type: "tron"`): an MPC vault with a 34-character `address` starting with `T`, and its energy
 * and bandwidth per chain.
 */
export const TronVault = mpcVault("tron", {
  address: z.string(),
  energy_and_bandwidth_data_map: z.record(z.string(), z.unknown()).optional(),
});
/**
 * `TonVault` (`type: "ton"`): an MPC vault; its account as `raw_account` (`<workchain>:<64 hex digits>`) and
 * in the two base64url forms.
 */
export const TonVault = mpcVault("ton", {
  raw_account: z.string(),
  base64_url_bounceable_account: z.string().optional(),
  base64_url_non_bounceable_account: z.string().optional(),
  state_init: z.string().optional(),
});
/**
 * `CosmosVault` (`type: "cosmos"`): an MPC vault with one key; `main_address` in hex and a bech32 address per
 * Cosmos chain in `chains_addresses`.
 */
export const CosmosVault = mpcVault("cosmos", {
  main_address: z.string(),
  evm_address: z.string().optional(),
  chains_addresses: z
    .array(z.looseObject({ type: z.string(), chain: ChainUniqueId, address: z.string() }))
    .optional(),
});
/** `CantonVault` (`type: "canton"`): an MPC vault with an `address` and its registration state per chain. */
export const CantonVault = mpcVault("canton", {
  address: z.string(),
  chain_state_map: z.record(z.string(), z.unknown()).optional(),
});
/**
 * `ArchVault` (`type: "arch"`): an MPC vault with a base58 `arch_address` and Bitcoin deposit addresses on
 * mainnet and testnet.
 */
export const ArchVault = mpcVault("arch", {
  arch_address: z.string(),
  arch_mainnet_deposit_address: z.unknown().optional(),
  arch_testnet_deposit_address: z.unknown().optional(),
  bitcoin_mainnet_address: z.unknown().optional(),
  bitcoin_testnet_address: z.unknown().optional(),
});
/**
 * `UtxoVault` (`type: "utxo"`): an MPC vault on one UTXO `chain`, with many addresses; `default_address` is
 * created with the vault, `default_next_address_name` names the next one.
 */
export const UtxoVault = mpcVault("utxo", {
  chain: ChainRef,
  default_address: UtxoVaultAddress,
  default_next_address_name: z.string().optional(),
  taproot_key_public_compressed: z.string().optional(),
});
/**
 * `BlackBoxVault` (`type: "black_box"`): an MPC vault that signs arbitrary payloads; `details.type` is its
 * key type.
 */
export const BlackBoxVault = mpcVault("black_box", {
  details: z.looseObject({ type: BlackBoxKeyType.or(z.string()) }),
});
/**
 * `ExchangeVault` (`type: "exchange"`): an account at an exchange, connected rather than created (no MPC
 * fields; `POST /vaults` cannot create one).
 */
export const ExchangeVault = z.looseObject({
  ...vaultCommon,
  type: z.literal("exchange"),
  exchange_type: ExchangeType.or(z.string()),
  logo_url: z.string().optional(),
  is_balance_data_outdated: z.boolean().optional(),
  account: z.looseObject({ type: z.string() }).optional(),
  change_request_id: z.string().nullable().optional(),
});
/** `SafeVault` (`type: "safe"`): an imported Safe smart account at `address` (no MPC fields). */
export const SafeVault = z.looseObject({
  ...vaultCommon,
  type: z.literal("safe"),
  address: z.string(),
  logo_url: z.string().optional(),
  change_request_id: z.string().nullable().optional(),
});

/** The vault variants this release models. */
const VAULT_VARIANTS = [
  EvmVault,
  SolanaVault,
  AptosVault,
  SuiVault,
  StarknetVault,
  StellarVault,
  StacksVault,
  TronVault,
  TonVault,
  CosmosVault,
  CantonVault,
  ArchVault,
  UtxoVault,
  BlackBoxVault,
  ExchangeVault,
  SafeVault,
] as const;
/** `Vault`, a union on `type` (also `GetVaultResponse` and `CreateVaultResponse`). */
export const Vault: z.ZodType<Vault, VaultInput> = openUnion("type", VAULT_VARIANTS);
/**
 * A vault record: one of the sixteen variants, told apart by `type`, or a vault of a type that a later service
 * release added ({@link UnknownVariant}, kept as it came; {@link isModelledVault} tells them apart).
 */
export type Vault = ModelledVault | UnknownVariant<"type", ModelledVault>;
/** A vault of one of the sixteen types this release models. */
export type ModelledVault = z.infer<(typeof VAULT_VARIANTS)[number]>;
type VaultInput = z.input<(typeof VAULT_VARIANTS)[number]> | UnknownVariant<"type">;
/** Every `type` the union models. */
export const MODELLED_VAULT_TYPES = VAULT_TYPES;
/** Whether `vault` is of a type this release models; narrows it to {@link ModelledVault}. */
export function isModelledVault(vault: Vault): vault is ModelledVault {
  return (MODELLED_VAULT_TYPES as readonly string[]).includes(vault.type);
}

// ---- requests ------------------------------------------------------------------------------------------

const ImportOptions = openUnion("origin", [
  z.object({ origin: z.literal("imported_keys"), key_id: Uuid, derivation_path: z.string().optional() }),
  z.object({
    origin: z.literal("external_signer"),
    public_key_compressed: z.string(),
    chain_code: z.string().optional(),
  }),
]);

const createCommon = {
  /** Vault name; must be unique in the organization. */
  name: ServiceName,
  /** End user (consumer wallet) that holds the key; only for end-user vaults. */
  end_user_id: Uuid.optional(),
  /** Vault group to create the vault in; defaults to the organization's "Default" group. */
  vault_group_id: Uuid.optional(),
};
const withImport = { ...createCommon, import_options: ImportOptions.optional() };

function createVariant<T extends string, S extends z.core.$ZodShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), ...shape });
}

const simpleCreatable = CREATABLE_VAULT_TYPES.filter(
  (t) => !["black_box", "utxo", "safe", "arch", "stacks"].includes(t),
);

/** `CreateVaultRequest`, a union on `type`. Exchange vaults cannot be created. */
export const CreateVaultRequest = openUnion(
  "type",
  [
    ...simpleCreatable.map((t) => createVariant(t, withImport)),
    createVariant("arch", createCommon),
    createVariant("stacks", createCommon),
    createVariant("black_box", { ...withImport, key_type: BlackBoxKeyType }),
    createVariant("utxo", { ...withImport, chain: UtxoChainUniqueId }),
    createVariant("safe", {
      ...createCommon,
      address: z
        .string()
        .regex(/^0x[a-fA-F0-9]{40}$/, { message: "must be a 0x-prefixed 20-byte hex address" }),
    }),
  ] as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
  { refused: ["exchange"] },
);
/** A create-vault body; `type` selects the variant. */
export type CreateVaultRequest = {
  /** Vault name; must be unique in the organization. */
  name: string;
  /** Vault type; `exchange` cannot be created. */
  type: Exclude<VaultType, "exchange">;
  /** End user that holds the key (end-user vaults only). */
  end_user_id?: string;
  /** Vault group to create the vault in. */
  vault_group_id?: string;
  /** Import an existing key instead of generating one. */
  import_options?: z.input<typeof ImportOptions>;
  /** Key type; required for `black_box`. */
  key_type?: z.infer<typeof BlackBoxKeyType>;
  /** UTXO chain; required for `utxo`. */
  chain?: z.infer<typeof UtxoChainUniqueId>;
  /** Existing Safe address; required for `safe`. */
  address?: string;
};

/** `RenameVaultRequest`; the same body renames addresses. */
export const RenameVaultRequest = z.object({
  /** The new name. */
  name: ServiceName,
});
/** The body of a vault or address rename: `{ name }`. */
export type RenameVaultRequest = z.input<typeof RenameVaultRequest>;

/** `SubmitUpdateVaultChangeProposalRequest`. */
export const SubmitUpdateVaultChangeProposalRequest = z.object({
  diff: z.object({
    /** Vault groups to add the vault to. */
    added_vault_group_ids: z.array(Uuid).optional(),
    /** Vault groups to remove the vault from. */
    removed_vault_group_ids: z.array(Uuid).optional(),
  }),
});
/** The body of `POST /vaults/{id}/proposals`: vault groups to add and to remove. */
export type SubmitUpdateVaultChangeProposalRequest = z.input<typeof SubmitUpdateVaultChangeProposalRequest>;

/**
 * Query of `GET /vaults`: paging, sort order and filters. Array filters are sent as repeated keys.
 */
export const ListVaultsQuery = z.object({
  /** Sort order. */
  sort_by: queryArray(ListVaultsSortableFields),
  ...pagingQuery(),
  /** Only these vault ids. */
  vault_ids: queryArray(Uuid),
  /** Only vaults with these full names. */
  names: queryArray(z.string()),
  /** Only these vault types. */
  vault_types: queryArray(VaultType),
  /** Only vaults in these states. */
  vault_states: queryArray(VaultState),
  /** Only vaults whose key is held by these users. */
  key_holder_ids: queryArray(Uuid),
  /** Only vaults in (or pending addition to) these vault groups. */
  vault_group_ids: queryArray(Uuid),
  /** Exclude vaults in these vault groups. */
  exclude_vault_group_ids: queryArray(Uuid),
  /** Exclude these vault ids. */
  exclude_vault_ids: queryArray(Uuid),
  /** Only native or only imported vaults. */
  origin_type: VaultOriginType.optional(),
  /** Only vaults with these account addresses. */
  account_addresses: queryArray(z.string()),
  /** Fill `native_assets` with the positive native balances on these chains. */
  positive_native_balance_chain_ids: queryArray(ChainUniqueId),
});
/** Query parameters of `GET /vaults`, as the client accepts them. */
export type ListVaultsQuery = z.input<typeof ListVaultsQuery>;
/** `ListVaultsResponse`: one page of vaults, `{ total, page, size, vaults }`. */
export const ListVaultsResponse = listEnvelope("vaults", Vault);
/** One page of `GET /vaults`. */
export type ListVaultsResponse = z.infer<typeof ListVaultsResponse>;

/**
 * Query of `GET /vaults/export_async`: which vaults' balances to export, and how many vault/asset
 * pairs.
 */
export const ExportVaultsQuery = z.object({
  /** Number of vault/asset pairs to export; unlimited when not set (the published schema sets no bound). */
  limit: queryInt(),
  /** Only these vaults (the real parameter is spelled `vaults_ids`). */
  vaults_ids: queryArray(Uuid),
  /** Only these vault types. */
  vault_types: queryArray(VaultType),
});
/** Query parameters of `GET /vaults/export_async`. */
export type ExportVaultsQuery = z.input<typeof ExportVaultsQuery>;

/**
 * `Export`: an asynchronous export of the balances of vaults and their assets
 * (`GET /vaults/export_async`). Once `state` is `ready`, the file is at `download_url` until
 * `expiration_time` (ISO-8601).
 */
export const Export = z.looseObject({
  id: Uuid,
  creation_time: DateTime,
  type: z.enum(["csv", "zip"]).or(z.string()),
  state: z.enum(["created", "in_progress", "aborted", "ready", "error"]).or(z.string()),
  organization_id: z.string(),
  user_id: z.string(),
  resource_type: z.string(),
  successful_items_count: z.number().int(),
  failed_items_count: z.number().int(),
  total_items_count: z.number().int(),
  request_id: z.string(),
  download_url: z.string(),
  expiration_time: DateTime,
});
/** An export record, as `GET /vaults/export_async` returns it. */
export type Export = z.infer<typeof Export>;
