import * as pulumi from "@pulumi/pulumi";
import { vaultResource } from "../core/resources";
import { VAULT_NAME_IS_SECRET } from "../core/vault/secret-name";
import type { CreatableKeyType, CreatableVaultType, UtxoChain, VaultOutputs } from "../core/vault/types";
import { vaultProvider } from "../shims";
import { dynamicResourceArgs } from "./declare";
import { withoutPromiseStacks } from "./promise-stacks";

/** The arguments of a {@link Vault}. */
export interface VaultArgs {
  /**
   * Vault name. Names are unique among the organization's vaults that are not archived. Renaming is an
   * in-place update (`PUT /vaults/{id}/name`).
   */
  name: pulumi.Input<string>;
  /**
   * Vault type: `aptos`, `arch`, `black_box`, `canton`, `cosmos`, `evm`, `safe`, `solana`, `stacks`,
   * `starknet`, `stellar`, `sui`, `ton`, `tron`, `utxo` or `exchange`.
   * **Changing it replaces the vault: the old one is archived, not deleted.** `safe` and `exchange` vaults
   * can only be adopted (`adoptExisting: true`): the API cannot create exchange vaults, and a Safe vault
   * imports a Safe account that exists outside the platform.
   */
  type: pulumi.Input<CreatableVaultType | "exchange">;
  /**
   * UTXO chain, e.g. `bitcoin_mainnet`: required for `utxo` vaults, not allowed for other types.
   * **Changing it replaces the vault (the old one is archived).**
   */
  chain?: pulumi.Input<UtxoChain>;
  /**
   * Key type of a `black_box` vault (`ecdsa_stark`, `ecdsa_secp256k1`, `eddsa_ed25519`, `schnorr_secp256k1`):
   * required for `black_box`, not allowed for other types. **Changing it replaces the vault.**
   */
  keyType?: pulumi.Input<CreatableKeyType>;
  /**
   * Vault groups the vault should belong to (at least one, no duplicates). A new vault is created in the
   * first group; every other change is submitted as one change proposal that an approver must accept in the
   * console. While it waits, the outputs show it (`pendingProposal`, `pendingVaultGroupIds`) and it is not
   * submitted again. Leave unset to leave membership alone.
   */
  vaultGroupIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** End user (consumer wallet) that holds the key. **Changing it replaces the vault.** */
  endUserId?: pulumi.Input<string>;
  /**
   * Take over an active vault that already has this name (and the same type, chain and key type) instead of
   * failing: the substitute for `pulumi import`, which dynamic resources do not support. Changing it alone
   * changes nothing. Archived vaults of the same name and kind are always restored and reused.
   */
  adoptExisting?: pulumi.Input<boolean>;
  /**
   * Archive the vault and keep it in the stack: the reviewed way to retire a vault (docs/policy.md, "Retiring a
   * vault"). `true` archives it on the next `up`; `false` (or unset) restores it. Either is an update of the same
   * vault, never a replacement: it keeps its id, its address and whatever it holds.
   */
  archived?: pulumi.Input<boolean>;
}

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
