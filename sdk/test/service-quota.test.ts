// The limiter plans with the service's announced quota (x-ratelimit-limit / -remaining / -reset): it sends
// what the current window has left, counting requests in flight, holds the rest until the reset, and so uses
// the whole quota without a 429. An explicit requestsPerMinute stays a ceiling; a 429 pauses every caller.
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient } from "../index";
import { parseQuotaHeaders, RateLimiter } from "../transport/rate-limiter";
import { evmVault, FakeTime, FixedWindowService, IDS, testClient } from "./helpers";

describe("sdk rate limiter: the service's quota", () => {
  it("reads x-ratelimit-limit with and without a window, remaining and reset", () => {
    assert.deepEqual(
      parseQuotaHeaders(
        { "x-ratelimit-limit": "300, 300;w=60", "x-ratelimit-remaining": "12", "x-ratelimit-reset": "41" },
        0,
      ),
      { limit: 300, windowMs: 60_000, remaining: 12, resetInMs: 41_000 },
    );
    assert.deepEqual(parseQuotaHeaders({ "x-ratelimit-limit": "200" }, 0), { limit: 200 });
    assert.deepEqual(parseQuotaHeaders({ "x-ratelimit-remaining": "many" }, 0), {});
  });

  it("sends what the window has left, then waits exactly for the reset", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: time.now,
      sleep: time.sleep,
    });
    const service = new FixedWindowService(200, 60_000);
    const start = time.nowMs;
    for (let i = 0; i < 1000; i++) {
      await limiter.acquire();
      const { headers } = service.hit(time.nowMs);
      limiter.settle(headers);
    }
    assert.equal(service.refused, 0, "no request was refused");
    // 1,000 requests at 200 per window: five windows, and the client waited only for the four resets.
    assert.deepEqual(service.perWindow, [200, 200, 200, 200, 200]);
    assert.equal(time.nowMs - start, 4 * 60_000);
  });

  it("counts requests in flight against what an answer says is left", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: time.now,
      sleep: time.sleep,
    });
    await limiter.acquire();
    limiter.settle({
      "x-ratelimit-limit": "30, 30;w=60",
      "x-ratelimit-remaining": "29",
      "x-ratelimit-reset": "60",
    });
    // 25 go out and are in flight; the first answer among them says 4 are left.
    for (let i = 0; i < 25; i++) await limiter.acquire();
    limiter.settle({
      "x-ratelimit-limit": "30, 30;w=60",
      "x-ratelimit-remaining": "4",
      "x-ratelimit-reset": "59",
    });
    assert.deepEqual(time.sleeps, []);
    // 24 others are still in flight and may be counted after it: nothing more may go before the reset.
    await limiter.acquire();
    assert.deepEqual(time.sleeps, [60_000]);
  });

  it("an answer that arrives late says more than is left: it never raises the budget of its window", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: time.now,
      sleep: time.sleep,
    });
    const quota = (remaining: number, reset: number) => ({
      "x-ratelimit-limit": "10, 10;w=60",
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": String(reset),
    });
    await limiter.acquire();
    await limiter.acquire();
    limiter.settle(quota(0, 30)); // the second request's answer, counted last
    limiter.settle(quota(5, 30)); // the first one's, counted earlier, arriving later
    await limiter.acquire();
    assert.deepEqual(time.sleeps, [30_000], "the window had nothing left: wait for its reset");
  });

  it("a late answer from a window that has ended does not hold the next one", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: time.now,
      sleep: time.sleep,
    });
    const quota = (remaining: number, reset: number) => ({
      "x-ratelimit-limit": "3, 3;w=60",
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": String(reset),
    });
    await limiter.acquire();
    limiter.settle(quota(2, 60));
    await limiter.acquire();
    await limiter.acquire(); // in flight across the reset
    await limiter.acquire(); // waits for the reset
    assert.deepEqual(time.sleeps, [60_000]);
    limiter.settle(quota(1, 1)); // an answer counted just before the old window ended
    limiter.settle(quota(0, 1));
    // The first request of the new window asks what others have spent of it; its answer lets the next go.
    const next = limiter.acquire();
    limiter.settle(quota(2, 60));
    await next;
    assert.deepEqual(time.sleeps, [60_000], "the new window still has room");
  });

  it("infers others on the same quota from the headers, takes its share, and has the whole window again once alone", async () => {
    const time = new FakeTime();
    const make = () =>
      new RateLimiter({ requestsPerMinute: 180, followServiceQuota: true, now: time.now, sleep: time.sleep });
    const a = make();
    const b = make();
    const service = new FixedWindowService(100, 60_000);
    const send = async (limiter: RateLimiter) => {
      const ticket = await limiter.acquire();
      limiter.settle(service.hit(time.nowMs).headers, ticket);
    };
    // Two programs, taking turns: neither knows of the other but through the headers.
    while (service.perWindow.length < 4) {
      await send(a);
      await send(b);
    }
    const shared = service.perWindow.length;
    // Then one alone.
    while (service.perWindow.length < shared + 5) await send(a);
    assert.equal(service.refused, 0, `per window: ${service.perWindow}`);
    assert.ok(
      service.perWindow.slice(1, shared - 1).every((n) => n >= 90),
      `together they use most of each window: ${service.perWindow}`,
    );
    const alone = service.perWindow.slice(shared, -1);
    assert.equal(alone.at(-1), 100, `alone, the whole window again within a few windows: ${alone}`);
  });

  it("an explicit requestsPerMinute stays a ceiling below a larger quota", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({ requestsPerMinute: 60, burst: 1, now: time.now, sleep: time.sleep });
    await limiter.acquire();
    limiter.settle({
      "x-ratelimit-limit": "300, 300;w=60",
      "x-ratelimit-remaining": "299",
      "x-ratelimit-reset": "60",
    });
    await limiter.acquire();
    assert.deepEqual(time.sleeps, [1000], "one per second, although the service allows more");
  });

  it("says what paces requests and how long those waiting now will wait", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: time.now,
      sleep: time.sleep,
    });
    assert.equal(limiter.status().pacedBy, "client");
    await limiter.acquire();
    limiter.settle({
      "x-ratelimit-limit": "200, 200;w=60",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": "42",
    });
    // Queue 3 waiters without letting the fake clock run: check the status before they are served.
    const blocked = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: time.now,
      sleep: () => new Promise(() => undefined),
    });
    await blocked.acquire();
    blocked.settle({
      "x-ratelimit-limit": "200, 200;w=60",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": "42",
    });
    for (let i = 0; i < 3; i++) void blocked.acquire();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(blocked.status(), {
      pacedBy: "service",
      limit: 200,
      windowSeconds: 60,
      waiting: 3,
      expectedWaitMs: 42_000,
    });
    assert.equal(limiter.status().expectedWaitMs, 0, "nobody waits on the other limiter");
  });

  describe("in the client", () => {
    let server: LoopbackServer;
    afterEach(async () => server?.close());

    it("by default, many concurrent calls meet no 429 and use the whole quota (real time, 1 s windows)", async function () {
      this.timeout(30_000);
      const service = new FixedWindowService(5, 1000);
      server = await startLoopbackServer((req) => {
        const { headers, refused } = service.hit(Date.now());
        // Fractional seconds: the 1 s windows of this test need a finer reset than the service's whole seconds.
        headers["x-ratelimit-reset"] = String(
          Math.max(0, (service.windowStart! + service.windowMs - Date.now()) / 1000).toFixed(3),
        );
        void req;
        return refused ? { status: 429, headers, body: {} } : { headers, body: evmVault };
      });
      const client = new CustodyClient({
        baseUrl: server.url,
        accessToken: "t0ken-for-quota-test",
        maxRetries: 0,
      });
      try {
        await client.vaults.get(IDS.vault); // the first answer announces the quota
        await Promise.all(Array.from({ length: 17 }, () => client.vaults.get(IDS.vault)));
      } finally {
        await client.close();
      }
      assert.equal(service.refused, 0, `refused: ${service.refused}; per window: ${service.perWindow}`);
      assert.equal(server.requests.length, 18);
      assert.ok(service.perWindow.every((n) => n <= 5));
      assert.ok(
        service.perWindow.length >= 4,
        `18 requests at 5 per window take 4 windows: ${service.perWindow}`,
      );
    });

    it("a 429 to a call that is not retried (a create) still pauses every caller", async () => {
      server = await startLoopbackServer(() => ({ body: evmVault }));
      const { client, time } = testClient(server, { requestsPerMinute: 180 });
      server.enqueue({ status: 429, body: {}, headers: { "retry-after": "3" } });
      await assert.rejects(client.vaults.create({ name: "x", type: "evm" }), {
        code: "ERR_CUSTODY_RATE_LIMITED",
      });
      await client.vaults.get(IDS.vault);
      assert.deepEqual(time.sleeps, [3000]);
      await client.close();
    });

    it("request events carry the limiter's status", async () => {
      server = await startLoopbackServer(() => ({
        headers: {
          "x-ratelimit-limit": "300, 300;w=60",
          "x-ratelimit-remaining": "120",
          "x-ratelimit-reset": "30",
        },
        body: evmVault,
      }));
      const events: unknown[] = [];
      const { client } = testClient(server, {
        requestsPerMinute: undefined,
        onRequest: (e) => events.push(e.rateLimit),
      });
      await client.vaults.get(IDS.vault);
      assert.deepEqual(events, [
        { pacedBy: "service", limit: 300, windowSeconds: 60, waiting: 0, expectedWaitMs: 0 },
      ]);
      await client.close();
    });
  });
});
