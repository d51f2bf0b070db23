/**
 * Finishing an `up` that was killed while it created vaults. The engine then holds those resources only as
 * pending creates (`pending_operations` in `pulumi stack export`), while the service may already hold the
 * vaults; the next `up` would try to create them again and stop at "a vault named … already exists".
 *
 * This turns each pending create of a `Vault` or `VaultAddress` into a managed resource when the object it
 * was creating exists and matches what it declared (found by its name, which is unique), and drops the ones
 * whose create never arrived, so that the next `up` creates them. Only what this stack's state says it was
 * creating is ever taken over; other pending operations are left as they are.
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import { describeError } from "./api-errors";
import { vaultAddressResource, vaultResource } from "./resources";
import { providerClient } from "./settings/provider-process";
import { mismatch, nameHolder, vaultsNamed } from "./vault/acquire";
import { checkedVaultInputs } from "./vault/check";
import { readVault } from "./vault/lifecycle";
import { nameIsSecret, nameSecrecy } from "./vault/secret-name";
import type { VaultInputs } from "./vault/types";
import { readVaultAddress } from "./vault-address/lifecycle";

/**
 * The resource types recovered: the dynamic provider's, whose state records outputs as the runtime returns
 * them (with `__provider`). The plugin's state records secrets its own way, which this does not write.
 */
export const VAULT_RESOURCE_TYPE = vaultResource.dynamicType;
/** See {@link VAULT_RESOURCE_TYPE}. */
export const VAULT_ADDRESS_RESOURCE_TYPE = vaultAddressResource.dynamicType;

/** A resource of an exported deployment (only the fields used here; the others are kept as they are). */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The `deployment` of `pulumi stack export` (version 3). */
export interface ExportedDeployment {
  resources?: ExportedResource[];
  pending_operations?: Array<{ resource: ExportedResource; type: string; [field: string]: unknown }>;
  [field: string]: unknown;
}

/** What a recovery did, per pending create. */
export interface PendingCreateOutcome {
  urn: string;
  /** `adopted`: the object exists and is now managed; `dropped`: it was never created, `up` creates it. */
  outcome: "adopted" | "dropped";
  /** The vault or address id, when adopted. */
  id?: string;
  /** Why, in one line. */
  reason: string;
}

/** Resolves the pending creates of custody resources in `deployment`; returns the new deployment. */
export async function recoverPendingCreates(
  deployment: ExportedDeployment,
): Promise<{ deployment: ExportedDeployment; outcomes: PendingCreateOutcome[] }> {
  const pending = deployment.pending_operations ?? [];
  const ours = pending.filter(
    (op) =>
      op.type === "creating" &&
      (op.resource.type === VAULT_RESOURCE_TYPE || op.resource.type === VAULT_ADDRESS_RESOURCE_TYPE),
  );
  if (ours.length === 0) return { deployment, outcomes: [] };
  const client = await providerClient();
  // Vaults first: an address's vault may be among them.
  const ordered = [...ours].sort(
    (a, b) =>
      Number(a.resource.type !== VAULT_RESOURCE_TYPE) - Number(b.resource.type !== VAULT_RESOURCE_TYPE),
  );
  const outcomes: PendingCreateOutcome[] = [];
  const adopted: ExportedResource[] = [];
  for (const op of ordered) {
    const resource = op.resource;
    const found =
      resource.type === VAULT_RESOURCE_TYPE
        ? await existingVault(client, resource)
        : await existingAddress(resource);
    if ("id" in found) {
      adopted.push({ ...resource, id: found.id, outputs: found.outputs });
      outcomes.push({ urn: resource.urn, outcome: "adopted", id: found.id, reason: found.reason });
    } else {
      outcomes.push({ urn: resource.urn, outcome: "dropped", reason: found.reason });
    }
  }
  return {
    deployment: {
      ...deployment,
      resources: [...(deployment.resources ?? []), ...adopted],
      pending_operations: pending.filter((op) => !ours.includes(op)),
    },
    outcomes,
  };
}

type Found = { id: string; outputs: Record<string, unknown>; reason: string } | { reason: string };

async function existingVault(client: CustodyClient, resource: ExportedResource): Promise<Found> {
  const recorded = resource.inputs ?? {};
  if (typeof recorded.name !== "string") return { reason: "its name is not known" };
  let inputs: VaultInputs;
  try {
    inputs = checkedVaultInputs(recorded);
  } catch (err) {
    return { reason: `its recorded inputs are not a vault's: ${describeError(err)}` };
  }
  const holder = nameHolder(await vaultsNamed(client, inputs.name));
  if (!holder) return { reason: `no vault is named "${inputs.name}": the create never arrived` };
  const why = mismatch(holder, inputs);
  if (why)
    return { reason: `vault ${holder.id} has the name "${inputs.name}", but ${why}; it is left alone` };
  const read = await readVault(holder.id, { acquisition: "created" });
  if (!read.props) return { reason: `vault ${holder.id} disappeared` };
  return {
    id: holder.id,
    // The flag of a secret name (./vault/secret-name.ts) is state too: a later delete reads it there.
    outputs: { ...read.props, ...nameSecrecy(nameIsSecret(recorded)), __provider: recorded.__provider },
    reason: `vault "${inputs.name}" exists (${holder.id}), as declared`,
  };
}

async function existingAddress(resource: ExportedResource): Promise<Found> {
  const inputs = resource.inputs ?? {};
  const { vaultId, name } = inputs as { vaultId?: unknown; name?: unknown };
  if (typeof vaultId !== "string" || typeof name !== "string")
    return { reason: "its vault or name is not known" };
  const client = await providerClient();
  const page = await client.vaults.addresses
    .list(vaultId, { search: name, size: 100 })
    .catch(() => undefined);
  const address = page?.addresses.find((a) => a.name === name);
  if (!address)
    return { reason: `vault ${vaultId} has no address named "${name}": the create never arrived` };
  const read = await readVaultAddress(address.id, {
    vaultId,
    address: address.address.address,
    acquisition: "created",
    ...(inputs.nameIsDefault === true ? { nameIsDefault: true } : {}),
  });
  if (!read.props) return { reason: `address ${address.id} disappeared` };
  return {
    id: address.id,
    outputs: { ...read.props, __provider: inputs.__provider },
    reason: `address "${name}" exists in vault ${vaultId} (${address.id})`,
  };
}
