/**
 * Which vault holds a declared name, and how a `Vault` comes to manage one: the create/adopt decision.
 *
 * A create never makes a duplicate:
 * 1. a vault with the same name that is active is adopted only with `adoptExisting: true`;
 * 2. an archived vault of the same kind is restored, so destroy followed by up gives back the same vault, and
 *    reverting a replace gives back the original (which the replace renamed `<name> (archived <id8>)`);
 * 3. otherwise a new vault is created, and when the create's outcome is unknown (reset, timeout, 5xx or a
 *    fault after commit; the client does not retry `POST /vaults`) the provider looks for it by name before
 *    trying again.
 *
 * The lookups by name (`vaultsNamed`, `nameHolder`, `restorable`, `mismatch`) are also what `diff` (a
 * replace's notice), `update` (a rename refused for a taken name) and the recovery of interrupted creates ask.
 */
import type { CreateVaultRequest, CustodyClient, Vault as VaultRecord } from "@pulumi-custody/sdk";
import {
  describeError,
  isConflict,
  isOutcomeUnknown,
  isSafeToRepeat,
  retryAfterSeconds,
} from "../api-errors";
import { addressReads } from "../batch/address-reads";
import { vaultReads } from "../batch/vault-reads";
import { createRequest, mismatchOf } from "../fields/state";
import { type OffShapeAnswer, offShapeAnswer } from "../off-shape-answer";
import { pause } from "../reconcile-pause";
import { vaultDeclaration } from "./declaration";
import type { VaultAcquisition, VaultInputs } from "./types";

/** Attempts of `POST /vaults` whose outcome stays unknown before giving up. */
export const MAX_CREATE_ATTEMPTS = 4;
/** Reconciling lists after an unknown outcome; the write may take a moment to show. */
const RECONCILE_LOOKUPS = 3;

/**
 * The vault the declaration gets: the active holder of its name (adopted), an archived vault that matches it
 * (restored), or a new one (created). `offShape` when a create took effect but its answer broke the documented
 * shape (../off-shape-answer.ts): the vault exists, and only its id (if any) is known.
 */
export async function acquireVault(
  client: CustodyClient,
  inputs: VaultInputs,
): Promise<{ vault: VaultRecord; acquisition: VaultAcquisition } | { offShape: OffShapeAnswer }> {
  // Shared with the other creates of the operation (provider/core/batch/vault-reads.ts): at most a batched
  // lookup, often none once the operation's snapshot of the account is there.
  const sameName = await vaultsNamed(client, inputs.name, { reuse: true });
  const holder = nameHolder(sameName);
  if (holder) return { vault: adopt(holder, inputs), acquisition: "adopted" };

  const [archived] = restorable(sameName, inputs);
  if (archived) {
    // Declared archived: the archived vault is taken as it is, with no write.
    if (inputs.archived === true) return { vault: archived, acquisition: "adopted" };
    await client.vaults.restore(archived.id);
    return { vault: archived, acquisition: "restored" };
  }
  // An archived vault of another kind holds the name: a replace happened, and it may have renamed the vault
  // now declared again out of the way (a reverted pull request). Give that one back.
  if (sameName.some((v) => v.state === "archived")) {
    const original = await renamedByReplace(client, inputs);
    if (original)
      return { vault: await restoreRenamed(client, original, inputs.name), acquisition: "restored" };
  }
  if (inputs.type === "safe") {
    throw new Error(
      `No Safe vault named "${inputs.name}" exists to adopt. Safe vaults import an existing Safe account, ` +
        "which this resource cannot create: connect it in the custody console first.",
    );
  }
  if (inputs.type === "exchange") {
    throw new Error(
      `No exchange vault named "${inputs.name}" exists to adopt. The API cannot create exchange vaults: ` +
        "connect the exchange account in the custody console first.",
    );
  }
  const created = await createNew(client, inputs);
  const offShape = offShapeAnswer(created);
  if (offShape) {
    // The vault exists, but its answer cannot be read: the operation's lookups by name ask the API.
    vaultReads(client).createdUnread();
    return { offShape };
  }
  // The operation's later reads and lookups know the new vault, and that its default address is its only one.
  vaultReads(client).learn(created);
  addressReads(client).vaultCreated(created);
  return { vault: created, acquisition: "created" };
}

