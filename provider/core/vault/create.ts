/**
 * `create` of a `Vault`, one way through its files: which vault the declaration gets (./acquire.ts, which asks
 * the batched lookups by name, ../batch/vault-reads.ts), then its vault groups (./membership.ts), the read
 * back and the archive of a vault declared archived (./by-id.ts), and last its outputs (./outputs.ts).
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import { describeError } from "../api-errors";
import { notifyUser } from "../host/notices";
import { escapeControls } from "../inputs/shown";
import type { OffShapeAnswer } from "../off-shape-answer";
import { PartialCreateError } from "../partial-create-error";
import { providerClient } from "../settings/provider-process";
import { acquireVault } from "./acquire";
import { archive, archiveOnly } from "./by-id";
import { reconcileVaultGroups } from "./membership";
import { type DeclaredVaultOutputs, declaredVaultOutputs, outputsFor } from "./outputs";
import type { VaultInputs, VaultOutputs } from "./types";

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
  await notifyUser(
    `vault "${inputs.name}" (${escapeControls(id)}) was created, but the answer to its create did not have the ` +
      `documented shape (${offShape.fields}). It is recorded from its id and the declared inputs; ` +
      "`pulumi refresh` reads the rest" +
      (inputs.vaultGroupIds !== undefined
        ? ", and the next `pulumi up` settles the declared vault groups."
        : "."),
    { resourceId: id },
  );
  // Declared archived from the start: archiving needs the id alone.
  let state = "active";
  if (inputs.archived === true) {
    try {
      await archiveOnly(client, { id, name: inputs.name });
    } catch (err) {
      throw new PartialCreateError(
        id,
        declaredVaultOutputs(inputs, state),
        `vault "${inputs.name}" (${id}) was created, but it could not be archived: ${describeError(err)}`,
      );
    }
    state = "archived";
  }
  return { id, outs: declaredVaultOutputs(inputs, state) };
}
