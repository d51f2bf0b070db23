// Connection timeouts: a shared test server must not let clients hold connections open for ever. A request
// head that never completes is answered 408 and closed after the header timeout (slowloris), a request whose
// body never completes after the request timeout, and a connection with no request in flight after the idle
// timeout. An answer that takes long (latency, a slow webhook receiver) is not cut off.
//
// The timeouts are short here; the waits are generous and the bounds several times the timeout, so a slow
// machine makes the tests slower, not red.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type Harness, rawCall, startHarness } from "@pulumi-custody/testing";
import { startEmulator } from "../start-emulator";

const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 1_000;
const IDLE_TIMEOUT_MS = 400;
/** How long a test waits for the server to close a connection before it fails. */
const WAIT_MS = 15_000;
/** Upper bound of "closed in time": several times the longest timeout, whatever the machine's load. */
const BOUND_MS = 8 * REQUEST_TIMEOUT_MS;

interface Watched {
  socket: Socket;
  /** Everything the server wrote. */
  text(): string;
  /** Resolves with the time from connect to the server closing the connection, or undefined after `WAIT_MS`. */
  closed: Promise<number | undefined>;
}

/** Opens a connection to `baseUrl` and watches for the server closing it (end of stream, or a reset). */
async function watch(baseUrl: string): Promise<Watched> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  const socket = connect(Number(port), hostname);
  let text = "";
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  socket.on("error", () => undefined); // a reset by the server counts as closed
  const closed = Promise.race([
    once(socket, "close").then(() => performance.now() - started),
    sleep(WAIT_MS).then(() => undefined),
  ]);
  await once(socket, "connect");
  return { socket, text: () => text, closed };
}

describe("emulator: connection timeouts", function () {
  this.timeout(60_000);
  let h: Harness;
  const open: Socket[] = [];
  before(async () => {
    h = await startHarness({
      seed: "empty",
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
    });
  });
  afterEach(async () => {
    for (const s of open.splice(0)) s.destroy();
    await h.emulator.control.setLatency(0);
  });
  after(() => h.close());

  async function watched(): Promise<Watched> {
    const w = await watch(h.emulator.baseUrl);
    open.push(w.socket);
    return w;
  }

  it("answers 408 and closes a connection whose request head is not complete after the header timeout", async () => {
    const w = await watched();
    w.socket.write("GET /api/v1/vaults HTTP/1.1\r\nHost: x\r\n");
    const after = await w.closed;
    assert.ok(after !== undefined, `the server kept a half-sent request head open for ${WAIT_MS} ms`);
    assert.ok(after >= HEADERS_TIMEOUT_MS - 50, `closed after ${after} ms, before the header timeout`);
    assert.ok(after < BOUND_MS, `closed after ${after} ms`);
    assert.match(w.text(), /^HTTP\/1\.1 408 /, w.text());
    assert.match(w.text(), /\r\nconnection: close\r\n/i);
    assert.match(w.text(), /"title":"Request timeout"/);
  });

  it("closes a connection that keeps sending its head a byte at a time (the header timeout is for the whole head)", async () => {
    const w = await watched();
    const head = `GET /api/v1/vaults HTTP/1.1\r\nHost: x\r\nx-slow: ${"a".repeat(400)}\r\n\r\n`;
    let closed: number | undefined;
    void w.closed.then((t) => (closed = t ?? -1));
    // One byte every 20 ms: activity never stops, so only a limit on the whole head ends it. Bounded in
    // bytes (the head) and time (WAIT_MS).
    const started = performance.now();
    for (let i = 0; i < head.length && closed === undefined && performance.now() - started < WAIT_MS; i++) {
      if (!w.socket.writable) break;
      w.socket.write(head[i]!);
      await sleep(20);
    }
    const after = await w.closed;
    assert.ok(after !== undefined, "the server never closed the dripping connection");
    assert.ok(after < BOUND_MS, `closed after ${after} ms`);
    assert.doesNotMatch(w.text(), /^HTTP\/1\.1 200 /);
  });

  it("closes a connection that sends nothing", async () => {
    const w = await watched();
    const after = await w.closed;
    assert.ok(after !== undefined, `a silent connection stayed open for ${WAIT_MS} ms`);
    assert.ok(after < BOUND_MS, `closed after ${after} ms`);
  });

  it("closes a kept-alive connection idle for the idle timeout, after answering its request", async () => {
    const w = await watched();
    w.socket.write("GET /__emulator/health HTTP/1.1\r\nHost: x\r\n\r\n");
    const after = await w.closed;
    assert.ok(after !== undefined, `an idle keep-alive connection stayed open for ${WAIT_MS} ms`);
    assert.ok(after >= IDLE_TIMEOUT_MS - 50, `closed after ${after} ms, before the idle timeout`);
    assert.ok(after < BOUND_MS, `closed after ${after} ms`);
    assert.match(w.text(), /^HTTP\/1\.1 200 /);
    assert.equal(w.text().match(/HTTP\/1\.1 /g)?.length, 1, "one answer only");
  });

  it("answers 408 and closes a connection whose body is not complete after the request timeout", async () => {
    const w = await watched();
    w.socket.write(
      `POST /api/v1/vaults HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.emulator.accessToken}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    const after = await w.closed;
    assert.ok(after !== undefined, `a half-sent body kept the connection open for ${WAIT_MS} ms`);
    assert.ok(after >= REQUEST_TIMEOUT_MS - 50, `closed after ${after} ms, before the request timeout`);
    assert.ok(after < BOUND_MS, `closed after ${after} ms`);
    assert.match(w.text(), /^HTTP\/1\.1 408 /, w.text());
    assert.match(w.text(), /\r\nconnection: close\r\n/i);
  });

  it("does not cut off an answer that takes longer than the idle timeout", async () => {
    await h.emulator.control.setLatency(3 * IDLE_TIMEOUT_MS);
    const res = await rawCall(h.emulator.baseUrl, "GET", "/api/v1/blockchains", {
      token: h.emulator.accessToken,
    });
    assert.equal(res.status, 200);
  });

  it("closes 200 slow-header connections at once within the bound, and still serves", async () => {
    const watchedAll: Watched[] = [];
    for (let i = 0; i < 200; i++) {
      const w = await watched();
      w.socket.write("GET /api/v1/vaults HTTP/1.1\r\nHost: x\r\n");
      watchedAll.push(w);
    }
    const times = await Promise.all(watchedAll.map((w) => w.closed));
    const open = times.filter((t) => t === undefined).length;
    assert.equal(open, 0, `${open} of 200 slow-header connections stayed open for ${WAIT_MS} ms`);
    assert.ok(Math.max(...(times as number[])) < WAIT_MS);
    const res = await rawCall(h.emulator.baseUrl, "GET", "/__emulator/health");
    assert.equal(res.status, 200);
  });

  it("refuses timeouts that are not positive integers, or a request timeout below the header timeout, naming the option", async () => {
    const cases: [Parameters<typeof startEmulator>[0], RegExp][] = [
      [{ headersTimeoutMs: 0 }, /headersTimeoutMs must be an integer between 1 and/],
      [{ idleTimeoutMs: 1.5 }, /idleTimeoutMs must be an integer between 1 and/],
      [{ requestTimeoutMs: -1 }, /requestTimeoutMs must be an integer between 1 and/],
      [
        { headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 },
        /requestTimeoutMs \(1000\) must be at least headersTimeoutMs \(5000\)/,
      ],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(startEmulator({ port: 0, seed: "empty", ...options }), message);
    }
  });
});
