/**
 * The bulk import file of an organization's vaults, for `pulumi import --file`: one `custody:index:Vault` per
 * vault the import takes (and, on request, one `custody:index:VaultAddress` per address of its UTXO vaults),
 * named as `custody import` names them (cli/import/names.ts). It is the file `custody import` writes beside the
 * program; `custody import-file` writes it alone.
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import { vaultAddressResource, vaultResource } from "pulumi-custody/core";
import type { ImportFilter } from "../import/filter";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../import/plugin-source";
import { type Selection, selectForImport } from "../import/select";
import type { StackHoldings } from "../import/stacks";

/** One resource of the import file (the format `pulumi import --file` reads). */
export interface ImportEntry {
  /** Resource type token. */
  type: string;
  /** Resource name in the program. */
  name: string;
  /** Import id: the vault id, or `<vault id>/<address id>` for an address. */
  id: string;
  /**
   * The plugin's version, which the import's provider uses: without it the engine looks up the latest release
   * of github.com/pulumi/pulumi-custody, which is not this project's.
   */
  version: string;
  /** Where the engine downloads that version of the plugin (the schema's `pluginDownloadURL`). */
  pluginDownloadUrl: string;
}

/** Options of {@link importFile}. */
export interface ImportFileOptions {
  /** Add the addresses of UTXO vaults too. */
  withAddresses?: boolean;
  /** Which vaults; by default every active one. */
  filter?: ImportFilter;
  /** Stacks whose vaults and addresses are left out. */
  managedBy?: readonly StackHoldings[];
  /** Resource names already used in the stack imported into. */
  takenNames?: ReadonlySet<string>;
}

/** The plugin each entry names, as the generated SDKs name it for their resources. */
const PLUGIN_SOURCE = { version: PLUGIN_VERSION, pluginDownloadUrl: PLUGIN_DOWNLOAD_URL } as const;

/** The import file of a selection: its vaults, then its addresses. */
export function importFileOf(selection: Selection): { resources: ImportEntry[] } {
  return {
    resources: [
      ...selection.vaults.map((p) => ({
        type: vaultResource.pluginType,
        name: p.name,
        id: p.vault.id,
        ...PLUGIN_SOURCE,
      })),
      ...selection.addresses.map((a) => ({
        type: vaultAddressResource.pluginType,
        name: a.name,
        id: `${a.address.vault.id.toLowerCase()}/${a.address.id}`,
        ...PLUGIN_SOURCE,
      })),
    ],
  };
}

/**
 * The import file (`{ resources: [...] }`) of the vaults the client's organization has that the filter takes
 * (every active one by default). Those a program cannot declare as they are are left out: `custody import` and
 * `custody import-file` list them with the reason.
 */
export async function importFile(
  client: CustodyClient,
  options: ImportFileOptions = {},
): Promise<{ resources: ImportEntry[] }> {
  const selection = await selectForImport(client, {
    filter: options.filter ?? { states: ["active"] },
    withAddresses: options.withAddresses,
    managedBy: options.managedBy,
    takenNames: options.takenNames,
  });
  return importFileOf(selection);
}
