// Fault injection and rate limiting through raw HTTP: determinism under a seed, per-route rules, each
// fault kind, "fault after commit", and the 429 with Retry-After.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startEmulator } from "@pulumi-custody/emulator";
import { assertError, type Harness, type Loose, startHarness, uniqueName } from "@pulumi-custody/testing";

describe("emulator: faults and rate limiting", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.emulator.control.clearFaults();
    await h.emulator.control.setRateLimit(0);
    await h.emulator.control.resetClock();
  });
  after(() => h.close());

  /** Status of a call, 0 when the connection was reset. */
  async function status(method: string, path: string, json?: unknown): Promise<number> {
    try {
      return (await h.api(method, path, json === undefined ? {} : { json })).status;
    } catch (err) {
      assert.match(String((err as { code?: string }).code), /UND_ERR_SOCKET|ECONNRESET/);
      return 0;
    }
  }
  async function vaultExists(name: string): Promise<boolean> {
    return (await h.api("GET", "/api/v1/vaults", { query: { names: name } })).body.total === 1;
  }
  async function sequence(seed: string | number, n: number): Promise<number[]> {
    await h.emulator.control.setFaults({ seed, rate: 0.5 });
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await status("GET", "/api/v1/blockchains"));
    return out;
  }

  it("gives the same fault sequence for the same seed, and another for another seed", async () => {
    const a = await sequence("alpha", 60);
    const b = await sequence("alpha", 60);
    const c = await sequence("beta", 60);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
    const kinds = new Set(a);
    assert.ok(kinds.has(200), "some requests pass");
    assert.ok(
      [500, 429, 408, 0].filter((s) => kinds.has(s)).length >= 3,
      `several fault kinds: ${[...kinds]}`,
    );
    const log = await h.emulator.control.listRequests(60);
    assert.deepEqual(
      log.map((e) => e.status),
      c,
    );
    assert.ok(log.filter((e) => e.status !== 200).every((e) => e.fault));
  });

  it("applies a rule only to its route and method, and at most `count` times", async () => {
    await h.emulator.control.setFaults({
      rules: [{ kind: "http_500", rate: 1, route: "createVault", count: 2 }],
    });
    const name = uniqueName();
    assert.equal(await status("GET", "/api/v1/vaults"), 200);
    assertError(await h.api("POST", "/api/v1/vaults", { json: { name, type: "evm" } }), 500, {
      title: "Internal server error",
    });
    assert.equal(await status("POST", "/api/v1/vaults", { name, type: "evm" }), 500);
    assert.equal(await vaultExists(name), false, "a plain 500 applies nothing");
    assert.equal(await status("POST", "/api/v1/vaults", { name, type: "evm" }), 201);
    const faults = await h.emulator.control.getFaults();
    assert.deepEqual(faults.fired, [2]);
    await h.emulator.control.setFaults({
      rules: [{ kind: "http_408", rate: 1, method: "GET", route: "/api/v1/vaults/{id}" }],
    });
    const vault = (await h.api("GET", "/api/v1/vaults", { query: { names: name } })).body.vaults[0];
    assertError(await h.api("GET", `/api/v1/vaults/${vault.id}`), 408, { title: "Request timeout" });
    assert.equal(
      (await h.api("PUT", `/api/v1/vaults/${vault.id}/name`, { json: { name: uniqueName() } })).status,
      204,
    );
  });

  it("answers an injected 429 with Retry-After", async () => {
    await h.emulator.control.setFaults({ rules: [{ kind: "http_429", rate: 1, count: 1 }] });
    const res = await h.api("GET", "/api/v1/users");
    assertError(res, 429);
    assert.equal(res.headers["retry-after"], "1");
    assert.equal((await h.api("GET", "/api/v1/users")).status, 200);
  });

  it("resets the connection before anything is applied", async () => {
    await h.emulator.control.setFaults({
      rules: [{ kind: "connection_reset", rate: 1, route: "createVault" }],
    });
    const name = uniqueName();
    assert.equal(await status("POST", "/api/v1/vaults", { name, type: "evm" }), 0);
    await h.emulator.control.clearFaults();
    assert.equal(await vaultExists(name), false);
    const log = await h.emulator.control.listRequests(10);
    assert.ok(log.some((e) => e.fault === "connection_reset" && e.status === 0));
  });

  it("fault after commit: applies the write, then answers 500 (or resets)", async () => {
    await h.emulator.control.setFaults({
      rules: [{ kind: "after_commit_500", rate: 1, route: "createVault", count: 1 }],
    });
    const name = uniqueName();
    assertError(await h.api("POST", "/api/v1/vaults", { json: { name, type: "evm" } }), 500);
    assert.equal(await vaultExists(name), true, "the vault was created");
    // The naive retry now collides with the write it did not see.
    assertError(await h.api("POST", "/api/v1/vaults", { json: { name, type: "evm" } }), 409);
    await h.emulator.control.setFaults({
      rules: [{ kind: "after_commit_reset", rate: 1, route: "renameVault", count: 1 }],
    });
    const vault = (await h.api("GET", "/api/v1/vaults", { query: { names: name } })).body.vaults[0];
    const renamed = uniqueName("renamed");
    assert.equal(await status("PUT", `/api/v1/vaults/${vault.id}/name`, { name: renamed }), 0);
    assert.equal((await h.api("GET", `/api/v1/vaults/${vault.id}`)).body.name, renamed);
  });

  it("fault after commit on a transaction: a retry with the same idempotency id gets the original (200)", async () => {
    const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } })).body;
    const body = {
      vault_id: vault.id,
      type: "evm_transaction",
      details: {
        type: "evm_transfer",
        to: "0x1111111111111111111111111111111111111111",
        asset_identifier: { type: "evm", details: { type: "native", chain: "evm_ethereum_mainnet" } },
        value: { type: "value", value: "7" },
      },
    };
    await h.emulator.control.setFaults({
      rules: [{ kind: "after_commit_500", rate: 1, route: "createTransaction", count: 1 }],
    });
    const id = randomUUID();
    assertError(await h.createTransaction(body, { idempotenceId: id }), 500);
    const retry = await h.createTransaction(body, { idempotenceId: id });
    assert.equal(retry.status, 200);
    const all = await h.emulator.control.listTransactions<Loose>({ vaultId: vault.id });
    assert.equal(all.length, 1);
    assert.equal(all[0].id, retry.body.id);
  });

  it("adds latency without changing answers, and never faults the control API", async () => {
    await h.emulator.control.setFaults({ rate: 1, rules: [{ kind: "latency", rate: 1, latencyMs: 20 }] });
    for (let i = 0; i < 5; i++) await h.emulator.control.getClock();
    assert.equal((await h.api("GET", "/openapi.json", { token: null })).status, 200);
    assert.deepEqual((await h.emulator.control.getFaults()).fired, []);
    await h.emulator.control.setFaults({ rules: [{ kind: "latency", rate: 1, latencyMs: 20 }] });
    await h.emulator.control.setLatency(5);
    assert.equal(await status("GET", "/api/v1/users"), 200);
    assert.deepEqual((await h.emulator.control.getFaults()).fired, [1]);
    assert.equal((await h.emulator.control.getFaults()).latencyMs, 5);
  });

  it("validates fault configurations (422 with the field)", async () => {
    await assert.rejects(h.emulator.control.setFaults({ rate: 2 }), /422/);
    await assert.rejects(
      h.emulator.control.setFaults({ rules: [{ kind: "nope" as never, rate: 1 }] }),
      /422/,
    );
  });

  describe("rate limiting", () => {
    it("counts per token in 60 s windows of the emulator clock; a 429 has Retry-After and a RateLimitError body", async () => {
      await h.emulator.control.setRateLimit(3);
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await h.api("GET", "/api/v1/blockchains");
        assert.equal(res.status, 200);
        assert.equal(res.headers["x-ratelimit-limit"], "3, 3;w=60");
        remaining.push(String(res.headers["x-ratelimit-remaining"]));
      }
      assert.deepEqual(remaining, ["2", "1", "0"]);
      const limited = await h.api("GET", "/api/v1/blockchains");
      assertError(limited, 429, { title: "Too many requests" });
      const retryAfter = Number(limited.headers["retry-after"]);
      assert.ok(retryAfter >= 1 && retryAfter <= 60);
      assert.equal(limited.headers["x-ratelimit-remaining"], "0");
      assert.equal(
        (await h.api("GET", "/api/v1/blockchains", { token: h.emulator.viewerAccessToken })).status,
        200,
      );
      assert.equal((await h.emulator.control.getRateLimit()).limit, 3, "the control API is not limited");
      await h.emulator.control.advanceClock(60_000);
      assert.equal((await h.api("GET", "/api/v1/blockchains")).status, 200);
    });

    it("a shorter window (rateLimitWindowSeconds) keeps the header semantics and restarts the count", async () => {
      const short = await startHarness({ rateLimit: 2, rateLimitWindowSeconds: 3 });
      try {
        const first = await short.api("GET", "/api/v1/blockchains");
        assert.equal(first.headers["x-ratelimit-limit"], "2, 2;w=3");
        assert.equal(first.headers["x-ratelimit-remaining"], "1");
        assert.ok(Number(first.headers["x-ratelimit-reset"]) <= 3, "the reset falls within the window");
        assert.equal((await short.api("GET", "/api/v1/blockchains")).status, 200);
        const limited = await short.api("GET", "/api/v1/blockchains");
        assertError(limited, 429, { title: "Too many requests" });
        assert.match(limited.body.detail, /2 requests per 3 s/);
        assert.ok(Number(limited.headers["retry-after"]) <= 3);
        await short.emulator.control.advanceClock(3_000);
        assert.equal((await short.api("GET", "/api/v1/blockchains")).status, 200, "a new window");
      } finally {
        await short.close();
      }
      await assert.rejects(
        startEmulator({ rateLimitWindowSeconds: 0.5 }),
        /rateLimitWindowSeconds must be a whole number/,
      );
    });
  });
});
