/**
 * `pulumi-custody/data-sources`: every data source, by name, as data: what the provider plugin serves as
 * functions (`custody:index:getVaults` …) and declares in its schema. Programs call the functions themselves
 * (`getVaults`, `getVaultsOutput`), exported by `pulumi-custody`. Apart from the runtime core
 * (`pulumi-custody/core`), so that the dynamic provider's process, which never calls a data source, does not
 * load them.
 *
 * @packageDocumentation
 */
import { blockchainDataSources } from "./blockchains";
import type { DataSourceEntry } from "./define";
import { userDataSources } from "./users";
import { vaultAddressDataSources } from "./vault-addresses";
import { vaultAssetDataSources } from "./vault-assets";
import { vaultDataSources } from "./vaults";

export type { DataSourceEntry, DataSourceSpec } from "./define";
export type { DataSourceOptions } from "./options";

/** Every data source, by name. */
export const DATA_SOURCES: Readonly<Record<string, DataSourceEntry>> = Object.fromEntries(
  [
    ...vaultDataSources,
    ...vaultAddressDataSources,
    ...vaultAssetDataSources,
    ...userDataSources,
    ...blockchainDataSources,
  ].map((entry) => [entry.spec.name, entry]),
);
