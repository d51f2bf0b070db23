/**
 * `create` of the Vault resource. It never creates a duplicate:
 * 1. a vault with the same name that is active is adopted only with `adoptExisting: true`;
 * 2. an archived vault of the same kind is restored, so destroy followed by up gives back the same vault, and
 *    reverting a replace gives back the original (which the replace renamed `<name> (archived <id8>)`);
 * 3. otherwise a new vault is created, and when the create's outcome is unknown (reset, timeout, 5xx or a
 *    fault after commit; the client does not retry `POST /vaults`) the provider looks for it by name before
 *    trying again.
 */
import type { CustodyClient } from "../../sdk";
import { describeError, isConflict, isOutcomeUnknown, isSafeToRepeat, retryAfterSeconds } from "./api-errors";
import { PartialCreateError } from "./partial-create-error";
import { pause } from "./pause";
import { readyClient } from "./ready-client";
import { type ApiVault, mismatch, nameHolder, restorable, vaultsNamed } from "./vault-lookup";
import { reconcileVaultGroups } from "./vault-membership";
import { vaultOutputs } from "./vault-outputs";
import type { VaultAcquisition, VaultInputs, VaultOutputs } from "./vault-types";

/** Attempts of `POST /vaults` whose outcome stays unknown before giving up. */
export const MAX_CREATE_ATTEMPTS = 4;
/** Reconciling lists after an unknown outcome; the write may take a moment to show. */
const RECONCILE_LOOKUPS = 3;

/** Creates (or restores, or adopts) the declared vault. */
export async function createVault(inputs: VaultInputs): Promise<{ id: string; outs: VaultOutputs }> {
  const client = await readyClient();
  const { vault, acquisition } = await acquireVault(client, inputs);

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
    if (proposal || acquisition === "restored")
      latest = (await client.vaults.get(vault.id)) as unknown as ApiVault;
  } catch (err) {
    throw partial("it could not be read back", err);
  }
  return { id: vault.id, outs: outputsFor(latest, inputs, acquisition, proposal) };
}

function outputsFor(
  vault: ApiVault,
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
): Promise<{ vault: ApiVault; acquisition: VaultAcquisition }> {
  const sameName = await vaultsNamed(client, inputs.name);
  const holder = nameHolder(sameName);
  if (holder) return { vault: adopt(holder, inputs), acquisition: "adopted" };

  const [archived] = restorable(sameName, inputs);
  if (archived) {
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
  return { vault: await createNew(client, inputs), acquisition: "created" };
}

function adopt(holder: ApiVault, inputs: VaultInputs): ApiVault {
  if (inputs.adoptExisting !== true) {
    throw new Error(
      `A vault named "${inputs.name}" already exists (id ${holder.id}, type "${holder.type}", state "${holder.state}"). ` +
        "Vault names are unique. Set adoptExisting: true on this Vault to manage that vault, or choose another name.",
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

/** The create-vault body for the declared inputs; a vault is created in the first declared group. */
export function createBody(inputs: VaultInputs) {
  return {
    name: inputs.name,
    type: inputs.type as Exclude<VaultInputs["type"], "safe">,
    ...(inputs.chain !== undefined ? { chain: inputs.chain } : {}),
    ...(inputs.keyType !== undefined ? { key_type: inputs.keyType } : {}),
    ...(inputs.endUserId !== undefined ? { end_user_id: inputs.endUserId } : {}),
    ...(inputs.vaultGroupIds?.[0] !== undefined ? { vault_group_id: inputs.vaultGroupIds[0] } : {}),
  };
}

async function createNew(client: CustodyClient, inputs: VaultInputs): Promise<ApiVault> {
  let lastError: unknown;
  let outcomeUnknown = false;
  let freedName = false;
  for (let attempt = 1; attempt <= MAX_CREATE_ATTEMPTS; attempt++) {
    try {
      return (await client.vaults.create(createBody(inputs))) as unknown as ApiVault;
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
async function renamedByReplace(client: CustodyClient, inputs: VaultInputs): Promise<ApiVault | undefined> {
  const found: ApiVault[] = [];
  for await (const vault of client.vaults.listAll({
    vault_states: ["archived"],
    vault_types: [inputs.type as Exclude<VaultInputs["type"], "safe">],
  })) {
    const record = vault as unknown as ApiVault;
    if (record.name === archivedVaultName(inputs.name, record.id)) found.push(record);
  }
  return restorable(found, inputs)[0];
}

/** Moves archived holders of the name aside, gives the vault its name back, and restores it. */
async function restoreRenamed(client: CustodyClient, vault: ApiVault, name: string): Promise<ApiVault> {
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
async function findCreated(client: CustodyClient, inputs: VaultInputs): Promise<ApiVault | undefined> {
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
async function lookUpNameHolder(client: CustodyClient, name: string): Promise<ApiVault | undefined> {
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

/** A create the API refused: say why, and for a taken name, which vault has it. */
async function refusedCreateError(client: CustodyClient, inputs: VaultInputs, err: unknown): Promise<Error> {
  if (isConflict(err)) {
    const holder = nameHolder(await vaultsNamed(client, inputs.name).catch(() => []));
    if (holder) {
      return new Error(
        `A vault named "${inputs.name}" was created meanwhile by someone else (id ${holder.id}). ` +
          "Set adoptExisting: true on this Vault to manage it, or choose another name.",
      );
    }
  }
  return new Error(`Could not create vault "${inputs.name}": ${describeError(err)}`);
}
