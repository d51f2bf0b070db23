/**
 * `pulumi-custody`: Pulumi resources for custody vaults, and data-source functions.
 *
 * - {@link Vault} (`pulumi-nodejs:dynamic/custody:Vault`) and {@link VaultAddress}
 *   (`pulumi-nodejs:dynamic/custody:VaultAddress`): dynamic resources whose providers run in the Pulumi
 *   provider process and read their settings from the stack config `custody:baseUrl`, `custody:accessToken`
 *   (secret), `custody:maxRetries`, `custody:requestsPerMinute`, or the environment (`CUSTODY_BASE_URL`,
 *   `CUSTODY_ACCESS_TOKEN`, `CUSTODY_MAX_RETRIES`, `CUSTODY_REQUESTS_PER_MINUTE`).
 * - Data sources (`getVaults`, `getUsers`, …): plain async functions run in the program, each with an
 *   `…Output` variant that accepts Inputs and returns an Output.
 *
 * @packageDocumentation
 */
export { CustodyConfigError, type CustodySettings, resolveSettings } from "./config";
export * from "./data-sources/blockchains";
export type { DataSourceOptions, InputsOf } from "./data-sources/options";
export * from "./data-sources/users";
export * from "./data-sources/vault-addresses";
export * from "./data-sources/vault-assets";
export * from "./data-sources/vaults";
export { Vault, type VaultArgs } from "./resources/vault";
export { VaultAddress, type VaultAddressArgs } from "./resources/vault-address";
export type {
  AddressAcquisition,
  CreatableAddressType,
  VaultAddressInputs,
  VaultAddressOutputs,
} from "./runtime/vault-address-types";
export type {
  BlackBoxKeyType,
  CreatableVaultType,
  PendingVaultGroupProposal,
  UtxoChain,
  VaultAcquisition,
  VaultInputs,
  VaultOutputs,
} from "./runtime/vault-types";
export { vaultAddressProvider, vaultProvider } from "./shims";
