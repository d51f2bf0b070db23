/**
 * The access token, the Authorization header and the private key never appear in an error's message, stack,
 * JSON or `util.inspect` output, nor in the client's own printout or its log lines.
 */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient, CustodyError } from "../index";
import { evmTransferRequest, fixture, IDS, TOKEN, testClient } from "./helpers";

const PRIVATE_PEM = fixture("api-user-p256.pem");
/** The base64 lines of the PEM: any one of them leaking would leak key material. */
const KEY_LINES = PRIVATE_PEM.split("\n").filter((l) => l !== "" && !l.startsWith("-----"));

function assertClean(text: string, what: string): void {
  assert.ok(!text.includes(TOKEN), `${what} contains the access token`);
  // "Bearer [REDACTED]" and the advice "without the 'Bearer ' prefix" are fine; a credential after it is not.
  assert.ok(!/bearer\s+(?!\[REDACTED\]|')\S/i.test(text), `${what} contains an Authorization value`);
  for (const line of KEY_LINES) assert.ok(!text.includes(line), `${what} contains private key material`);
}

function assertErrorClean(err: unknown): void {
  assert.ok(err instanceof CustodyError, String(err));
  assertClean(err.message, "message");
  assertClean(String(err.stack), "stack");
  assertClean(JSON.stringify(err), "JSON");
  assertClean(inspect(err, { depth: 10, showHidden: true }), "util.inspect");
  assertClean(String(err), "toString");
}

describe("sdk redaction", () => {
  let server: LoopbackServer;
  const logs: string[] = [];
  let client: CustodyClient;

  before(async () => {
    server = await startLoopbackServer();
    ({ client } = testClient(server, {
      apiUserPrivateKey: PRIVATE_PEM,
      maxRetries: 1,
      logger: {
        debug: (m, f) => logs.push(m + JSON.stringify(f)),
        warn: (m, f) => logs.push(m + JSON.stringify(f)),
      },
    }));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("an error body that echoes the Authorization header is scrubbed", async () => {
    server.enqueue({
      status: 401,
      body: {
        title: "Unauthorized user",
        detail: `Token Bearer ${TOKEN} has expired`,
        echo: { headers: { authorization: `Bearer ${TOKEN}` } },
      },
    });
    const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    assertErrorClean(err);
    assert.match((err as CustodyError).detail ?? "", /\[REDACTED\] has expired/);
  });

  it("a server error, a connection error and a time-out carry no secrets", async () => {
    server.enqueue(
      { status: 500, body: { title: "Unexpected error", detail: "x" } },
      { status: 500, body: {} },
    );
    assertErrorClean(await client.vaults.get(IDS.vault).catch((e: unknown) => e));
    server.enqueue({ destroy: true });
    assertErrorClean(await client.vaults.create({ type: "evm", name: "x" }).catch((e: unknown) => e));
    const { client: slow } = testClient(server, { timeoutMs: 100, maxRetries: 0 });
    server.enqueue({ hang: true });
    assertErrorClean(await slow.vaults.get(IDS.vault).catch((e: unknown) => e));
    await slow.close();
  });

  it("signed calls that fail carry no key material", async () => {
    server.enqueue({
      status: 400,
      body: { title: "Bad", detail: "blocked_by_policy", error_type: "blocked_by_policy" },
    });
    assertErrorClean(await client.transactions.create(evmTransferRequest).catch((e: unknown) => e));
  });

  it("local validation and response validation errors carry no secrets", async () => {
    assertErrorClean(await client.vaults.create({ type: "evm", name: "" }).catch((e: unknown) => e));
    server.enqueue({ status: 200, body: { id: "nope", token: TOKEN } });
    const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    assertErrorClean(err);
  });

  it("configuration errors about the token or key never quote them", () => {
    for (const make of [
      () =>
        new CustodyClient({
          baseUrl: "http://api.example.com",
          accessToken: TOKEN,
          apiUserPrivateKey: PRIVATE_PEM,
        }),
      () => new CustodyClient({ baseUrl: "https://api.example.com", accessToken: `Bearer ${TOKEN}` }),
      () => new CustodyClient({ baseUrl: "https://api.example.com", accessToken: `${TOKEN} x` }),
      () =>
        new CustodyClient({
          baseUrl: "https://api.example.com",
          accessToken: TOKEN,
          apiUserPrivateKey: PRIVATE_PEM.replace(KEY_LINES[1], KEY_LINES[1].split("").reverse().join("")),
        }),
    ]) {
      const err = (() => {
        try {
          make();
        } catch (e) {
          return e;
        }
        assert.fail("expected a configuration error");
      })();
      assertErrorClean(err);
    }
  });

  it("the client itself prints and serialises without secrets", () => {
    const printed = inspect(client, { depth: 10, showHidden: true });
    assertClean(printed, "inspect(client)");
    assert.match(printed, /CustodyClient \{ baseUrl: "http:\/\/127\.0\.0\.1:\d+", signing: true \}/);
    assertClean(JSON.stringify(client), "JSON.stringify(client)");
    assertClean(inspect(client.vaults, { depth: 10, showHidden: true }), "inspect(client.vaults)");
  });

  it("log lines written during retries carry no secrets", () => {
    assert.ok(logs.length > 0, "the tests above caused retries that were logged");
    for (const line of logs) assertClean(line, "log line");
  });
});
