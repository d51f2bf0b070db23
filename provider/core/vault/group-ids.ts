/**
 * Vault-group ids and recorded proposals as data: set arithmetic, what a proposal still waits for against the
 * live membership, and a proposal read back from the outputs. No API calls: membership.ts (which submits and
 * checks proposals), outputs.ts (which shows what is pending) and diff.ts all compute with these.
 */
import type { z } from "zod";
import type { pendingVaultGroupProposalSchema } from "./state-values";

/** A recorded proposal (`PendingVaultGroupProposal` of ./types.ts). */
type PendingVaultGroupProposal = z.output<typeof pendingVaultGroupProposalSchema>;

/** Set equality of ids, ignoring order and case. */
export function sameIdSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map((x) => x.toLowerCase()));
  const right = new Set(b.map((x) => x.toLowerCase()));
  if (left.size !== right.size) return false;
  for (const x of left) if (!right.has(x)) return false;
  return true;
}

/** Ids of `a` that are not in `b`, in `a`'s order. */
export function idsMinus(a: readonly string[], b: readonly string[]): string[] {
  const drop = new Set(b.map((x) => x.toLowerCase()));
  return a.filter((x) => !drop.has(x.toLowerCase()));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * The membership the vault has once everything submitted is approved: current groups, plus pending additions,
 * minus pending removals. Reads the outputs (`vaultGroupIds`, `pendingVaultGroupIds`,
 * `pendingRemovalVaultGroupIds`).
 */
export function effectiveVaultGroupIds(outputs: Record<string, unknown>): string[] {
  const current = stringList(outputs.vaultGroupIds);
  const adding = stringList(outputs.pendingVaultGroupIds);
  const removing = stringList(outputs.pendingRemovalVaultGroupIds);
  return idsMinus([...current, ...idsMinus(adding, current)], removing);
}

/** The proposal that moves `current` membership to `desired`; `undefined` when they already agree. */
export function proposalFor(
  current: readonly string[],
  desired: readonly string[],
): { added: string[]; removed: string[] } | undefined {
  const added = idsMinus(desired, current);
  const removed = idsMinus(current, desired);
  return added.length === 0 && removed.length === 0 ? undefined : { added, removed };
}

/** What is still pending of a recorded proposal, given the live membership. */
export interface PendingMembership {
  /** The proposal, while any part of it is not yet in effect. */
  proposal?: PendingVaultGroupProposal;
  /** Groups still to be added. */
  adding: string[];
  /** Groups still to be removed. */
  removing: string[];
}

/**
 * Compares a recorded proposal with the live membership. Once the vault is in every added group and out of
 * every removed one, the proposal is done and forgotten.
 */
export function pendingAgainstLive(
  proposal: PendingVaultGroupProposal | undefined,
  live: readonly string[],
): PendingMembership {
  if (!proposal) return { adding: [], removing: [] };
  const adding = idsMinus(proposal.addedVaultGroupIds, live);
  const liveSet = new Set(live.map((x) => x.toLowerCase()));
  const removing = proposal.removedVaultGroupIds.filter((x) => liveSet.has(x.toLowerCase()));
  if (adding.length === 0 && removing.length === 0) return { adding, removing };
  return { proposal, adding, removing };
}

/** Reads a recorded proposal back from the outputs, tolerating any older or damaged shape. */
export function recordedProposal(value: unknown): PendingVaultGroupProposal | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const added = stringList(v.addedVaultGroupIds);
  const removed = stringList(v.removedVaultGroupIds);
  if (added.length === 0 && removed.length === 0) return undefined;
  return {
    addedVaultGroupIds: added,
    removedVaultGroupIds: removed,
    submittedAt: typeof v.submittedAt === "string" ? v.submittedAt : "",
  };
}
