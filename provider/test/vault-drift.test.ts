// Refresh and drift against the emulator: `read` reports live values (outputs and inputs), the next `diff`
// sees the drift, and `update` repairs it. Kinds of drift: an out-of-band rename, an out-of-band archive, and
// a vault that is gone.
import * as assert from "node:assert/strict";
import { vaultProvider } from "../shims/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

type Outs = Record<string, unknown>;

const END_USER = "33333333-3333-4333-8333-333333333333";

describe("Vault refresh and drift (emulator)", () => {
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => bed.reset());

  const declared = { name: "Drifty", type: "utxo", chain: "bitcoin_mainnet", adoptExisting: false };

  async function createDeclared(): Promise<{ id: string; outs: Outs }> {
    const { id, outs } = await vaultProvider.create({ ...declared, __provider: "text" });
    return { id, outs: outs as Outs };
  }

  async function read(id: string, props: Outs) {
    assert.ok(vaultProvider.read);
    return vaultProvider.read(id, props);
  }

  async function diff(id: string, olds: Outs) {
    assert.ok(vaultProvider.diff);
    return vaultProvider.diff(id, olds, { ...declared, __provider: "text" });
  }

  async function update(id: string, olds: Outs) {
    assert.ok(vaultProvider.update);
    return (await vaultProvider.update(id, olds, { ...declared, __provider: "text" })).outs as Outs;
  }

  it("a refresh right after create shows no drift", async () => {
    const { id, outs } = await createDeclared();
    const refreshed = await read(id, outs);
    assert.equal(refreshed.id, id);
    assert.deepEqual(refreshed.props, outs);
    assert.deepEqual(refreshed.inputs, { name: "Drifty", type: "utxo", chain: "bitcoin_mainnet" });
    assert.deepEqual(await diff(id, refreshed.props as Outs), { changes: false });
  });

  it("an out-of-band rename shows as drift in outputs and inputs, and update renames back", async () => {
    const { id, outs } = await createDeclared();
    await bed.client.vaults.rename(id, "Renamed By Hand");

    const refreshed = await read(id, outs);
    assert.equal(refreshed.id, id);
    assert.equal((refreshed.props as Outs).name, "Renamed By Hand");
    assert.equal((refreshed.inputs as Outs).name, "Renamed By Hand");
    assert.deepEqual(await diff(id, refreshed.props as Outs), { changes: true });

    const repaired = await update(id, refreshed.props as Outs);
    assert.equal(repaired.name, "Drifty");
    assert.equal((await bed.client.vaults.get(id)).name, "Drifty");
    assert.deepEqual(await diff(id, repaired), { changes: false });
  });

  it("an out-of-band archive stays in state as drift, and update restores the same vault", async () => {
    const { id, outs } = await createDeclared();
    await bed.client.vaults.archive(id);

    const refreshed = await read(id, outs);
    assert.equal(refreshed.id, id, "an archived vault must not leave the state");
    assert.equal((refreshed.props as Outs).state, "archived");
    assert.deepEqual(await diff(id, refreshed.props as Outs), { changes: true });
    assert.ok(bed.notices.some((n) => /archived .*the next update restores it/.test(n)));

    const repaired = await update(id, refreshed.props as Outs);
    assert.equal(repaired.state, "active");
    assert.equal(repaired.address, outs.address);
    assert.equal((await bed.client.vaults.get(id)).state, "active");
  });

  it("a vault that is gone leaves state (read returns no id)", async () => {
    const { id, outs } = await createDeclared();
    await bed.emulator.control.reset("default"); // the vault no longer exists at all
    const refreshed = await read(id, outs);
    assert.equal(refreshed.id, undefined);
    assert.equal(refreshed.props, undefined);
  });

  it("update of a vault that is gone says to refresh", async () => {
    const { id, outs } = await createDeclared();
    await bed.emulator.control.reset("default");
    assert.ok(vaultProvider.update);
    await assert.rejects(
      vaultProvider.update(id, outs, { ...declared, name: "Other", __provider: "text" }),
      /no longer exists\. Run `pulumi refresh`/,
    );
  });

  it("a rename to a name another vault has fails naming that vault", async () => {
    const { id, outs } = await createDeclared();
    const taken = (await bed.client.vaults.list({ names: ["Treasury ETH"] })).vaults[0];
    assert.ok(vaultProvider.update);
    await assert.rejects(
      vaultProvider.update(id, outs, { ...declared, name: "Treasury ETH", __provider: "text" }),
      new RegExp(`to "Treasury ETH": vault ${taken?.id} already has that name`),
    );
  });

  it("read keeps adoptExisting and the declared end user from the old outputs", async () => {
    const { id, outs } = await vaultProvider.create({
      name: "Adoptable",
      type: "evm",
      adoptExisting: true,
      endUserId: END_USER,
      __provider: "text",
    });
    assert.equal((outs as Outs).endUserId, END_USER);
    const refreshed = await read(id, outs as Outs);
    assert.equal((refreshed.props as Outs).adoptExisting, true);
    assert.equal((refreshed.inputs as Outs).adoptExisting, true);
    assert.equal((refreshed.props as Outs).endUserId, END_USER);
    assert.equal((refreshed.inputs as Outs).endUserId, END_USER);
  });
});
