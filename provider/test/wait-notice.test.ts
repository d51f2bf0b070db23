// The wait notice says which limit holds requests and the wait still ahead: the service's announced quota
// (x-ratelimit-*), which the provider follows by default, or the client-side limit a user set.
import * as assert from "node:assert/strict";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { setNoticeSink } from "../core/host/notices";
import { resetRequestDiagnostics, waitNotice } from "../core/host/request-notices";
import { cachedClient } from "../core/settings/connect";

// A vault as the service sends it, and its id: a copy of `evmVault` and `IDS.vault` of the sdk's test helpers
// (sdk/test/helpers.ts), which no package exports.
const AT = "2025-02-13T15:27:16.186000Z";
const IDS = {
  vault: "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  vaultGroup: "5b8f0a1c-2d3e-4f5a-9b6c-7d8e9f0a1b2c",
  apiUser: "2b3c4d5e-6f70-4819-8a1b-2c3d4e5f6a7b",
  master: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f",
  keyset: "d3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a",
} as const;
const evmVault = {
  id: IDS.vault,
  created_at: AT,
  modified_at: AT,
  name: "treasury",
  created_by: { id: IDS.apiUser, user_type: "api_user", name: "ci-bot", state: "active", role: "trader" },
  vault_group: {
    id: IDS.vaultGroup,
    name: "Default",
    vault_count: 3,
    can_current_user_create_or_edit_vaults: true,
  },
  state: "active",
  are_all_chains_disabled: false,
  derivation_path: "m/44/60/1/0/0",
  public_key_compressed: "A5p0Yp3+U0h3VbX7i2dPqS4yGz1f1oA3Tq7cQm9nR2sD",
  derivation_info: {
    derivation_path: "m/44/60/1/0/0",
    master_public_key: {
      id: IDS.master,
      xpub: "xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz",
    },
  },
  keyset: { id: IDS.keyset, name: "default", scope: "organization" },
  type: "evm",
  address: "0xB519a7f0e0C5e2b5C1d8b1B4b7E6b2F0c3D4e5F6",
};

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

  it("held by the client-side limit: the setting that changes it", () => {
    const notice = waitNotice(
      {
        method: "GET",
        path: "/api/v1/vaults",
        attempt: 1,
        status: 200,
        durationMs: 40,
        queuedMs: 2000,
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