function adopt(holder: VaultRecord, inputs: VaultInputs): VaultRecord {
  if (inputs.adoptExisting !== true) {
    throw new Error(
      `A vault named "${inputs.name}" already exists (id ${holder.id}, type "${holder.type}", state "${holder.state}"), ` +
        `and vault names are unique. ${AFTER_AN_INTERRUPTED_UP} Otherwise set adoptExisting: true on this Vault to ` +
        "manage that vault, or choose another name.",
    );
  }
  const why = mismatch(holder, inputs);
  if (why) {
    throw new Error(
      `Cannot adopt vault "${inputs.name}" (id ${holder.id}): ${why}. ` +
        "Declare it as it is, or choose another name for a new vault.",
    );
  }
  return holder;
}

/**
 * The create-vault body for the declared inputs, each input's part as its declaration maps it
 * (./declaration.ts); a vault is created in the first declared group. Adopt-only types (safe, exchange) never
 * get here: `acquireVault` stops before.
 */
export function createBody(inputs: VaultInputs): CreateVaultRequest {
  // The sdk validates the body against the API's `CreateVaultRequest` before it is sent.
  return createRequest(vaultDeclaration, inputs as Record<string, unknown>) as CreateVaultRequest;
}

async function createNew(client: CustodyClient, inputs: VaultInputs): Promise<VaultRecord> {
  let lastError: unknown;
  let outcomeUnknown = false;
  let freedName = false;
  for (let attempt = 1; attempt <= MAX_CREATE_ATTEMPTS; attempt++) {
    try {
      return await client.vaults.create(createBody(inputs));
    } catch (err) {
      lastError = err;
      if (isSafeToRepeat(err)) {
        // Refused before it did anything: safe to send again.
        await pause(attempt, retryAfterSeconds(err));
        continue;
      }
      // After a lost response, a 409 is most likely our own earlier attempt.
      const ours = isOutcomeUnknown(err) || (outcomeUnknown && isConflict(err));
      if (!ours) {
        if (isConflict(err) && !freedName && (await freeNameOfArchived(client, inputs.name))) {
          freedName = true;
          continue;
        }
        throw await refusedCreateError(client, inputs, err);
      }
      outcomeUnknown = true;
      const found = await findCreated(client, inputs);
      if (found) return found;
      await pause(attempt);
    }
  }
  throw new Error(
    `Could not create vault "${inputs.name}" after ${MAX_CREATE_ATTEMPTS} attempts, and no vault of that name ` +
      `exists: ${describeError(lastError)}`,
  );
}

/**
 * The name an archived vault keeps once a new vault of another kind takes its name (on a replace):
 * `Treasury (archived 1a2b3c4d)`, after the first 8 characters of its id.
 */
export function archivedVaultName(name: string, id: string): string {
  return `${name} (archived ${id.slice(0, 8)})`;
}

/** The archived vault that a replace renamed out of the way and that matches the declaration, if any. */
export async function renamedByReplace(
  client: CustodyClient,
  inputs: VaultInputs,
): Promise<VaultRecord | undefined> {
  const found: VaultRecord[] = [];
  for await (const vault of client.vaults.listAll({
    vault_states: ["archived"],
    vault_types: [inputs.type],
  })) {
    if (vault.name === archivedVaultName(inputs.name, vault.id)) found.push(vault);
  }
  return restorable(found, inputs)[0];
}

/** Moves archived holders of the name aside, gives the vault its name back, and restores it. */
async function restoreRenamed(client: CustodyClient, vault: VaultRecord, name: string): Promise<VaultRecord> {
  await freeNameOfArchived(client, name);
  await client.vaults.rename(vault.id, name);
  await client.vaults.restore(vault.id);
  return { ...vault, name };
}

/**
 * Some services keep the name of an archived vault reserved (the emulator does). When only archived vaults of
 * another kind hold the name (the vault a replace just archived), they are renamed out of the way; they stay
 * archived and restorable. Returns whether a name was freed.
 */
async function freeNameOfArchived(client: CustodyClient, name: string): Promise<boolean> {
  const sameName = await vaultsNamed(client, name);
  if (nameHolder(sameName)) return false;
  const archived = sameName.filter((v) => v.state === "archived");
  for (const vault of archived) await client.vaults.rename(vault.id, archivedVaultName(name, vault.id));
  return archived.length > 0;
}

