// 1,000 parallel creates and 1,000 parallel renames, many with colliding names: every name stays unique
// and no write is lost (successes counted against the final state).
import assert from "node:assert/strict";
import { type Harness, type Loose, startHarness } from "@pulumi-custody/testing";
import { Agent, request } from "undici";
import { Prng } from "../prng";

describe("emulator: concurrent writes", () => {
  let h: Harness;
  let agent: Agent;
  before(async () => {
    h = await startHarness({ seed: "empty" });
    agent = new Agent({ connections: 128 });
  });
  after(async () => {
    await agent.close();
    await h.close();
  });

  async function call(
    method: "POST" | "PUT",
    path: string,
    json: unknown,
  ): Promise<{ status: number; body: Loose }> {
    const res = await request(`${h.emulator.baseUrl}${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${h.emulator.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  }

  it("keeps vault names unique and loses no create or rename", async function () {
    this.timeout(60_000);
    const prng = new Prng("concurrency");
    const created = await Promise.all(
      Array.from({ length: 1000 }, () =>
        call("POST", "/api/v1/vaults", { name: `vault ${prng.int(300)}`, type: "evm" }),
      ),
    );
    const statuses = new Map<number, number>();
    for (const r of created) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    assert.deepEqual([...statuses.keys()].sort(), [201, 409], `only 201 and 409: ${[...statuses.entries()]}`);
    const wins = created.filter((r) => r.status === 201).map((r) => r.body);
    assert.ok(wins.length > 200 && wins.length <= 300);
    let vaults = await h.emulator.control.listAllVaults<Loose>();
    assert.equal(vaults.length, wins.length, "every 201 is in the state, nothing else is");
    assert.deepEqual(new Set(vaults.map((v) => v.id)), new Set(wins.map((v: Loose) => v.id)));
    assert.equal(new Set(vaults.map((v) => v.name)).size, vaults.length, "names are unique");

    const original = new Map(vaults.map((v) => [v.id, v.name as string]));
    const ids = [...original.keys()];
    const plans = Array.from({ length: 1000 }, () => ({
      id: prng.pick(ids),
      name: `vault ${prng.int(400)}`,
    }));
    const renamed = await Promise.all(
      plans.map((p) => call("PUT", `/api/v1/vaults/${p.id}/name`, { name: p.name })),
    );
    assert.ok(
      renamed.every((r) => r.status === 204 || r.status === 409),
      "only 204 and 409",
    );
    assert.ok(renamed.some((r) => r.status === 409) && renamed.some((r) => r.status === 204));
    vaults = await h.emulator.control.listAllVaults<Loose>();
    assert.equal(vaults.length, wins.length, "no vault lost or added by renames");
    assert.equal(new Set(vaults.map((v) => v.name)).size, vaults.length, "names are still unique");
    // Each final name is the original or the target of one of that vault's successful renames.
    const accepted = new Map<string, Set<string>>();
    plans.forEach((p, i) => {
      if (renamed[i]!.status !== 204) return;
      const set = accepted.get(p.id) ?? new Set();
      set.add(p.name);
      accepted.set(p.id, set);
    });
    for (const v of vaults) {
      assert.ok(v.name === original.get(v.id) || accepted.get(v.id)?.has(v.name), `${v.id}: ${v.name}`);
    }
    // Each 409 named a name held by another vault at that moment; a create of any free name still works.
    const free = Array.from({ length: 500 }, (_, i) => `vault ${i}`).find(
      (n) => !vaults.some((v) => v.name === n),
    );
    assert.equal((await call("POST", "/api/v1/vaults", { name: free, type: "evm" })).status, 201);
  });

  it("keeps address names unique within a vault under parallel creates", async function () {
    this.timeout(60_000);
    const vault = (
      await call("POST", "/api/v1/vaults", { name: "parallel btc", type: "utxo", chain: "bitcoin_testnet" })
    ).body;
    const prng = new Prng("addresses");
    const results = await Promise.all(
      Array.from({ length: 500 }, () =>
        call(
          "POST",
          `/api/v1/vaults/${vault.id}/addresses`,
          prng.int(2) ? { name: `addr ${prng.int(100)}` } : {},
        ),
      ),
    );
    assert.ok(results.every((r) => r.status === 201 || r.status === 409));
    const wins = results.filter((r) => r.status === 201);
    const all = await h.emulator.control.peek<Loose>("addresses");
    const mine = all.filter((a) => a.vault.id === vault.id);
    assert.equal(mine.length, wins.length + 1, "the default address plus every 201");
    assert.equal(new Set(mine.map((a) => a.name)).size, mine.length);
    assert.equal(new Set(mine.map((a) => a.address.address)).size, mine.length, "addresses are distinct");
  });
});
