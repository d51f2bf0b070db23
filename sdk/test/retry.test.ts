/**
 * Retries and backoff: which calls are repeated, how long the client waits (through an injected clock, never
 * wall time), and what a create that cannot be repeated reports.
 */
import { strict as assert } from "node:assert";
import { createPublicKey, verify } from "node:crypto";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import {
  CustodyAbortedError,
  CustodyConnectionError,
  CustodyNotFoundError,
  CustodyRateLimitError,
  CustodyServerError,
  CustodyValidationError,
} from "../index";
import { parseRateLimitReset, parseRetryAfter, RetryPolicy } from "../transport/retry-policy";
import {
  evmTransferRequest,
  evmVault,
  FakeTime,
  fixture,
  IDS,
  testClient,
  transactionRecord,
  utxoVaultAddress,
} from "./helpers";

const ok = { status: 200, body: evmVault };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("sdk retries", () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("retries a GET on 503 with growing full-jitter backoff, then succeeds", async () => {
    const { client, time } = testClient(server);
    server.enqueue({ status: 503 }, { status: 502 }, ok);
    const vault = await client.vaults.get(IDS.vault);
    assert.equal(vault.id, IDS.vault);
    assert.equal(server.requests.length, 3);
    // random() is 0.5 in the test client: half of 500·2^n.
    assert.deepEqual(time.sleeps, [250, 500]);
    await client.close();
  });

  it("gives up after maxRetries (default 3): four attempts in all", async () => {
    const { client, time } = testClient(server);
    server.setHandler(() => ({ status: 500, body: { title: "Unexpected error", detail: "boom" } }));
    const err = await client.users.get(IDS.user).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyServerError);
    assert.equal(err.attempts, 4);
    assert.equal(server.requests.length, 4);
    assert.equal(time.sleeps.length, 3);
    assert.match(err.message, /after 4 attempts/);
    await client.close();
  });

  it("maxRetries: 0 sends once", async () => {
    const { client } = testClient(server, { maxRetries: 0 });
    server.setHandler(() => ({ status: 503 }));
    await assert.rejects(client.vaults.get(IDS.vault), CustodyServerError);
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  it("retries 408 and 429 too", async () => {
    const { client } = testClient(server);
    server.enqueue(
      { status: 408, body: { title: "Request timeout", detail: "slow" } },
      { status: 429, body: {} },
      ok,
    );
    await client.vaults.get(IDS.vault);
    assert.equal(server.requests.length, 3);
    await client.close();
  });

  for (const status of [400, 401, 403, 404, 409, 422, 501]) {
    it(`does not retry ${status}`, async () => {
      const { client, time } = testClient(server);
      server.setHandler(() => ({ status, body: { title: "no", detail: "no" } }));
      await assert.rejects(client.vaults.get(IDS.vault));
      assert.equal(server.requests.length, 1);
      assert.deepEqual(time.sleeps, []);
      await client.close();
    });
  }

  it("honours Retry-After in seconds exactly", async () => {
    const { client, time } = testClient(server);
    server.enqueue({ status: 429, body: {}, headers: { "retry-after": "7" } }, ok);
    await client.vaults.get(IDS.vault);
    assert.deepEqual(time.sleeps, [7000]);
    await client.close();
  });

  it("honours Retry-After as an HTTP date", async () => {
    const time = new FakeTime();
    const { client } = testClient(server, {}, time);
    const at = new Date(time.nowMs + 12_000).toUTCString();
    server.enqueue({ status: 503, headers: { "retry-after": at } }, ok);
    await client.vaults.get(IDS.vault);
    assert.deepEqual(time.sleeps, [Date.parse(at) - 1_739_459_236_186]);
    await client.close();
  });

  it("on 429 without Retry-After, waits for x-ratelimit-reset", async () => {
    const { client, time } = testClient(server);
    server.enqueue(
      { status: 429, body: {}, headers: { "x-ratelimit-limit": "300, 300;w=60", "x-ratelimit-reset": "5" } },
      ok,
    );
    await client.vaults.get(IDS.vault);
    assert.deepEqual(time.sleeps, [5000]);
    await client.close();
  });

  it("does not wait out a Retry-After longer than maxRetryAfterMs, and reports it", async () => {
    const { client, time } = testClient(server);
    server.enqueue({ status: 429, body: {}, headers: { "retry-after": "3600" } }, ok);
    const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyRateLimitError);
    assert.equal(err.retryAfterMs, 3_600_000);
    assert.equal(err.attempts, 1);
    assert.deepEqual(time.sleeps, []);
    assert.match(err.message, /retry after 3600 s/);
    await client.close();
  });

  it("retries a GET whose connection is reset", async () => {
    const { client } = testClient(server);
    server.enqueue({ destroy: true }, ok);
    const vault = await client.vaults.get(IDS.vault);
    assert.equal(vault.id, IDS.vault);
    assert.equal(server.requests.length, 2);
    await client.close();
  });

  it("retries a PUT rename and the 204 actions", async () => {
    const { client } = testClient(server);
    server.enqueue({ status: 503 }, { status: 204 }, { destroy: true }, { status: 204 });
    await client.vaults.rename(IDS.vault, "renamed");
    await client.vaults.archive(IDS.vault);
    assert.equal(server.requests.length, 4);
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.path}`),
      [
        `PUT /api/v1/vaults/${IDS.vault}/name`,
        `PUT /api/v1/vaults/${IDS.vault}/name`,
        `POST /api/v1/vaults/${IDS.vault}/archive`,
        `POST /api/v1/vaults/${IDS.vault}/archive`,
      ],
    );
    await client.close();
  });

  describe("creates without an idempotency key are never retried", () => {
    it("POST /vaults on 503: one attempt, outcome unknown", async () => {
      const { client, time } = testClient(server);
      server.enqueue({ status: 503, body: { title: "Unavailable", detail: "try later" } }, ok);
      const err = await client.vaults.create({ type: "evm", name: "treasury" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyServerError);
      assert.equal(err.outcomeUnknown, true);
      assert.equal(server.requests.length, 1);
      assert.deepEqual(time.sleeps, []);
      await client.close();
    });

    it("POST /vaults on 429: one attempt (even a throttled create is the caller's to repeat)", async () => {
      const { client } = testClient(server);
      server.enqueue({ status: 429, body: {}, headers: { "retry-after": "1" } }, ok);
      await assert.rejects(client.vaults.create({ type: "evm", name: "treasury" }), CustodyRateLimitError);
      assert.equal(server.requests.length, 1);
      await client.close();
    });

    it("POST /vaults with the connection lost after sending: ERR_CUSTODY_OUTCOME_UNKNOWN", async () => {
      const { client } = testClient(server);
      server.enqueue({ destroy: true }, ok);
      const err = await client.vaults.create({ type: "evm", name: "treasury" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError);
      assert.equal(err.code, "ERR_CUSTODY_OUTCOME_UNKNOWN");
      assert.equal(err.outcomeUnknown, true);
      assert.equal(err.status, undefined);
      assert.equal(err.method, "POST");
      assert.equal(err.path, "/api/v1/vaults");
      assert.match(err.message, /may or may not have taken effect/);
      assert.equal(server.requests.length, 1);
      await client.close();
    });

    it("POST /vaults/{id}/addresses with the connection lost: not retried", async () => {
      const { client } = testClient(server);
      server.enqueue({ destroy: true }, { status: 201, body: utxoVaultAddress });
      const err = await client.vaults.addresses.create(IDS.utxoVault, { name: "x" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError);
      assert.equal(err.code, "ERR_CUSTODY_OUTCOME_UNKNOWN");
      assert.equal(server.requests.length, 1);
      await client.close();
    });
  });

  describe("other writes without an idempotency id are not retried blindly either", () => {
    // Each would happen twice if a lost answer were repeated: a second proposal for the approvers, a second
    // webhook delivery.
    const writes: [string, (c: ReturnType<typeof testClient>["client"]) => Promise<unknown>][] = [
      [
        "POST /vaults/{id}/proposals",
        (c) => c.vaults.submitChangeProposal(IDS.vault, { diff: { added_vault_group_ids: [IDS.vault] } }),
      ],
      ["POST /webhooks/test", (c) => c.webhooks.test({ url: "https://hooks.example.com/custody" })],
      ["POST /webhooks/trigger/transaction/{id}", (c) => c.webhooks.triggerTransaction(IDS.vault)],
      ["POST /webhooks/trigger/audit-log/{id}", (c) => c.webhooks.triggerAuditLog(IDS.vault)],
    ];
    for (const [what, call] of writes) {
      it(`${what} with the connection lost after sending: one attempt, ERR_CUSTODY_OUTCOME_UNKNOWN`, async () => {
        const { client } = testClient(server);
        server.enqueue({ destroy: true }, { status: 204 });
        const err = await call(client).catch((e: unknown) => e);
        assert.ok(err instanceof CustodyConnectionError, String(err));
        assert.equal(err.code, "ERR_CUSTODY_OUTCOME_UNKNOWN");
        assert.equal(err.outcomeUnknown, true);
        assert.equal(server.requests.length, 1);
        await client.close();
      });
    }
  });

  describe("transactions.create", () => {
    it("retries with the same idempotency id and body bytes, re-signed with a fresh timestamp", async () => {
      const { client, time } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem") });
      server.enqueue({ status: 503 }, { destroy: true }, { status: 201, body: transactionRecord("x") });
      await client.transactions.create(evmTransferRequest);
      assert.equal(server.requests.length, 3);
      const [first, ...rest] = server.requests;
      const id = String(first.headers["x-idempotence-id"]);
      assert.match(id, UUID_V4, "a v4 UUID is generated");
      const publicKey = createPublicKey(fixture("api-user-p256.pub.pem"));
      const timestamps = new Set<string>();
      for (const req of server.requests) {
        assert.equal(req.headers["x-idempotence-id"], id, "same id on every attempt");
        assert.equal(req.body, first.body, "same body bytes on every attempt");
        const ts = String(req.headers["x-timestamp"]);
        timestamps.add(ts);
        const signed = verify(
          "sha256",
          Buffer.from(`/api/v1/transactions|${ts}|${req.body}`),
          publicKey,
          Buffer.from(String(req.headers["x-signature"]), "base64"),
        );
        assert.ok(signed, "each attempt's signature matches its own timestamp");
      }
      assert.equal(timestamps.size, 3, "a fresh timestamp per attempt");
      assert.equal(rest.length, 2);
      assert.equal(time.sleeps.length, 2);
      await client.close();
    });

    it("keeps a caller's idempotency id across retries", async () => {
      const { client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem") });
      const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
      server.enqueue({ status: 500 }, { status: 200, body: transactionRecord(id) });
      const tx = await client.transactions.create(evmTransferRequest, { idempotencyId: id });
      assert.equal(tx.managed_transaction_data?.idempotence_id, id);
      assert.deepEqual(
        server.requests.map((r) => r.headers["x-idempotence-id"]),
        [id, id],
      );
      await client.close();
    });

    it("two calls get two different generated ids", async () => {
      const { client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem") });
      server.enqueue(
        { status: 201, body: transactionRecord("a") },
        { status: 201, body: transactionRecord("b") },
      );
      await client.transactions.create(evmTransferRequest);
      await client.transactions.create(evmTransferRequest);
      assert.notEqual(
        server.requests[0].headers["x-idempotence-id"],
        server.requests[1].headers["x-idempotence-id"],
      );
      await client.close();
    });

    it("rejects a malformed idempotency id locally", async () => {
      const { client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem") });
      const err = await client.transactions
        .create(evmTransferRequest, { idempotencyId: "not-a-uuid" })
        .catch((e: unknown) => e);
      assert.ok(err instanceof CustodyValidationError);
      assert.deepEqual(err.issues[0].loc, ["header", "x-idempotence-id"]);
      assert.equal(server.requests.length, 0);
      await client.close();
    });
  });

  describe("time limits and cancellation", () => {
    it("times out an attempt that gets no answer, retries, then reports ERR_CUSTODY_REQUEST_TIMEOUT", async () => {
      const { client } = testClient(server, { timeoutMs: 150, maxRetries: 1 });
      server.setHandler(() => ({ hang: true }));
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError);
      assert.equal(err.code, "ERR_CUSTODY_REQUEST_TIMEOUT");
      assert.equal(err.attempts, 2);
      assert.equal(server.requests.length, 2);
      assert.equal(err.outcomeUnknown, false, "a read has no outcome to be unsure of");
      await client.close();
    });

    it("an already-aborted signal sends nothing", async () => {
      const { client } = testClient(server);
      const controller = new AbortController();
      controller.abort();
      const err = await client.vaults.get(IDS.vault, { signal: controller.signal }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyAbortedError);
      assert.equal(err.code, "ERR_CUSTODY_ABORTED");
      assert.equal(server.requests.length, 0);
      await client.close();
    });

    it("aborting during a retry wait stops the retries", async () => {
      const controller = new AbortController();
      const time = new FakeTime();
      const { client } = testClient(
        server,
        {
          advanced: {
            sleep: async (_ms, signal) => {
              controller.abort();
              throw signal?.reason;
            },
          },
        },
        time,
      );
      server.setHandler(() => ({ status: 503 }));
      const err = await client.vaults.get(IDS.vault, { signal: controller.signal }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyAbortedError);
      assert.equal(server.requests.length, 1);
      await client.close();
    });
  });

  it("a refused connection is retried and reported as ERR_CUSTODY_CONNECTION (nothing was sent)", async () => {
    const closed = await startLoopbackServer();
    const url = closed.url;
    await closed.close();
    const { client, time } = testClient({ ...server, url }, { maxRetries: 2 });
    const err = await client.vaults.create({ type: "evm", name: "x" }).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyConnectionError);
    assert.equal(err.code, "ERR_CUSTODY_CONNECTION");
    assert.equal(err.outcomeUnknown, false);
    assert.deepEqual(time.sleeps, [], "POST /vaults is never retried, even when nothing was sent");
    const { client: reader, time: readerTime } = testClient({ ...server, url }, { maxRetries: 2 });
    const readErr = await reader.vaults.get(IDS.vault).catch((e: unknown) => e);
    assert.ok(readErr instanceof CustodyConnectionError);
    assert.equal(readErr.attempts, 3);
    assert.equal(readerTime.sleeps.length, 2);
    await client.close();
    await reader.close();
  });

  it("a 404 is final and typed", async () => {
    const { client } = testClient(server);
    server.enqueue({ status: 404, body: { title: "Not found", detail: "no such vault", resource: "vault" } });
    await assert.rejects(client.vaults.get(IDS.vault), CustodyNotFoundError);
    assert.equal(server.requests.length, 1);
    await client.close();
  });
});

describe("sdk retry policy", () => {
  it("backoff ceilings double from the base and stop at the cap; jitter stays within [0, ceiling)", () => {
    const high = new RetryPolicy({ baseDelayMs: 500, maxDelayMs: 4000, random: () => 0.999999 });
    // random() just below 1 gives the largest whole-ms wait below each ceiling.
    const ceilings = [0, 1, 2, 3, 4, 5].map((n) => high.backoff(n) + 1);
    assert.deepEqual(ceilings, [500, 1000, 2000, 4000, 4000, 4000]);
    const low = new RetryPolicy({ random: () => 0 });
    assert.equal(low.backoff(3), 0);
    let seed = 1;
    const lcg = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed - 1) / 2147483646;
    };
    const jittered = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: lcg });
    for (let n = 0; n < 200; n++) {
      const retry = n % 8;
      const d = jittered.backoff(retry);
      assert.ok(d >= 0 && d < Math.min(1000, 100 * 2 ** retry), `retry ${retry}: ${d}`);
    }
  });

  it("never retries `never` endpoints and stops after maxRetries", () => {
    const policy = new RetryPolicy({ maxRetries: 2, random: () => 0.5 });
    const status503 = { kind: "status" as const, status: 503, headers: {} };
    assert.equal(policy.delayBeforeRetry("never", status503, 0), undefined);
    assert.equal(policy.delayBeforeRetry("safe", status503, 0), 250);
    assert.equal(policy.delayBeforeRetry("idempotency-key", status503, 1), 500);
    assert.equal(policy.delayBeforeRetry("safe", status503, 2), undefined);
    assert.equal(policy.delayBeforeRetry("safe", { kind: "transport", aborted: true }, 0), undefined);
    assert.equal(policy.delayBeforeRetry("safe", { kind: "transport", aborted: false }, 0), 250);
  });

  it("parses Retry-After and x-ratelimit-reset", () => {
    const now = Date.parse("2025-02-13T15:27:16.000Z");
    assert.equal(parseRetryAfter("120", now), 120_000);
    assert.equal(parseRetryAfter("1.5", now), 1500);
    assert.equal(parseRetryAfter("Thu, 13 Feb 2025 15:27:46 GMT", now), 30_000);
    assert.equal(parseRetryAfter("Thu, 13 Feb 2025 15:00:00 GMT", now), 0, "a past date means now");
    assert.equal(parseRetryAfter("soon", now), undefined);
    assert.equal(parseRetryAfter("-5", now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRateLimitReset("42", now), 42_000);
    assert.equal(parseRateLimitReset(String(now / 1000 + 10), now), 10_000, "epoch seconds");
    assert.equal(parseRateLimitReset(String(now + 2500), now), 2500, "epoch milliseconds");
    assert.equal(parseRateLimitReset("x", now), undefined);
  });
});
