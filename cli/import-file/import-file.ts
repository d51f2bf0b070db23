/**
 * The bulk import file of an organization's vaults, for `pulumi import --file`: one `custody:index:Vault`
 * per active vault (and, on request, one `custody:index:VaultAddress` per address of its UTXO vaults), listed
 * through the sdk. Archived vaults are left out: the program would restore them on its next `up`.
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import { vaultAddressResource, vaultResource } from "pulumi-custody/core";

/** One resource of the import file (the format `pulumi import --file` reads). */
export interface ImportEntry {
  /** Resource type token. */
  type: string;
  /** Resource name in the program. */
  name: string;
  /** Import id: the vault id, or `<vault id>/<address id>` for an address. */
  id: string;
}

/** Options of {@link importFile}. */
export interface ImportFileOptions {
  /** Add the addresses of UTXO vaults too. */
  withAddresses?: boolean;
}

/** A resource name from a display name: lower-case words joined by `-`, or `fallback` when nothing is left. */
export function resourceNameOf(display: string, fallback: string): string {
  const slug = display
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? fallback : slug;
}

/** Makes names unique: a repeated name gets the first 8 characters of its id appended. */
function unique(entries: ImportEntry[]): ImportEntry[] {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  return entries.map((e) => {
    if ((counts.get(e.name) ?? 0) < 2) return e;
    const suffix = e.id.slice(e.id.lastIndexOf("/") + 1, e.id.lastIndexOf("/") + 9);
    return { ...e, name: `${e.name}-${suffix}` };
  });
}

/** The import file (`{ resources: [...] }`) of every active vault the client's organization has. */
export async function importFile(
  client: CustodyClient,
  options: ImportFileOptions = {},
): Promise<{ resources: ImportEntry[] }> {
  const vaults: ImportEntry[] = [];
  const addresses: ImportEntry[] = [];
  for await (const vault of client.vaults.listAll({ vault_states: ["active"] })) {
    const vaultName = resourceNameOf(vault.name, `vault-${vault.id.slice(0, 8)}`);
    vaults.push({ type: vaultResource.pluginType, name: vaultName, id: vault.id });
    if (options.withAddresses && vault.type === "utxo") {
      for await (const address of client.vaults.addresses.listAll(vault.id)) {
        addresses.push({
          type: vaultAddressResource.pluginType,
          name: `${vaultName}-${resourceNameOf(address.name, address.id.slice(0, 8))}`,
          id: `${vault.id}/${address.id}`,
        });
      }
    }
  }
  return { resources: unique([...vaults, ...addresses]) };
}
