/**
 * Vault-group ids by name. The custody API has no endpoint that lists vault groups (they are managed in the
 * console), but every vault record names the groups it belongs to: the groups in use are read from there.
 */
import * as pulumi from "@pulumi/pulumi";
import { CustodyClient } from "@pulumi-custody/sdk";
import { resolveSettings } from "pulumi-custody";

/** The vault groups that active vaults belong to, by name. Uses the stack's `custody:*` settings. */
export async function vaultGroupIdsByName(): Promise<Map<string, string>> {
  const settings = resolveSettings((key) => pulumi.runtime.getConfig(key));
  const client = new CustodyClient(settings);
  try {
    const groups = new Map<string, string>();
    for await (const vault of client.vaults.listAll({ vault_states: ["active"] })) {
      for (const group of vault.vault_groups ?? []) groups.set(group.name, group.id);
    }
    return groups;
  } finally {
    await client.close();
  }
}
