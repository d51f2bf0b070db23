// The onRequest hook: one event per attempt with method, path, status or failure, duration and the time the
// rate limiter held it, and nothing that could carry a credential.
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient, type RequestEvent } from "../index";
import { evmVault, IDS, TOKEN, testClient } from "./helpers";

describe("sdk onRequest events", () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer();
  });
  afterEach(async () => server.close());

  it("reports every attempt, retries and failures included, without query string or credentials", async () => {
    const events: RequestEvent[] = [];
    const { client } = testClient(server, { onRequest: (e) => events.push(e) });
    server.enqueue({ status: 503 }, { destroy: true }, { status: 200, body: evmVault });
    await client.vaults.get(IDS.vault);
    await client.close();
    assert.deepEqual(
      events.map((e) => [e.method, e.path, e.attempt, e.status ?? e.failure]),
      [
        ["GET", `/api/v1/vaults/${IDS.vault}`, 1, 503],
        ["GET", `/api/v1/vaults/${IDS.vault}`, 2, "connection-lost"],
        ["GET", `/api/v1/vaults/${IDS.vault}`, 3, 200],
      ],
    );
    for (const e of events) {
      assert.equal(typeof e.durationMs, "number");
      assert.ok(!JSON.stringify(e).includes(TOKEN));
    }
  });

  it("says how long the rate limiter held an attempt", async () => {
    const events: RequestEvent[] = [];
    const { client } = testClient(server, {
      requestsPerMinute: 60,
      advanced: { rateLimitBurst: 1 },
      onRequest: (e) => events.push(e),
    });
    server.enqueue({ status: 200, body: evmVault }, { status: 200, body: evmVault });
    await client.vaults.get(IDS.vault);
    await client.vaults.get(IDS.vault);
    await client.close();
    assert.deepEqual(
      events.map((e) => e.queuedMs),
      [0, 1000],
    );
    // The client's own rate held it: all of the wait is the limit's.
    assert.deepEqual(
      events.map((e) => e.rateLimitedMs),
      [0, 1000],
    );
  });

  it("a wait for the answers to earlier requests is not a hold of the limit (a service at no limit, slow to answer)", async function () {
    this.timeout(60_000);
    // The emulator at no limit, as it announces it; every answer takes 1.5 s.
    let count = 0;
    server.setHandler(() => {
      count += 1;
      return {
        delayMs: 1500,
        headers: {
          "x-ratelimit-limit": "1000000, 1000000;w=60",
          "x-ratelimit-remaining": String(999_987 - count),
          "x-ratelimit-reset": "60",
        },
        body: evmVault,
      };
    });
    const events: RequestEvent[] = [];
    // Real time, the default pacing: the client follows the quota the service announces.
    const client = new CustodyClient({
      baseUrl: server.url,
      accessToken: TOKEN,
      onRequest: (e) => events.push(e),
    });
    try {
      await client.vaults.get(IDS.vault);
      await Promise.all(Array.from({ length: 8 }, () => client.vaults.get(IDS.vault)));
    } finally {
      await client.close();
    }
    assert.equal(events.length, 9);
    // Requests waited in the limiter's line for the first answers of the window, each one answer long at least…
    assert.ok(
      events.some((e) => e.queuedMs >= 1500),
      events.map((e) => e.queuedMs).join(", "),
    );
    // …but no limit held them.
    assert.deepEqual(
      events.map((e) => e.rateLimitedMs),
      events.map(() => 0),
    );
  });

  it("a hook that throws does not break the call", async () => {
    const { client } = testClient(server, {
      onRequest: () => {
        throw new Error("broken hook");
      },
    });
    server.enqueue({ status: 200, body: evmVault });
    assert.equal((await client.vaults.get(IDS.vault)).id, evmVault.id);
    await client.close();
  });
});
