/**
 * `create`, `read`, `update` and `delete` of the VaultAddress resource.
 *
 * The API can create, list and rename addresses of UTXO vaults, but not delete them and not read one by id.
 * So `create` adopts an address that already has the declared name (one an earlier destroy forgot), `read`
 * finds the address through the list endpoint, and `delete` forgets it with a warning.
 */
import type { CreateVaultAddressRequest, CustodyClient, UtxoVaultAddress } from "@pulumi-custody/sdk";
import {
  describeError,
  errorType,
  isConflict,
  isNotFound,
  isOutcomeUnknown,
  isSafeToRepeat,
  retryAfterSeconds,
} from "../api-errors";
import { addressReads } from "../batch/address-reads";
import { createRequest, declaredOutputs, liveInputs } from "../fields/state";
import { notifyUser } from "../host/notices";
import { escapeControls } from "../inputs/shown";
import { type OffShapeAnswer, offShapeAnswer } from "../off-shape-answer";
import { pause } from "../reconcile-pause";
import { providerClient } from "../settings/provider-process";
import { nameToApply, vaultAddressDeclaration } from "./declaration";
import { addressOutputs } from "./outputs";
import type { VaultAddressInputs, VaultAddressOutputs } from "./types";

/** Attempts of `POST /vaults/{id}/addresses` whose outcome stays unknown before giving up. */
export const MAX_ADDRESS_CREATE_ATTEMPTS = 4;

/** The API refused because the vault is not a UTXO vault: its own message, which says so. */
function invalidVaultType(err: unknown, vaultId: string): Error | undefined {
  if (errorType(err) !== "invalid_vault_type") return undefined;
  return new Error(
    `Cannot create an address in vault ${vaultId}: only utxo vaults have addresses. ${describeError(err)}`,
  );
}

/**
 * The vault's addresses that match. A vault that cannot have addresses (the API answers `invalid_vault_type`)
 * has none; creating one then fails with the API's own answer to the create.
 */
async function addressesWhere(
  client: CustodyClient,
  vaultId: string,
  query: { search?: string; addresses?: string[] },
  match: (a: UtxoVaultAddress) => boolean,
): Promise<UtxoVaultAddress[]> {
  const found: UtxoVaultAddress[] = [];
  try {
    for await (const a of client.vaults.addresses.listAll(vaultId, query)) {
      if (match(a)) found.push(a);
    }
  } catch (err) {
    if (errorType(err) === "invalid_vault_type") return [];
    throw err;
  }
  return found;
}

/** The vault's addresses with this address string, batched; none when the vault cannot have addresses. */
async function byAddress(
  client: CustodyClient,
  vaultId: string,
  address: string,
): Promise<UtxoVaultAddress[]> {
  try {
    return await addressReads(client).byAddress(vaultId, address);
  } catch (err) {
    if (errorType(err) === "invalid_vault_type") return [];
    throw err;
  }
}

/** The address of the vault with exactly this name. */
async function addressNamed(
  client: CustodyClient,
  vaultId: string,
  name: string,
): Promise<UtxoVaultAddress | undefined> {
  const [found] = await addressesWhere(client, vaultId, { search: name }, (a) => a.name === name);
  return found;
}

/** Creates the declared address, or adopts the one that already has its name. */
export async function createVaultAddress(
  inputs: VaultAddressInputs,
): Promise<{ id: string; outs: VaultAddressOutputs | DeclaredAddressOutputs }> {
  const client = await providerClient();
  const { vaultId } = inputs;
  const reads = addressReads(client);
  // In a vault this operation created, the addresses are known (provider/core/batch/address-reads.ts): no
  // lookup is needed to tell whether the name is taken.
  const known = inputs.name !== undefined ? reads.named(vaultId, inputs.name) : { known: false as const };
  if (inputs.name !== undefined) {
    const existing = known.known ? known.address : await addressNamed(client, vaultId, inputs.name);
    if (existing) return adoptAddress(existing, inputs);
  }
  let created: UtxoVaultAddress;
  try {
    created = await reads.creating(vaultId, () => createNew(client, inputs));
  } catch (err) {
    // Without the lookup, an address that someone else gave the name meanwhile shows up only now.
    const existing =
      known.known && inputs.name !== undefined ? await addressNamed(client, vaultId, inputs.name) : undefined;
    if (existing) return adoptAddress(existing, inputs);
    throw err;
  }
  const offShape = offShapeAnswer(created);
  if (offShape) return recordDeclared(inputs, offShape);
  return { id: created.id, outs: addressOutputs(created, "created", inputs.nameIsDefault === true) };
}

