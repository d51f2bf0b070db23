/**
 * `read`, `update` and `delete` of the Vault resource.
 *
 * - `read` (refresh) reports the live vault: a rename shows as drift, an archived vault stays in state with
 *   `state: "archived"` (the next `up` restores it), and only a vault that is really gone leaves state.
 * - `update` restores an archived vault, renames, and proposes vault-group changes.
 * - `delete` archives: the API has no delete. A vault already archived or gone is fine.
 */
import type { CustodyClient } from "../../sdk";
import { describeError, isConflict, isNotFound } from "./api-errors";
import { readyClient } from "./ready-client";
import { type ApiVault, nameHolder, vaultsNamed } from "./vault-lookup";
import { confirmPendingProposal, reconcileVaultGroups } from "./vault-membership";
import { carriedFromOutputs, liveInputs, vaultOutputs } from "./vault-outputs";
import type { VaultInputs, VaultOutputs } from "./vault-types";

/** States in which a vault no longer exists for any purpose. */
const GONE_STATES = new Set(["deleted", "aborted"]);

async function getVault(client: CustodyClient, id: string): Promise<ApiVault | undefined> {
  try {
    const vault = (await client.vaults.get(id)) as unknown as ApiVault;
    return GONE_STATES.has(vault.state) ? undefined : vault;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Refresh: the live vault as outputs and as inputs; `{}` (no id) when it is gone. */
export async function readVault(
  id: string,
  props: Record<string, unknown>,
): Promise<{ id?: string; props?: VaultOutputs; inputs?: Record<string, unknown> }> {
  const client = await readyClient();
  const vault = await getVault(client, id);
  if (!vault) return {};
  const carried = carriedFromOutputs(props, "created");
  carried.pendingProposal = await confirmPendingProposal(client, vault, carried.pendingProposal);
  const outs = vaultOutputs(vault, carried);
  return { id, props: outs, inputs: liveInputs(outs) };
}

/** Brings the vault to the declared inputs; returns all outputs, read back from the API. */
export async function updateVault(
  id: string,
  olds: Record<string, unknown>,
  news: VaultInputs,
): Promise<{ outs: VaultOutputs }> {
  const client = await readyClient();
  let vault = await getVault(client, id);
  if (!vault) {
    throw new Error(
      `Vault "${String(olds.name ?? news.name)}" (${id}) no longer exists. Run \`pulumi refresh\` to drop it ` +
        "from the state; the next `up` then creates it again.",
    );
  }
  let changed = false;
  if (vault.state === "archived") {
    await client.vaults.restore(id);
    changed = true;
  }
  if (vault.name !== news.name) {
    await rename(client, vault, news.name);
    changed = true;
  }
  if (changed) vault = (await getVault(client, id)) ?? vault;

  const carried = carriedFromOutputs(olds, "created");
  const recorded = await confirmPendingProposal(client, vault, carried.pendingProposal);
  const proposal = await reconcileVaultGroups(client, vault, news.vaultGroupIds, recorded);
  if (proposal !== recorded) vault = (await getVault(client, id)) ?? vault;

  return {
    outs: vaultOutputs(vault, {
      ...carried,
      adoptExisting: news.adoptExisting === true,
      endUserId: news.endUserId ?? carried.endUserId,
      declaredVaultGroupIds: news.vaultGroupIds,
      pendingProposal: proposal,
    }),
  };
}

async function rename(client: CustodyClient, vault: ApiVault, name: string): Promise<void> {
  try {
    await client.vaults.rename(vault.id, name);
  } catch (err) {
    if (isConflict(err)) {
      const holder = nameHolder(await vaultsNamed(client, name).catch(() => []));
      throw new Error(
        `Cannot rename vault "${vault.name}" (${vault.id}) to "${name}": ` +
          (holder ? `vault ${holder.id} already has that name.` : "another vault already has that name."),
      );
    }
    throw new Error(`Cannot rename vault "${vault.name}" (${vault.id}) to "${name}": ${describeError(err)}`);
  }
}

/** Destroy: archives the vault. Missing or already archived is success. */
export async function deleteVault(id: string, _props: Record<string, unknown>): Promise<void> {
  const client = await readyClient();
  const vault = await getVault(client, id);
  if (!vault || vault.state === "archived") return;
  try {
    await client.vaults.archive(id);
  } catch (err) {
    // Archived or removed meanwhile (or by a lost earlier attempt): the goal is reached.
    const after = await getVault(client, id).catch(() => vault);
    if (!after || after.state === "archived") return;
    throw new Error(`Cannot archive vault "${vault.name}" (${id}): ${describeError(err)}`);
  }
}
