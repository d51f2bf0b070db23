import * as pulumi from "@pulumi/pulumi";
import { DYNAMIC_RESOURCE_MODULE } from "../resource-types";
import { VAULT_ADDRESS_OUTPUT_NAMES } from "../runtime/vault-address/outputs";
import type { CreatableAddressType, VaultAddressOutputs } from "../runtime/vault-address/types";
import { vaultAddressProvider } from "../shims";
import { withoutPromiseStacks } from "./promise-stacks";

/** The arguments of a {@link VaultAddress}. */
export interface VaultAddressArgs {
  /** Id of the UTXO vault that owns the address (e.g. a `Vault`'s `id`). **Changing it replaces the address.** */
  vaultId: pulumi.Input<string>;
  /**
   * Address name, unique within the vault. Renaming is an in-place update. Default: the Pulumi resource name,
   * so that every address can be found again by name: after a lost create response, and after `destroy`
   * followed by `up` (an address that already has the name is adopted, never duplicated). A default name
   * never renames an address that already has a name of its own (for example one created without a name by
   * an earlier release).
   */
  name?: pulumi.Input<string>;
  /**
   * Address type: `legacy`, `segwit` or `taproot` (`p2sh` cannot be requested); the API's default when unset.
   * **Changing it replaces the address** (the old one cannot be deleted; it is forgotten).
   */
  addressType?: pulumi.Input<CreatableAddressType>;
}

/**
 * An address of a UTXO vault (`pulumi-nodejs:dynamic/custody:VaultAddress`). The resource id is the address id.
 *
 * **The custody API cannot delete addresses.** Destroying a `VaultAddress`, or replacing it, only removes it
 * from the Pulumi state and prints a warning: the address stays in its vault and can still receive funds.
 * Declaring an address with the same name in the same vault adopts it again, so `destroy` followed by `up`
 * gives back the same addresses. Creating an address in a vault that is not a `utxo` vault fails with the
 * API's `invalid_vault_type` message.
 *
 * @example
 * ```ts
 * const btc = new Vault("btc", { name: "BTC cold", type: "utxo", chain: "bitcoin_mainnet" });
 * const deposits = new VaultAddress("deposits", { vaultId: btc.id, name: "Deposits", addressType: "segwit" });
 * export const depositAddress = deposits.address;
 * ```
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the base constructor assigns every output property
export class VaultAddress extends pulumi.dynamic.Resource {
  /**
   * Declares an address of a UTXO vault.
   * @param name The Pulumi resource name (part of the URN), not the address name.
   * @param args The address's inputs.
   * @param opts Resource options.
   */
  constructor(name: string, args: VaultAddressArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is declared (as undefined) so that the engine's values reach the properties; a fresh
    // object every time, because the base constructor adds `__provider` to it.
    const props: Record<string, unknown> = {
      ...Object.fromEntries(VAULT_ADDRESS_OUTPUT_NAMES.map((output) => [output, undefined])),
      vaultId: args.vaultId,
      // Undeclared names default to the resource name; the flag tells the runtime it was not declared.
      name: args.name ?? name,
      nameIsDefault: args.name === undefined ? true : undefined,
      addressType: args.addressType,
    };
    // The SDK's per-output promise stacks cost most of the program's CPU per resource (promise-stacks.ts).
    const restore = withoutPromiseStacks();
    try {
      super(vaultAddressProvider, name, props, opts, DYNAMIC_RESOURCE_MODULE, "VaultAddress");
    } finally {
      restore();
    }
  }
}

/** The outputs of a {@link VaultAddress} as properties (see {@link VaultAddressOutputs} for each one). */
export type VaultAddressOutputProperties = {
  readonly [K in Exclude<keyof VaultAddressOutputs, "nameIsDefault">]-?: pulumi.Output<
    VaultAddressOutputs[K]
  >;
};

// The class gets its output properties from the one definition of the outputs, not from a copy of the list.
export interface VaultAddress extends VaultAddressOutputProperties {}
