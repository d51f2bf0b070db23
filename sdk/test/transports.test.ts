/**
 * The transports under one contract: undici with the client's own pool (the default), undici with a
 * dispatcher the caller gives, and Node's own http/https (`transport: "node:http"`, the provider's). Whatever
 * carries the bytes, a call sends the same request, reuses its connection, and reports a lost, cut, refused,
 * timed-out or aborted exchange the same way.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { Agent } from "undici";
import {
  CustodyAbortedError,
  CustodyClient,
  type CustodyClientOptions,
  CustodyConfigurationError,
  CustodyConnectionError,
} from "../index";
import { evmVault, FIXTURES, IDS, TOKEN, testClient } from "./helpers";

const ok = { status: 200, body: evmVault };
const tlsFixture = (name: string) => readFileSync(resolve(FIXTURES, "tls", name), "utf8");

const transports: [string, () => Partial<CustodyClientOptions>][] = [
  ["undici (the default)", () => ({})],
  ["an undici dispatcher", () => ({ dispatcher: new Agent({ connections: 4 }) })],
  ['Node\'s http (transport: "node:http")', () => ({ transport: "node:http" })],
];

for (const [name, options] of transports) {
  describe(`sdk transport: ${name}`, () => {
    let server: LoopbackServer;
    let extra: Partial<CustodyClientOptions>;
    beforeEach(async () => {
      server = await startLoopbackServer();
      extra = options();
    });
    afterEach(async () => {
      await server.close();
      await (extra.dispatcher as Agent | undefined)?.close();
    });

    it("sends the exact body bytes with a content-length, and reads a multi-byte body", async () => {
      const { client } = testClient(server, extra);
      const body = { ...evmVault, name: "Trésorerie 金库 🏦" };
      server.enqueue({ status: 201, body });
      const created = await client.vaults.create({ type: "evm", name: "Trésorerie 金库 🏦" });
      assert.equal(created.name, "Trésorerie 金库 🏦");
      const sent = server.requests[0]!;
      assert.equal(sent.body, JSON.stringify({ type: "evm", name: "Trésorerie 金库 🏦" }));
      assert.equal(sent.headers["content-length"], String(Buffer.byteLength(sent.body)));
      assert.equal(sent.headers["transfer-encoding"], undefined);
      assert.equal(sent.headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(sent.headers["content-type"], "application/json");
      await client.close();
    });

    it("a response cut mid-body: a GET is sent again, a create reports ERR_CUSTODY_OUTCOME_UNKNOWN", async () => {
      const { client } = testClient(server, extra);
      server.enqueue({ ...ok, cutBody: true }, ok);
      assert.equal((await client.vaults.get(IDS.vault)).id, IDS.vault);
      assert.equal(server.requests.length, 2);
      server.enqueue({ status: 201, body: evmVault, cutBody: true });
      const err = await client.vaults.create({ type: "evm", name: "x" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_OUTCOME_UNKNOWN");
      assert.equal(server.requests.length, 3);
      await client.close();
    });

    it("a connection lost after sending a create: one attempt, ERR_CUSTODY_OUTCOME_UNKNOWN", async () => {
      const { client } = testClient(server, extra);
      server.enqueue({ destroy: true });
      const err = await client.vaults.create({ type: "evm", name: "x" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_OUTCOME_UNKNOWN");
      assert.equal(err.outcomeUnknown, true);
      assert.equal(server.requests.length, 1);
      await client.close();
    });

    it("no answer within timeoutMs: ERR_CUSTODY_REQUEST_TIMEOUT after each attempt timed out", async () => {
      const { client } = testClient(server, { ...extra, timeoutMs: 150, maxRetries: 1 });
      server.setHandler(() => ({ hang: true }));
      const started = Date.now();
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_REQUEST_TIMEOUT");
      assert.equal(err.attempts, 2);
      assert.ok(Date.now() - started < 5_000, "the time limit, not the test's, ended the call");
      await client.close();
    });

    it("an abort while the request is in flight ends the call at once with ERR_CUSTODY_ABORTED", async () => {
      const { client } = testClient(server, extra);
      server.setHandler(() => ({ hang: true }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const err = await client.vaults.get(IDS.vault, { signal: controller.signal }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyAbortedError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_ABORTED");
      assert.equal(server.requests.length, 1, "not retried");
      await client.close();
    });

    it("a refused connection: ERR_CUSTODY_CONNECTION, nothing sent", async () => {
      const closed = await startLoopbackServer();
      await closed.close();
      const { client } = testClient({ ...server, url: closed.url }, { ...extra, maxRetries: 0 });
      const err = await client.vaults.create({ type: "evm", name: "x" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_CONNECTION");
      assert.equal(err.outcomeUnknown, false);
      await client.close();
    });
  });
}

describe("sdk transport: the client's own pool", () => {
  for (const transport of ["undici", "node:http"] as const) {
    it(`${transport}: keeps connections alive for calls made one after another`, async () => {
      const server = await startLoopbackServer(() => ok);
      const { client } = testClient(server, { transport });
      for (let i = 0; i < 6; i++) await client.vaults.get(IDS.vault);
      const ports = new Set(server.requests.map((r) => r.remotePort));
      assert.equal(server.requests.length, 6);
      // undici may open a second connection while the first finishes reading; never one per call.
      assert.ok(ports.size <= 2, `six calls, ${ports.size} connections`);
      await client.close();
      await server.close();
    });
  }

  it("an unknown transport, or a dispatcher with node:http, is refused with what to pass", () => {
    const base = { baseUrl: "http://127.0.0.1:1", accessToken: TOKEN };
    assert.throws(
      () => new CustodyClient({ ...base, transport: "fetch" as "undici" }),
      (e: unknown) =>
        e instanceof CustodyConfigurationError &&
        e.code === "ERR_CUSTODY_INVALID_CONFIG" &&
        /transport must be "undici" or "node:http" \(got "fetch"\)/.test(e.message),
    );
    assert.throws(
      () => new CustodyClient({ ...base, transport: "node:http", dispatcher: new Agent() }),
      /dispatcher is an undici dispatcher: it needs transport "undici"/,
    );
  });
});

describe("sdk transport: https", function () {
  this.timeout(30_000);
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer(() => ok, {
      tls: { key: tlsFixture("loopback-key.pem"), cert: tlsFixture("loopback-cert.pem") },
    });
  });
  after(async () => {
    await server.close();
  });

  /** A client in a fresh process, as a user runs one, with `env`; its result or error code on stdout. */
  async function getInChild(transport: string, env: Record<string, string>): Promise<string> {
    const script = `const { CustodyClient } = require(${JSON.stringify(resolve(__dirname, ".."))});
      const client = new CustodyClient({ baseUrl: ${JSON.stringify(server.url)}, accessToken: "t", maxRetries: 0,
        transport: ${JSON.stringify(transport)} });
      client.vaults.get(${JSON.stringify(IDS.vault)}).then((v) => console.log("vault " + v.id),
        (e) => console.log("error " + e.code + " " + (e.cause?.socketCode ?? "")));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], {
      env: { ...process.env, ...env },
    });
    return stdout.trim();
  }

  for (const transport of ["undici", "node:http"]) {
    it(`${transport}: speaks TLS to an https baseUrl, trusting a CA given by NODE_EXTRA_CA_CERTS`, async () => {
      const before = server.requests.length;
      const answer = await getInChild(transport, {
        NODE_EXTRA_CA_CERTS: resolve(FIXTURES, "tls", "loopback-cert.pem"),
      });
      assert.equal(answer, `vault ${evmVault.id}`);
      assert.equal(server.requests.length, before + 1);
    });

    it(`${transport}: refuses a certificate it does not trust, as a failure to connect (nothing sent)`, async () => {
      const before = server.requests.length;
      const answer = await getInChild(transport, { NODE_EXTRA_CA_CERTS: "" });
      assert.equal(answer, "error ERR_CUSTODY_CONNECTION DEPTH_ZERO_SELF_SIGNED_CERT");
      assert.equal(server.requests.length, before, "the refused handshake sent nothing");
    });
  }
});
