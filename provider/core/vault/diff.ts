/**
 * `diff` of the Vault resource: compares the desired inputs with the vault as last seen (the outputs, which a
 * refresh updates with live values), so that out-of-band changes show as drift.
 */
import type { Vault as VaultRecord } from "@pulumi-custody/sdk";
import { replaceOnChanges } from "../fields/declare";
import { changedInputs } from "../fields/diff";
import { notifyUser } from "../host/notices";
import { SECRET_MASK } from "../host/secret-masking";
import { containsUnknown, isUnknown } from "../host/unknown-values";
import { workingClient } from "../settings/provider-process";
import { archivedVaultName, renamedByReplace, restorable, vaultsNamed } from "./acquire";
import { checkedVaultInputs } from "./check";
import { vaultDeclaration } from "./declaration";
import { nameIsSecret, shownName } from "./secret-name";

/** What `diff` tells the engine (the subset of `pulumi.dynamic.DiffResult` the engine forwards). */
export interface VaultDiff {
  /** Whether anything must change. */
  changes: boolean;
  /** Inputs whose change forces a replacement. */
  replaces?: string[];
  /** Archive the old vault before creating the new one (names are unique among non-archived vaults). */
  deleteBeforeReplace?: boolean;
}

/** Inputs that cannot change in place: a new value means a new vault (./declaration.ts). */
export const VAULT_REPLACE_INPUTS: readonly string[] = replaceOnChanges(vaultDeclaration);

/**
 * Compares old outputs with new inputs, input by input as the declaration says (../fields/diff.ts): `__provider`,
 * the internal `__nameIsSecret` (./secret-name.ts) and inputs that change nothing never cause a change. A vault
 * declared archived and live active (or the reverse) is an update, announced by a notice. The notices show
 * `[secret]` for a name that either side says is secret: a name that turns secret was shown before, but need not
 * be shown again.
 */
export async function diffVault(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<VaultDiff> {
  const { replaces, updates } = changedInputs(vaultDeclaration, olds, news);
  const secret = nameIsSecret(olds, news);

  if (replaces.length > 0) {
    const restored = await vaultToRestore(id, news);
    await notifyUser(replaceNotice(id, olds, news, replaces, restored, secret), { resourceId: id });
    return { changes: true, replaces, deleteBeforeReplace: true };
  }
  if (updates.includes("archived") && !containsUnknown(news.archived)) {
    const wantArchived = news.archived === true;
    await notifyUser(wantArchived ? archiveNotice(id, olds, secret) : archivedNotice(id, olds, secret), {
      resourceId: id,
    });
  }
  return { changes: updates.length > 0 };
}

function label(id: string, olds: Record<string, unknown>, secret: boolean): string {
  return typeof olds.name === "string" ? `vault "${shownName(olds.name, secret)}" (${id})` : `vault ${id}`;
}

/**
 * How a replace's notice names the archived vault it restores: its name is the declared one or the
 * `<name> (archived …)` a replace gave it (./acquire.ts), both of them secret when the declared name is.
 */
function restoredName(restored: VaultRecord, news: Record<string, unknown>, secret: boolean): string {
  if (!secret) return restored.name;
  const name = String(news.name);
  if (restored.name === archivedVaultName(name, restored.id))
    return archivedVaultName(SECRET_MASK, restored.id);
  return SECRET_MASK;
}

/**
 * What the create of a replacement will restore instead of creating a new vault: the archived vault that it
 * finds first, as `create` looks (provider/core/vault/acquire.ts, `acquireVault`), once the vault `id` is
 * archived. `null` when there is none, so a new vault is created; `undefined` when that cannot be known yet
 * (inputs known only after apply, or the lookup failed), in which case the notice promises neither.
 */
async function vaultToRestore(
  id: string,
  news: Record<string, unknown>,
): Promise<VaultRecord | null | undefined> {
  if (containsUnknown(news)) return undefined;
  try {
    const inputs = checkedVaultInputs(news);
    const client = await workingClient();
    if (!client) return undefined;
    const sameName = (await vaultsNamed(client, inputs.name)).filter((v) => v.id !== id);
    return restorable(sameName, inputs)[0] ?? (await renamedByReplace(client, inputs)) ?? null;
  } catch {
    return undefined;
  }
}

function replaceNotice(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  replaces: readonly string[],
  restored: VaultRecord | null | undefined,
  secret: boolean,
): string {
  const changes = replaces.map((key) => `${key} ${show(olds[key])} -> ${show(news[key])}`).join(", ");
  const replacement =
    restored === null
      ? "a new vault with a new address is created"
      : restored === undefined
        ? "a new vault is created, unless an archived vault that matches the new declaration is found, which is restored"
        : `vault "${restoredName(restored, news, secret)}" (${restored.id}), archived earlier and matching the new declaration, is ` +
          "restored in its place (its own id and address), instead of a new vault";
  return (
    `${label(id, olds, secret)} must be replaced (${changes}). The custody API cannot delete vaults: ` +
    `the old vault will be ARCHIVED, not deleted, with its address and any funds it still holds, ` +
    `and ${replacement}. An archived vault can be restored; if the service keeps ` +
    `its name reserved, it is renamed to "${archivedVaultName(shownName(String(olds.name), secret), id)}" to free the name. ` +
    "Reverting this change gives the same vault back."
  );
}

function archiveNotice(id: string, olds: Record<string, unknown>, secret: boolean): string {
  return (
    `${label(id, olds, secret)} will be ARCHIVED (archived: true): it stays in the stack with its address and anything it ` +
    "holds, and `archived: false` restores it."
  );
}

function archivedNotice(id: string, olds: Record<string, unknown>, secret: boolean): string {
  return `${label(id, olds, secret)} is archived (outside of this program, or by an earlier destroy); the next update restores it.`;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "(unset)";
  if (isUnknown(value)) return "(known after apply)";
  return JSON.stringify(value);
}