/**
 * The outputs of an address known only from its id and the declared inputs (its create's answer broke the
 * documented shape): the address's other fields are left out until a refresh reads them.
 */
export type DeclaredAddressOutputs = Pick<VaultAddressOutputs, "vaultId" | "acquisition"> &
  Partial<VaultAddressOutputs>;

/**
 * An address create that took effect but whose answer broke the documented shape: recorded from its id and the
 * declared inputs, with a warning naming the fields; a refresh reads the rest. Without an id, the error says
 * how to take the address over.
 */
async function recordDeclared(
  inputs: VaultAddressInputs,
  offShape: OffShapeAnswer,
): Promise<{ id: string; outs: DeclaredAddressOutputs }> {
  const { vaultId } = inputs;
  const named = inputs.name !== undefined ? `vault address "${inputs.name}"` : "a vault address";
  const { id } = offShape;
  if (id === undefined) {
    throw new Error(
      `${named} was created in vault ${vaultId} (the API accepted the create), but its answer has no usable id ` +
        `(${offShape.fields}), so the state cannot record it. The address exists and cannot be deleted: ` +
        (inputs.name !== undefined
          ? "run `pulumi up` again, which adopts the address with the declared name."
          : "declare its name (`name`, as the custody console shows it) on this VaultAddress and run `pulumi up` " +
            "again to adopt it; otherwise the next `up` creates another address."),
    );
  }
  const outs = {
    ...declaredOutputs(vaultAddressDeclaration, undefined, inputs),
    acquisition: "created" as const,
  } as DeclaredAddressOutputs;
  await notifyUser(
    `${named} (${escapeControls(id)}) was created in vault ${vaultId}, but the answer to its create did not ` +
      `have the documented shape (${offShape.fields}). It is recorded from its id and the declared inputs; ` +
      "`pulumi refresh` reads the rest.",
    { resourceId: id },
  );
  return { id, outs };
}

/** Takes over the address that already has the declared name, if its type is the declared one. */
function adoptAddress(
  existing: UtxoVaultAddress,
  inputs: VaultAddressInputs,
): { id: string; outs: VaultAddressOutputs } {
  const { vaultId, addressType } = inputs;
  const actualType = existing.address.address_type;
  if (addressType !== undefined && actualType !== addressType) {
    throw new Error(
      `Vault ${vaultId} already has an address named "${inputs.name}" (id ${existing.id}) of type ` +
        `"${actualType}", not "${addressType}". Addresses cannot be deleted, so that name stays taken: ` +
        "choose another name for the new address.",
    );
  }
  return {
    id: existing.id,
    outs: addressOutputs(existing, "adopted", inputs.nameIsDefault === true),
  };
}

async function createNew(client: CustodyClient, inputs: VaultAddressInputs): Promise<UtxoVaultAddress> {
  const { vaultId } = inputs;
  // Without a name, a lost response is recognised by an address that was not there before.
  const before =
    inputs.name === undefined
      ? new Set((await addressesWhere(client, vaultId, {}, () => true)).map((a) => a.id))
      : undefined;
  // Each input's part as the declaration maps it (./declaration.ts); the sdk validates the body.
  const body = createRequest(vaultAddressDeclaration, inputs) as CreateVaultAddressRequest;
  let lastError: unknown;
  let outcomeUnknown = false;
  for (let attempt = 1; attempt <= MAX_ADDRESS_CREATE_ATTEMPTS; attempt++) {
    try {
      return await client.vaults.addresses.create(vaultId, body);
    } catch (err) {
      lastError = err;
      const refused = invalidVaultType(err, vaultId);
      if (refused) throw refused;
      if (isSafeToRepeat(err)) {
        await pause(attempt, retryAfterSeconds(err));
        continue;
      }
      if (!(isOutcomeUnknown(err) || (outcomeUnknown && isConflict(err)))) {
        if (isNotFound(err))
          throw new Error(`Cannot create an address in vault ${vaultId}: the vault does not exist.`);
        throw new Error(
          `Could not create address ${inputs.name !== undefined ? `"${inputs.name}" ` : ""}in vault ${vaultId}: ${describeError(err)}`,
        );
      }
      outcomeUnknown = true;
      const found = await findCreated(client, inputs, before);
      if (found) return found;
      await pause(attempt);
    }
  }
  throw new Error(
    `Could not create an address in vault ${vaultId} after ${MAX_ADDRESS_CREATE_ATTEMPTS} attempts: ${describeError(lastError)}`,
  );
}

