// Requests are never silently slow: a rate-limiter wait over a second is said once, naming the setting that
// changes it; CUSTODY_TRACE=1 prints one line per request with method, path, status and duration, and never
// a credential.
import * as assert from "node:assert/strict";
import { resetRequestDiagnostics, traceLine } from "../core/host/request-notices";
import { cachedClient } from "../core/settings/connect";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

describe("provider request diagnostics (emulator)", function () {
  this.timeout(30_000);
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => {
    await bed.reset();
    resetRequestDiagnostics();
  });

  it("a wait over a second on the rate limiter is said once, with the setting that changes it", async () => {
    const client = cachedClient({
      baseUrl: bed.emulator.baseUrl,
      accessToken: bed.emulator.accessToken,
      requestsPerMinute: 30, // a burst of 20, then one every 2 s
    });
    try {
      await Promise.all(Array.from({ length: 23 }, () => client.vaults.list({ size: 1 })));
    } finally {
      await client.close();
    }
    const notices = bed.notices.filter((n) => n.includes("rate limit"));
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0]!, /rate limit of 30 per minute \(a request waited \d+\.\d s\)/);
    assert.match(
      notices[0]!,
      /pulumi config set custody:requestsPerMinute <n>` or CUSTODY_REQUESTS_PER_MINUTE/,
    );
  });

  it("CUSTODY_TRACE=1: one line per request, no credential", async () => {
    const saved = process.env.CUSTODY_TRACE;
    process.env.CUSTODY_TRACE = "1";
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    const client = cachedClient({
      baseUrl: bed.emulator.baseUrl,
      accessToken: bed.emulator.accessToken,
      requestsPerMinute: 0,
      maxRetries: 1, // another cache entry than the testbed's own client
    });
    try {
      await client.vaults.list({ size: 1, names: ["secret-looking query"] });
      await client.vaults.get("00000000-0000-4000-8000-000000000000").catch(() => undefined);
    } finally {
      process.stderr.write = write;
      if (saved === undefined) delete process.env.CUSTODY_TRACE;
      else process.env.CUSTODY_TRACE = saved;
      await client.close();
    }
    const traced = lines.filter((l) => l.startsWith("custody: "));
    assert.equal(traced.length, 2, lines.join(""));
    // On a loaded machine a request may wait a millisecond in the limiter's queue, which the line then says.
    assert.match(traced[0]!, /^custody: GET \/api\/v1\/vaults 200 \d+ ms( \(queued \d+ ms\))?\n$/);
    assert.match(
      traced[1]!,
      /^custody: GET \/api\/v1\/vaults\/0{8}-0{4}-4000-8000-0{12} 404 \d+ ms( \(queued \d+ ms\))?\n$/,
    );
    for (const line of traced) {
      assert.ok(!line.includes(bed.emulator.accessToken));
      assert.ok(!line.includes("secret-looking"));
    }
  });

  it("trace lines show failures, waits and retries", () => {
    assert.equal(
      traceLine({
        method: "POST",
        path: "/api/v1/vaults",
        attempt: 2,
        failure: "timeout",
        durationMs: 30000.4,
        queuedMs: 1500,
        rateLimitedMs: 0,
      }),
      "custody: POST /api/v1/vaults failed (timeout) 30000 ms (queued 1500 ms, attempt 2)",
    );
  });
});
