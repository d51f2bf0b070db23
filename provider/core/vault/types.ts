/** The plain (resolved) inputs and outputs of the `Vault` resource, as the provider methods see them. */

import type {
  BlackBoxKeyType as BlackBoxKeyTypeSchema,
  CREATABLE_VAULT_TYPES,
  UTXO_CHAIN_IDS,
} from "@pulumi-custody/sdk";
import type { z } from "zod";
import type { DeclaredInputsOf, DeclaredOutputsOf } from "../fields/declare";
import type { vaultDeclaration } from "./declaration";
import type { pendingVaultGroupProposalSchema, VAULT_ACQUISITIONS } from "./state-values";

export type { VaultDetails } from "./fields";

/** Vault types a `Vault` resource can declare: every type the API can create (`exchange` cannot be). */
export type CreatableVaultType = (typeof CREATABLE_VAULT_TYPES)[number];

/** UTXO chains a `utxo` vault can live on. */
export type UtxoChain = (typeof UTXO_CHAIN_IDS)[number];

/** Key types of a `black_box` vault. */
export type CreatableKeyType = (typeof BlackBoxKeyTypeSchema.options)[number];

/**
 * The inputs of a `Vault` after `check` (normalized: UUIDs lower-cased, unset options left out), one per input of
 * its declaration (./declaration.ts), with its documentation.
 */
export interface VaultInputs extends DeclaredInputsOf<typeof vaultDeclaration> {}

/** A vault-group change proposal that was submitted and is waiting for approval. */
export interface PendingVaultGroupProposal extends z.output<typeof pendingVaultGroupProposalSchema> {}

/** How the resource came to manage its vault. */
export type VaultAcquisition = (typeof VAULT_ACQUISITIONS)[number];

/**
 * The outputs (state) of a `Vault`, one per output of its declaration (./declaration.ts): the vault's fields
 * (read from the API's record; the rarer ones in `details`), the declared inputs the API does not report, and
 * the resource's own state. Field names are camelCase; the resource id is the vault id.
 */
export interface VaultOutputs extends DeclaredOutputsOf<typeof vaultDeclaration> {}

/**
 * What a `Vault` keeps beside the vault's own fields and the declared inputs: membership as the provider tracks
 * it (the API shows approved groups only), and how the resource came to manage the vault.
 */
export type VaultResourceState = Pick<
  VaultOutputs,
  "vaultGroupIds" | "pendingVaultGroupIds" | "pendingRemovalVaultGroupIds" | "pendingProposal" | "acquisition"
>;