async function findCreated(
  client: CustodyClient,
  inputs: VaultAddressInputs,
  before: Set<string> | undefined,
): Promise<UtxoVaultAddress | undefined> {
  if (inputs.name !== undefined) return addressNamed(client, inputs.vaultId, inputs.name);
  const fresh = await addressesWhere(client, inputs.vaultId, {}, (a) => !before?.has(a.id));
  if (fresh.length > 1) {
    throw new Error(
      `The outcome of creating an address in vault ${inputs.vaultId} is unknown and ${fresh.length} new addresses ` +
        `appeared meanwhile (${fresh.map((a) => a.name).join(", ")}); set \`name\` on this VaultAddress to adopt one.`,
    );
  }
  return fresh[0];
}

/** Finds the address through the list endpoint (there is no GET by id); `{}` when it or its vault is gone. */
export async function readVaultAddress(
  id: string,
  props: Record<string, unknown>,
): Promise<{ id?: string; props?: VaultAddressOutputs; inputs?: Record<string, unknown> }> {
  const client = await providerClient();
  const vaultId = String(props.vaultId);
  const found = await findById(
    client,
    vaultId,
    id,
    typeof props.address === "string" ? props.address : undefined,
  );
  if (!found) return {};
  const acquisition = props.acquisition === "adopted" ? "adopted" : "created";
  const outs = addressOutputs(found, acquisition, props.nameIsDefault === true);
  return {
    id,
    props: outs,
    inputs: liveInputs(vaultAddressDeclaration, outs as unknown as Record<string, unknown>),
  };
}

async function findById(
  client: CustodyClient,
  vaultId: string,
  id: string,
  address: string | undefined,
): Promise<UtxoVaultAddress | undefined> {
  try {
    // By its address first (one small page, shared with the reads of the vault's other addresses), then the
    // whole list in case the filter missed it.
    if (address !== undefined) {
      const hit = (await byAddress(client, vaultId, address)).find((a) => a.id === id);
      if (hit) return hit;
    }
    const [hit] = await addressesWhere(client, vaultId, {}, (a) => a.id === id);
    return hit;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Renames the address (`PUT /vaults/addresses/{id}/name`); returns all outputs, read back. */
export async function updateVaultAddress(
  id: string,
  olds: Record<string, unknown>,
  news: VaultAddressInputs,
): Promise<{ outs: VaultAddressOutputs }> {
  const client = await providerClient();
  const vaultId = news.vaultId;
  let found = await findById(
    client,
    vaultId,
    id,
    typeof olds.address === "string" ? olds.address : undefined,
  );
  if (!found) {
    throw new Error(
      `Address "${String(olds.name)}" (${id}) is no longer in vault ${vaultId}. Run \`pulumi refresh\` to drop it from the state.`,
    );
  }
  const name = nameToApply(olds, { ...news }) as string | undefined;
  if (name !== undefined && found.name !== name) {
    try {
      await client.vaults.addresses.rename(id, name);
    } catch (err) {
      const why = isConflict(err) ? "another address of the vault already has that name" : describeError(err);
      throw new Error(`Cannot rename address "${found.name}" (${id}) to "${name}": ${why}`);
    }
    found = (await findById(
      client,
      vaultId,
      id,
      typeof olds.address === "string" ? olds.address : undefined,
    )) ?? {
      ...found,
      name,
    };
  }
  const acquisition = olds.acquisition === "adopted" ? "adopted" : "created";
  const nameIsDefault = name !== undefined ? news.nameIsDefault === true : olds.nameIsDefault === true;
  return { outs: addressOutputs(found, acquisition, nameIsDefault) };
}

/** Destroy: the API has no delete, so the address is forgotten, with a warning saying so. */
export async function deleteVaultAddress(id: string, props: Record<string, unknown>): Promise<void> {
  await notifyUser(
    `vault address "${String(props.name)}" (${String(props.address)}, id ${id}) in vault ${String(props.vaultId)} ` +
      "is only removed from the Pulumi state: the custody API cannot delete addresses, so it still exists and can " +
      "still receive funds. Declaring an address with the same name in that vault adopts it again.",
    { resourceId: id },
  );
}
