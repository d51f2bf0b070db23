/** Finding vaults by name, and telling whether a found vault is the one the program declares. */
import type { CustodyClient } from "../../sdk";
import type { VaultInputs } from "./vault-types";

/** A vault record as the API returns it (a union on `type`; read loosely). */
export type ApiVault = Record<string, unknown> & { id: string; name: string; type: string; state: string };

/** States in which a vault still holds its name (names are unique among vaults that are not archived). */
const LIVE_STATES = ["active", "pending"] as const;

/** Every vault with exactly this name that is active, pending or archived. */
export async function vaultsNamed(client: CustodyClient, name: string): Promise<ApiVault[]> {
  const found: ApiVault[] = [];
  for await (const vault of client.vaults.listAll({
    names: [name],
    vault_states: [...LIVE_STATES, "archived"],
  })) {
    const record = vault as unknown as ApiVault;
    if (record.name === name) found.push(record);
  }
  return found;
}

/** The vault that holds the name now (active or pending), if any. */
export function nameHolder(vaults: readonly ApiVault[]): ApiVault | undefined {
  return vaults.find((v) => (LIVE_STATES as readonly string[]).includes(v.state));
}

/** Archived vaults that match the declaration, most recently modified first (the one a destroy left). */
export function restorable(vaults: readonly ApiVault[], desired: VaultInputs): ApiVault[] {
  return vaults
    .filter((v) => v.state === "archived" && mismatch(v, desired) === undefined)
    .sort((a, b) => String(b.modified_at).localeCompare(String(a.modified_at)));
}

/**
 * Why a vault is not the declared one, or `undefined` when it matches: same type, and the same chain (utxo),
 * key type (black_box) and end user (when both sides name one).
 */
export function mismatch(vault: ApiVault, desired: VaultInputs): string | undefined {
  if (vault.type !== desired.type) return `its type is "${vault.type}", not "${desired.type}"`;
  if (desired.type === "utxo") {
    const chain = (vault.chain as { unique_id?: unknown } | undefined)?.unique_id;
    if (chain !== desired.chain) return `its chain is "${String(chain)}", not "${desired.chain}"`;
  }
  if (desired.type === "black_box") {
    const keyType = (vault.details as { type?: unknown } | undefined)?.type;
    if (keyType !== desired.keyType) return `its key type is "${String(keyType)}", not "${desired.keyType}"`;
  }
  const holder = vault.key_holder as { id?: unknown; user_type?: unknown } | undefined;
  if (
    desired.endUserId !== undefined &&
    holder?.user_type === "end_user" &&
    holder.id !== desired.endUserId
  ) {
    return `its key is held by end user ${String(holder.id)}, not ${desired.endUserId}`;
  }
  return undefined;
}
