import * as pulumi from "@pulumi/pulumi";
import { vaultAddressResource } from "../core/resources";
import type { vaultAddressDeclaration } from "../core/vault-address/declaration";
import type { VaultAddressOutputs } from "../core/vault-address/types";
import { vaultAddressProvider } from "../shims";
import { type ArgsOf, dynamicResourceArgs } from "./declare";
import { withoutPromiseStacks } from "./promise-stacks";

/**
 * The arguments of a {@link VaultAddress}: one per input of its declaration
 * (provider/core/vault-address/declaration.ts) that a program declares, with its documentation.
 */
export interface VaultAddressArgs extends ArgsOf<typeof vaultAddressDeclaration> {}

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
    const resourceArgs = dynamicResourceArgs(
      vaultAddressResource,
      name,
      {
        ...args,
        // Undeclared names default to the resource name; the flag tells the runtime it was not declared.
        name: args.name ?? name,
        nameIsDefault: args.name === undefined ? true : undefined,
      },
      opts,
    );
    // The SDK's per-output promise stacks cost most of the program's CPU per resource (promise-stacks.ts).
    const restore = withoutPromiseStacks();
    try {
      super(vaultAddressProvider, ...resourceArgs);
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
