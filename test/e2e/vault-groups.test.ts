// Vault-group membership goes through a change proposal that someone approves outside the API. Under the
// real engine: the proposal is submitted once and shown as pending, the stack counts as converged while it
// waits, and once it is approved (through the emulator's control API) a refresh brings the state in line.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  declare,
  fixtureStack,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const VAULT_NAME = "e2e-groups Treasury";

describe("vault groups through change proposals (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let defaultGroupId: string;
  let treasuryGroupId: string;
  let vaultId: string;

  before(async function () {
    this.timeout(40 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    const groups = await emulator.control.peek<{ id: string; name: string }>("vault-groups");
    defaultGroupId = groups.find((g) => g.name === "Default")!.id;
    treasuryGroupId = groups.find((g) => g.name === "Treasury")!.id;
    stack = await fixtureStack(emulator, "groups");
    await declare(stack, {
      // Created in the first group; joining the second one needs a proposal.
      vaults: {
        treasury: { name: VAULT_NAME, type: "evm", vaultGroupIds: [defaultGroupId, treasuryGroupId] },
      },
    });
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  it("up creates the vault in the first group and submits one proposal for the second, shown as pending", async () => {
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    const vault = (await stateResources(stack, VAULT_TYPE)).get("treasury");
    vaultId = String(vault?.id);
    assert.deepEqual(vault?.outputs?.vaultGroupIds, [defaultGroupId]);
    assert.deepEqual(vault?.outputs?.pendingVaultGroupIds, [treasuryGroupId]);
    const proposals = await emulator.control.listProposals({ vaultId });
    assert.equal(proposals.length, 1);
    assert.equal(proposals[0]?.state, "pending");
    assert.deepEqual(proposals[0]?.added_vault_group_ids, [treasuryGroupId]);
    const live = await emulator.client.vaults.get(vaultId);
    assert.deepEqual(
      (live.vault_groups ?? []).map((g) => g.id),
      [defaultGroupId],
      "not in the group before approval",
    );
  });

  it("while the proposal waits, the stack counts as converged and nothing is submitted again", async () => {
    const up = await stack.up({ refresh: true });

    assert.deepEqual(up.summary.resourceChanges, { same: 2 });
    assert.equal((await emulator.control.listProposals({ vaultId })).length, 1, "still one proposal");
  });

  it("after approval through the control API, a refresh converges: both groups, nothing pending", async () => {
    const [proposal] = await emulator.control.listProposals({ vaultId, state: "pending" });
    await emulator.control.approveProposal(proposal!.id);

    const refresh = await stack.refresh();

    assert.equal(refresh.summary.result, "succeeded");
    const vault = (await stateResources(stack, VAULT_TYPE)).get("treasury");
    assert.deepEqual(
      [...((vault?.outputs?.vaultGroupIds as string[] | undefined) ?? [])].sort(),
      [defaultGroupId, treasuryGroupId].sort(),
    );
    assert.deepEqual(vault?.outputs?.pendingVaultGroupIds, []);
    const live = await emulator.client.vaults.get(vaultId);
    assert.deepEqual(
      (live.vault_groups ?? []).map((g) => g.id).sort(),
      [defaultGroupId, treasuryGroupId].sort(),
    );
    await stack.preview({ refresh: true, expectNoChanges: true });
    assert.equal((await emulator.control.listProposals({ vaultId })).length, 1, "no further proposal");
  });
});
