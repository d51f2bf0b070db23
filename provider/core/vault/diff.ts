/**
 * `diff` of the Vault resource: compares the desired inputs with the vault as last seen (the outputs, which a
 * refresh updates with live values), so that out-of-band changes show as drift.
 */
import { notifyUser } from "../notify";
import { containsUnknown, isUnknown } from "../unknown";
import { effectiveVaultGroupIds, sameIdSet } from "./membership";

/** What `diff` tells the engine (the subset of `pulumi.dynamic.DiffResult` the engine forwards). */
export interface VaultDiff {
  /** Whether anything must change. */
  changes: boolean;
  /** Inputs whose change forces a replacement. */
  replaces?: string[];
  /** Archive the old vault before creating the new one (names are unique among non-archived vaults). */
  deleteBeforeReplace?: boolean;
}

/** Inputs that cannot change in place: a new value means a new vault. */
export const VAULT_REPLACE_INPUTS = ["type", "chain", "keyType", "endUserId"] as const;

/** Compares old outputs with new inputs. `__provider` and `adoptExisting` never cause a change. */
export async function diffVault(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<VaultDiff> {
  const replaces = VAULT_REPLACE_INPUTS.filter((key) => differs(olds[key], news[key]));
  const updates: string[] = [];
  if (differs(olds.name, news.name)) updates.push("name");
  if (vaultGroupsDiffer(olds, news)) updates.push("vaultGroupIds");
  const archived = olds.state === "archived";

  if (replaces.length > 0) {
    await notifyUser(replaceNotice(id, olds, news, replaces));
    return { changes: true, replaces, deleteBeforeReplace: true };
  }
  if (archived) await notifyUser(archivedNotice(id, olds));
  return { changes: updates.length > 0 || archived };
}

/** Unknown values count as changes; an unset input equals an unset output. */
function differs(old: unknown, desired: unknown): boolean {
  if (containsUnknown(desired)) return true;
  return (old ?? undefined) !== (desired ?? undefined);
}

function vaultGroupsDiffer(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const desired = news.vaultGroupIds;
  if (desired === undefined || desired === null) return false; // membership left alone
  if (isUnknown(desired) || !Array.isArray(desired) || desired.some(isUnknown)) return true;
  return !sameIdSet(desired as string[], effectiveVaultGroupIds(olds));
}

function label(id: string, olds: Record<string, unknown>): string {
  return typeof olds.name === "string" ? `vault "${olds.name}" (${id})` : `vault ${id}`;
}

function replaceNotice(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  replaces: readonly string[],
): string {
  const changes = replaces.map((key) => `${key} ${show(olds[key])} -> ${show(news[key])}`).join(", ");
  return (
    `${label(id, olds)} must be replaced (${changes}). The custody API cannot delete vaults: ` +
    `the old vault will be ARCHIVED, not deleted, with its address and any funds it still holds, ` +
    `and a new vault with a new address is created. An archived vault can be restored; if the service keeps ` +
    `its name reserved, it is renamed to "${String(olds.name)} (archived ${id.slice(0, 8)})" to free the name. ` +
    "Reverting this change gives the same vault back."
  );
}

function archivedNotice(id: string, olds: Record<string, unknown>): string {
  return `${label(id, olds)} is archived (outside of this program, or by an earlier destroy); the next update restores it.`;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "(unset)";
  if (isUnknown(value)) return "(known after apply)";
  return JSON.stringify(value);
}
