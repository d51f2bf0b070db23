/**
 * From the API's vault record (snake_case, a union on `type`) to the resource's outputs (camelCase), and to
 * the inputs that describe the live vault (what `read` reports so that drift shows).
 */
import { pendingAgainstLive, recordedProposal } from "./vault-groups";
import type { PendingVaultGroupProposal, VaultAcquisition, VaultOutputs } from "./vault-types";

type ApiRecord = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function obj(value: unknown): ApiRecord | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as ApiRecord)
    : undefined;
}

/**
 * Current vault groups of a vault record. Older responses have no `vault_groups`; then the deprecated single
 * `vault_group` is used, and with neither the membership is unknown (`undefined`), not empty.
 */
export function liveVaultGroupIds(vault: ApiRecord): string[] | undefined {
  if (Array.isArray(vault.vault_groups)) {
    return vault.vault_groups.map((g) => str(obj(g)?.id)).filter((id): id is string => id !== undefined);
  }
  const single = str(obj(vault.vault_group)?.id);
  return single !== undefined ? [single] : undefined;
}

/** The main address of a vault, by type (see `VaultOutputs.address`). */
export function mainAddress(vault: ApiRecord): string | undefined {
  switch (vault.type) {
    case "ton":
      return str(vault.raw_account);
    case "cosmos":
      return str(vault.main_address);
    case "arch":
      return str(vault.arch_address);
    case "utxo":
      return str(obj(obj(vault.default_address)?.address)?.address);
    case "black_box":
    case "exchange":
      return undefined;
    default:
      return str(vault.address);
  }
}

/** What the outputs keep that the API does not return. */
export interface CarriedState {
  /** The `adoptExisting` input. */
  adoptExisting: boolean;
  /** The declared end user. */
  endUserId?: string;
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
export function vaultOutputs(vault: ApiRecord, carried: CarriedState): VaultOutputs {
  const groups = liveVaultGroupIds(vault) ?? carried.previousVaultGroupIds ?? [];
  // The API shows current groups only; what waits for approval is what the provider recorded.
  const pending = pendingAgainstLive(carried.pendingProposal, groups);
  const keyHolder = obj(vault.key_holder);
  const endUserId =
    carried.endUserId ?? (keyHolder?.user_type === "end_user" ? str(keyHolder.id) : undefined);
  const derivationInfo = obj(vault.derivation_info);
  const defaultAddress = obj(vault.default_address);

  const outputs: VaultOutputs = {
    name: String(vault.name),
    type: String(vault.type),
    state: String(vault.state),
    address: mainAddress(vault),
    chain: vault.type === "utxo" ? str(obj(vault.chain)?.unique_id) : undefined,
    keyType: vault.type === "black_box" ? str(obj(vault.details)?.type) : undefined,
    createdAt: String(vault.created_at),
    modifiedAt: String(vault.modified_at),
    vaultGroupIds: groups,
    pendingVaultGroupIds: pending.adding,
    pendingRemovalVaultGroupIds: pending.removing,
    pendingProposal: pending.proposal,
    declaredVaultGroupIds: carried.declaredVaultGroupIds,
    publicKeyCompressed: str(vault.public_key_compressed),
    derivationPath: str(derivationInfo?.derivation_path) ?? str(vault.derivation_path),
    defaultAddressName: str(defaultAddress?.name),
    defaultAddressId: str(defaultAddress?.id),
    nextAddressName: str(vault.default_next_address_name),
    evmAddress: vault.type === "cosmos" ? str(vault.evm_address) : undefined,
    chainAddresses: vault.type === "cosmos" ? chainAddresses(vault.chains_addresses) : undefined,
    bounceableAddress: str(vault.base64_url_bounceable_account),
    nonBounceableAddress: str(vault.base64_url_non_bounceable_account),
    activationState: str(vault.activation_state),
    originType: str(vault.origin_type),
    endUserId,
    adoptExisting: carried.adoptExisting,
    acquisition: carried.acquisition,
  };
  return withoutUndefined(outputs);
}

function chainAddresses(value: unknown): Record<string, string> | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const entry of value) {
    const chain = str(obj(entry)?.chain);
    const address = str(obj(entry)?.address);
    if (chain !== undefined && address !== undefined) out[chain] = address;
  }
  return out;
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
  return inputs;
}

/** Drops keys whose value is `undefined` (protobuf structs cannot hold them). */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
