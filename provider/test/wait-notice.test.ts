// The wait notice says which limit holds requests and the wait still ahead: the service's announced quota
// (x-ratelimit-*), which the provider follows by default, or the client-side limit a user set.
import * as assert from "node:assert/strict";
import { evmVault, IDS, type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { setNoticeSink } from "../core/host/notices";
import { resetRequestDiagnostics, waitNotice } from "../core/host/request-notices";
import { cachedClient } from "../core/settings/connect";

describe("the rate-limit wait notice", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => server?.close());

  it("held by the service's quota: its limit and window, and the expected wait of those waiting", async function () {
    this.timeout(30_000);
    // Fixed windows of 2 s with 3 requests each, in real time.
    const windowMs = 2000;
    const limit = 3;
    let windowStart = 0;
    let count = 0;
    server = await startLoopbackServer(() => {
      const now = Date.now();
      if (now >= windowStart + windowMs) {
        windowStart = now;
        count = 0;
      }
      count += 1;
      const headers = {
        "x-ratelimit-limit": `${limit}, ${limit};w=${windowMs / 1000}`,
        "x-ratelimit-remaining": String(Math.max(0, limit - count)),
        "x-ratelimit-reset": ((windowStart + windowMs - now) / 1000).toFixed(3),
      };
      return count > limit ? { status: 429, headers, body: {} } : { headers, body: evmVault };
    });
    const notices: string[] = [];
    const restore = setNoticeSink((message) => {
      notices.push(message);
    });
    resetRequestDiagnostics();
    // Default settings: the provider follows the quota the service announces.
    const client = cachedClient({ baseUrl: server.url, accessToken: "notice-test-token", maxRetries: 0 });
    try {
      await client.vaults.get(IDS.vault);
      await Promise.all(Array.from({ length: 8 }, () => client.vaults.get(IDS.vault)));
    } finally {
      restore();
      await client.close();
    }
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(
      notices[0]!,
      /held by the service's rate limit of 3 requests per 2 s, as its x-ratelimit headers announce \(a request waited \d+\.\d s\); the (\d+ requests|request) waiting now go(es)? out within about \d+ s\. At that rate every further 3 requests take 2 s; custody:requestsPerMinute cannot raise a limit the service sets\./,
    );
  });

  it("latency is not a limit: a service at no limit that answers in 1.5 s gives no notice", async function () {
    this.timeout(60_000);
    // As the emulator at no limit announces it, after 13 requests of other programs in the window.
    let count = 0;
    server = await startLoopbackServer(() => {
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
    const notices: string[] = [];
    const restore = setNoticeSink((message) => {
      notices.push(message);
    });
    resetRequestDiagnostics();
    // Default settings: the provider follows the quota the service announces. The requests wait, each longer
    // than a notable wait, for the answers of the first ones (sdk/test/request-events.test.ts shows it), but no
    // limit holds them.
    const client = cachedClient({ baseUrl: server.url, accessToken: "latency-test-token", maxRetries: 0 });
    try {
      await client.vaults.get(IDS.vault);
      await Promise.all(Array.from({ length: 8 }, () => client.vaults.get(IDS.vault)));
    } finally {
      restore();
      await client.close();
    }
    assert.deepEqual(notices, [], notices.join("\n"));
  });

  it("held by the client-side limit: the setting that changes it", () => {
    const notice = waitNotice(
      {
        method: "GET",
        path: "/api/v1/vaults",
        attempt: 1,
        status: 200,
        durationMs: 40,
        queuedMs: 2000,
        rateLimitedMs: 2000,
        rateLimit: { pacedBy: "client", limit: 30, windowSeconds: 60, waiting: 5, expectedWaitMs: 130_000 },
      },
      30,
    );
    assert.equal(
      notice,
      "requests to the custody API are being held by the client-side rate limit of 30 per minute (a request " +
        "waited 2.0 s); the 5 requests waiting now go out within about 2 min 10 s. If the service allows more, " +
        "raise it with `pulumi config set custody:requestsPerMinute <n>` or CUSTODY_REQUESTS_PER_MINUTE; 0 turns " +
        "the limit off.",
    );
  });
});
