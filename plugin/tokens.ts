/** The package name and type tokens of the `custody` provider plugin. */

/** Package name: config keys are `custody:<key>`, tokens `custody:index:<Name>`. */
export const PACKAGE = "custody";

/** Token of the vault resource. */
export const VAULT_TOKEN = `${PACKAGE}:index:Vault`;

/** Token of the vault address resource. */
export const VAULT_ADDRESS_TOKEN = `${PACKAGE}:index:VaultAddress`;

/** The resource type of a URN (`urn:pulumi:stack::project::custody:index:Vault::name` → `custody:index:Vault`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  // The type part may be a chain of parent types (`a$b`); the resource's own type is the last one.
  const qualified = parts[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
