// Answers after which the emulator reads nothing more from a connection (a header block over the limit, a
// malformed request, a body over the limit) say `Connection: close` and close it, so a keep-alive client
// opens a new connection for its next request instead of losing it on the dead one.
import assert from "node:assert/strict";
import { once } from "node:events";
import * as http from "node:http";
import { connect } from "node:net";
import { type Harness, startHarness } from "@pulumi-custody/testing";
import { Pool } from "undici";
import { BODY_LIMIT } from "../server";

/** Sends `raw` on a fresh socket; resolves with everything the server wrote once it closed its side. */
async function rawExchange(
  baseUrl: string,
  raw: string,
  waitMs = 3000,
): Promise<{ text: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, "connect");
  let text = "";
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  socket.write(raw);
  const closedByServer = await Promise.race([
    once(socket, "end").then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), waitMs)),
  ]);
  socket.destroy();
  return { text, closedByServer };
}

describe("emulator: answers that end a connection say Connection: close", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  const auth = () => ({ authorization: `Bearer ${h.emulator.accessToken}` });

  it("a pooled undici client gets a 431 with Connection: close, then its next request succeeds", async () => {
    const pool = new Pool(h.emulator.baseUrl, { connections: 1, pipelining: 1 });
    try {
      // Header blocks just over the limit and far over it (the client is still sending when the answer leaves).
      for (const size of [20_000, 40_000, 200_000, 1_000_000, 40_000]) {
        const big = await pool.request({
          method: "GET",
          path: "/api/v1/vaults",
          headers: { ...auth(), "x-oversized": "a".repeat(size) },
        });
        const text = await big.body.text();
        assert.equal(big.statusCode, 431, text);
        assert.equal(big.headers.connection, "close");
        const body = JSON.parse(text);
        assert.equal(body.title, "Request header fields too large");
        assert.equal(body.request_id, big.headers["x-request-id"]);
        const next = await pool.request({ method: "GET", path: "/api/v1/vaults", headers: auth() });
        assert.equal(next.statusCode, 200, await next.body.text());
        await next.body.dump();
      }
    } finally {
      await pool.close();
    }
  });

  it("a node:http keep-alive agent gets the 431 and then a 200 on its next request", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const req = http.get(`${h.emulator.baseUrl}/api/v1/vaults`, { agent, headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on("error", reject);
      });
    try {
      // Header blocks just over the limit and far over it (the client is still sending when the answer leaves).
      for (const size of [20_000, 40_000, 200_000, 1_000_000, 40_000]) {
        const big = await get({ ...auth(), "x-oversized": "a".repeat(size) });
        assert.equal(big.status, 431, big.body);
        assert.equal(big.headers.connection, "close");
        const next = await get(auth());
        assert.equal(next.status, 200, next.body);
      }
    } finally {
      agent.destroy();
    }
  });

  it("a body over the limit is a 413 with Connection: close, and the pool's next request succeeds", async () => {
    const pool = new Pool(h.emulator.baseUrl, { connections: 1, pipelining: 1 });
    try {
      const big = await pool.request({
        method: "POST",
        path: "/api/v1/vaults",
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ name: "x".repeat(BODY_LIMIT), type: "evm" }),
      });
      const text = await big.body.text();
      assert.equal(big.statusCode, 413, text);
      assert.equal(big.headers.connection, "close");
      const next = await pool.request({ method: "GET", path: "/api/v1/vaults", headers: auth() });
      assert.equal(next.statusCode, 200);
      await next.body.dump();
    } finally {
      await pool.close();
    }
  });

  it("a malformed request line or header is a 400 with Connection: close, and the server closes", async () => {
    for (const raw of [
      "GARBAGE\r\n\r\n",
      "GET /api/v1/vaults HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
      "GET /api/v1/vaults HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    ]) {
      const { text, closedByServer } = await rawExchange(h.emulator.baseUrl, raw);
      assert.match(text, /^HTTP\/1\.1 400 /, JSON.stringify(raw));
      assert.match(text, /\r\nconnection: close\r\n/i, text);
      assert.match(text, /"title":"Bad request"/, text);
      assert.ok(closedByServer, `the server kept the connection open after ${JSON.stringify(raw)}`);
    }
  });

  it("a malformed chunked body is a 400 with Connection: close, and the server closes", async () => {
    const head = (method: string, path: string) =>
      `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.emulator.accessToken}\r\n` +
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const body = '{"name":"chunked","type":"evm"}';
    for (const raw of [
      // A chunk size that is not hexadecimal.
      `${head("POST", "/api/v1/vaults")}zz\r\n${body}\r\n0\r\n\r\n`,
      // A chunk longer than its size says (no CRLF where the chunk should end).
      `${head("POST", "/api/v1/vaults")}5\r\n${body}\r\n0\r\n\r\n`,
      // A size too large for any parser, on a route of the control API.
      `${head("POST", "/__emulator/reset")}ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n`,
      // A GET with a broken chunked body.
      `${head("GET", "/api/v1/vaults")}-1\r\nx\r\n0\r\n\r\n`,
    ]) {
      const { text, closedByServer } = await rawExchange(h.emulator.baseUrl, raw);
      assert.match(text, /^HTTP\/1\.1 400 /, `${JSON.stringify(raw)} answered ${JSON.stringify(text)}`);
      assert.match(text, /\r\nconnection: close\r\n/i, text);
      assert.match(text, /"title":"Bad request"/, text);
      assert.match(text, /chunked/, text);
      assert.ok(closedByServer, `the server kept the connection open after ${JSON.stringify(raw)}`);
      // Exactly one answer on the connection.
      assert.equal(text.match(/HTTP\/1\.1 /g)?.length, 1, text);
    }
    // Nothing was created from the broken bodies.
    const vaults = await h.api("GET", "/api/v1/vaults", { query: { names: "chunked" } });
    assert.equal(vaults.body.total, 0);
  });

  it("a well-formed chunked body is read as usual", async () => {
    const body = JSON.stringify({ name: `chunked ${Date.now()}`, type: "evm" });
    const raw =
      `POST /api/v1/vaults HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.emulator.accessToken}\r\n` +
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" +
      `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`;
    const { text } = await rawExchange(h.emulator.baseUrl, raw);
    assert.match(text, /^HTTP\/1\.1 201 /, text);
  });

  it("a normal answer keeps the connection open", async () => {
    const { text, closedByServer } = await rawExchange(
      h.emulator.baseUrl,
      `GET /__emulator/health HTTP/1.1\r\nHost: x\r\n\r\n`,
      500,
    );
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.doesNotMatch(text, /connection: close/i);
    assert.equal(closedByServer, false);
  });
});
