// The vault-group proposal flow against the emulator: a change is submitted once, recorded as pending, not
// submitted again while it waits, and converges on refresh once approved. An aborted proposal is noticed and
// proposed again.
import * as assert from "node:assert/strict";
import { vaultProvider } from "../shims/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

type Outs = Record<string, unknown>;

describe("Vault groups through change proposals (emulator)", () => {
  let bed: ProviderTestbed;
  let groups: Record<string, string>;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => {
    await bed.reset();
    const all = await bed.emulator.control.peek<{ id: string; name: string }>("vault-groups");
    groups = Object.fromEntries(all.map((g) => [g.name, g.id]));
  });

  function inputs(vaultGroupIds?: string[], name = "Grouped") {
    return { name, type: "evm", ...(vaultGroupIds ? { vaultGroupIds } : {}), __provider: "text" };
  }

  async function pendingProposals(vaultId: string) {
    return bed.emulator.control.listProposals({ vaultId, state: "pending" });
  }

  async function update(id: string, olds: Outs, news: Record<string, unknown>): Promise<Outs> {
    assert.ok(vaultProvider.update);
    return (await vaultProvider.update(id, olds, news)).outs as Outs;
  }

  async function diff(id: string, olds: Outs, news: Record<string, unknown>) {
    assert.ok(vaultProvider.diff);
    return vaultProvider.diff(id, olds, news);
  }

  it("a vault declared in one group is created in it, with nothing to approve", async () => {
    const treasury = groups.Treasury as string;
    const { id, outs } = await vaultProvider.create(inputs([treasury]));
    assert.deepEqual(outs.vaultGroupIds, [treasury]);
    assert.deepEqual(outs.pendingVaultGroupIds, []);
    assert.equal(outs.pendingProposal, undefined);
    assert.deepEqual(await pendingProposals(id), []);
  });

  it("submit → pending recorded → not resubmitted → approved → refresh converges", async () => {
    const [treasury, trading] = [groups.Treasury as string, groups.Trading as string];
    const created = await vaultProvider.create(inputs([treasury]));
    const id = created.id;

    // 1. The declaration gains a group: diff says update, update submits one proposal.
    const wanted = inputs([treasury, trading]);
    assert.deepEqual(await diff(id, created.outs as Outs, wanted), { changes: true });
    const afterUpdate = await update(id, created.outs as Outs, wanted);
    assert.deepEqual(afterUpdate.vaultGroupIds, [treasury]);
    assert.deepEqual(afterUpdate.pendingVaultGroupIds, [trading]);
    assert.deepEqual((afterUpdate.pendingProposal as Outs).addedVaultGroupIds, [trading]);
    const [proposal] = await pendingProposals(id);
    assert.ok(proposal);
    assert.deepEqual(proposal.added_vault_group_ids, [trading]);

    // 2. While it waits: no diff, and an update for another reason (a rename) does not submit it again.
    assert.deepEqual(await diff(id, afterUpdate, wanted), { changes: false });
    const renamed = await update(id, afterUpdate, inputs([treasury, trading], "Grouped Renamed"));
    assert.equal(renamed.name, "Grouped Renamed");
    assert.deepEqual(renamed.pendingVaultGroupIds, [trading]);
    const stillPending = await pendingProposals(id);
    assert.deepEqual(
      stillPending.map((p) => p.id),
      [proposal.id],
    );
    assert.equal((await bed.emulator.control.listProposals({ vaultId: id })).length, 1);

    // 3. Someone approves it; a refresh converges and nothing is pending any more.
    await bed.emulator.control.approveProposal(proposal.id);
    assert.ok(vaultProvider.read);
    const refreshed = await vaultProvider.read(id, renamed);
    const props = refreshed.props as Outs;
    assert.deepEqual([...(props.vaultGroupIds as string[])].sort(), [treasury, trading].sort());
    assert.deepEqual(props.pendingVaultGroupIds, []);
    assert.equal(props.pendingProposal, undefined);
    assert.deepEqual(
      [...((refreshed.inputs as Outs).vaultGroupIds as string[])].sort(),
      [treasury, trading].sort(),
    );
    assert.deepEqual(await diff(id, props, inputs([treasury, trading], "Grouped Renamed")), {
      changes: false,
    });
  });

  it("a removal is proposed too, and counts as done while pending", async () => {
    const [treasury, trading] = [groups.Treasury as string, groups.Trading as string];
    const created = await vaultProvider.create(inputs([treasury, trading]));
    const approveAll = async () => {
      for (const p of await pendingProposals(created.id)) await bed.emulator.control.approveProposal(p.id);
    };
    await approveAll();
    assert.ok(vaultProvider.read);
    const current = (await vaultProvider.read(created.id, created.outs as Outs)).props as Outs;
    assert.deepEqual([...(current.vaultGroupIds as string[])].sort(), [treasury, trading].sort());

    const afterUpdate = await update(created.id, current, inputs([trading]));
    assert.deepEqual(afterUpdate.pendingRemovalVaultGroupIds, [treasury]);
    assert.deepEqual(await diff(created.id, afterUpdate, inputs([trading])), { changes: false });
    const [proposal] = await pendingProposals(created.id);
    assert.deepEqual(proposal?.removed_vault_group_ids, [treasury]);
  });

  it("an aborted proposal is noticed by refresh, and the next update proposes again", async () => {
    const [treasury, trading] = [groups.Treasury as string, groups.Trading as string];
    const created = await vaultProvider.create(inputs([treasury, trading]));
    const [first] = await pendingProposals(created.id);
    assert.ok(first);
    assert.deepEqual((created.outs as Outs).pendingVaultGroupIds, [trading]);

    await bed.emulator.control.abortProposal(first.id);
    assert.ok(vaultProvider.read);
    const refreshed = (await vaultProvider.read(created.id, created.outs as Outs)).props as Outs;
    assert.deepEqual(refreshed.pendingVaultGroupIds, []);
    assert.deepEqual(await diff(created.id, refreshed, inputs([treasury, trading])), { changes: true });

    const again = await update(created.id, refreshed, inputs([treasury, trading]));
    assert.deepEqual(again.pendingVaultGroupIds, [trading]);
    const [second] = await pendingProposals(created.id);
    assert.ok(second && second.id !== first.id);
  });

  // The service has no idempotency id for proposals: a lost answer is reconciled, never blindly repeated.
  for (const kind of ["after_commit_500", "after_commit_reset"] as const) {
    it(`${kind} on a proposal: recognised as submitted, never submitted twice`, async () => {
      const [treasury, trading] = [groups.Treasury as string, groups.Trading as string];
      const created = await vaultProvider.create(inputs([treasury]));
      await bed.emulator.control.setFaults({
        rules: [{ kind, rate: 1, route: "submitVaultChangeProposal", count: 1 }],
      });
      const updated = await update(created.id, created.outs as Outs, inputs([treasury, trading]));
      assert.deepEqual(updated.pendingVaultGroupIds, [trading]);
      assert.equal((await bed.emulator.control.listProposals({ vaultId: created.id })).length, 1);
    });
  }

  it("a proposal refused before it arrived (reset, 429) is sent again, exactly once", async () => {
    const [treasury, trading] = [groups.Treasury as string, groups.Trading as string];
    const created = await vaultProvider.create(inputs([treasury]));
    await bed.emulator.control.setFaults({
      rules: [
        { kind: "connection_reset", rate: 1, route: "submitVaultChangeProposal", count: 1 },
        { kind: "http_429", rate: 1, route: "submitVaultChangeProposal", count: 1 },
      ],
    });
    const updated = await update(created.id, created.outs as Outs, inputs([treasury, trading]));
    assert.deepEqual(updated.pendingVaultGroupIds, [trading]);
    assert.equal((await bed.emulator.control.listProposals({ vaultId: created.id })).length, 1);
  });

  it("groups left undeclared are never touched", async () => {
    const created = await vaultProvider.create(inputs());
    const updated = await update(created.id, created.outs as Outs, inputs(undefined, "Renamed"));
    assert.equal(updated.name, "Renamed");
    assert.equal(updated.declaredVaultGroupIds, undefined);
    assert.equal((await bed.emulator.control.listProposals({ vaultId: created.id })).length, 0);
  });
});
