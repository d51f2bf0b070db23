// Webhooks through raw HTTP and a loopback receiver: the test endpoint and its error types, configured
// endpoints, signatures, retries with backoff, the trigger endpoints, and delivery inspection.
import assert from "node:assert/strict";
import { verify } from "node:crypto";
import { Socket } from "node:net";
import { verifyWebhookSignature } from "@pulumi-custody/sdk/signing";
import {
  assertError,
  assertValidationIssue,
  freeLoopbackPort,
  type Harness,
  keepNetworkOnThisMachine,
  type Loose,
  startHarness,
  uniqueName,
} from "@pulumi-custody/testing";
import { eventually, startWebhookReceiver, type WebhookReceiver } from "./emulator-webhook-receiver";

// Some targets below are off this machine: even if their refusal broke, nothing may be sent there.
keepNetworkOnThisMachine();

const MISSING = "00000000-0000-4000-8000-000000000000";

describe("emulator: webhooks", () => {
  let h: Harness;
  let rx: WebhookReceiver;
  before(async () => {
    h = await startHarness();
  });
  beforeEach(async () => {
    rx = await startWebhookReceiver();
    await h.emulator.control.setWebhookSettings({
      timeoutMs: 1_000,
      maxAttempts: 3,
      baseDelayMs: 10,
      maxDelayMs: 40,
    });
  });
  afterEach(async () => {
    for (const e of await h.emulator.control.listWebhookEndpoints())
      await h.emulator.control.deleteWebhookEndpoint(e.id);
    await h.emulator.control.clearDeliveries();
    await rx.close();
  });
  after(() => h.close());

  const isValid = (rawBody: string, signature: string) =>
    verify(
      "sha256",
      Buffer.from(rawBody),
      { key: h.emulator.webhookPublicKeyPem, dsaEncoding: "der" },
      Buffer.from(signature, "base64"),
    );

  describe("POST /webhooks/test", () => {
    it("delivers a signed test event synchronously and answers 204", async () => {
      const res = await h.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url } });
      assert.equal(res.status, 204, res.text);
      assert.equal(rx.received.length, 1, "delivered before the response");
      const d = rx.received[0]!;
      assert.equal(d.headers["content-type"], "application/json");
      assert.ok(isValid(d.rawBody, String(d.headers["x-signature"])));
      assert.ok(
        verifyWebhookSignature(d.rawBody, String(d.headers["x-signature"]), h.emulator.webhookPublicKeyPem),
      );
      const payload = JSON.parse(d.rawBody);
      assert.equal(payload.event_type, "enriched_transaction_state_update");
      assert.equal(payload.attempt, 1);
      for (const k of ["webhook_id", "event_id", "created_at", "sent_at", "event"]) assert.ok(payload[k], k);
      const audit = await h.api("POST", "/api/v1/webhooks/test", {
        json: { url: rx.url, events: ["audit_log"] },
      });
      assert.equal(audit.status, 204);
      assert.equal(JSON.parse(rx.received[1]!.rawBody).event_type, "audit_log");
    });

    it("answers 400 http_error when the endpoint answers non-2xx", async () => {
      rx.fallback = 503;
      const res = await h.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url } });
      assertError(res, 400, { error_type: "http_error" });
      assert.match(res.body.detail, /503/);
    });

    it("answers 400 server_disconnected when the endpoint drops the connection", async () => {
      rx.fallback = "drop";
      assertError(await h.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url } }), 400, {
        error_type: "server_disconnected",
      });
    });

    it("answers 400 timeout when the endpoint does not answer in time", async () => {
      await h.emulator.control.setWebhookSettings({ timeoutMs: 200 });
      rx.fallback = "hang";
      assertError(await h.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url } }), 400, {
        error_type: "timeout",
      });
    });

    it("answers 400 client_connection_error when nothing listens", async () => {
      const port = await freeLoopbackPort();
      assertError(
        await h.api("POST", "/api/v1/webhooks/test", { json: { url: `http://127.0.0.1:${port}/x` } }),
        400,
        {
          error_type: "client_connection_error",
        },
      );
    });

    it("answers 400 unexpected_error for an HTTPS URL on a plain-HTTP endpoint", async () => {
      const url = rx.url.replace("http://", "https://");
      assertError(await h.api("POST", "/api/v1/webhooks/test", { json: { url } }), 400, {
        error_type: "unexpected_error",
      });
    });

    it("validates the body: url required, absolute, http(s); events from the enum", async () => {
      assertValidationIssue(
        await h.api("POST", "/api/v1/webhooks/test", { json: {} }),
        ["body", "url"],
        "missing",
      );
      assertValidationIssue(await h.api("POST", "/api/v1/webhooks/test", { json: { url: "not a url" } }), [
        "body",
        "url",
      ]);
      assertValidationIssue(
        await h.api("POST", "/api/v1/webhooks/test", { json: { url: "ftp://127.0.0.1/x" } }),
        ["body", "url"],
      );
      assertValidationIssue(
        await h.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url, events: ["nope"] } }),
        ["body", "events", 0],
      );
      assert.equal(rx.received.length, 0);
    });
  });

  describe("POST /webhooks/test: refused targets", () => {
    /** The issue at body.url of a refused target's 422. */
    const refusal = (res: Loose) => {
      assertValidationIssue(res, ["body", "url"], "url_host_not_allowed");
      return (res.body.detail as { loc: unknown[]; msg: string }[]).find((i) => i.loc[1] === "url")!.msg;
    };

    it("refuses link-local, private, unspecified and multicast targets with a 422 naming the rule, sending nothing", async () => {
      const port = await freeLoopbackPort();
      const cases: [string, RegExp][] = [
        [
          "http://169.254.169.254/latest/meta-data/",
          /169\.254\.169\.254 is link-local \(169\.254\.0\.0\/16\)/,
        ],
        ["http://[fe80::1]/hooks", /link-local \(fe80::\/10\)/],
        ["http://10.1.2.3/hooks", /private \(10\.0\.0\.0\/8\)/],
        ["http://172.16.0.1/hooks", /private \(172\.16\.0\.0\/12\)/],
        ["http://172.31.255.254/hooks", /private \(172\.16\.0\.0\/12\)/],
        ["http://192.168.1.1:8080/hooks", /private \(192\.168\.0\.0\/16\)/],
        ["http://[fd12:3456::1]/hooks", /private \(fc00::\/7\)/],
        [`http://0.0.0.0:${port}/hooks`, /0\.0\.0\.0\/8/],
        ["http://[::]/hooks", /unspecified/],
        ["https://224.0.0.1/hooks", /multicast \(224\.0\.0\.0\/4\)/],
        ["http://[ff02::1]/hooks", /multicast \(ff00::\/8\)/],
        // Other spellings of the same addresses.
        ["http://[::ffff:169.254.169.254]/", /link-local \(169\.254\.0\.0\/16\)/],
        ["http://0xa9fea9fe/", /link-local \(169\.254\.0\.0\/16\)/],
        ["http://0300.0250.1.1/", /private \(192\.168\.0\.0\/16\)/],
      ];
      for (const [url, rule] of cases) {
        const res = await h.api("POST", "/api/v1/webhooks/test", { json: { url } });
        const msg = refusal(res);
        assert.match(msg, rule, url);
        // The message says how to allow it, and that loopback receivers are fine.
        assert.match(msg, /--allow-private-webhook-targets/);
        assert.match(msg, /loopback/i);
      }
      // Refused before anything is sent: a test delivery is recorded before its first attempt, and none is.
      assert.deepEqual(await h.emulator.control.listDeliveries(), []);
      assert.equal(rx.received.length, 0);
    });

    it("refuses by what the address is, before any connection: translated, NAT64, Teredo, benchmarking, IETF, public", async () => {
      // A spy on every socket's connect: the emulator's refusal must come before any attempt.
      const attempts: string[] = [];
      const connect = Socket.prototype.connect;
      Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
        const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
        const first = list[0] as { host?: string } | undefined;
        attempts.push(String(typeof first === "object" ? first?.host : list[1]));
        return connect.apply(this, args as never);
      } as typeof Socket.prototype.connect;
      const cases: [string, RegExp][] = [
        ["http://[::ffff:0:a9fe:a9fe]/", /link-local \(::ffff:0:0:0\/96 → 169\.254\.169\.254/],
        ["http://[64:ff9b:1::a9fe:a9fe]/", /nat64-local \(64:ff9b:1::\/48\)/],
        ["http://[2001:0:4136:e378:8000:63bf:5601:5601]/", /link-local \(2001::\/32 → 169\.254\.169\.254/],
        ["http://198.18.0.1/", /benchmarking \(198\.18\.0\.0\/15\)/],
        ["http://192.0.0.192/", /protocol-assignment \(192\.0\.0\.0\/24\)/],
        ["http://8.8.8.8/", /8\.8\.8\.8 is public/],
      ];
      try {
        for (const [url, rule] of cases) {
          const msg = refusal(await h.api("POST", "/api/v1/webhooks/test", { json: { url } }));
          assert.match(msg, rule, url);
          assert.match(msg, /--allow-public-webhook-targets/);
        }
      } finally {
        Socket.prototype.connect = connect;
      }
      const emulatorHost = new URL(h.emulator.baseUrl).hostname;
      assert.deepEqual(
        attempts.filter((host) => host !== emulatorHost),
        [],
        "only the test's own calls to the emulator connected",
      );
      assert.deepEqual(await h.emulator.control.listDeliveries(), []);
    });

    it("sends to public targets when started with allowPublicWebhookTargets, and still refuses the rest", async () => {
      const open = await startHarness({ seed: "empty", allowPublicWebhookTargets: true });
      try {
        // Loopback still works; a special range is still refused, and the message says how to allow any.
        assert.equal(
          (await open.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url } })).status,
          204,
        );
        const msg = refusal(
          await open.api("POST", "/api/v1/webhooks/test", { json: { url: "http://198.18.0.1/" } }),
        );
        assert.match(msg, /must point to a loopback or public address: 198\.18\.0\.1 is benchmarking/);
        assert.doesNotMatch(msg, /--allow-public-webhook-targets/);
        assert.match(msg, /--allow-private-webhook-targets/);
      } finally {
        await open.close();
      }
    });

    it("answers a refused target the same whether its port is open or closed", async () => {
      const open = Number(new URL(rx.url).port);
      const closed = await freeLoopbackPort();
      // 0.0.0.0 as a destination reaches this machine's listeners: without the check, an open port
      // answers 204 and a closed one 400 client_connection_error.
      const a = await h.api("POST", "/api/v1/webhooks/test", {
        json: { url: `http://0.0.0.0:${open}/hooks` },
      });
      const b = await h.api("POST", "/api/v1/webhooks/test", {
        json: { url: `http://0.0.0.0:${closed}/hooks` },
      });
      assert.equal(a.status, b.status);
      assert.equal(a.status, 422, a.text);
      const { request_id: _a, ...bodyA } = a.body;
      const { request_id: _b, ...bodyB } = b.body;
      assert.deepEqual(bodyA, bodyB);
      assert.ok(!JSON.stringify(bodyA).includes(String(open)), "the answer names the port");
      assert.equal(rx.received.length, 0);
    });

    it("keeps loopback receivers working: 127.0.0.1, localhost, ::1", async () => {
      assert.equal((await h.api("POST", "/api/v1/webhooks/test", { json: { url: rx.url } })).status, 204);
      const byName = rx.url.replace("127.0.0.1", "localhost");
      const res = await h.api("POST", "/api/v1/webhooks/test", { json: { url: byName } });
      assert.equal(res.status, 204, res.text);
      assert.equal(rx.received.length, 2);
      // ::1 is allowed too: nothing listens there, so the delivery is tried and fails to connect.
      const port = await freeLoopbackPort();
      assertError(
        await h.api("POST", "/api/v1/webhooks/test", { json: { url: `http://[::1]:${port}/hooks` } }),
        400,
      );
    });

    it("sends to private targets when started with allowPrivateWebhookTargets", async () => {
      const open = await startHarness({ seed: "empty", allowPrivateWebhookTargets: true });
      try {
        const url = rx.url.replace("127.0.0.1", "0.0.0.0");
        const res = await open.api("POST", "/api/v1/webhooks/test", { json: { url } });
        assert.equal(res.status, 204, res.text);
        assert.equal(rx.received.length, 1);
      } finally {
        await open.close();
      }
    });
  });

  describe("configured endpoints", () => {
    it("delivers a transaction's creation and every state change, signed, as full transactions", async () => {
      const endpoint = await h.emulator.control.createWebhookEndpoint({
        url: rx.url,
        events: ["enriched_transaction_state_update"],
      });
      assert.deepEqual(endpoint.events, ["enriched_transaction_state_update"]);
      const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
        .body;
      const tx = await h.createTransaction({
        vault_id: vault.id,
        type: "evm_transaction",
        details: {
          type: "evm_transfer",
          to: "0x1111111111111111111111111111111111111111",
          asset_identifier: { type: "evm", details: { type: "native", chain: "evm_ethereum_mainnet" } },
          value: { type: "value", value: "1" },
        },
      });
      assert.equal(tx.status, 201);
      const got = await rx.waitFor(5);
      const states = got.map((d) => JSON.parse(d.rawBody).event.state).sort();
      assert.deepEqual(states, ["approved", "completed", "mined", "pushed_to_blockchain", "signed"]);
      for (const d of got) {
        assert.ok(isValid(d.rawBody, String(d.headers["x-signature"])));
        const payload = JSON.parse(d.rawBody);
        assert.equal(payload.webhook_id, endpoint.id);
        assert.equal(payload.event.id, tx.body.id);
        assert.equal(payload.event_type, "enriched_transaction_state_update");
      }
      assert.equal(new Set(got.map((d) => JSON.parse(d.rawBody).event_id)).size, 5);
      const deliveries = await eventually(async () => {
        const list = await h.emulator.control.listDeliveries({ endpointId: endpoint.id });
        return list.length === 5 && list.every((d) => d.state === "succeeded") ? list : undefined;
      });
      assert.ok(deliveries.every((d) => d.attempts.length === 1 && d.attempts[0]!.status === 200));
    });

    it("delivers audit-log records to endpoints subscribed to audit_log, and nothing to disabled endpoints", async () => {
      await h.emulator.control.createWebhookEndpoint({ url: rx.url, events: ["audit_log"] });
      const off = await startWebhookReceiver();
      try {
        await h.emulator.control.createWebhookEndpoint({ url: off.url, enabled: false });
        const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
          .body;
        const [d] = await rx.waitFor(1);
        const payload = JSON.parse(d!.rawBody);
        assert.equal(payload.event_type, "audit_log");
        assert.equal(payload.event.action, "vault_created");
        assert.equal(payload.event.resource.id, vault.id);
        assert.equal(off.received.length, 0);
      } finally {
        await off.close();
      }
    });

    it("retries failed deliveries with backoff, a new attempt number and signature each time", async () => {
      rx.script = [500, "drop"];
      const endpoint = await h.emulator.control.createWebhookEndpoint({ url: rx.url, events: ["audit_log"] });
      await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } });
      const got = await rx.waitFor(3);
      assert.deepEqual(
        got.map((d) => JSON.parse(d.rawBody).attempt),
        [1, 2, 3],
      );
      assert.equal(new Set(got.map((d) => JSON.parse(d.rawBody).event_id)).size, 1, "one event");
      for (const d of got) assert.ok(isValid(d.rawBody, String(d.headers["x-signature"])));
      const [delivery] = await eventually(async () => {
        const list = await h.emulator.control.listDeliveries({ endpointId: endpoint.id, state: "succeeded" });
        return list.length === 1 ? list : undefined;
      });
      assert.deepEqual(
        delivery!.attempts.map((a) => a.status ?? a.error_type),
        [500, "server_disconnected", 200],
      );
      const gaps = delivery!.attempts
        .slice(1)
        .map((a, i) => Date.parse(a.sent_at) - Date.parse(delivery!.attempts[i]!.sent_at));
      assert.ok(gaps.every((g) => g >= 0));
    });

    it("gives up after maxAttempts and records the delivery as failed", async () => {
      rx.fallback = 500;
      const endpoint = await h.emulator.control.createWebhookEndpoint({ url: rx.url, events: ["audit_log"] });
      await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } });
      const [failed] = await eventually(async () => {
        const list = await h.emulator.control.listDeliveries({ endpointId: endpoint.id, state: "failed" });
        return list.length === 1 ? list : undefined;
      });
      assert.equal(failed!.attempts.length, 3);
      assert.ok(failed!.attempts.every((a) => a.error_type === "http_error"));
      assert.equal(rx.received.length, 3);
    });
  });

  describe("trigger endpoints", () => {
    it("resends a transaction's create event and its latest state; 404 transaction for an unknown id", async () => {
      const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
        .body;
      const tx = await h.createTransaction({
        vault_id: vault.id,
        type: "evm_transaction",
        details: {
          type: "evm_transfer",
          to: "0x1111111111111111111111111111111111111111",
          asset_identifier: { type: "evm", details: { type: "native", chain: "evm_ethereum_mainnet" } },
          value: { type: "value", value: "1" },
        },
      });
      await h.emulator.control.createWebhookEndpoint({
        url: rx.url,
        events: ["enriched_transaction_state_update"],
      });
      const res = await h.api("POST", `/api/v1/webhooks/trigger/transaction/${tx.body.id}`);
      assert.equal(res.status, 204);
      const got = await rx.waitFor(2);
      const events = got.map((d) => JSON.parse(d.rawBody).event as Loose);
      assert.deepEqual(events.map((e) => e.state).sort(), ["approved", "completed"]);
      const created = events.find((e) => e.state === "approved");
      assert.equal(created.state_changes.length, 2);
      assert.equal(created.hash, undefined);
      assertError(await h.api("POST", `/api/v1/webhooks/trigger/transaction/${MISSING}`), 404, {
        resource: "transaction",
      });
    });

    it("resends an audit-log record; 404 audit_log for an unknown id", async () => {
      const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
        .body;
      const records = await h.emulator.control.peek<Loose>("audit-log");
      const record = records.find((r) => r.resource.id === vault.id && r.action === "vault_created");
      assert.ok(record);
      await h.emulator.control.createWebhookEndpoint({ url: rx.url, events: ["audit_log"] });
      assert.equal((await h.api("POST", `/api/v1/webhooks/trigger/audit-log/${record.id}`)).status, 204);
      const [d] = await rx.waitFor(1);
      assert.deepEqual(JSON.parse(d!.rawBody).event, record);
      assertError(await h.api("POST", `/api/v1/webhooks/trigger/audit-log/${MISSING}`), 404, {
        resource: "audit_log",
      });
    });
  });

  describe("control API for webhook endpoints", () => {
    it("creates, reads, updates and deletes endpoints, validating URLs", async () => {
      const e = await h.emulator.control.createWebhookEndpoint({ url: rx.url });
      assert.deepEqual([...e.events].sort(), ["audit_log", "enriched_transaction_state_update"]);
      assert.equal(e.enabled, true);
      assert.deepEqual(await h.emulator.control.getWebhookEndpoint(e.id), e);
      const updated = await h.emulator.control.updateWebhookEndpoint(e.id, { enabled: false });
      assert.equal(updated.enabled, false);
      assert.equal(updated.url, rx.url);
      await h.emulator.control.deleteWebhookEndpoint(e.id);
      await assert.rejects(h.emulator.control.getWebhookEndpoint(e.id), /404/);
      await assert.rejects(h.emulator.control.createWebhookEndpoint({ url: "ftp://x" }), /422/);
    });
  });
});
