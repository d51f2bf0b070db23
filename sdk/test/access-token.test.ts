/**
 * The access token as a value or as a function: a client whose token function gives the token in force sends
 * the new token after a rotation, without being rebuilt (its rate limiter and connections stay); a call's
 * retries send one token; a malformed token from the function fails the call locally without echoing it; and
 * every token the client sent is scrubbed from what the service echoes back, after a rotation too.
 */
import * as assert from "node:assert/strict";
import { inspect } from "node:util";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyAuthenticationError, CustodyClient, CustodyConfigurationError } from "../index";
import { testClient } from "./helpers";

const EMPTY_LIST = { total: 0, page: 1, size: 1, vaults: [] };

describe("sdk: the access token as a function", () => {
  describe("against the emulator, across a rotation", () => {
    let emulator: RunningEmulator;
    before(async () => {
      emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    });
    after(async () => {
      await emulator?.close();
    });

    it("sends the token in force at each call: the same client works before and after a rotation", async () => {
      let current = emulator.accessToken;
      const client = new CustodyClient({
        baseUrl: emulator.baseUrl,
        accessToken: () => current,
        requestsPerMinute: 0,
        maxRetries: 0,
      });
      try {
        const before = await client.vaults.list({ size: 1 });
        const rotated = await emulator.control.rotateToken("access");
        // The old token is refused now; the client still holds it until the function says otherwise.
        await assert.rejects(client.vaults.list({ size: 1 }), CustodyAuthenticationError);
        current = rotated;
        const after = await client.vaults.list({ size: 1 });
        assert.equal(after.total, before.total, "the same organization, through the same client");
      } finally {
        await client.close();
      }
    });
  });

  describe("against a scripted server", () => {
    let server: LoopbackServer;
    beforeEach(async () => {
      server = await startLoopbackServer();
    });
    afterEach(async () => {
      await server.close();
    });

    it("asks the function once per call: the retries of a call send the same token", async () => {
      const tokens = ["token-aaaaaaaa-1", "token-bbbbbbbb-2", "token-cccccccc-3"];
      let asked = 0;
      const { client } = testClient(server, { accessToken: () => tokens[asked++]!, maxRetries: 2 });
      server.enqueue({ status: 503, body: {} }, { status: 503, body: {} }, { status: 200, body: EMPTY_LIST });
      await client.vaults.list({ size: 1 });
      server.enqueue({ status: 200, body: EMPTY_LIST });
      await client.vaults.list({ size: 1 });
      assert.deepEqual(
        server.requests.map((r) => r.headers.authorization),
        [
          "Bearer token-aaaaaaaa-1",
          "Bearer token-aaaaaaaa-1",
          "Bearer token-aaaaaaaa-1",
          "Bearer token-bbbbbbbb-2",
        ],
      );
      assert.equal(asked, 2);
      await client.close();
    });

    it("an async function works too", async () => {
      const { client } = testClient(server, { accessToken: async () => "token-from-a-vault-1234" });
      server.enqueue({ status: 200, body: EMPTY_LIST });
      await client.vaults.list({ size: 1 });
      assert.equal(server.requests[0]?.headers.authorization, "Bearer token-from-a-vault-1234");
      await client.close();
    });

    it("a malformed token from the function fails the call locally, named, never echoed, nothing sent", async () => {
      for (const bad of ["", "Bearer abcdefgh12", "has a space12345", undefined]) {
        const { client } = testClient(server, { accessToken: () => bad as string });
        const err = await client.vaults.list({ size: 1 }).then(
          () => assert.fail("the call must fail"),
          (e: unknown) => e,
        );
        assert.ok(err instanceof CustodyConfigurationError);
        assert.equal(err.code, "ERR_CUSTODY_INVALID_CONFIG");
        assert.match(err.message, /accessToken/);
        if (bad) assert.ok(!inspect(err).includes(bad), `the token is echoed: ${inspect(err)}`);
        await client.close();
      }
      assert.equal(server.requests.length, 0);
    });

    it("scrubs every token it sent from what the service echoes, the rotated-away one included", async () => {
      let current = "first-token-0123456789";
      const { client } = testClient(server, { accessToken: () => current });
      server.enqueue({ status: 200, body: EMPTY_LIST });
      await client.vaults.list({ size: 1 });
      current = "second-token-9876543210";
      server.enqueue({
        status: 401,
        body: { title: "Unauthorized", detail: "got first-token-0123456789 and second-token-9876543210" },
      });
      const err = await client.vaults.list({ size: 1 }).then(
        () => assert.fail("the call must fail"),
        (e: unknown) => e,
      );
      const shown = `${inspect(err)} ${JSON.stringify(err)} ${String(err)}`;
      assert.ok(!shown.includes("first-token-0123456789"), shown);
      assert.ok(!shown.includes("second-token-9876543210"), shown);
      assert.match(shown, /\[REDACTED\]/);
      await client.close();
    });
  });
});
