// VaultAddress against the emulator, through the serialized shim: create, adopt by name (so destroy then up
// gives back the same address), rename, forget with a warning, find through the list endpoint, reconcile
// after a lost response, and the API's invalid_vault_type message for a non-UTXO vault.
import * as assert from "node:assert/strict";
import { vaultAddressProvider, vaultProvider } from "../shims/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

type Outs = Record<string, unknown>;

describe("VaultAddress (emulator)", () => {
  let bed: ProviderTestbed;
  let vaultId: string;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => {
    await bed.reset();
    const created = await vaultProvider.create({
      name: "Address Host",
      type: "utxo",
      chain: "bitcoin_mainnet",
      __provider: "t",
    });
    vaultId = created.id;
  });

  async function create(inputs: Record<string, unknown>) {
    const result = await vaultAddressProvider.create({ ...inputs, __provider: "t" });
    return { id: result.id, outs: result.outs as Outs };
  }

  async function addressesNamed(name: string) {
    const page = await bed.client.vaults.addresses.list(vaultId, { search: name });
    return page.addresses.filter((a) => a.name === name);
  }

  it("creates an address with its outputs", async () => {
    const { id, outs } = await create({ vaultId, name: "Deposits", addressType: "segwit" });
    assert.equal(outs.vaultId, vaultId);
    assert.equal(outs.name, "Deposits");
    assert.equal(outs.addressType, "segwit");
    assert.equal(outs.chain, "bitcoin_mainnet");
    assert.match(String(outs.derivationPath), /^m\//);
    assert.equal(typeof outs.address, "string");
    assert.equal(outs.acquisition, "created");
    assert.deepEqual(
      (await addressesNamed("Deposits")).map((a) => a.id),
      [id],
    );
  });

  it("without a name, stores the name the API picked, and diff does not fight it", async () => {
    const expected = (await bed.client.vaults.get(vaultId)) as { default_next_address_name?: string };
    const { outs } = await create({ vaultId });
    assert.equal(outs.name, expected.default_next_address_name);
    assert.ok(vaultAddressProvider.diff);
    assert.deepEqual(await vaultAddressProvider.diff("x", outs, { vaultId, __provider: "t" }), {
      changes: false,
    });
  });

  it("destroy forgets with a warning; up again adopts the same address", async () => {
    const first = await create({ vaultId, name: "Payouts", addressType: "taproot" });
    assert.ok(vaultAddressProvider.delete);
    await vaultAddressProvider.delete(first.id, first.outs);
    assert.equal(bed.notices.length, 1);
    assert.match(bed.notices[0] ?? "", /cannot delete addresses, so it still exists/);
    assert.match(bed.notices[0] ?? "", /Payouts/);
    assert.equal((await addressesNamed("Payouts")).length, 1, "the address is still there");

    const second = await create({ vaultId, name: "Payouts", addressType: "taproot" });
    assert.equal(second.id, first.id);
    assert.equal(second.outs.address, first.outs.address);
    assert.equal(second.outs.acquisition, "adopted");
    assert.equal((await addressesNamed("Payouts")).length, 1);
  });

  it("refuses to adopt an address of another type under the declared name", async () => {
    await create({ vaultId, name: "Typed", addressType: "segwit" });
    await assert.rejects(
      create({ vaultId, name: "Typed", addressType: "legacy" }),
      /already has an address named "Typed" .* of type "segwit", not "legacy"/,
    );
  });

  it("rename is an update; read finds the address through the list endpoint", async () => {
    const { id, outs } = await create({ vaultId, name: "Old Name" });
    assert.ok(vaultAddressProvider.update && vaultAddressProvider.read);
    const updated = (
      await vaultAddressProvider.update(id, outs, { vaultId, name: "New Name", __provider: "t" })
    ).outs as Outs;
    assert.equal(updated.name, "New Name");
    assert.equal(updated.address, outs.address);
    assert.deepEqual(
      (await addressesNamed("New Name")).map((a) => a.id),
      [id],
    );

    const refreshed = await vaultAddressProvider.read(id, updated);
    assert.equal(refreshed.id, id);
    assert.deepEqual(refreshed.props, updated);
    assert.deepEqual(refreshed.inputs, { vaultId, name: "New Name", addressType: updated.addressType });
  });

  it("read reports an out-of-band rename as drift; an unknown address leaves state", async () => {
    const { id, outs } = await create({ vaultId, name: "Watched" });
    await bed.client.vaults.addresses.rename(id, "Touched");
    assert.ok(vaultAddressProvider.read && vaultAddressProvider.diff);
    const refreshed = await vaultAddressProvider.read(id, outs);
    assert.equal((refreshed.props as Outs).name, "Touched");
    assert.deepEqual(
      await vaultAddressProvider.diff(id, refreshed.props as Outs, {
        vaultId,
        name: "Watched",
        __provider: "t",
      }),
      { changes: true },
    );
    const gone = await vaultAddressProvider.read("88888888-8888-4888-8888-888888888888", outs);
    assert.equal(gone.id, undefined);
  });

  it("an address whose vault is gone leaves state", async () => {
    const { id, outs } = await create({ vaultId, name: "Orphan" });
    await bed.emulator.control.reset("default");
    assert.ok(vaultAddressProvider.read);
    assert.equal((await vaultAddressProvider.read(id, outs)).id, undefined);
  });

  it("on a non-UTXO vault, fails with the API's invalid_vault_type message", async () => {
    const evm = (await bed.client.vaults.list({ names: ["Treasury ETH"] })).vaults[0];
    assert.ok(evm);
    for (const inputs of [{ vaultId: evm.id, name: "Nope" }, { vaultId: evm.id }]) {
      await assert.rejects(create(inputs), (err: Error) => {
        assert.match(err.message, /Invalid vault type/);
        assert.match(err.message, /invalid_vault_type/);
        assert.match(err.message, new RegExp(evm.id));
        return true;
      });
    }
  });

  for (const kind of ["after_commit_500", "after_commit_reset"] as const) {
    it(`${kind} on create: reconciles by name, never a duplicate`, async () => {
      await bed.emulator.control.setFaults({
        rules: [{ kind, rate: 1, route: "createVaultAddress", count: 1 }],
      });
      const { id } = await create({ vaultId, name: "Lost" });
      assert.deepEqual(
        (await addressesNamed("Lost")).map((a) => a.id),
        [id],
      );
    });
  }

  it("after_commit_500 without a name: reconciles by the address that appeared", async () => {
    const before = (await bed.client.vaults.addresses.list(vaultId, {})).total;
    await bed.emulator.control.setFaults({
      rules: [{ kind: "after_commit_500", rate: 1, route: "createVaultAddress", count: 1 }],
    });
    const { id } = await create({ vaultId });
    const after = await bed.client.vaults.addresses.list(vaultId, { size: 100 });
    assert.equal(after.total, before + 1);
    assert.ok(after.addresses.some((a) => a.id === id));
  });

  it("a lost response before commit is created again, exactly once", async () => {
    await bed.emulator.control.setFaults({
      rules: [{ kind: "connection_reset", rate: 1, route: "createVaultAddress", count: 1 }],
    });
    const { id } = await create({ vaultId, name: "Retry Me" });
    assert.deepEqual(
      (await addressesNamed("Retry Me")).map((a) => a.id),
      [id],
    );
  });

  describe("the default name (the resource name, when the program declares none)", () => {
    const byDefault = (name: string) => ({ vaultId, name, nameIsDefault: true });

    it("names the address after the resource and says so in the outputs", async () => {
      const { id, outs } = await create(byDefault("btc-deposits"));
      assert.equal(outs.name, "btc-deposits");
      assert.equal(outs.nameIsDefault, true);
      assert.deepEqual(
        (await addressesNamed("btc-deposits")).map((a) => a.id),
        [id],
      );
    });

    for (const kind of ["after_commit_500", "after_commit_reset"] as const) {
      it(`${kind} on create: reconciled by the default name, never a second address`, async () => {
        const before = (await bed.client.vaults.addresses.list(vaultId, {})).total;
        await bed.emulator.control.setFaults({
          rules: [{ kind, rate: 1, route: "createVaultAddress", count: 1 }],
        });
        const { id } = await create(byDefault("lost-answer"));
        assert.deepEqual(
          (await addressesNamed("lost-answer")).map((a) => a.id),
          [id],
        );
        assert.equal((await bed.client.vaults.addresses.list(vaultId, {})).total, before + 1);
      });
    }

    it("destroy then up adopts the same address: same id, same address", async () => {
      const first = await create(byDefault("kept"));
      assert.ok(vaultAddressProvider.delete);
      await vaultAddressProvider.delete(first.id, first.outs);
      const again = await create(byDefault("kept"));
      assert.equal(again.id, first.id);
      assert.equal(again.outs.address, first.outs.address);
      assert.equal(again.outs.acquisition, "adopted");
    });

    it("never renames an address that has a name of its own (state of an earlier release, or a removed name)", async () => {
      const { id, outs } = await create({ vaultId }); // the API picked its name, as before default names
      const news = { ...byDefault("legacy"), __provider: "t" };
      assert.ok(vaultAddressProvider.diff && vaultAddressProvider.update);
      assert.deepEqual(await vaultAddressProvider.diff(id, outs, news), { changes: false });
      const updated = (await vaultAddressProvider.update(id, outs, news)).outs as Outs;
      assert.equal(updated.name, outs.name);
      assert.equal(updated.nameIsDefault, undefined);
    });

    it("a default name renamed out of band is drift, and update renames it back", async () => {
      const { id, outs } = await create(byDefault("home"));
      await bed.client.vaults.addresses.rename(id, "moved");
      assert.ok(vaultAddressProvider.read && vaultAddressProvider.diff && vaultAddressProvider.update);
      const read = await vaultAddressProvider.read(id, outs);
      const live = read.props as Outs;
      assert.equal(live.name, "moved");
      assert.equal(live.nameIsDefault, true);
      const news = { ...byDefault("home"), __provider: "t" };
      assert.deepEqual(await vaultAddressProvider.diff(id, live, news), { changes: true });
      const repaired = (await vaultAddressProvider.update(id, live, news)).outs as Outs;
      assert.equal(repaired.name, "home");
    });
  });
});
