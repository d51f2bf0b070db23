// The requests the service sees, counted in the emulator's request log (GET /__emulator/requests), for a stack
// of 300 vaults under the real engine with the provider's default settings: `up` sends one create per vault
// and shares its lookups, `preview --refresh` reads every vault in a list page per 100 (not one GET per
// vault), a rename made between two refreshes shows as drift in the second, and `destroy` sends one archive
// per vault. The emulator enforces a rate limit (high enough not to slow the test): the provider follows its
// x-ratelimit headers and never gets a 429.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import type { RequestLogEntry } from "@pulumi-custody/emulator";
import {
  declare,
  fixtureStack,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const N = 300;
/** Vaults per list page (`size` 0..100, docs/api-notes.md). */
const PAGE = 100;
/** Per 60 s; enough for the whole test, so that it counts requests rather than waits for windows. */
const RATE_LIMIT = 5000;

describe(`requests of a stack of ${N} vaults (real engine, emulator's request log)`, function () {
  this.timeout(10 * 60_000);
  let emulator: TestEmulator;
  let stack: Stack;

  before(async () => {
    await enginePaths();
    // An account that holds only this stack's vaults: the refresh's floor is then ⌈N/100⌉ list pages.
    emulator = await startTestEmulator({ seed: "empty", rateLimit: RATE_LIMIT, requestLogSize: 5000 });
    stack = await fixtureStack(emulator, "refresh-requests");
    // The provider's defaults: no client-side limit of our own, the service's quota followed.
    await stack.removeConfig("custody:requestsPerMinute");
    const vaults = Object.fromEntries(
      Array.from({ length: N }, (_, i) => [`v${i}`, { name: `e2e-refresh ${i}`, type: "evm" }]),
    );
    await declare(stack, { vaults });
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  /** The API requests since the last call, oldest first. */
  async function apiRequests(): Promise<RequestLogEntry[]> {
    const log = (await emulator.control.listRequests()).filter((r) => r.path.startsWith("/api/v1/"));
    await emulator.control.clearRequests();
    return log;
  }

  const describeRequests = (log: RequestLogEntry[]) =>
    Object.entries(
      log.reduce<Record<string, number>>((counts, r) => {
        const key = `${r.method} ${r.route ?? r.path} ${r.status}`;
        counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      }, {}),
    )
      .map(([k, n]) => `${n} × ${k}`)
      .join(", ") +
    `; lists: ${log
      .filter((r) => r.path === "/api/v1/vaults" && r.method === "GET")
      .map((r) => `${r.time} ${decodeURIComponent(r.url).replace(/vault_ids=[^&]*&?/g, "id&")}`)
      .join(" | ")}`;

  it(`up: ${N} creates and at most ⌈N/100⌉ + 2 other requests`, async () => {
    await apiRequests();
    const up = await stack.up();
    assert.equal(up.summary.resourceChanges?.create, N + 1);
    const log = await apiRequests();
    const creates = log.filter((r) => r.method === "POST" && r.route === "/api/v1/vaults");
    assert.equal(creates.length, N, describeRequests(log));
    assert.ok(log.length <= N + Math.ceil(N / PAGE) + 2, `${log.length} requests: ${describeRequests(log)}`);
    assert.deepEqual(
      log.filter((r) => r.status === 429),
      [],
    );
  });

  it(`preview --refresh: at most ⌈N/100⌉ + 2 requests, no GET /vaults/{id}`, async () => {
    const preview = await stack.preview({ refresh: true, expectNoChanges: true });
    assert.equal(preview.changeSummary.same, N + 1);
    const log = await apiRequests();
    assert.equal(log.filter((r) => r.route === "/api/v1/vaults/{id}").length, 0, describeRequests(log));
    assert.ok(log.length <= Math.ceil(N / PAGE) + 2, `${log.length} requests: ${describeRequests(log)}`);
    assert.ok(
      log.every((r) => r.method === "GET" && r.status === 200),
      describeRequests(log),
    );
  });

  it("a rename made after one refresh shows as drift in the next", async () => {
    const before = await stateResources(stack, VAULT_TYPE);
    const id = String(before.get("v7")?.id);
    await emulator.client.vaults.rename(id, "e2e-refresh 7, renamed by hand");
    await apiRequests();
    const refresh = await stack.refresh();
    assert.equal(refresh.summary.resourceChanges?.update, 1);
    const after = await stateResources(stack, VAULT_TYPE);
    assert.equal(after.get("v7")?.outputs?.name, "e2e-refresh 7, renamed by hand");
    const log = await apiRequests();
    assert.ok(log.length <= Math.ceil(N / PAGE) + 2, `${log.length} requests: ${describeRequests(log)}`);
  });

  it(`destroy: ${N} archives and at most ⌈N/100⌉ + 2 other requests`, async () => {
    const destroy = await stack.destroy();
    assert.equal(destroy.summary.resourceChanges?.delete, N + 1);
    const log = await apiRequests();
    assert.equal(log.filter((r) => r.path.endsWith("/archive")).length, N, describeRequests(log));
    assert.ok(log.length <= N + Math.ceil(N / PAGE) + 2, `${log.length} requests: ${describeRequests(log)}`);
    const live = await emulator.client.vaults.list({ size: 1, vault_states: ["active"] });
    assert.equal(live.total, 0);
  });
});
