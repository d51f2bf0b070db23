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
// The public API, listed in provider/README.md; nothing else is exported (mappers and helpers stay inside).

export { type CustodyConnection, connect } from "./core/settings/connect";
export {
  type ConfigLookup,
  type CustodySettings,
  CustodySettingsError,
  type SettingsSource,
} from "./core/settings/sources";
export type {
  CreatableKeyType,
  CreatableVaultType,
  PendingVaultGroupProposal,
  UtxoChain,
  VaultAcquisition,
  VaultDetails,
  VaultInputs,
  VaultOutputs,
} from "./core/vault/types";
export type {
  AddressAcquisition,
  CreatableAddressType,
  VaultAddressInputs,
  VaultAddressOutputs,
} from "./core/vault-address/types";
export {
  type BlockchainExplorerInfo,
  type BlockchainInfo,
  type EvmFeeLevel,
  type EvmFees,
  type GetBlockchainsArgs,
  type GetSuggestedFeesArgs,
  getBlockchains,
  getBlockchainsOutput,
  getSuggestedFees,
  getSuggestedFeesOutput,
  type SuggestedFee,
} from "./data-sources/blockchains";
export type { DataSourceOptions, InputsOf } from "./data-sources/options";
export {
  type GetUserArgs,
  type GetUserGroupArgs,
  type GetUserGroupsArgs,
  type GetUsersArgs,
  getUser,
  getUserGroup,
  getUserGroupOutput,
  getUserGroups,
  getUserGroupsOutput,
  getUserOutput,
  getUsers,
  getUsersOutput,
  type UserGroupInfo,
  type UserGroupMembership,
  type UserGroupProposedChange,
  type UserInfo,
} from "./data-sources/users";
export {
  type GetVaultAddressesArgs,
  getVaultAddresses,
  getVaultAddressesOutput,
  type VaultAddressInfo,
} from "./data-sources/vault-addresses";
export {
  type AssetBalances,
  type GetVaultAssetArgs,
  type GetVaultAssetsArgs,
  getVaultAsset,
  getVaultAssetOutput,
  getVaultAssets,
  getVaultAssetsOutput,
  type OwnedAssetInfo,
} from "./data-sources/vault-assets";
export {
  type BalanceExport,
  type ExportVaultBalancesArgs,
  exportVaultBalances,
  exportVaultBalancesOutput,
  type GetVaultArgs,
  type GetVaultsArgs,
  getVault,
  getVaultOutput,
  getVaults,
  getVaultsOutput,
  type VaultGroupInfo,
  type VaultInfo,
} from "./data-sources/vaults";
export { Vault, type VaultArgs, type VaultOutputProperties } from "./resources/vault";
export {
  VaultAddress,
  type VaultAddressArgs,
  type VaultAddressOutputProperties,
} from "./resources/vault-address";
export { vaultAddressProvider, vaultProvider } from "./shims";
