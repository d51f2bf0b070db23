/** The plain (resolved) inputs and outputs of the `VaultAddress` resource. */
import type { CreatableUtxoAddressType } from "@pulumi-custody/sdk";
import type { VaultAddressFields } from "./fields";

/** Address types the API can create. */
export type CreatableAddressType = (typeof CreatableUtxoAddressType.options)[number];

/** The inputs of a `VaultAddress` after `check`. */
export interface VaultAddressInputs {
  /** Id of the UTXO vault that owns the address. Changing it replaces the address. */
  vaultId: string;
  /** Address name, unique within the vault; the API picks the vault's next default name when unset. */
  name?: string;
  /** The name is the resource's default (the resource name), not declared by the program. */
  nameIsDefault?: true;
  /** Address type; the API's default when unset. Changing it replaces the address. */
  addressType?: CreatableAddressType;
}

/** How the resource came to manage its address. */
export type AddressAcquisition = "created" | "adopted";

/** What a `VaultAddress` keeps beside the address's own fields. */
export interface VaultAddressResourceState {
  /** Whether the resource created the address or adopted one that had its name. */
  acquisition: AddressAcquisition;
  /** The address carries the resource's default name (so the default keeps it, and drift renames it back). */
  nameIsDefault?: true;
}

/**
 * The outputs (state) of a `VaultAddress`: the address's fields (read by `vaultAddressFields` in
 * core/vault-address/fields.ts) and the resource's own state. The resource id is the address id.
 */
export interface VaultAddressOutputs extends VaultAddressFields, VaultAddressResourceState {}
