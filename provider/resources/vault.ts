import * as pulumi from "@pulumi/pulumi";
import { vaultResource } from "../core/resources";
import type { vaultDeclaration } from "../core/vault/declaration";
import { VAULT_NAME_IS_SECRET } from "../core/vault/secret-name";
import type { VaultOutputs } from "../core/vault/types";
import { vaultProvider } from "../shims";
import { type ArgsOf, dynamicResourceArgs } from "./declare";
import { withoutPromiseStacks } from "./promise-stacks";

/**
 * The arguments of a {@link Vault}: one per input of its declaration (provider/core/vault/declaration.ts), with
 * its documentation.
 */
export interface VaultArgs extends ArgsOf<typeof vaultDeclaration> {}

/**
 * A custody vault (`pulumi-nodejs:dynamic/custody:Vault`). The resource id is the vault id.
 *
 * **The custody API cannot delete vaults.** Destroying a `Vault` *archives* it, and a change of `type`,
 * `chain`, `keyType` or `endUserId` replaces it by archiving the old vault first, then creating a new one
 * (with a new address). The preview shows such a replace as a delete-then-create (`+-`) and prints a warning
 * that says the old vault is archived. An archived vault keeps its address and any funds; declaring it again
 * (same name and kind) restores it, so `destroy` followed by `up` gives back the same vault and address. When
 * the service keeps an archived vault's name reserved, an archived vault of another kind that holds the
 * declared name is renamed `<name> (archived <id prefix>)` to free it.
 *
 * Drift: a refresh reports an out-of-band rename or archive as a change (the next `up` renames back or
 * restores); a vault that no longer exists at all leaves the state.
 *
 * @example
 * ```ts
 * const treasury = new Vault("treasury", { name: "Treasury", type: "evm" }, { protect: true });
 * const btc = new Vault("btc", { name: "BTC cold", type: "utxo", chain: "bitcoin_mainnet" });
 * export const treasuryAddress = treasury.address;
 * ```
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the base constructor assigns every output property
export class Vault extends pulumi.dynamic.Resource {
  /**
   * Declares a vault.
   * @param name The Pulumi resource name (part of the URN), not the vault name.
   * @param args The vault's inputs.
   * @param opts Resource options; `protect: true` is recommended for vaults that hold funds.
   */
  constructor(name: string, args: VaultArgs, opts?: pulumi.CustomResourceOptions) {
    const resourceArgs = dynamicResourceArgs(vaultResource, name, { ...args }, opts);
    // The dynamic provider receives a secret name as plain text (the engine strips secrets for it), so it is
    // told here, to keep the name out of its notices; absent, not false, for a name that is not secret.
    resourceArgs[1][VAULT_NAME_IS_SECRET] = nameIsSecret(args.name);
    // The SDK's per-output promise stacks cost most of the program's CPU per resource (promise-stacks.ts).
    const restore = withoutPromiseStacks();
    try {
      super(vaultProvider, ...resourceArgs);
    } finally {
      restore();
    }
  }
}

/** `true` once the name is known to be secret, `undefined` (the input left out) when it is not. */
async function nameIsSecret(name: pulumi.Input<string>): Promise<true | undefined> {
  return (await pulumi.isSecret(pulumi.output(name))) ? true : undefined;
}

/** The outputs of a {@link Vault} as properties (see {@link VaultOutputs} for each one). */
export type VaultOutputProperties = { readonly [K in keyof VaultOutputs]-?: pulumi.Output<VaultOutputs[K]> };

// The class gets its output properties from the one definition of the outputs, not from a copy of the list.
export interface Vault extends VaultOutputProperties {}