/** After an unknown outcome: the vault the lost request created, if it did. */
async function findCreated(client: CustodyClient, inputs: VaultInputs): Promise<VaultRecord | undefined> {
  const holder = await lookUpNameHolder(client, inputs.name);
  if (!holder) return undefined;
  const why = mismatch(holder, inputs);
  if (why) {
    throw new Error(
      `While creating vault "${inputs.name}", another vault of that name appeared (id ${holder.id}): ${why}.`,
    );
  }
  return holder;
}

/** The vault holding a name, retrying the lookup: it is what tells a lost create from a failed one. */
async function lookUpNameHolder(client: CustodyClient, name: string): Promise<VaultRecord | undefined> {
  let lookupError: unknown;
  for (let lookup = 1; lookup <= RECONCILE_LOOKUPS; lookup++) {
    try {
      return nameHolder(await vaultsNamed(client, name));
    } catch (err) {
      lookupError = err;
      await pause(lookup);
    }
  }
  throw new Error(
    `The outcome of creating vault "${name}" is unknown (the response was lost) and the vault list could ` +
      `not be read to find out: ${describeError(lookupError)}. The vault may exist: run \`pulumi up\` again with ` +
      "adoptExisting: true on this Vault to take it over.",
  );
}

/**
 * The way out when the vault of a name exists because an `up` was killed while creating it (docs/provider.md,
 * "An interrupted `up`"): the state holds it only as a pending create, which `custody recover` resolves.
 */
const AFTER_AN_INTERRUPTED_UP =
  "If an earlier `pulumi up` of this stack was interrupted (killed or cancelled) while creating it, run " +
  "`npx custody recover` (the `recover` command of the `custody` command line, package @pulumi-custody/cli) to " +
  "take over the vaults that run created, then `pulumi up` again.";

/** A create the API refused: say why, and for a taken name, which vault has it. */
async function refusedCreateError(client: CustodyClient, inputs: VaultInputs, err: unknown): Promise<Error> {
  if (isConflict(err)) {
    const holder = nameHolder(await vaultsNamed(client, inputs.name).catch(() => []));
    if (holder) {
      return new Error(
        `A vault named "${inputs.name}" was created meanwhile (id ${holder.id}), by someone else or by an ` +
          `interrupted run. ${AFTER_AN_INTERRUPTED_UP} Otherwise set adoptExisting: true on this Vault to manage ` +
          "it, or choose another name.",
      );
    }
  }
  return new Error(`Could not create vault "${inputs.name}": ${describeError(err)}`);
}

// ---- lookups by name (create, diff, update and the recovery of interrupted creates) ----

/** States in which a vault still holds its name (names are unique among vaults that are not archived). */
const LIVE_STATES = ["active", "pending"] as const;
/** States of the vaults a lookup by name reports: those that hold or keep a name. */
const NAMED_STATES = [...LIVE_STATES, "archived"] as const;

/**
 * Every vault with exactly this name that is active, pending or archived, from a lookup sent after this call
 * (batched with the lookups that wait with it). With `reuse`, the operation's snapshot of the account may
 * answer instead: for the first lookup of a create, never for one that reconciles a create's outcome.
 */
export async function vaultsNamed(
  client: CustodyClient,
  name: string,
  options: { reuse?: boolean } = {},
): Promise<VaultRecord[]> {
  const found = await vaultReads(client).byName(name, { reuse: options.reuse === true });
  return found.filter((v) => v.name === name && (NAMED_STATES as readonly string[]).includes(v.state));
}

/** The vault that holds the name now (active or pending), if any. */
export function nameHolder(vaults: readonly VaultRecord[]): VaultRecord | undefined {
  return vaults.find((v) => (LIVE_STATES as readonly string[]).includes(v.state));
}

/** Archived vaults that match the declaration, most recently modified first (the one a destroy left). */
export function restorable(vaults: readonly VaultRecord[], desired: VaultInputs): VaultRecord[] {
  return vaults
    .filter((v) => v.state === "archived" && mismatch(v, desired) === undefined)
    .sort((a, b) => b.modified_at.localeCompare(a.modified_at));
}

/**
 * Why a vault is not the declared one, or `undefined` when it matches: by each input's declared rule
 * (./declaration.ts): the same type, and the same chain (utxo), key type (black_box) and end user (when both
 * sides name one).
 */
export function mismatch(vault: VaultRecord, desired: VaultInputs): string | undefined {
  return mismatchOf(vaultDeclaration, vault, desired as Record<string, unknown>);
}
