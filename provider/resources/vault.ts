import * as pulumi from "@pulumi/pulumi";
import type {
  BlackBoxKeyType,
  CreatableVaultType,
  PendingVaultGroupProposal,
  UtxoChain,
  VaultAcquisition,
} from "../runtime/vault-types";
import { vaultProvider } from "../shims";

/** The arguments of a {@link Vault}. */
export interface VaultArgs {
  /**
   * Vault name. Names are unique among the organization's vaults that are not archived. Renaming is an
   * in-place update (`PUT /vaults/{id}/name`).
   */
  name: pulumi.Input<string>;
  /**
   * Vault type: `aptos`, `arch`, `black_box`, `canton`, `cosmos`, `evm`, `safe`, `solana`, `stacks`,
   * `starknet`, `stellar`, `sui`, `ton`, `tron` or `utxo` (`exchange` vaults cannot be created).
   * **Changing it replaces the vault: the old one is archived, not deleted.** `safe` vaults can only be
   * adopted (`adoptExisting: true`).
   */
  type: pulumi.Input<CreatableVaultType>;
  /**
   * UTXO chain, e.g. `bitcoin_mainnet`: required for `utxo` vaults, not allowed for other types.
   * **Changing it replaces the vault (the old one is archived).**
   */
  chain?: pulumi.Input<UtxoChain>;
  /**
   * Key type of a `black_box` vault (`ecdsa_stark`, `ecdsa_secp256k1`, `eddsa_ed25519`, `schnorr_secp256k1`):
   * required for `black_box`, not allowed for other types. **Changing it replaces the vault.**
   */
  keyType?: pulumi.Input<BlackBoxKeyType>;
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
export class Vault extends pulumi.dynamic.Resource {
  /** Current name of the vault. */
  declare readonly name: pulumi.Output<string>;
  /** Vault type. */
  declare readonly type: pulumi.Output<string>;
  /** Lifecycle state: `active`, or `archived` after an out-of-band archive (restored by the next `up`). */
  declare readonly state: pulumi.Output<string>;
  /**
   * The vault's main address, for types that have one: the account address (evm, solana, aptos, sui,
   * starknet, stellar, stacks, tron, canton, safe), the raw account for ton, the main address for cosmos, the
   * Arch address for arch, and the default address for utxo. Undefined for black_box.
   */
  declare readonly address: pulumi.Output<string | undefined>;
  /** UTXO chain unique id (utxo vaults). */
  declare readonly chain: pulumi.Output<string | undefined>;
  /** Key type (black_box vaults). */
  declare readonly keyType: pulumi.Output<string | undefined>;
  /** Creation time (ISO-8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Last modification time (ISO-8601). */
  declare readonly modifiedAt: pulumi.Output<string>;
  /** Vault groups the vault belongs to now (approved membership). */
  declare readonly vaultGroupIds: pulumi.Output<string[]>;
  /** Groups a pending proposal adds the vault to; empty when nothing waits for approval. */
  declare readonly pendingVaultGroupIds: pulumi.Output<string[]>;
  /** Groups a pending proposal removes the vault from; empty when nothing waits for approval. */
  declare readonly pendingRemovalVaultGroupIds: pulumi.Output<string[]>;
  /** The submitted vault-group proposal still waiting for approval, if any. */
  declare readonly pendingProposal: pulumi.Output<PendingVaultGroupProposal | undefined>;
  /** The vault groups the program declares; undefined when membership is left alone. */
  declare readonly declaredVaultGroupIds: pulumi.Output<string[] | undefined>;
  /** Base64 public key of the vault (MPC vaults). */
  declare readonly publicKeyCompressed: pulumi.Output<string | undefined>;
  /** BIP-32 derivation path of the vault key (MPC vaults). */
  declare readonly derivationPath: pulumi.Output<string | undefined>;
  /** Name of the default address (utxo vaults). */
  declare readonly defaultAddressName: pulumi.Output<string | undefined>;
  /** Id of the default address (utxo vaults). */
  declare readonly defaultAddressId: pulumi.Output<string | undefined>;
  /** Name the API gives the next address created without a name (utxo vaults). */
  declare readonly nextAddressName: pulumi.Output<string | undefined>;
  /** EVM-style address of a cosmos vault: 40 hex digits without `0x`, as the API gives it. */
  declare readonly evmAddress: pulumi.Output<string | undefined>;
  /** Bech32 address per chain unique id (cosmos vaults). */
  declare readonly chainAddresses: pulumi.Output<Record<string, string> | undefined>;
  /** Bounceable base64url account (ton vaults). */
  declare readonly bounceableAddress: pulumi.Output<string | undefined>;
  /** Non-bounceable base64url account (ton vaults). */
  declare readonly nonBounceableAddress: pulumi.Output<string | undefined>;
  /** Activation state of a starknet vault: `inactive`, `activating` or `active`. */
  declare readonly activationState: pulumi.Output<string | undefined>;
  /** `native` (key generated by the platform) or `imported`. */
  declare readonly originType: pulumi.Output<string | undefined>;
  /** End user holding the key, as declared. */
  declare readonly endUserId: pulumi.Output<string | undefined>;
  /** The `adoptExisting` input, as declared (false when unset). */
  declare readonly adoptExisting: pulumi.Output<boolean>;
  /** Whether the resource created the vault, restored an archived one, or adopted an active one. */
  declare readonly acquisition: pulumi.Output<VaultAcquisition>;

  /**
   * Declares a vault.
   * @param name The Pulumi resource name (part of the URN), not the vault name.
   * @param args The vault's inputs.
   * @param opts Resource options; `protect: true` is recommended for vaults that hold funds.
   */
  constructor(name: string, args: VaultArgs, opts?: pulumi.CustomResourceOptions) {
    // A fresh object every time: the base constructor adds `__provider` to it.
    const props: Record<string, unknown> = {
      name: args.name,
      type: args.type,
      chain: args.chain,
      keyType: args.keyType,
      vaultGroupIds: args.vaultGroupIds,
      endUserId: args.endUserId,
      adoptExisting: args.adoptExisting,
      // Outputs only: declared here so the engine's values reach the properties above.
      state: undefined,
      address: undefined,
      createdAt: undefined,
      modifiedAt: undefined,
      pendingVaultGroupIds: undefined,
      pendingRemovalVaultGroupIds: undefined,
      pendingProposal: undefined,
      declaredVaultGroupIds: undefined,
      publicKeyCompressed: undefined,
      derivationPath: undefined,
      defaultAddressName: undefined,
      defaultAddressId: undefined,
      nextAddressName: undefined,
      evmAddress: undefined,
      chainAddresses: undefined,
      bounceableAddress: undefined,
      nonBounceableAddress: undefined,
      activationState: undefined,
      originType: undefined,
      acquisition: undefined,
    };
    super(vaultProvider, name, props, opts, "custody", "Vault");
  }
}
