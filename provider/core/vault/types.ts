/** The plain (resolved) inputs and outputs of the `Vault` resource, as the provider methods see them. */

import type {
  BlackBoxKeyType as BlackBoxKeyTypeSchema,
  CREATABLE_VAULT_TYPES,
  UTXO_CHAIN_IDS,
} from "@pulumi-custody/sdk";
import type { z } from "zod";
import type { VaultDetails, VaultFields } from "./fields";
import type { pendingVaultGroupProposalSchema, VAULT_ACQUISITIONS } from "./state-values";

export type { VaultDetails } from "./fields";

/** Vault types a `Vault` resource can declare: every type the API can create (`exchange` cannot be). */
export type CreatableVaultType = (typeof CREATABLE_VAULT_TYPES)[number];

/** UTXO chains a `utxo` vault can live on. */
export type UtxoChain = (typeof UTXO_CHAIN_IDS)[number];

/** Key types of a `black_box` vault. */
export type CreatableKeyType = (typeof BlackBoxKeyTypeSchema.options)[number];

/** The inputs of a `Vault` after `check` (normalized: UUIDs lower-cased, unset options left out). */
export interface VaultInputs {
  /** Vault name; unique among the organization's vaults that are not archived. */
  name: string;
  /**
   * Vault type. Changing it replaces the vault (the old one is archived). `exchange` (which the API cannot
   * create) and `safe` are adopted only (`adoptExisting: true`).
   */
  type: CreatableVaultType | "exchange";
  /** UTXO chain; required for `utxo` vaults, not allowed for other types. Changing it replaces the vault. */
  chain?: UtxoChain;
  /** Key type; required for `black_box` vaults, not allowed for other types. Changing it replaces the vault. */
  keyType?: CreatableKeyType;
  /**
   * Vault groups the vault should belong to. Changes go through a change proposal that an approver must
   * accept. Leave unset to leave group membership alone.
   */
  vaultGroupIds?: string[];
  /** End user (consumer wallet) that holds the key. Changing it replaces the vault. */
  endUserId?: string;
  /** Take over an active vault that already has this name instead of failing. Changing it changes nothing. */
  adoptExisting?: boolean;
  /**
   * The vault is archived: `true` archives it and keeps it in the stack; `false` or unset restores it. An update,
   * never a replacement: the same vault, id and address.
   */
  archived?: boolean;
}

/** A vault-group change proposal that was submitted and is waiting for approval. */
export interface PendingVaultGroupProposal extends z.output<typeof pendingVaultGroupProposalSchema> {}

/** How the resource came to manage its vault. */
export type VaultAcquisition = (typeof VAULT_ACQUISITIONS)[number];

/**
 * What a `Vault` keeps beside the vault's own fields: membership as the provider tracks it (the API shows
 * approved groups only), what the program declared, and how the resource came to manage the vault.
 */
export interface VaultResourceState {
  /** Vault groups the vault belongs to now (approved membership). */
  vaultGroupIds: string[];
  /** Groups a pending proposal adds the vault to; empty when nothing waits for approval. */
  pendingVaultGroupIds: string[];
  /** Groups a pending proposal removes the vault from; empty when nothing waits for approval. */
  pendingRemovalVaultGroupIds: string[];
  /** The submitted, not yet approved vault-group proposal, if any. It is not submitted again while pending. */
  pendingProposal?: PendingVaultGroupProposal;
  /** The vault groups the program declares (`vaultGroupIds` input); absent when groups are left alone. */
  declaredVaultGroupIds?: string[];
  /** End user holding the key, as declared. */
  endUserId?: string;
  /**
   * The `archived` input, as declared; absent when the program leaves it out. A refresh reports `archived`
   * only when it was declared, so that neither `archived: false` nor its absence shows as a difference.
   */
  declaredArchived?: boolean;
  /** The `adoptExisting` input, as declared (false when unset). */
  adoptExisting: boolean;
  /** Whether the resource created the vault, restored an archived one, or adopted an active one. */
  acquisition: VaultAcquisition;
}

/**
 * The outputs (state) of a `Vault`: the vault's main fields (read by `vaultFields` in core/vault/fields.ts),
 * the others in `details`, and the resource's own state.
 * Field names are camelCase; the resource id is the vault id.
 */
export interface VaultOutputs extends VaultFields, VaultResourceState {
  /**
   * The vault's other fields: `createdAt`, `modifiedAt`, key material (`publicKeyCompressed`,
   * `derivationPath`, `originType`) and those of particular vault types (utxo `defaultAddressId`,
   * `defaultAddressName`, `nextAddressName`; cosmos `evmAddress`, `chainAddresses`; ton `bounceableAddress`,
   * `nonBounceableAddress`; starknet `activationState`). A field that does not apply is absent.
   */
  details: VaultDetails;
}
