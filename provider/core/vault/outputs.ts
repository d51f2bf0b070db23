/**
 * From the API's vault record (snake_case, a union on `type`) to the resource's outputs (camelCase), and to
 * the inputs that describe the live vault (what `read` reports so that drift shows). What each output is comes
 * from the declaration (./declaration.ts); what is computed here is the resource's own state: the membership
 * and the proposal that waits for approval.
 */
import type { Vault as VaultRecord } from "@pulumi-custody/sdk";
import { withoutUndefined } from "../field-tables";
import { outputNames } from "../fields/declare";
import { carriedInputs, declaredOutputs, liveInputs as liveInputsOf } from "../fields/state";
import { vaultDeclaration } from "./declaration";
import { liveVaultGroupIds } from "./fields";
import { pendingAgainstLive, recordedProposal } from "./group-ids";
import type {
  PendingVaultGroupProposal,
  VaultAcquisition,
  VaultInputs,
  VaultOutputs,
  VaultResourceState,
} from "./types";

/** Every output of a `Vault`, for the resource to declare, in the declaration's order. */
export const VAULT_OUTPUT_NAMES = outputNames(vaultDeclaration) as readonly (keyof VaultOutputs)[];

/** What the outputs keep that the API does not return. */
export interface CarriedState {
  /** The declared inputs the outputs keep (`adoptExisting`, `archived`, `endUserId`, `vaultGroupIds`, …). */
  declared: Partial<VaultInputs>;
  /** The proposal submitted and maybe still pending. */
  pendingProposal?: PendingVaultGroupProposal;
  /** Membership last seen, used when the API omits it. */
  previousVaultGroupIds?: string[];
  /** How the resource got the vault. */
  acquisition: VaultAcquisition;
}

/** Reads what an earlier create/update/read stored, for the next one to carry forward. */
export function carriedFromOutputs(
  outputs: Record<string, unknown>,
  fallback: VaultAcquisition,
): CarriedState {
  const acquisition = outputs.acquisition;
  return {
    declared: carriedInputs(vaultDeclaration, outputs) as Partial<VaultInputs>,
    pendingProposal: recordedProposal(outputs.pendingProposal),
    previousVaultGroupIds: Array.isArray(outputs.vaultGroupIds)
      ? outputs.vaultGroupIds.filter((x): x is string => typeof x === "string")
      : undefined,
    acquisition:
      acquisition === "created" || acquisition === "restored" || acquisition === "adopted"
        ? acquisition
        : fallback,
  };
}

/** The outputs for a vault record. Unset fields are left out (the engine's state has no `undefined`). */
export function vaultOutputs(vault: VaultRecord, carried: CarriedState): VaultOutputs {
  const groups = liveVaultGroupIds(vault) ?? carried.previousVaultGroupIds ?? [];
  // The API shows current groups only; what waits for approval is what the provider recorded.
  const pending = pendingAgainstLive(carried.pendingProposal, groups);
  const state: VaultResourceState = {
    vaultGroupIds: groups,
    pendingVaultGroupIds: pending.adding,
    pendingRemovalVaultGroupIds: pending.removing,
    pendingProposal: pending.proposal,
    acquisition: carried.acquisition,
  };
  const outputs = {
    ...declaredOutputs(vaultDeclaration, vault, carried.declared),
    ...withoutUndefined(state),
  };
  // In the declaration's order, as the resource declares them.
  return Object.fromEntries(
    VAULT_OUTPUT_NAMES.filter((name) => name in outputs).map((name) => [
      name,
      (outputs as Record<string, unknown>)[name],
    ]),
  ) as unknown as VaultOutputs;
}

/** The outputs of a vault a create just acquired, from its record and the declared inputs. */
export function outputsFor(
  vault: VaultRecord,
  inputs: VaultInputs,
  acquisition: VaultAcquisition,
  pendingProposal: VaultOutputs["pendingProposal"],
): VaultOutputs {
  return vaultOutputs(vault, { declared: inputs, pendingProposal, acquisition });
}

/**
 * The outputs of a vault known only from its id and the declared inputs (its create's answer broke the
 * documented shape, ../off-shape-answer.ts): the vault's other fields are left out until a refresh reads them.
 */
export type DeclaredVaultOutputs = Pick<
  VaultOutputs,
  "name" | "type" | "state" | "adoptExisting" | "acquisition"
> &
  Partial<VaultOutputs>;

/**
 * What a create knows of a vault whose answer could not be read: the declared inputs and the state it left the
 * vault in. The membership is not recorded, so a declared group change shows in the next `diff`.
 */
export function declaredVaultOutputs(inputs: VaultInputs, state: string): DeclaredVaultOutputs {
  return {
    ...declaredOutputs(vaultDeclaration, undefined, inputs),
    state,
    acquisition: "created" as const,
  } as DeclaredVaultOutputs;
}

/**
 * The inputs that would declare the vault as it is now. `read` returns them so that the engine's diff
 * display shows live values against the program's (an out-of-band rename appears as `~ name`).
 */
export function liveInputs(outputs: VaultOutputs): Record<string, unknown> {
  return liveInputsOf(vaultDeclaration, outputs as unknown as Record<string, unknown>);
}
