/**
 * A vault by its id: the batched read (`getVault`) and the archive, shared by create (a vault declared archived
 * is archived last), update and delete.
 */
import type { CustodyClient, Vault as VaultRecord } from "@pulumi-custody/sdk";
import { describeError } from "../api-errors";
import { vaultReads } from "../batch/vault-reads";

/** Archives an active vault (`POST /vaults/{id}/archive`); returns it as it is afterwards (one more read). */
export async function archive(client: CustodyClient, vault: VaultRecord): Promise<VaultRecord> {
  await archiveOnly(client, vault);
  return (await getVault(client, vault.id)) ?? { ...vault, state: "archived" };
}

/** Sends the archive; an answer that it failed is fine when the vault is archived or gone meanwhile. */
export async function archiveOnly(
  client: CustodyClient,
  vault: Pick<VaultRecord, "id" | "name">,
): Promise<void> {
  try {
    await client.vaults.archive(vault.id);
  } catch (err) {
    // Archived or removed meanwhile (or by a lost earlier attempt), or never there: the goal is reached.
    const after = await getVault(client, vault.id).catch(() => ({ state: "unknown" }));
    if (!after || after.state === "archived") return;
    throw new Error(`Cannot archive vault "${vault.name}" (${vault.id}): ${describeError(err)}`);
  }
}

/** States in which a vault no longer exists for any purpose. */
const GONE_STATES = new Set(["deleted", "aborted"]);

/**
 * The vault as the API has it, `undefined` when it is gone. Batched (provider/core/batch/vault-reads.ts): a
 * list request by ids, or the operation's snapshot of the account, answers it; a vault missing from the
 * answer is gone, as a 404 from `GET /vaults/{id}` would say.
 */
export async function getVault(client: CustodyClient, id: string): Promise<VaultRecord | undefined> {
  const vault = await vaultReads(client).byId(id);
  return vault === undefined || GONE_STATES.has(vault.state) ? undefined : vault;
}
