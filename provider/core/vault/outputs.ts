/**
 * From the API's vault record (snake_case, a union on `type`) to the resource's outputs (camelCase), and to
 * the inputs that describe the live vault (what `read` reports so that drift shows).
 */
import type { Vault as VaultRecord } from "@pulumi-custody/sdk";
import { withoutUndefined } from "../field-tables";
import { keyHolder, liveVaultGroupIds, readVaultDetails, readVaultFields, vaultFields } from "./fields";
import { pendingAgainstLive, recordedProposal } from "./group-ids";
import type {
  PendingVaultGroupProposal,
  VaultAcquisition,
  VaultInputs,
  VaultOutputs,
  VaultResourceState,
} from "./types";

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Every output of a `Vault`, for the resource to declare: the vault's fields, `details` and the resource's state. */
export const VAULT_OUTPUT_NAMES: readonly (keyof VaultOutputs)[] = [
  ...(Object.keys(vaultFields) as (keyof typeof vaultFields)[]),
  "details",
  ...(Object.keys({
    vaultGroupIds: true,
    pendingVaultGroupIds: true,
    pendingRemovalVaultGroupIds: true,
    pendingProposal: true,
    declaredVaultGroupIds: true,
    endUserId: true,
    declaredArchived: true,
    adoptExisting: true,
    acquisition: true,
  } satisfies Record<keyof VaultResourceState, true>) as (keyof VaultResourceState)[]),
];

/** What the outputs keep that the API does not return. */
export interface CarriedState {
  /** The `adoptExisting` input. */
  adoptExisting: boolean;
  /** The declared end user. */
  endUserId?: string;
  /** The declared `archived` (`undefined`: not declared). */
  declaredArchived?: boolean;
  /** The declared vault groups (`undefined`: left alone). */
  declaredVaultGroupIds?: string[];
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
  const declared = outputs.declaredVaultGroupIds;
  const acquisition = outputs.acquisition;
  return {
    adoptExisting: outputs.adoptExisting === true,
    endUserId: str(outputs.endUserId),
    declaredArchived: typeof outputs.declaredArchived === "boolean" ? outputs.declaredArchived : undefined,
    declaredVaultGroupIds: Array.isArray(declared)
      ? declared.filter((x): x is string => typeof x === "string")
      : undefined,
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
  const holder = keyHolder(vault);
  const state: VaultResourceState = {
    vaultGroupIds: groups,
    pendingVaultGroupIds: pending.adding,
    pendingRemovalVaultGroupIds: pending.removing,
    pendingProposal: pending.proposal,
    declaredVaultGroupIds: carried.declaredVaultGroupIds,
    endUserId: carried.endUserId ?? (holder?.user_type === "end_user" ? holder.id : undefined),
    declaredArchived: carried.declaredArchived,
    adoptExisting: carried.adoptExisting,
    acquisition: carried.acquisition,
  };
  return { ...readVaultFields(vault), details: readVaultDetails(vault), ...withoutUndefined(state) };
}

/** The outputs of a vault a create just acquired, from its record and the declared inputs. */
export function outputsFor(
  vault: VaultRecord,
  inputs: VaultInputs,
  acquisition: VaultAcquisition,
  pendingProposal: VaultOutputs["pendingProposal"],
): VaultOutputs {
  return vaultOutputs(vault, {
    adoptExisting: inputs.adoptExisting === true,
    endUserId: inputs.endUserId,
    declaredArchived: inputs.archived,
    declaredVaultGroupIds: inputs.vaultGroupIds,
    pendingProposal,
    acquisition,
  });
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
  return withoutUndefined({
    name: inputs.name,
    type: inputs.type,
    state,
    chain: inputs.chain,
    keyType: inputs.keyType,
    declaredVaultGroupIds: inputs.vaultGroupIds,
    endUserId: inputs.endUserId,
    declaredArchived: inputs.archived,
    adoptExisting: inputs.adoptExisting === true,
    acquisition: "created" as const,
  });
}

/**
 * The inputs that would declare the vault as it is now. `read` returns them so that the engine's diff
 * display shows live values against the program's (an out-of-band rename appears as `~ name`).
 */
export function liveInputs(outputs: VaultOutputs): Record<string, unknown> {
  const inputs: Record<string, unknown> = { name: outputs.name, type: outputs.type };
  if (outputs.chain !== undefined) inputs.chain = outputs.chain;
  if (outputs.keyType !== undefined) inputs.keyType = outputs.keyType;
  if (outputs.declaredVaultGroupIds !== undefined) {
    const removing = new Set(outputs.pendingRemovalVaultGroupIds);
    inputs.vaultGroupIds = [
      ...outputs.vaultGroupIds.filter((id) => !removing.has(id)),
      ...outputs.pendingVaultGroupIds.filter((id) => !outputs.vaultGroupIds.includes(id)),
    ];
  }
  if (outputs.endUserId !== undefined) inputs.endUserId = outputs.endUserId;
  if (outputs.adoptExisting) inputs.adoptExisting = true;
  if (outputs.state === "archived") inputs.archived = true;
  else if (outputs.declaredArchived !== undefined) inputs.archived = false;
  return inputs;
}
