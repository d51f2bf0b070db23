/**
 * The fields of a vault that the `Vault` resource's outputs and the vault data sources show, each read once
 * from the sdk's typed record (a union on `type`). Adding a field is one entry here.
 */
import { isModelledVault, type ModelledVault, type Vault as VaultRecord } from "@pulumi-custody/sdk/schema";
import { z } from "zod";
import { field, type Projected, project } from "../field-tables";

/** A vault of a type that has a key in the platform (every modelled type but `exchange` and `safe`). */
type KeyVault = Exclude<ModelledVault, { type: "exchange" | "safe" }>;

function keyVault(vault: VaultRecord): KeyVault | undefined {
  if (!isModelledVault(vault) || vault.type === "exchange" || vault.type === "safe") return undefined;
  return vault;
}

/** A string field of a vault of a type this release does not model (read as it came). */
function unmodelledString(vault: VaultRecord, field: string): string | undefined {
  if (isModelledVault(vault)) return undefined;
  const value = vault[field];
  return typeof value === "string" ? value : undefined;
}

/**
 * Current vault groups of a vault record. Older responses have no `vault_groups`; then the deprecated single
 * `vault_group` is used, and with neither the membership is unknown (`undefined`), not empty.
 */
export function liveVaultGroupIds(vault: VaultRecord): string[] | undefined {
  if (vault.vault_groups) return vault.vault_groups.map((group) => group.id);
  return vault.vault_group ? [vault.vault_group.id] : undefined;
}

/** The main address of a vault, by type (see `VaultOutputs.address`). */
export function mainAddress(vault: VaultRecord): string | undefined {
  if (!isModelledVault(vault)) return unmodelledString(vault, "address");
  switch (vault.type) {
    case "ton":
      return vault.raw_account;
    case "cosmos":
      return vault.main_address;
    case "arch":
      return vault.arch_address;
    case "utxo":
      return vault.default_address.address.address;
    case "black_box":
    case "exchange":
      return undefined;
    default:
      return vault.address;
  }
}

/** The user that holds the vault's key (MPC vaults), as the API reports it. */
export function keyHolder(vault: VaultRecord): { id: string; user_type: string } | undefined {
  return keyVault(vault)?.key_holder;
}

/** Bech32 address per chain unique id of a cosmos vault. */
function chainAddressesOf(vault: VaultRecord): Record<string, string> | undefined {
  if (!isModelledVault(vault) || vault.type !== "cosmos" || !vault.chains_addresses) return undefined;
  return Object.fromEntries(vault.chains_addresses.map((entry) => [entry.chain, entry.address]));
}

/**
 * The fields every view of a vault shows, read from the API's record: what programs use, so each is its own
 * `Vault` output. The rest are in {@link vaultDetailFields}.
 */
export const vaultFields = {
  /** Current name of the vault. */
  name: field(z.string(), (vault: VaultRecord) => vault.name),
  /** Vault type. */
  type: field(z.string(), (vault: VaultRecord) => vault.type),
  /** Lifecycle state: `active`, or `archived` after a destroy or an out-of-band archive. */
  state: field(z.string(), (vault: VaultRecord) => vault.state),
  /**
   * The vault's main address, for types that have one: the account address (evm, solana, aptos, sui,
   * starknet, stellar, stacks, tron, canton, safe), the raw account for ton, the main address for cosmos, the
   * Arch address for arch, and the default address for utxo. Undefined for black_box.
   */
  address: field(z.string().optional(), mainAddress),
  /** UTXO chain unique id (utxo vaults). */
  chain: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "utxo" ? vault.chain.unique_id : undefined,
  ),
  /** Key type (black_box vaults). */
  keyType: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "black_box" ? vault.details.type : undefined,
  ),
};

/**
 * The other fields of a vault: times, key material and the addresses of particular vault types. A `Vault` shows
 * them in one structured output, `details`, rather than one output each: every declared output costs the
 * program an `Output` per resource, and most of these apply to one or two vault types only.
 */
export const vaultDetailFields = {
  /** Creation time (ISO-8601). */
  createdAt: field(z.string(), (vault: VaultRecord) => vault.created_at),
  /** Last modification time (ISO-8601). */
  modifiedAt: field(z.string(), (vault: VaultRecord) => vault.modified_at),
  /** Base64 public key of the vault (MPC vaults). */
  publicKeyCompressed: field(
    z.string().optional(),
    (vault: VaultRecord) =>
      keyVault(vault)?.public_key_compressed ?? unmodelledString(vault, "public_key_compressed"),
  ),
  /** BIP-32 derivation path of the vault key (MPC vaults). */
  derivationPath: field(z.string().optional(), (vault: VaultRecord) => {
    const key = keyVault(vault);
    return (
      key?.derivation_info?.derivation_path ??
      key?.derivation_path ??
      unmodelledString(vault, "derivation_path")
    );
  }),
  /** Name of the default address (utxo vaults). */
  defaultAddressName: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "utxo" ? vault.default_address.name : undefined,
  ),
  /** Id of the default address (utxo vaults). */
  defaultAddressId: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "utxo" ? vault.default_address.id : undefined,
  ),
  /** The name the API gives the next address created without a name (utxo vaults). */
  nextAddressName: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "utxo" ? vault.default_next_address_name : undefined,
  ),
  /** EVM-style address of a cosmos vault: 40 hex digits without `0x`, as the API gives it. */
  evmAddress: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "cosmos" ? vault.evm_address : undefined,
  ),
  /** Bech32 address per chain unique id (cosmos vaults). */
  chainAddresses: field(z.record(z.string(), z.string()).optional(), chainAddressesOf),
  /** Bounceable base64url account (ton vaults). */
  bounceableAddress: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "ton" ? vault.base64_url_bounceable_account : undefined,
  ),
  /** Non-bounceable base64url account (ton vaults). */
  nonBounceableAddress: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "ton" ? vault.base64_url_non_bounceable_account : undefined,
  ),
  /** Activation state of a starknet vault: `inactive`, `activating` or `active`. */
  activationState: field(z.string().optional(), (vault: VaultRecord) =>
    isModelledVault(vault) && vault.type === "starknet" ? vault.activation_state : undefined,
  ),
  /** `native` (key generated by the platform) or `imported`. */
  originType: field(
    z.string().optional(),
    (vault: VaultRecord) => keyVault(vault)?.origin_type ?? unmodelledString(vault, "origin_type"),
  ),
};

/** The {@link vaultFields} of one vault. */
export type VaultFields = Projected<typeof vaultFields>;

/** The fields of a vault beyond its main ones: the `details` output of a `Vault` (see `vaultDetailFields`). */
export type VaultDetails = Projected<typeof vaultDetailFields>;

/** Reads the {@link vaultFields} of a vault record. */
export function readVaultFields(vault: VaultRecord): VaultFields {
  return project(vaultFields, vault);
}

/** Reads the {@link vaultDetailFields} of a vault record. */
export function readVaultDetails(vault: VaultRecord): VaultDetails {
  return project(vaultDetailFields, vault);
}
