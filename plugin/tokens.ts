/** The package name and type tokens of the `custody` provider plugin (provider/resource-types.ts). */
import { PLUGIN_PACKAGE, pluginResourceType } from "../provider/resource-types";

/** Package name: config keys are `custody:<key>`, tokens `custody:index:<Name>`. */
export const PACKAGE = PLUGIN_PACKAGE;

/** Token of the vault resource. */
export const VAULT_TOKEN = pluginResourceType("Vault");

/** Token of the vault address resource. */
export const VAULT_ADDRESS_TOKEN = pluginResourceType("VaultAddress");
