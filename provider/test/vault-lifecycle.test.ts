// Vault create/delete against the emulator, through the serialized shim: a new vault, outputs per type,
// restore after destroy, adopt only with the flag, replace (archive first), and reconciliation after a lost
// create response. "Never a duplicate" is checked in the emulator's own state.
import * as assert from "node:assert/strict";
import { PartialCreateError } from "../core/index";
import { vaultProvider } from "../shims/index";
import { type ProviderTestbed, rawVaultsNamed, startProviderTestbed } from "./provider-emulator";

type Outs = Record<string, unknown>;

async function create(inputs: Record<string, unknown>): Promise<{ id: string; outs: Outs }> {
  const result = await vaultProvider.create({ ...inputs, __provider: "text" });
  return { id: result.id, outs: result.outs as Outs };
}

async function destroy(id: string, outs: Outs): Promise<void> {
  assert.ok(vaultProvider.delete);
  await vaultProvider.delete(id, outs);
}

describe("Vault create and delete (emulator)", () => {
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => bed.reset());

  async function postsToCreateVault(): Promise<number> {
    const log = await bed.emulator.control.listRequests();
    return log.filter((r) => r.method === "POST" && /\/api\/v1\/vaults$/.test(r.path)).length;
  }

  describe("a new vault", () => {
    it("is created once, with camelCase outputs", async () => {
      const { id, outs } = await create({ name: "Ops EVM", type: "evm" });
      assert.match(id, /^[0-9a-f-]{36}$/);
      assert.equal(outs.name, "Ops EVM");
      assert.equal(outs.type, "evm");
      assert.equal(outs.state, "active");
      assert.match(String(outs.address), /^0x[0-9a-fA-F]{40}$/);
      assert.equal(outs.acquisition, "created");
      assert.equal(outs.adoptExisting, false);
      assert.ok(Array.isArray(outs.vaultGroupIds) && (outs.vaultGroupIds as unknown[]).length === 1);
      assert.deepEqual(outs.pendingVaultGroupIds, []);
      // The other fields are in one structured output, and only there.
      const details = outs.details as Record<string, unknown>;
      assert.equal(typeof details.createdAt, "string");
      assert.equal(typeof details.publicKeyCompressed, "string");
      assert.equal(typeof details.derivationPath, "string");
      assert.equal(details.originType, "native");
      assert.deepEqual(Object.keys(outs).sort(), [
        "acquisition",
        "address",
        "adoptExisting",
        "details",
        "name",
        "pendingRemovalVaultGroupIds",
        "pendingVaultGroupIds",
        "state",
        "type",
        "vaultGroupIds",
      ]);
      assert.ok(!("__provider" in outs));
      const raw = await rawVaultsNamed(bed, "Ops EVM");
      assert.deepEqual(
        raw.map((v) => [v.id, v.state]),
        [[id, "active"]],
      );
    });

    it("utxo: chain, default address and next address name", async () => {
      const { outs } = await create({ name: "BTC Ops", type: "utxo", chain: "bitcoin_testnet" });
      assert.equal(outs.chain, "bitcoin_testnet");
      assert.equal(typeof outs.address, "string");
      const details = outs.details as Record<string, unknown>;
      assert.equal(typeof details.defaultAddressName, "string");
      assert.equal(typeof details.defaultAddressId, "string");
      assert.equal(typeof details.nextAddressName, "string");
    });

    it("type-specific outputs: black_box key type, ton raw account, cosmos addresses", async () => {
      const bb = await create({ name: "BB", type: "black_box", keyType: "eddsa_ed25519" });
      assert.equal(bb.outs.keyType, "eddsa_ed25519");
      assert.equal(bb.outs.address, undefined);
      const ton = await create({ name: "TON", type: "ton" });
      assert.match(String(ton.outs.address), /^-?\d+:[0-9a-fA-F]{64}$/);
      const cosmos = await create({ name: "Cosmos", type: "cosmos" });
      assert.equal(typeof cosmos.outs.address, "string");
      assert.equal(typeof (cosmos.outs.details as Record<string, unknown>).chainAddresses, "object");
    });
  });

  describe("destroy and up again", () => {
    it("destroy archives; a second destroy and an unknown id are fine", async () => {
      const { id, outs } = await create({ name: "Payroll", type: "solana" });
      await destroy(id, outs);
      assert.equal((await bed.client.vaults.get(id)).state, "archived");
      await destroy(id, outs);
      await destroy("99999999-9999-4999-8999-999999999999", outs);
      assert.equal((await rawVaultsNamed(bed, "Payroll")).length, 1);
    });

    it("destroy costs one request, the archive: nothing is read before or after", async () => {
      const { id, outs } = await create({ name: "Payroll", type: "evm" });
      await bed.emulator.control.clearRequests();
      await destroy(id, outs);
      const log = await bed.emulator.control.listRequests();
      assert.deepEqual(
        log.map((r) => `${r.method} ${r.path} ${r.status}`),
        [`POST /api/v1/vaults/${id}/archive 204`],
      );
    });

    it("restores the archived vault: the same id and address come back", async () => {
      const first = await create({ name: "Payroll", type: "utxo", chain: "bitcoin_mainnet" });
      await destroy(first.id, first.outs);
      const second = await create({ name: "Payroll", type: "utxo", chain: "bitcoin_mainnet" });
      assert.equal(second.id, first.id);
      assert.equal(second.outs.address, first.outs.address);
      assert.equal(second.outs.state, "active");
      assert.equal(second.outs.acquisition, "restored");
      assert.deepEqual(
        (await rawVaultsNamed(bed, "Payroll")).map((v) => v.state),
        ["active"],
      );
    });

    it("a replace (another chain) archives the old vault and creates a new one under the name", async () => {
      const old = await create({ name: "Cold", type: "utxo", chain: "bitcoin_mainnet" });
      await destroy(old.id, old.outs); // deleteBeforeReplace: the engine deletes first
      const replacement = await create({ name: "Cold", type: "utxo", chain: "dogecoin_mainnet" });
      assert.notEqual(replacement.id, old.id);
      assert.equal(replacement.outs.chain, "dogecoin_mainnet");
      assert.equal(replacement.outs.acquisition, "created");
      const archived = await bed.client.vaults.get(old.id);
      assert.equal(archived.state, "archived");
      // The emulator keeps archived names reserved, so the old vault moved out of the way.
      assert.equal(archived.name, `Cold (archived ${old.id.slice(0, 8)})`);
    });
    it("reverting a replace gives back the original vault (same id and address), and back again", async () => {
      const original = await create({ name: "Cold", type: "utxo", chain: "bitcoin_mainnet" });
      await destroy(original.id, original.outs);
      const replacement = await create({ name: "Cold", type: "utxo", chain: "dogecoin_mainnet" });
      // The pull request is reverted: the engine replaces again, archiving the replacement first.
      await destroy(replacement.id, replacement.outs);
      const reverted = await create({ name: "Cold", type: "utxo", chain: "bitcoin_mainnet" });
      assert.equal(reverted.id, original.id);
      assert.equal(reverted.outs.address, original.outs.address);
      assert.equal(reverted.outs.name, "Cold");
      assert.equal(reverted.outs.state, "active");
      assert.equal(reverted.outs.acquisition, "restored");
      // And the revert of the revert gives back the replacement.
      await destroy(reverted.id, reverted.outs);
      const again = await create({ name: "Cold", type: "utxo", chain: "dogecoin_mainnet" });
      assert.equal(again.id, replacement.id);
      assert.equal(again.outs.address, replacement.outs.address);
      const all = await bed.client.vaults.list({ vault_states: ["active", "archived"], size: 100 });
      assert.deepEqual(
        all.vaults
          .filter((v) => v.name.startsWith("Cold"))
          .map((v) => `${v.id}:${v.state}`)
          .sort(),
        [`${original.id}:archived`, `${replacement.id}:active`].sort(),
        "two vaults in all, never a third",
      );
    });
  });

  describe("a vault that already has the name", () => {
    it("is refused without adoptExisting, naming its id", async () => {
      const existing = (await bed.client.vaults.list({ names: ["Treasury ETH"] })).vaults[0];
      assert.ok(existing);
      await assert.rejects(create({ name: "Treasury ETH", type: "evm" }), (err: Error) => {
        assert.match(err.message, new RegExp(`already exists \\(id ${existing.id}`));
        assert.match(err.message, /adoptExisting: true/);
        return true;
      });
      assert.equal((await rawVaultsNamed(bed, "Treasury ETH")).length, 1);
    });

    it("is adopted with adoptExisting: true", async () => {
      const existing = (await bed.client.vaults.list({ names: ["Treasury ETH"] })).vaults[0];
      const { id, outs } = await create({ name: "Treasury ETH", type: "evm", adoptExisting: true });
      assert.equal(id, existing?.id);
      assert.equal(outs.acquisition, "adopted");
      assert.equal(outs.adoptExisting, true);
      assert.equal((await rawVaultsNamed(bed, "Treasury ETH")).length, 1);
    });

    it("is not adopted when it is of another kind", async () => {
      await assert.rejects(
        create({ name: "Treasury ETH", type: "solana", adoptExisting: true }),
        /Cannot adopt vault "Treasury ETH" \(id [0-9a-f-]+\): its type is "evm", not "solana"/,
      );
      await assert.rejects(
        create({ name: "BTC Cold Storage", type: "utxo", chain: "dogecoin_mainnet", adoptExisting: true }),
        /its chain is "bitcoin_mainnet", not "dogecoin_mainnet"/,
      );
    });

    it("a safe vault can only be adopted", async () => {
      const adopted = await create({ name: "Safe Multisig", type: "safe", adoptExisting: true });
      assert.equal(adopted.outs.acquisition, "adopted");
      await assert.rejects(
        create({ name: "No Such Safe", type: "safe", adoptExisting: true }),
        /No Safe vault named "No Such Safe" exists to adopt/,
      );
    });
  });

  describe("when the create response is lost", () => {
    for (const kind of ["after_commit_500", "after_commit_reset"] as const) {
      it(`${kind}: finds the committed vault by name and does not post again`, async () => {
        await bed.emulator.control.setFaults({ rules: [{ kind, rate: 1, route: "createVault", count: 1 }] });
        await bed.emulator.control.clearRequests();
        const { id, outs } = await create({ name: "Lost Response", type: "evm" });
        assert.equal(outs.name, "Lost Response");
        const raw = await rawVaultsNamed(bed, "Lost Response");
        assert.deepEqual(
          raw.map((v) => v.id),
          [id],
        );
        assert.equal(await postsToCreateVault(), 1);
      });
    }

    for (const kind of ["connection_reset", "http_500", "http_408"] as const) {
      it(`${kind} before commit: finds nothing, creates again, exactly one vault`, async () => {
        await bed.emulator.control.setFaults({ rules: [{ kind, rate: 1, route: "createVault", count: 1 }] });
        await bed.emulator.control.clearRequests();
        const { id } = await create({ name: "Retried", type: "evm" });
        const raw = await rawVaultsNamed(bed, "Retried");
        assert.deepEqual(
          raw.map((v) => v.id),
          [id],
        );
        assert.equal(await postsToCreateVault(), 2);
      });
    }

    it("a 429 is waited out and sent again", async () => {
      await bed.emulator.control.setFaults({
        rules: [{ kind: "http_429", rate: 1, route: "createVault", count: 2 }],
      });
      const { id } = await create({ name: "Throttled", type: "evm" });
      assert.deepEqual(
        (await rawVaultsNamed(bed, "Throttled")).map((v) => v.id),
        [id],
      );
    });

    it("every attempt lost before commit: gives up with a clear error, and nothing was created", async () => {
      await bed.emulator.control.setFaults({ rules: [{ kind: "http_500", rate: 1, route: "createVault" }] });
      await assert.rejects(
        create({ name: "Never", type: "evm" }),
        /Could not create vault "Never" after 4 attempts/,
      );
      assert.deepEqual(await rawVaultsNamed(bed, "Never"), []);
    });
  });

  describe("errors", () => {
    it("a vault created but whose groups fail is reported as a partial create (kept in state)", async () => {
      const groups = await bed.emulator.control.peek<{ id: string; name: string }>("vault-groups");
      const treasury = groups.find((g) => g.name === "Treasury")?.id;
      await assert.rejects(
        create({
          name: "Half Done",
          type: "evm",
          vaultGroupIds: [treasury, "77777777-7777-4777-8777-777777777777"],
        }),
        (err: unknown) => {
          assert.ok(err instanceof PartialCreateError);
          assert.match(
            err.message,
            /vault "Half Done" \([0-9a-f-]+\) was created, but its vault groups could not be set/,
          );
          assert.equal(err.properties.name, "Half Done");
          assert.deepEqual((err.properties as { vaultGroupIds: string[] }).vaultGroupIds, [treasury]);
          return true;
        },
      );
      assert.equal((await rawVaultsNamed(bed, "Half Done")).length, 1);
    });

    it("messages never contain the access token", async () => {
      await bed.emulator.control.setFaults({ rules: [{ kind: "http_500", rate: 1, route: "createVault" }] });
      await assert.rejects(create({ name: "Never", type: "evm" }), (err: Error) => {
        assert.ok(!err.message.includes(bed.emulator.accessToken));
        assert.ok(!String(err.stack).includes(bed.emulator.accessToken));
        return true;
      });
    });
  });
});
