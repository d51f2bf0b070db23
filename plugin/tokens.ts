/** The package name and type tokens of the `custody` provider plugin, from the resources' descriptors. */
import { PLUGIN_PACKAGE, vaultAddressResource, vaultResource } from "pulumi-custody/core";

/** Package name: config keys are `custody:<key>`, tokens `custody:index:<Name>`. */
export const PACKAGE = PLUGIN_PACKAGE;

/** Token of the vault resource. */
export const VAULT_TOKEN = vaultResource.pluginType;

/** Token of the vault address resource. */
export const VAULT_ADDRESS_TOKEN = vaultAddressResource.pluginType;
