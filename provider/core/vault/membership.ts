/**
 * Vault-group membership. Changes go through a change proposal (`POST /vaults/{id}/proposals`) that someone
 * approves outside the API, so the provider records what it submitted and counts it as done while it waits:
 * the same proposal is never submitted again on every `up`.
 */
import type { CustodyClient, Vault as VaultRecord } from "@pulumi-custody/sdk";
import { describeError, isOutcomeUnknown, isSafeToRepeat, retryAfterSeconds } from "../api-errors";
import { notifyUser } from "../host/notices";
import { pause } from "../reconcile-pause";
import { liveVaultGroupIds } from "./fields";
import { idsMinus, pendingAgainstLive, proposalFor, sameIdSet } from "./group-ids";
import type { PendingVaultGroupProposal } from "./types";

/**
 * Submits a proposal when the declared groups differ from the live membership with what is already pending
 * applied. Returns the proposal now pending (the new one, the earlier one, or none).
 */
export async function reconcileVaultGroups(
  client: CustodyClient,
  vault: VaultRecord,
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
  await submitOnce(client, vault.id, change);
  return {
    addedVaultGroupIds: change.added,
    removedVaultGroupIds: change.removed,
    submittedAt: now().toISOString(),
  };
}

/**
 * Checks a recorded proposal against the API. `GET /vaults/{id}` shows current groups only, so what is
 * pending is what the provider recorded when it submitted. Additions still pending are visible through the
 * list filter `vault_group_ids`, which matches current *and pending* groups: when the vault matches none of the
 * groups it should be joining, the proposal was rejected or aborted, and is forgotten so that the next `up`
 * proposes again. A proposal that only removes groups cannot be checked that way and stays recorded until it
 * takes effect or the declaration changes.
 */
export async function confirmPendingProposal(
  client: CustodyClient,
  vault: VaultRecord,
  recorded: PendingVaultGroupProposal | undefined,
): Promise<PendingVaultGroupProposal | undefined> {
  const live = liveVaultGroupIds(vault) ?? [];
  const pending = pendingAgainstLive(recorded, live);
  if (!pending.proposal || pending.adding.length === 0) return pending.proposal;
  return (await joiningAny(client, vault.id, pending.adding)) ? pending.proposal : undefined;
}

/** Attempts at submitting one proposal, counting only those known not to have arrived. */
const MAX_PROPOSAL_ATTEMPTS = 4;

/**
 * Submits a proposal exactly once. The service has no idempotency id for proposals, so a lost answer is never
 * repeated blindly: additions show up at once through the `vault_group_ids` filter, which tells a proposal
 * that arrived from one that did not. A proposal that only removes groups leaves no such trace; it is
 * recorded as submitted and the user is told to check, because a second one would wait for approval too.
 */
async function submitOnce(
  client: CustodyClient,
  vaultId: string,
  change: { added: string[]; removed: string[] },
): Promise<void> {
  const body = {
    diff: {
      ...(change.added.length > 0 ? { added_vault_group_ids: change.added } : {}),
      ...(change.removed.length > 0 ? { removed_vault_group_ids: change.removed } : {}),
    },
  };
  let lastError: unknown;
  for (let attempt = 1; attempt <= MAX_PROPOSAL_ATTEMPTS; attempt++) {
    try {
      await client.vaults.submitChangeProposal(vaultId, body);
      return;
    } catch (err) {
      lastError = err;
      if (isSafeToRepeat(err)) {
        await pause(attempt, retryAfterSeconds(err));
        continue;
      }
      if (!isOutcomeUnknown(err)) throw err;
      if (change.added.length === 0) {
        await notifyUser(
          `the answer to the change proposal removing vault ${vaultId} from vault group(s) ` +
            `${change.removed.join(", ")} was lost (${describeError(err)}). It is recorded as submitted and not ` +
            "sent again, so that approvers never see it twice: check that it waits for approval in the custody " +
            "console; if it does not, run `pulumi refresh` and then `pulumi up` to propose it again.",
        );
        return;
      }
      if (await joiningAny(client, vaultId, change.added)) return;
      await pause(attempt);
    }
  }
  throw new Error(
    `Could not submit the vault-group change proposal for vault ${vaultId} after ${MAX_PROPOSAL_ATTEMPTS} ` +
      `attempts: ${describeError(lastError)}`,
  );
}

/** Whether the vault is in, or pending addition to, any of the groups (the filter matches both). */
async function joiningAny(client: CustodyClient, vaultId: string, groupIds: string[]): Promise<boolean> {
  const page = await client.vaults.list({
    vault_ids: [vaultId],
    vault_group_ids: groupIds,
    vault_states: ["active", "archived", "pending"],
    size: 1,
  });
  return page.vaults.length > 0;
}
