/** The plain (resolved) inputs and outputs of the `VaultAddress` resource. */
import type { CreatableUtxoAddressType } from "@pulumi-custody/sdk";
import type { DeclaredInputsOf, DeclaredOutputsOf } from "../fields/declare";
import type { vaultAddressDeclaration } from "./declaration";

/** Address types the API can create. */
export type CreatableAddressType = (typeof CreatableUtxoAddressType.options)[number];

/** The inputs of a `VaultAddress` after `check`, one per input of its declaration (./declaration.ts). */
export interface VaultAddressInputs extends DeclaredInputsOf<typeof vaultAddressDeclaration> {}

/** How the resource came to manage its address. */
export type AddressAcquisition = VaultAddressOutputs["acquisition"];

/**
 * The outputs (state) of a `VaultAddress`, one per output of its declaration (./declaration.ts): the address's
 * fields (read from the API's record) and the resource's own state. The resource id is the address id.
 */
export interface VaultAddressOutputs extends DeclaredOutputsOf<typeof vaultAddressDeclaration> {}
