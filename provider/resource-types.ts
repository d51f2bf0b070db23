/**
 * The resource type tokens of the custody resources on both paths, in one place:
 * - the dynamic provider's, `pulumi-nodejs:dynamic/custody:Vault`: `pulumi.dynamic.Resource` builds them from
 *   the module and the type name that `provider/resources` pass it;
 * - the provider plugin's, `custody:index:Vault` (package `custody`, module `index`).
 *
 * What reads a preview or a state (the policy pack, `custody-review`) takes both, so that a stack on either
 * path is checked and reported the same way.
 */

/** The kinds of custody resources, by their type name. */
export type CustodyResourceKind = "Vault" | "VaultAddress";

/** The module of the dynamic resources (the `custody` in `pulumi-nodejs:dynamic/custody:Vault`). */
export const DYNAMIC_RESOURCE_MODULE = "custody";

/** The package name of the provider plugin: config keys are `custody:<key>`, tokens `custody:index:<Name>`. */
export const PLUGIN_PACKAGE = "custody";

/** `pulumi-nodejs:dynamic/custody:<kind>`. */
export function dynamicResourceType(kind: CustodyResourceKind): string {
  return `pulumi-nodejs:dynamic/${DYNAMIC_RESOURCE_MODULE}:${kind}`;
}

/** `custody:index:<kind>`. */
export function pluginResourceType(kind: CustodyResourceKind): string {
  return `${PLUGIN_PACKAGE}:index:${kind}`;
}

/** The type tokens of a vault: the dynamic provider's, then the plugin's. */
export const VAULT_TYPES: readonly string[] = [dynamicResourceType("Vault"), pluginResourceType("Vault")];

/** The type tokens of a vault address: the dynamic provider's, then the plugin's. */
export const VAULT_ADDRESS_TYPES: readonly string[] = [
  dynamicResourceType("VaultAddress"),
  pluginResourceType("VaultAddress"),
];

/** The kind of custody resource a type token names, on either path; `undefined` for any other type. */
export function custodyResourceKind(type: string | undefined): CustodyResourceKind | undefined {
  if (type === undefined) return undefined;
  if (VAULT_TYPES.includes(type)) return "Vault";
  if (VAULT_ADDRESS_TYPES.includes(type)) return "VaultAddress";
  return undefined;
}

/** The resource type of a URN (`urn:pulumi:stack::project::custody:index:Vault::name` → `custody:index:Vault`), on either path. */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  // The type part may be a chain of parent types (`a$b`); the resource's own type is the last one.
  const qualified = parts[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
