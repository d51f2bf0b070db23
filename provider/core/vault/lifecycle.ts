/**
 * The lifecycle of a `Vault` after its create (./create.ts): read, update and delete.
 *
 * `read` (refresh) reports the live vault: a rename shows as drift, an archived vault stays in state with
 * `state: "archived"` (the next `up` restores it), and only a vault that is really gone leaves state.
 * `update` restores an archived vault, renames, and proposes vault-group changes. `delete` archives: the API
 * has no delete. A vault already archived or gone is fine.
 */
import type { CustodyClient, Vault as VaultRecord } from "@pulumi-custody/sdk";
import { describeError, isConflict } from "../api-errors";
import { declaredAfterUpdate } from "../fields/state";
import { providerClient } from "../settings/provider-process";
import { nameHolder, vaultsNamed } from "./acquire";
import { archive, archiveOnly, getVault } from "./by-id";
import { vaultDeclaration } from "./declaration";
import { confirmPendingProposal, reconcileVaultGroups } from "./membership";
import { carriedFromOutputs, liveInputs, vaultOutputs } from "./outputs";
import type { VaultInputs, VaultOutputs } from "./types";

/** Refresh: the live vault as outputs and as inputs; `{}` (no id) when it is gone. */
export async function readVault(
  id: string,
  props: Record<string, unknown>,
): Promise<{ id?: string; props?: VaultOutputs; inputs?: Record<string, unknown> }> {
  const client = await providerClient();
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
  const client = await providerClient();
  let vault = await getVault(client, id);
  if (!vault) {
    throw new Error(
      `Vault "${String(olds.name ?? news.name)}" (${id}) no longer exists. Run \`pulumi refresh\` to drop it ` +
        "from the state; the next `up` then creates it again.",
    );
  }
  let changed = false;
  // A vault declared archived is renamed and regrouped first, while it is active, and archived last.
  if (vault.state === "archived" && news.archived !== true) {
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
  if (news.archived === true && vault.state !== "archived") vault = await archive(client, vault);

  return {
    outs: vaultOutputs(vault, {
      ...carried,
      declared: declaredAfterUpdate(vaultDeclaration, carried.declared, news),
      pendingProposal: proposal,
    }),
  };
}

async function rename(client: CustodyClient, vault: VaultRecord, name: string): Promise<void> {
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

/**
 * Destroy: archives the vault, one request. Missing or already archived is success: only when the archive is
 * refused is the vault read, to learn whether the goal was reached anyway.
 */
export async function deleteVault(id: string, props: Record<string, unknown>): Promise<void> {
  const client = await providerClient();
  // Nothing is read first or back: a destroy has no outputs, and one archive per vault is its whole cost (issue 27).
  await archiveOnly(client, { id, name: typeof props.name === "string" ? props.name : id });
}
