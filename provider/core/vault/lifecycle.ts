/**
 * The lifecycle of a `Vault`, top-down: create, then read, update and delete, each followed by what it needs,
 * and the lookups by name that create and update share.
 *
 * `create` never creates a duplicate:
 * 1. a vault with the same name that is active is adopted only with `adoptExisting: true`;
 * 2. an archived vault of the same kind is restored, so destroy followed by up gives back the same vault, and
 *    reverting a replace gives back the original (which the replace renamed `<name> (archived <id8>)`);
 * 3. otherwise a new vault is created, and when the create's outcome is unknown (reset, timeout, 5xx or a
 *    fault after commit; the client does not retry `POST /vaults`) the provider looks for it by name before
 *    trying again.
 *
 * `read` (refresh) reports the live vault: a rename shows as drift, an archived vault stays in state with
 * `state: "archived"` (the next `up` restores it), and only a vault that is really gone leaves state.
 * `update` restores an archived vault, renames, and proposes vault-group changes. `delete` archives: the API
 * has no delete. A vault already archived or gone is fine.
 */
import type { CustodyClient, Vault as VaultRecord } from "@pulumi-custody/sdk";
import {
  describeError,
  isConflict,
  isOutcomeUnknown,
  isSafeToRepeat,
  retryAfterSeconds,
} from "../api-errors";
import { addressReads } from "../batch/address-reads";
import { vaultReads } from "../batch/vault-reads";
import { withoutUndefined } from "../field-tables";
import { notifyUser } from "../host/notices";
import { escapeControls, type OffShapeAnswer, offShapeAnswer } from "../off-shape-answer";
import { PartialCreateError } from "../partial-create-error";
import { pause } from "../reconcile-pause";
import { providerClient } from "../settings/provider-process";
import { keyHolder, vaultFields } from "./fields";
import { confirmPendingProposal, reconcileVaultGroups } from "./membership";
import { carriedFromOutputs, liveInputs, vaultOutputs } from "./outputs";
import type { VaultAcquisition, VaultInputs, VaultOutputs } from "./types";

/** Attempts of `POST /vaults` whose outcome stays unknown before giving up. */
export const MAX_CREATE_ATTEMPTS = 4;
/** Reconciling lists after an unknown outcome; the write may take a moment to show. */
const RECONCILE_LOOKUPS = 3;

/** Creates (or restores, or adopts) the declared vault. */
export async function createVault(
  inputs: VaultInputs,
): Promise<{ id: string; outs: VaultOutputs | DeclaredVaultOutputs }> {
  const client = await providerClient();
  const acquired = await acquireVault(client, inputs);
  if ("offShape" in acquired) return recordDeclared(client, inputs, acquired.offShape);
  const { vault, acquisition } = acquired;

  // From here on the vault exists: a failure is reported with its id, so the engine keeps it in state and the
  // next `up` finishes the job through `update`.
  const partial = (what: string, err: unknown) =>
    new PartialCreateError(
      vault.id,
      outputsFor(vault, inputs, acquisition, undefined),
      `vault "${inputs.name}" (${vault.id}) was ${acquisition}, but ${what}: ${describeError(err)}`,
    );
  let proposal: VaultOutputs["pendingProposal"];
  try {
    proposal = await reconcileVaultGroups(client, vault, inputs.vaultGroupIds, undefined);
  } catch (err) {
    throw partial("its vault groups could not be set", err);
  }
  let latest = vault;
  try {
    if (proposal || acquisition === "restored") latest = await client.vaults.get(vault.id);
  } catch (err) {
    throw partial("it could not be read back", err);
  }
  // Declared archived from the start: the vault (created, restored or adopted) is archived last.
  if (inputs.archived === true && latest.state !== "archived") {
    try {
      latest = await archive(client, latest);
    } catch (err) {
      throw partial("it could not be archived", err);
    }
  }
  return { id: vault.id, outs: outputsFor(latest, inputs, acquisition, proposal) };
}

function outputsFor(
  vault: VaultRecord,
  inputs: VaultInputs,
  acquisition: VaultAcquisition,
  pendingProposal: VaultOutputs["pendingProposal"],
): VaultOutputs {
  return vaultOutputs(vault, {
    adoptExisting: inputs.adoptExisting === true,
    endUserId: inputs.endUserId,
    declaredVaultGroupIds: inputs.vaultGroupIds,
    pendingProposal,
    acquisition,
  });
}

