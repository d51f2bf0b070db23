// Batched reads and lookups (provider/core/batch/): reads that arrive together are answered by list requests,
// each caller gets exactly its own answer, a missing vault is gone, nothing read before a write or in an
// earlier operation answers after it, and two clients never share a batch or a snapshot. Request counts come
// from the emulator's request log.
import * as assert from "node:assert/strict";
import { type RequestLogEntry, type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { addressReads } from "../core/batch/address-reads";
import { beginOperation } from "../core/batch/operation";
import { VAULT_PAGE_SIZE, vaultReads } from "../core/batch/vault-reads";
import { cachedClient } from "../core/settings/connect";
import { vaultAddressProvider, vaultProvider } from "../shims/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

type Outs = Record<string, unknown>;

/** The engine's `--parallel` on 2 cores: reads come this many at a time. */
const ENGINE_PARALLEL = 8;

/** Runs `job` over `items` with at most `parallel` in flight, as the engine runs its steps. */
async function inParallel<T, R>(
  items: readonly T[],
  parallel: number,
  job: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

function read(id: string, props: Outs = {}) {
  assert.ok(vaultProvider.read);
  return vaultProvider.read(id, props);
}

/** A well-formed id that no vault has. */
const MISSING_ID = "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f";

describe("batched vault reads and lookups (emulator)", function () {
  this.timeout(120_000);
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => {
    await bed.reset();
    beginOperation();
    await bed.emulator.control.clearRequests();
  });

  async function apiRequests(): Promise<RequestLogEntry[]> {
    return (await bed.emulator.control.listRequests()).filter((r) => r.path.startsWith("/api/v1/"));
  }

  /** Creates vaults out of band; returns their ids, in order. */
  async function vaultsOutOfBand(names: readonly string[]): Promise<string[]> {
    const created = await Promise.all(names.map((name) => bed.client.vaults.create({ name, type: "evm" })));
    return created.map((v) => v.id);
  }

  async function accountSize(): Promise<number> {
    return (await bed.client.vaults.list({ size: 1, vault_states: ["active", "archived", "pending"] })).total;
  }

  it("a refresh of 150 vaults, read 8 at a time, takes a list page per 100 vaults of the account", async () => {
    const names = Array.from({ length: 150 }, (_, i) => `Batch ${i}`);
    const ids = await vaultsOutOfBand(names);
    const account = await accountSize();
    beginOperation();
    await bed.emulator.control.clearRequests();

    const results = await inParallel([...ids, MISSING_ID], ENGINE_PARALLEL, (id) => read(id));
    // Later reads of the same operation (an `up --refresh` that reads again) reuse what it listed.
    const again = await inParallel(ids, ENGINE_PARALLEL, (id) => read(id));
    assert.deepEqual(
      again.map((r) => (r.props as Outs).name),
      names,
    );
    ids.forEach((id, i) => {
      assert.equal(results[i]!.id, id);
      assert.equal((results[i]!.props as Outs).name, names[i]);
    });
    assert.deepEqual(results[ids.length], {}, "the missing vault is gone, as a 404 says");

    const requests = await apiRequests();
    assert.deepEqual(
      requests.filter((r) => r.route === "/api/v1/vaults/{id}"),
      [],
      "no vault is read one by one",
    );
    const lists = requests.filter((r) => r.method === "GET" && r.path === "/api/v1/vaults");
    // The snapshot's pages, plus at most the batch that confirms the missing id and one early batch.
    const pages = Math.ceil(account / VAULT_PAGE_SIZE);
    assert.ok(lists.length <= pages + 2, `${lists.length} list requests for ${account} vaults`);
    assert.equal(requests.length, lists.length);
  });

  it("each caller gets exactly its own answer from one batch: active, archived and missing vaults", async () => {
    // Behind 300 older vaults, the snapshot's first page does not hold them: a batch by ids answers.
    await bed.emulator.control.seedLargeDataSet({ vaults: 300 });
    const [active, archived] = await vaultsOutOfBand(["Own answer A", "Own answer B"]);
    await bed.client.vaults.archive(archived!);
    await bed.emulator.control.clearRequests();

    const [a, b, missing] = await Promise.all([read(active!), read(archived!), read(MISSING_ID)]);
    assert.equal((a.props as Outs).name, "Own answer A");
    assert.equal((a.props as Outs).state, "active");
    assert.equal((b.props as Outs).name, "Own answer B");
    assert.equal((b.props as Outs).state, "archived", "archived vaults are read too");
    assert.deepEqual(missing, {});

    const requests = await apiRequests();
    // The snapshot's first page (demand for more has not come), then one batch with exactly the three ids.
    assert.equal(requests.length, 2, requests.map((r) => r.url).join("\n"));
    const query = new URLSearchParams(requests[1]!.url.split("?")[1]);
    assert.deepEqual(query.getAll("vault_ids").sort(), [active, archived, MISSING_ID].sort());
    assert.deepEqual(query.getAll("vault_states").sort(), [
      "aborted",
      "active",
      "archived",
      "deleted",
      "pending",
    ]);
  });

  describe("freshness: a rename between the batch and the read shows as drift", () => {
    it("a rename made between two operations shows in the second (out of band, as between two commands)", async () => {
      const [id] = await vaultsOutOfBand(["Before rename"]);
      assert.equal(((await read(id!)).props as Outs).name, "Before rename");
      await bed.client.vaults.rename(id!, "After rename");
      assert.equal(((await read(id!)).props as Outs).name, "After rename");
    });

    it("the next operation never reuses the snapshot of an earlier one", async () => {
      const ids = await vaultsOutOfBand(Array.from({ length: 12 }, (_, i) => `Snap ${i}`));
      await inParallel(ids, ENGINE_PARALLEL, (id) => read(id));
      assert.equal(vaultReads(clientOfTestbed()).snapshotState(), "complete", "the reads took a snapshot");
      await bed.client.vaults.rename(ids[3]!, "Snap 3, renamed");

      beginOperation();
      const again = await inParallel(ids, ENGINE_PARALLEL, (id) => read(id));
      assert.equal((again[3]!.props as Outs).name, "Snap 3, renamed");
      assert.equal((again[3]!.inputs as Outs).name, "Snap 3, renamed", "drift: the live name is an input");
    });

    it("this provider's own rename and archive are seen by the reads after them, snapshot or not", async () => {
      const names = Array.from({ length: 12 }, (_, i) => `Own write ${i}`);
      const ids = await vaultsOutOfBand(names);
      const first = await inParallel(ids, ENGINE_PARALLEL, (id) => read(id));
      assert.equal(vaultReads(clientOfTestbed()).snapshotState(), "complete");

      assert.ok(vaultProvider.update && vaultProvider.delete);
      const olds = first[0]!.props as Outs;
      const updated = await vaultProvider.update(ids[0]!, olds, {
        name: "Own write 0, renamed",
        type: "evm",
        __provider: "t",
      });
      assert.equal((updated.outs as Outs).name, "Own write 0, renamed");
      await vaultProvider.delete(ids[1]!, first[1]!.props as Outs);

      const [renamed, archived] = await Promise.all([read(ids[0]!), read(ids[1]!)]);
      assert.equal((renamed.props as Outs).name, "Own write 0, renamed");
      assert.equal((archived.props as Outs).state, "archived");
    });
  });

  it("two clients (two stacks' settings) never share a batch or a snapshot", async () => {
    // A second account whose seeded vaults have the same ids as the first's (the seed's ids are fixed).
    const other: RunningEmulator = await startEmulator({ port: 0 });
    try {
      const mine = clientOfTestbed();
      const theirs = cachedClient({
        baseUrl: other.baseUrl,
        accessToken: other.accessToken,
        requestsPerMinute: 0,
      });
      const seeded = (await bed.client.vaults.list({ size: 10, sort_by: ["created_at_asc"] })).vaults;
      assert.ok(seeded.length >= 8);
      const otherClient = cachedClient({
        baseUrl: other.baseUrl,
        accessToken: other.accessToken,
        maxRetries: 1,
      });
      for (const v of seeded) await otherClient.vaults.rename(v.id, `${v.name} (other account)`);
      await other.control.clearRequests();
      await bed.emulator.control.clearRequests();

      // Reads of the same ids through both clients, interleaved, enough of them for a snapshot each.
      const reads = seeded.flatMap((v) => [
        vaultReads(mine)
          .byId(v.id)
          .then((r) => ["mine", v, r] as const),
        vaultReads(theirs)
          .byId(v.id)
          .then((r) => ["theirs", v, r] as const),
      ]);
      for (const [who, v, answer] of await Promise.all(reads)) {
        assert.equal(answer?.id, v.id);
        assert.equal(answer?.name, who === "mine" ? v.name : `${v.name} (other account)`);
      }
      assert.equal(vaultReads(mine).snapshotState(), "complete");
      assert.equal(vaultReads(theirs).snapshotState(), "complete");
      // Lookups by name: each account's snapshot answers for that account only.
      const [inMine, inTheirs] = await Promise.all([
        vaultReads(mine).byName(seeded[0]!.name, { reuse: true }),
        vaultReads(theirs).byName(seeded[0]!.name, { reuse: true }),
      ]);
      assert.deepEqual(
        inMine.map((v) => v.id),
        [seeded[0]!.id],
      );
      assert.deepEqual(inTheirs, []);
      // Each account saw its own client's requests, and only those (a token is per account).
      const theirLog = (await other.control.listRequests()).filter((r) => r.path.startsWith("/api/v1/"));
      assert.ok(theirLog.length >= 1 && theirLog.every((r) => r.status === 200));
      assert.ok((await apiRequests()).every((r) => r.status === 200));
      await theirs.close();
      await otherClient.close();
    } finally {
      await other.close();
    }
  });

  it("creates share one lookup: 20 new vaults cost 20 creates and one list", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `New ${i}`);
    const created = await Promise.all(
      names.map((name) => vaultProvider.create({ name, type: "evm", __provider: "t" })),
    );
    created.forEach((c, i) => {
      assert.equal((c.outs as Outs).name, names[i]);
    });
    const requests = await apiRequests();
    const creates = requests.filter((r) => r.method === "POST" && r.path === "/api/v1/vaults");
    const lists = requests.filter((r) => r.method === "GET" && r.path === "/api/v1/vaults");
    assert.equal(creates.length, 20);
    assert.ok(lists.length <= 2, `${lists.length} lookups`);
    assert.equal(requests.length, creates.length + lists.length);
  });

  it("restores are found by the same shared lookups, and each is one restore", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `Back ${i}`);
    const first = await Promise.all(
      names.map((name) => vaultProvider.create({ name, type: "evm", __provider: "t" })),
    );
    assert.ok(vaultProvider.delete);
    await Promise.all(first.map((c) => vaultProvider.delete!(c.id, c.outs as Outs)));

    beginOperation();
    await bed.emulator.control.clearRequests();
    const again = await Promise.all(
      names.map((name) => vaultProvider.create({ name, type: "evm", __provider: "t" })),
    );
    again.forEach((c, i) => {
      assert.equal(c.id, first[i]!.id, "the same vault comes back");
      assert.equal((c.outs as Outs).acquisition, "restored");
    });
    const requests = await apiRequests();
    assert.equal(requests.filter((r) => r.path.endsWith("/restore")).length, 8);
    assert.equal(requests.filter((r) => r.method === "POST" && r.path === "/api/v1/vaults").length, 0);
    assert.ok(requests.filter((r) => r.path === "/api/v1/vaults").length <= 2);
  });

  it("a create whose answer is lost is reconciled by a fresh lookup, never from the snapshot", async () => {
    await bed.emulator.control.setFaults({
      rules: [{ kind: "after_commit_500", rate: 1, route: "createVault", count: 2 }],
    });
    const names = Array.from({ length: 8 }, (_, i) => `Lost answer ${i}`);
    const created = await Promise.all(
      names.map((name) => vaultProvider.create({ name, type: "evm", __provider: "t" })),
    );
    const raw = await bed.emulator.control.peek<{ id: string; name: string }>("vaults");
    names.forEach((name, i) => {
      const same = raw.filter((v) => v.name === name);
      assert.equal(same.length, 1, `${same.length} vaults named ${name}`);
      assert.equal(same[0]!.id, created[i]!.id);
    });
  });

  it("lookups by name are chunked by encoded length: no request line over 8 KiB", async () => {
    // 85 × "€" is 255 UTF-8 bytes, 765 characters percent-encoded.
    const names = Array.from({ length: 30 }, (_, i) => `${String(i).padStart(2, "0")}${"€".repeat(84)}`);
    await vaultsOutOfBand(names.slice(0, 10));
    await bed.emulator.control.clearRequests();
    const client = clientOfTestbed();
    const found = await Promise.all(names.map((name) => vaultReads(client).byName(name, { reuse: false })));
    found.forEach((vaults, i) => {
      assert.deepEqual(
        vaults.map((v) => v.name),
        i < 10 ? [names[i]] : [],
      );
    });
    const requests = await apiRequests();
    assert.ok(requests.length >= 3 && requests.length < 30, `${requests.length} lookups for 30 names`);
    for (const r of requests) assert.ok(r.url.length < 8192, `a request line of ${r.url.length} characters`);
  });

  it("a small stack in a large account reads a few pages, not the whole account", async () => {
    await bed.emulator.control.seedLargeDataSet({ vaults: 3000 });
    const ids = await vaultsOutOfBand(Array.from({ length: 8 }, (_, i) => `Small ${i}`));
    beginOperation();
    await bed.emulator.control.clearRequests();
    const results = await inParallel(ids, ENGINE_PARALLEL, (id) => read(id));
    results.forEach((r, i) => {
      assert.equal((r.props as Outs).name, `Small ${i}`);
    });
    const lists = (await apiRequests()).filter((r) => r.path === "/api/v1/vaults");
    assert.ok(lists.length <= 4, `${lists.length} list requests for 8 reads in an account of 3,000 vaults`);
  });

  describe("addresses", () => {
    it("reads of one vault's addresses share one request", async () => {
      const vault = await bed.client.vaults.create({
        name: "Addr batch",
        type: "utxo",
        chain: "bitcoin_mainnet",
      });
      const addresses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => bed.client.vaults.addresses.create(vault.id, { name: `A${i}` })),
      );
      await bed.emulator.control.clearRequests();
      assert.ok(vaultAddressProvider.read);
      const results = await Promise.all(
        addresses.map((a) =>
          vaultAddressProvider.read!(a.id, { vaultId: vault.id, address: a.address.address, name: a.name }),
        ),
      );
      results.forEach((r, i) => {
        assert.equal(r.id, addresses[i]!.id);
        assert.equal((r.props as Outs).name, `A${i}`);
      });
      const requests = await apiRequests();
      assert.equal(requests.length, 1, requests.map((r) => r.url).join("\n"));
      assert.equal(new URLSearchParams(requests[0]!.url.split("?")[1]).getAll("addresses").length, 6);
    });

    it("in a vault this operation created, an address is created without a lookup", async () => {
      const vault = await vaultProvider.create({
        name: "Fresh UTXO",
        type: "utxo",
        chain: "bitcoin_mainnet",
        __provider: "t",
      });
      const details = (vault.outs as Outs).details as Outs;
      // (No control call here: each begins a new operation, as a change between two `pulumi` commands.)

      const created = await vaultAddressProvider.create({
        vaultId: vault.id,
        name: "Deposits",
        __provider: "t",
      });
      assert.equal((created.outs as Outs).acquisition, "created");
      // The default address has its name already: it is adopted, from what the create answered.
      const adopted = await vaultAddressProvider.create({
        vaultId: vault.id,
        name: details.defaultAddressName,
        __provider: "t",
      });
      assert.equal(adopted.id, details.defaultAddressId);
      assert.equal((adopted.outs as Outs).acquisition, "adopted");
      assert.equal(addressReads(clientOfTestbed()).named(vault.id, "Deposits").known, true);

      const requests = await apiRequests();
      const afterVault = requests.slice(
        requests.findIndex((r) => r.method === "POST" && r.route === "/api/v1/vaults") + 1,
      );
      assert.deepEqual(
        afterVault.map((r) => `${r.method} ${r.route}`),
        ["POST /api/v1/vaults/{id}/addresses"],
      );
    });

    it("an address someone else gave the name meanwhile is adopted, not duplicated", async () => {
      const vault = await vaultProvider.create({
        name: "Raced UTXO",
        type: "utxo",
        chain: "bitcoin_mainnet",
        __provider: "t",
      });
      const theirs = await bed.client.vaults.addresses.create(vault.id, { name: "Shared name" });
      const result = await vaultAddressProvider.create({
        vaultId: vault.id,
        name: "Shared name",
        __provider: "t",
      });
      assert.equal(result.id, theirs.id);
      assert.equal((result.outs as Outs).acquisition, "adopted");
      const raw = await bed.emulator.control.peek<{ name: string; vault: { id: string } }>("addresses");
      assert.equal(raw.filter((a) => a.vault.id === vault.id && a.name === "Shared name").length, 1);
    });
  });

  /** The client the provider's lifecycle uses with the testbed's settings. */
  function clientOfTestbed() {
    return cachedClient({
      baseUrl: bed.emulator.baseUrl,
      accessToken: bed.emulator.accessToken,
      requestsPerMinute: 0,
    });
  }
});
