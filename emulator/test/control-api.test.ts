// The control API through raw HTTP and through EmulatorControlClient: auth, reset and seeds, large data
// sets, the clock, the request log and state peeks.
import assert from "node:assert/strict";
import {
  assertError,
  type Harness,
  type Loose,
  rawCall,
  startHarness,
  uniqueName,
} from "@pulumi-custody/testing";
import { EmulatorControlClient } from "../index";

describe("emulator: control API", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const control = (
    method: string,
    path: string,
    opts: { json?: unknown; token?: string | null; headers?: Record<string, string> } = {},
  ) => rawCall(h.emulator.baseUrl, method, `/__emulator${path}`, opts);

  it("needs its own token (header or bearer); API tokens do not work; health needs none", async () => {
    assertError(await control("GET", "/clock"), 401);
    assertError(await control("GET", "/clock", { token: h.emulator.accessToken }), 401);
    assert.equal((await control("GET", "/clock", { token: h.emulator.controlToken })).status, 200);
    assert.equal(
      (await control("GET", "/clock", { headers: { "x-emulator-control-token": h.emulator.controlToken } }))
        .status,
      200,
    );
    assert.equal((await control("GET", "/health")).status, 200);
    assertError(await control("GET", "/nope", { token: h.emulator.controlToken }), 404, { resource: "path" });
    assertError(await control("PUT", "/latency", { token: h.emulator.controlToken, json: { ms: -1 } }), 422);
    assert.equal((await h.api("GET", "/api/v1/vaults", { token: h.emulator.controlToken })).status, 401);
  });

  it("reports the organization and keys", async () => {
    const info = await h.emulator.control.info();
    assert.equal(info.webhook_public_key_pem, h.emulator.webhookPublicKeyPem);
    assert.equal(info.api_user_public_key_pem, h.emulator.apiUserPublicKeyPem);
    const me = (await h.api("GET", `/api/v1/users/${info.api_user_id}`)).body;
    assert.equal(me.user_type, "api_user");
    assert.equal(me.role, "trader");
  });

  it("resets to the empty seed and back to the default seed, with the same seed ids each time", async () => {
    const before = (await h.api("GET", "/api/v1/vaults", { query: { size: 100 } })).body;
    await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } });
    const empty = await h.emulator.control.reset("empty");
    assert.deepEqual(empty, { seed: "empty", vaults: 0, users: 2 });
    assert.equal((await h.api("GET", "/api/v1/vaults")).body.total, 0);
    assert.equal((await h.api("GET", "/api/v1/user-groups")).body.total, 0);
    const created = (await h.api("POST", "/api/v1/vaults", { json: { name: "first", type: "evm" } })).body;
    assert.deepEqual(
      created.vault_groups.map((g: Loose) => g.name),
      ["Default"],
    );
    await h.emulator.control.reset();
    const after = (await h.api("GET", "/api/v1/vaults", { query: { size: 100 } })).body;
    assert.deepEqual(after, before);
    // The same requests after a reset give the same ids (ids come from a seeded counter).
    const a = (await h.api("POST", "/api/v1/vaults", { json: { name: "same", type: "evm" } })).body;
    await h.emulator.control.reset();
    const b = (await h.api("POST", "/api/v1/vaults", { json: { name: "same", type: "evm" } })).body;
    assert.equal(a.id, b.id);
    assert.equal(a.address, b.address);
    await h.emulator.control.reset();
  });

  it("seeds large data sets (10,000 users and 5,000 vaults) that page correctly", async function () {
    this.timeout(60_000);
    const added = await h.emulator.control.seedLargeDataSet({ users: 10_000, vaults: 5_000 });
    assert.deepEqual(added, { users: 10_000, vaults: 5_000 });
    const summary = await h.emulator.control.stateSummary();
    assert.ok(summary.counts.users! >= 10_000);
    assert.ok(summary.counts.vaults! >= 5_000);
    const vaults = await h.api("GET", "/api/v1/vaults", { query: { size: 100, page: 50 } });
    assert.equal(vaults.body.vaults.length, 100);
    assert.ok(vaults.body.total >= 5_000);
    const users = await h.api("GET", "/api/v1/users", { query: { size: 400, include_deleted: true } });
    assert.equal(users.body.users.length, 400);
    assert.ok(users.body.total >= 10_000);
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const res = await h.api("GET", "/api/v1/vaults", { query: { size: 100, page, sort_by: "name_desc" } });
      for (const v of res.body.vaults) seen.add(v.id);
    }
    assert.equal(seen.size, 300, "pages do not overlap");
    await assert.rejects(h.emulator.control.seedLargeDataSet({ users: -1 }), /422/);
    await h.emulator.control.reset();
  });

  it("gets, sets, freezes, advances and resets the clock", async () => {
    const t = Date.UTC(2030, 0, 1);
    const set = await h.emulator.control.setClock({ now: t, frozen: true });
    assert.equal(set.nowMs, t);
    assert.equal(set.frozen, true);
    const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } })).body;
    assert.equal(vault.created_at, "2030-01-01T00:00:00.000000Z");
    const later = await h.emulator.control.advanceClock(90_000);
    assert.equal(later.now, "2030-01-01T00:01:30.000000Z");
    assert.equal(
      (await h.emulator.control.setClock({ now: "2031-06-01T12:00:00Z" })).now,
      "2031-06-01T12:00:00.000000Z",
    );
    const reset = await h.emulator.control.resetClock();
    assert.equal(reset.frozen, false);
    assert.ok(Math.abs(reset.nowMs - Date.now()) < 60_000);
    await assert.rejects(h.emulator.control.setClock({ now: "yesterday" }), /422/);
  });

  it("logs API requests (method, path, status, request id), not control calls, and clears the log", async () => {
    await h.emulator.control.clearRequests();
    const ok = await h.api("GET", "/api/v1/vaults", { query: { size: 1 } });
    const missing = await h.api("GET", "/api/v1/nope");
    await h.emulator.control.getClock();
    const log = await h.emulator.control.listRequests();
    assert.equal(log.length, 2);
    assert.deepEqual(
      log.map((e) => [e.method, e.path, e.status, e.request_id]),
      [
        ["GET", "/api/v1/vaults", 200, ok.headers["x-request-id"]],
        ["GET", "/api/v1/nope", 404, missing.headers["x-request-id"]],
      ],
    );
    assert.equal(log[0]!.route, "/api/v1/vaults");
    assert.equal(log[0]!.url, "/api/v1/vaults?size=1");
    assert.ok(!Number.isNaN(Date.parse(log[0]!.time)));
    assert.equal((await h.emulator.control.listRequests(1)).length, 1);
  });

  it("peeks at every collection, archived vaults and deleted users included", async () => {
    const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } })).body;
    await h.api("POST", `/api/v1/vaults/${vault.id}/archive`);
    const vaults = await h.emulator.control.listAllVaults<Loose>();
    assert.equal(vaults.find((v) => v.id === vault.id)?.state, "archived");
    const users = await h.emulator.control.peek<Loose>("users");
    assert.ok(users.some((u) => u.state === "deleted"));
    for (const c of [
      "addresses",
      "user-groups",
      "vault-groups",
      "proposals",
      "transactions",
      "audit-log",
      "webhook-endpoints",
    ] as const) {
      assert.ok(Array.isArray(await h.emulator.control.peek(c)), c);
    }
    const audit = await h.emulator.control.peek<Loose>("audit-log");
    assert.ok(audit.some((r) => r.action === "vault_archived" && r.resource.id === vault.id));
    await assert.rejects(h.emulator.control.peek("nope" as never), /422/);
  });

  it("reports errors of the control API as EmulatorControlError with status and body", async () => {
    const wrong = new EmulatorControlClient({ baseUrl: h.emulator.baseUrl, controlToken: "wrong" });
    await assert.rejects(
      wrong.getClock(),
      (err: Loose) =>
        err.name === "EmulatorControlError" && err.status === 401 && err.body.title === "Unauthorized",
    );
    assert.deepEqual(await wrong.health(), { ok: true });
  });
});
