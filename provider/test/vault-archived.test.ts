// The `archived` input of a Vault: archiving as a declared change. `true` archives the vault and keeps it in the
// stack (an update, never a replacement); `false` or unset restores it; a refresh shows an out-of-band archive
// or restore as drift; a create declared archived takes an archived vault of the name as it is, with no write.
import * as assert from "node:assert/strict";
import { vaultProvider } from "../shims/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

type Outs = Record<string, unknown>;

describe("Vault `archived` (emulator)", () => {
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => bed.reset());

  async function create(inputs: Record<string, unknown>): Promise<{ id: string; outs: Outs }> {
    const result = await vaultProvider.create({ ...inputs, __provider: "text" });
    return { id: result.id, outs: result.outs as Outs };
  }
  const update = async (id: string, olds: Outs, news: Record<string, unknown>) =>
    (await vaultProvider.update!(id, olds, { ...news, __provider: "text" })).outs as Outs;
  const diff = (id: string, olds: Outs, news: Record<string, unknown>) =>
    vaultProvider.diff!(id, olds, { ...news, __provider: "text" });
  const writes = async () =>
    (await bed.emulator.control.listRequests())
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);

  it("check accepts true and false, and names the field and the rule for anything else", async () => {
    for (const archived of [true, false]) {
      const { failures } = await vaultProvider.check!({}, { name: "A", type: "evm", archived });
      assert.deepEqual(failures ?? [], []);
    }
    const { failures } = await vaultProvider.check!({}, { name: "A", type: "evm", archived: "yes" });
    assert.equal(failures?.length, 1);
    assert.equal(failures?.[0]?.property, "archived");
    assert.match(String(failures?.[0]?.reason), /must be true or false/);
  });

  it("archived: true is an update of the same vault (no replacement); false restores it", async () => {
    const declared = { name: "Retired EVM", type: "evm" };
    const { id, outs } = await create(declared);

    const toArchive = await diff(id, outs, { ...declared, archived: true });
    assert.equal(toArchive.changes, true);
    assert.deepEqual(toArchive.replaces ?? [], []);
    const archived = await update(id, outs, { ...declared, archived: true });
    assert.equal(archived.state, "archived");
    assert.equal((await bed.client.vaults.get(id)).state, "archived");
    assert.equal((await diff(id, archived, { ...declared, archived: true })).changes, false);

    // Unset means restore, as `false` does.
    assert.equal((await diff(id, archived, declared)).changes, true);
    const restored = await update(id, archived, { ...declared, archived: false });
    assert.equal(restored.state, "active");
    assert.equal((await bed.client.vaults.get(id)).state, "active");
    assert.equal((await bed.client.vaults.get(id)).id, id, "the same vault");
  });

  it("a rename and an archive in one update: renamed first, then archived", async () => {
    const { id, outs } = await create({ name: "Old name", type: "evm" });
    const after = await update(id, outs, { name: "New name", type: "evm", archived: true });
    const live = await bed.client.vaults.get(id);
    assert.equal(live.name, "New name");
    assert.equal(live.state, "archived");
    assert.equal(after.name, "New name");
  });

  it("a refresh reports an out-of-band archive or restore against what is declared", async () => {
    const declared = { name: "Watched", type: "evm" };
    const { id, outs } = await create(declared);
    await bed.client.vaults.archive(id);
    const read = await vaultProvider.read!(id, outs);
    assert.equal(read.inputs?.archived, true);
    assert.equal(
      (await diff(id, read.props as Outs, declared)).changes,
      true,
      "declared active, live archived",
    );

    await bed.client.vaults.restore(id);
    const again = await vaultProvider.read!(id, read.props);
    assert.equal(again.inputs?.archived, undefined);
    assert.equal((await diff(id, again.props as Outs, { ...declared, archived: true })).changes, true);
  });

  it("a create declared archived takes an archived vault of the name as it is, with no write", async () => {
    const made = await bed.client.vaults.create({ name: "Already archived", type: "evm" });
    await bed.client.vaults.archive(made.id);
    await bed.emulator.control.clearRequests();

    const { id, outs } = await create({ name: "Already archived", type: "evm", archived: true });

    assert.equal(id, made.id);
    assert.equal(outs.state, "archived");
    assert.deepEqual(await writes(), []);
  });

  it("a create declared archived with no such vault creates it, then archives it", async () => {
    const { id, outs } = await create({ name: "Born archived", type: "evm", archived: true });
    assert.equal(outs.state, "archived");
    assert.equal((await bed.client.vaults.get(id)).state, "archived");
  });

  it("a refresh reports `archived` as the program declared it: no phantom `-archived` for `archived: false`", async () => {
    const read = async (id: string, outs: Outs) => (await vaultProvider.read!(id, outs)).inputs ?? {};
    // Declared false: the live inputs say false while the vault is active, and true once it is archived.
    const declaredFalse = { name: "Kept Active", type: "evm", archived: false };
    const kept = await create(declaredFalse);
    assert.equal((await read(kept.id, kept.outs)).archived, false);
    const updated = await update(kept.id, kept.outs, declaredFalse);
    assert.equal((await read(kept.id, updated)).archived, false);
    await bed.client.vaults.archive(kept.id);
    assert.equal((await read(kept.id, updated)).archived, true, "an out-of-band archive shows as drift");

    // Not declared: nothing is reported for an active vault, so a program without `archived` sees no diff.
    const unset = await create({ name: "Never Declared", type: "evm" });
    assert.equal("archived" in (await read(unset.id, unset.outs)), false);
  });
});
