/** The plain (resolved) inputs and outputs of the `VaultAddress` resource. */

/** Address types the API can create. */
export type CreatableAddressType = "legacy" | "segwit" | "taproot";

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

/** The outputs (state) of a `VaultAddress`. The resource id is the address id. */
export interface VaultAddressOutputs {
  /** Id of the vault that owns the address. */
  vaultId: string;
  /** Current name of the address. */
  name: string;
  /** The address itself (what senders pay to). */
  address: string;
  /** Address type: `legacy`, `segwit`, `taproot` (also `p2sh` or `merkleroot` for adopted ones). */
  addressType: string;
  /** UTXO chain unique id, e.g. `bitcoin_mainnet`. */
  chain: string;
  /** BIP-32 derivation path of the address key, e.g. `m/84/0/0/0/3`. */
  derivationPath: string;
  /** Base64 public key of the address. */
  publicKeyCompressed?: string;
  /** Creation time (ISO-8601). */
  createdAt: string;
  /** Last modification time (ISO-8601). */
  modifiedAt?: string;
  /** Whether the resource created the address or adopted one that had its name. */
  acquisition: AddressAcquisition;
  /** The address carries the resource's default name (so the default keeps it, and drift renames it back). */
  nameIsDefault?: true;
}