async function acquireVault(
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

/**
 * The outputs of a vault known only from its id and the declared inputs (its create's answer broke the
 * documented shape): the vault's other fields are left out until a refresh reads them.
 */
export type DeclaredVaultOutputs = Pick<
  VaultOutputs,
  "name" | "type" | "state" | "adoptExisting" | "acquisition"
> &
  Partial<VaultOutputs>;

/**
 * A create that took effect but whose answer broke the documented shape. With an id, the vault is recorded
 * from it and the declared inputs, with a warning naming the fields; a refresh reads the rest, and a declared
 * group change the create could not confirm is proposed by the next `up` (the recorded membership is empty, so
 * `diff` sees it differ). Without an id, the state cannot record it: the error says how to take it over.
 */
async function recordDeclared(
  client: CustodyClient,
  inputs: VaultInputs,
  offShape: OffShapeAnswer,
): Promise<{ id: string; outs: DeclaredVaultOutputs }> {
  const { id } = offShape;
  if (id === undefined) {
    throw new Error(
      `vault "${inputs.name}" was created (the API accepted the create), but its answer has no usable id ` +
        `(${offShape.fields}), so the state cannot record it. The vault exists: set adoptExisting: true on ` +
        "this Vault and run `pulumi up` again to take it over (vault names are unique).",
    );
  }
  const outs: DeclaredVaultOutputs = withoutUndefined({
    name: inputs.name,
    type: inputs.type,
    state: "active",
    chain: inputs.chain,
    keyType: inputs.keyType,
    declaredVaultGroupIds: inputs.vaultGroupIds,
    endUserId: inputs.endUserId,
    adoptExisting: inputs.adoptExisting === true,
    acquisition: "created" as const,
  });
  await notifyUser(
    `vault "${inputs.name}" (${escapeControls(id)}) was created, but the answer to its create did not have the ` +
      `documented shape (${offShape.fields}). It is recorded from its id and the declared inputs; ` +
      "`pulumi refresh` reads the rest" +
      (inputs.vaultGroupIds !== undefined
        ? ", and the next `pulumi up` proposes the declared vault groups."
        : "."),
    { resourceId: id },
  );
  // Declared archived from the start: archiving needs the id alone.
  if (inputs.archived === true) {
    try {
      await archiveOnly(client, { id, name: inputs.name });
    } catch (err) {
      throw new PartialCreateError(
        id,
        outs,
        `vault "${inputs.name}" (${id}) was created, but it could not be archived: ${describeError(err)}`,
      );
    }
    outs.state = "archived";
  }
  return { id, outs };
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
 * The create-vault body for the declared inputs; a vault is created in the first declared group. Adopt-only
 * types (safe, exchange) never get here: `acquireVault` stops before.
 */
export function createBody(inputs: VaultInputs) {
  return {
    name: inputs.name,
    type: inputs.type as Exclude<VaultInputs["type"], "safe" | "exchange">,
    ...(inputs.chain !== undefined ? { chain: inputs.chain } : {}),
    ...(inputs.keyType !== undefined ? { key_type: inputs.keyType } : {}),
    ...(inputs.endUserId !== undefined ? { end_user_id: inputs.endUserId } : {}),
    ...(inputs.vaultGroupIds?.[0] !== undefined ? { vault_group_id: inputs.vaultGroupIds[0] } : {}),
  };
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

// ---- lookups by name (create, update and the recovery of interrupted creates) ----

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
 * Why a vault is not the declared one, or `undefined` when it matches: same type, and the same chain (utxo),
 * key type (black_box) and end user (when both sides name one).
 */
export function mismatch(vault: VaultRecord, desired: VaultInputs): string | undefined {
  if (vault.type !== desired.type) return `its type is "${vault.type}", not "${desired.type}"`;
  const chain = vaultFields.chain(vault);
  if (desired.type === "utxo" && chain !== desired.chain) {
    return `its chain is "${String(chain)}", not "${desired.chain}"`;
  }
  const keyType = vaultFields.keyType(vault);
  if (desired.type === "black_box" && keyType !== desired.keyType) {
    return `its key type is "${String(keyType)}", not "${desired.keyType}"`;
  }
  const holder = keyHolder(vault);
  if (
    desired.endUserId !== undefined &&
    holder?.user_type === "end_user" &&
    holder.id !== desired.endUserId
  ) {
    return `its key is held by end user ${holder.id}, not ${desired.endUserId}`;
  }
  return undefined;
}

// ---- read, update, delete ----

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
      adoptExisting: news.adoptExisting === true,
      endUserId: news.endUserId ?? carried.endUserId,
      declaredVaultGroupIds: news.vaultGroupIds,
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

/** Archives an active vault (`POST /vaults/{id}/archive`); returns it as it is afterwards (one more read). */
async function archive(client: CustodyClient, vault: VaultRecord): Promise<VaultRecord> {
  await archiveOnly(client, vault);
  return (await getVault(client, vault.id)) ?? { ...vault, state: "archived" };
}

/** Sends the archive; an answer that it failed is fine when the vault is archived or gone meanwhile. */
async function archiveOnly(client: CustodyClient, vault: Pick<VaultRecord, "id" | "name">): Promise<void> {
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
async function getVault(client: CustodyClient, id: string): Promise<VaultRecord | undefined> {
  const vault = await vaultReads(client).byId(id);
  return vault === undefined || GONE_STATES.has(vault.state) ? undefined : vault;
}
