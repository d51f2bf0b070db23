/**
 * Bringing a vault's group membership to what the program declares, through one change proposal, and
 * noticing when an earlier proposal was approved or dropped.
 */
import type { CustodyClient } from "../../sdk";
import { idsMinus, pendingAgainstLive, proposalFor, proposalShownByApi, sameIdSet } from "./vault-groups";
import type { ApiVault } from "./vault-lookup";
import { liveVaultGroupIds } from "./vault-outputs";
import type { PendingVaultGroupProposal } from "./vault-types";

/**
 * Submits a proposal when the declared groups differ from the live membership with what is already pending
 * applied. Returns the proposal now pending (the new one, the earlier one, or none).
 */
export async function reconcileVaultGroups(
  client: CustodyClient,
  vault: ApiVault,
  declared: readonly string[] | undefined,
  recorded: PendingVaultGroupProposal | undefined,
  now: () => Date = () => new Date(),
): Promise<PendingVaultGroupProposal | undefined> {
  const live = liveVaultGroupIds(vault) ?? [];
  const pending = pendingAgainstLive(recorded, live);
  if (declared === undefined) return pending.proposal;

  const effective = idsMinus([...live, ...pending.adding], pending.removing);
  if (sameIdSet(declared, effective)) return pending.proposal;

  // Relative to the live membership: it replaces whatever an earlier proposal asked for.
  const change = proposalFor(live, declared);
  if (!change) return undefined;
  await client.vaults.submitChangeProposal(vault.id, {
    diff: {
      ...(change.added.length > 0 ? { added_vault_group_ids: change.added } : {}),
      ...(change.removed.length > 0 ? { removed_vault_group_ids: change.removed } : {}),
    },
  });
  return {
    addedVaultGroupIds: change.added,
    removedVaultGroupIds: change.removed,
    submittedAt: now().toISOString(),
  };
}

/**
 * Checks a recorded proposal against the API. When the vault record shows its pending proposal, that is the
 * truth. Otherwise additions still pending are visible through the list filter `vault_group_ids`, which
 * matches current *and pending* groups (spec §4, GET /vaults): when the vault matches none of the groups it
 * should be joining, the proposal was aborted or rejected, and is forgotten so that the next `up` proposes
 * again. A proposal that only removes groups cannot be checked that way and stays recorded until it takes
 * effect or the declaration changes.
 */
export async function confirmPendingProposal(
  client: CustodyClient,
  vault: ApiVault,
  recorded: PendingVaultGroupProposal | undefined,
): Promise<PendingVaultGroupProposal | undefined> {
  const live = liveVaultGroupIds(vault) ?? [];
  const shown = proposalShownByApi(vault);
  if (shown !== undefined) return shown === null ? undefined : pendingAgainstLive(shown, live).proposal;

  const pending = pendingAgainstLive(recorded, live);
  if (!pending.proposal || pending.adding.length === 0) return pending.proposal;
  const page = await client.vaults.list({
    vault_ids: [vault.id],
    vault_group_ids: pending.adding,
    vault_states: ["active", "archived", "pending"],
    size: 1,
  });
  return page.vaults.length > 0 ? pending.proposal : undefined;
}
