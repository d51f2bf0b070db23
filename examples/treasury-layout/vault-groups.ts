/**
 * Vault-group ids by name. The custody API has no endpoint that lists vault groups (they are managed in the
 * console), but every vault record names the groups it belongs to: the groups in use are read from there.
 */
import * as pulumi from "@pulumi/pulumi";
import { connect } from "pulumi-custody";

/** The vault groups that active vaults belong to, by name. Uses the stack's `custody:*` settings. */
export async function vaultGroupIdsByName(): Promise<Map<string, string>> {
  // The same door as the provider's: the stack config, else the environment, verified once. The client is
  // shared with the data sources of this program, so it is not closed here.
  const { client } = await connect({ config: (key) => pulumi.runtime.getConfig(key) });
  const groups = new Map<string, string>();
  for await (const vault of client.vaults.listAll({ vault_states: ["active"] })) {
    for (const group of vault.vault_groups ?? []) groups.set(group.name, group.id);
  }
  return groups;
}
