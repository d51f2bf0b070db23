/** The client-side token bucket, driven by an injected clock. */
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { RateLimiter } from "../transport/rate-limiter";
import { evmVault, FakeTime, IDS, testClient } from "./helpers";

describe("sdk rate limiter", () => {
  it("lets a burst through at once, then spaces requests at the sustained rate", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({ requestsPerMinute: 180, now: time.now, sleep: time.sleep });
    assert.equal(limiter.burst, 20);
    for (let i = 0; i < 20; i++) await limiter.acquire();
    assert.deepEqual(time.sleeps, [], "the first 20 go out without waiting");
    await limiter.acquire();
    // 180 per minute is one per 333⅓ ms; the wait rounds up to whole ms.
    assert.deepEqual(time.sleeps, [334]);
  });

  it("admits at most 200 requests in any 60 s window by default (the documented quota)", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({ requestsPerMinute: 180, now: time.now, sleep: time.sleep });
    const start = time.nowMs;
    const sentAt: number[] = [];
    for (let i = 0; i < 600; i++) {
      await limiter.acquire();
      sentAt.push(time.nowMs - start);
    }
    let busiest = 0;
    for (let i = 0, j = 0; i < sentAt.length; i++) {
      while (sentAt[i] - sentAt[j] >= 60_000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    assert.ok(busiest <= 200, `busiest 60 s window carried ${busiest}`);
    assert.ok(busiest >= 195, `the limiter should not be much stricter than needed (${busiest})`);
    // Sustained: the last 400 requests took about 400 / 3 per second.
    const sustained = (sentAt[599] - sentAt[199]) / 400;
    assert.ok(sustained > 330 && sustained < 336, `ms per request ${sustained}`);
  });

  it("serves concurrent waiters first come, first served", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({ requestsPerMinute: 60, burst: 1, now: time.now, sleep: time.sleep });
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3].map((n) => limiter.acquire().then(() => order.push(n))));
    assert.deepEqual(order, [0, 1, 2, 3]);
    assert.deepEqual(time.sleeps, [1000, 1000, 1000]);
  });

  it("pauseUntil holds every caller until the given time", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({ requestsPerMinute: 180, now: time.now, sleep: time.sleep });
    limiter.pauseUntil(time.nowMs + 5000);
    await limiter.acquire();
    assert.deepEqual(time.sleeps, [5000]);
    await limiter.acquire();
    assert.deepEqual(time.sleeps, [5000], "after the pause, tokens are there again");
  });

  it("a waiter whose signal aborts is released with the abort reason, and the queue moves on", async () => {
    const time = new FakeTime();
    const limiter = new RateLimiter({ requestsPerMinute: 60, burst: 1, now: time.now, sleep: time.sleep });
    await limiter.acquire();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(limiter.acquire(controller.signal), /stop/);
    await limiter.acquire();
    assert.deepEqual(time.sleeps, [1000]);
  });

  it("refuses a non-positive rate", () => {
    assert.throws(
      () => new RateLimiter({ requestsPerMinute: 0 }),
      /requestsPerMinute must be a positive number/,
    );
    assert.throws(() => new RateLimiter({ requestsPerMinute: -5 }), RangeError);
  });

  describe("in the client", () => {
    let server: LoopbackServer;
    beforeEach(async () => {
      server = await startLoopbackServer(() => ({ body: evmVault }));
    });
    afterEach(async () => {
      await server.close();
    });

    it("is on by default at 180 per minute: the 21st request of a burst waits", async () => {
      const { client, time } = testClient(server, { requestsPerMinute: undefined });
      for (let i = 0; i < 25; i++) await client.vaults.get(IDS.vault);
      assert.equal(server.requests.length, 25);
      assert.equal(time.sleeps.length, 5);
      // One token per 333⅓ ms: whole-ms waits alternate 334/333 as the fraction carries over.
      for (const ms of time.sleeps) assert.ok(ms === 333 || ms === 334, String(ms));
      const total = time.sleeps.reduce((a, b) => a + b, 0);
      assert.ok(total >= 1666 && total <= 1670, String(total));
      await client.close();
    });

    it("requestsPerMinute: 0 turns it off", async () => {
      const { client, time } = testClient(server, { requestsPerMinute: 0 });
      for (let i = 0; i < 25; i++) await client.vaults.get(IDS.vault);
      assert.deepEqual(time.sleeps, []);
      await client.close();
    });

    it("a 429 with Retry-After pauses the whole client, not just the call that got it", async () => {
      const { client, time } = testClient(server, { requestsPerMinute: 180 });
      server.enqueue({ status: 429, body: {}, headers: { "retry-after": "2" } });
      await client.vaults.get(IDS.vault);
      // The retry waited 2 s (the pipeline's sleep), and the limiter then found the pause already over.
      assert.deepEqual(time.sleeps, [2000]);
      assert.equal(server.requests.length, 2);
      await client.close();
    });
  });
});
