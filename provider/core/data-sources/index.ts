/**
 * Every data source, by name: what the provider plugin serves as functions (`custody:index:getVaults` …) and
 * declares in its schema. The program-side functions (`getVaults`, `getVaultsOutput`) are each module's own
 * exports.
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
