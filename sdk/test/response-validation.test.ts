/**
 * A success response whose body breaks its schema (sdk/README.md, "Lenient responses"): a call that took
 * effect (any 2xx to a POST or PUT) never fails because of the shape of its answer; it resolves to the body as
 * it came, with the issues on it (`responseValidationIssues(result)`), in the request event of that attempt and
 * in a `logger.warn` line. A read (GET) whose body cannot be understood rejects with
 * `CustodyResponseValidationError` naming each field and the rule it broke, unless `responseValidation` is
 * `"warn"`. Requests are still validated strictly.
 */
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import {
  type CustodyClient,
  CustodyResponseValidationError,
  CustodyValidationError,
  type RequestEvent,
  responseValidationIssues,
} from "../index";
import { evmTransferRequest, evmVault, fixture, IDS, testClient, transactionRecord } from "./helpers";

/** A vault whose `id` is certainly wrong (a number), not merely newer than this release. */
const oddVault = { ...evmVault, id: 42 };
const ID_ISSUE = { loc: ["response", "id"], msg: "must be a string (got number)", type: "invalid_type" };

describe("sdk: success responses that break their schema", () => {
  let server: LoopbackServer;
  let client: CustodyClient;
  const warnings: { message: string; fields: Record<string, unknown> }[] = [];
  const events: RequestEvent[] = [];
  beforeEach(async () => {
    server = await startLoopbackServer();
    warnings.length = 0;
    events.length = 0;
    ({ client } = testClient(server, {
      apiUserPrivateKey: fixture("api-user-p256.pem"),
      logger: { warn: (message, fields) => warnings.push({ message, fields }) },
      onRequest: (e) => events.push(e),
    }));
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  describe("a call that took effect (2xx to a POST or PUT) resolves, whatever the shape of its answer", () => {
    it("a created vault: the body as it came, with the issues on it, though responseValidation is the default", async () => {
      server.enqueue({ status: 201, body: oddVault, headers: { "x-request-id": "req-1" } });
      const vault = await client.vaults.create({ type: "evm", name: "treasury" });
      assert.deepEqual(vault, oddVault, "the body as it came");
      assert.deepEqual(responseValidationIssues(vault), [ID_ISSUE]);
      // Non-enumerable: it changes neither the keys, nor JSON, nor a deep comparison.
      assert.ok(!Object.keys(vault).includes("validationIssues"));
      assert.equal(JSON.stringify(vault), JSON.stringify(oddVault));
      assert.deepEqual((vault as unknown as { validationIssues: unknown }).validationIssues, [ID_ISSUE]);
    });

    it("says so in a logger.warn line, which names the field and the rule, and in the attempt's request event", async () => {
      server.enqueue({ status: 201, body: oddVault, headers: { "x-request-id": "req-1" } });
      await client.vaults.create({ type: "evm", name: "treasury" });
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!.message,
        /^POST \/api\/v1\/vaults \(createVault\): the call took effect, but/,
      );
      assert.match(warnings[0]!.message, /response\.id: must be a string \(got number\)/);
      assert.deepEqual(warnings[0]!.fields.issues, [ID_ISSUE]);
      assert.equal(warnings[0]!.fields.requestId, "req-1");
      assert.deepEqual(
        events.map((e) => [e.status, e.validationIssues]),
        [[201, [ID_ISSUE]]],
      );
    });

    it("a created transaction, and the 200 of a repeated idempotency id", async () => {
      const record = transactionRecord("5f0c8d3e-3f4a-4b5c-9d6e-7f8a9b0c1d2e");
      const broken = { ...record, state_changes: "approved" };
      for (const status of [201, 200]) {
        server.enqueue({ status, body: broken });
        const tx = await client.transactions.create(evmTransferRequest);
        assert.deepEqual(tx, broken);
        assert.deepEqual(
          responseValidationIssues(tx).map((i) => i.loc),
          [["response", "state_changes"]],
        );
      }
    });

    it("a body that is not JSON at all: an empty object whose issue says what arrived", async () => {
      server.enqueue({ status: 201, body: "<html>created</html>" });
      const vault = await client.vaults.create({ type: "evm", name: "treasury" });
      assert.deepEqual({ ...vault }, {});
      assert.deepEqual(responseValidationIssues(vault), [
        { loc: ["response"], msg: "must be an object (got string)", type: "invalid_type" },
      ]);
    });

    it("a JSON body that is not an object: an empty object too", async () => {
      server.enqueue({ status: 201, body: "null" });
      const vault = await client.vaults.create({ type: "evm", name: "treasury" });
      assert.deepEqual({ ...vault }, {});
      assert.equal(responseValidationIssues(vault)[0]?.msg, "must be an object (got null)");
    });

    it("a hook that throws on the event changes nothing", async () => {
      const { client: other } = testClient(server, {
        onRequest: () => {
          throw new Error("broken hook");
        },
      });
      server.enqueue({ status: 201, body: oddVault });
      assert.deepEqual(responseValidationIssues(await other.vaults.create({ type: "evm", name: "x" })), [
        ID_ISSUE,
      ]);
      await other.close();
    });
  });

  describe("a body that matches its schema", () => {
    it("carries no issues, and its events none", async () => {
      server.enqueue({ status: 201, body: evmVault }, { status: 200, body: evmVault });
      assert.deepEqual(responseValidationIssues(await client.vaults.create({ type: "evm", name: "x" })), []);
      assert.deepEqual(responseValidationIssues(await client.vaults.get(IDS.vault)), []);
      assert.deepEqual(
        events.map((e) => e.validationIssues),
        [undefined, undefined],
      );
      assert.equal(warnings.length, 0);
    });

    it("responseValidationIssues of anything else is empty", () => {
      for (const value of [undefined, null, 1, "x", {}, [], { validationIssues: "not a list" }]) {
        assert.deepEqual(responseValidationIssues(value), []);
      }
    });
  });

  describe("a read (GET) whose body cannot be understood", () => {
    it("rejects with CustodyResponseValidationError that names each field and the rule it broke", async () => {
      server.enqueue({ status: 200, body: oddVault, headers: { "x-request-id": "req-2" } });
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyResponseValidationError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_RESPONSE_INVALID");
      assert.equal(err.status, 200);
      assert.equal(err.requestId, "req-2");
      assert.deepEqual(err.issues, [ID_ISSUE]);
      assert.deepEqual(err.rawBody(), oddVault);
      assert.equal(err.outcomeUnknown, false);
      assert.match(err.message, /^GET \/api\/v1\/vaults\/[\w-]+ answered 200, but/);
      assert.match(err.message, /response\.id: must be a string \(got number\)/);
      assert.match(err.message, /A read changes nothing/);
      assert.deepEqual(
        events.map((e) => [e.status, e.validationIssues]),
        [[200, [ID_ISSUE]]],
      );
    });

    it('resolves with the issues on the body with responseValidation: "warn"', async () => {
      const { client: lenient } = testClient(server, {
        responseValidation: "warn",
        logger: { warn: (message, fields) => warnings.push({ message, fields }) },
      });
      server.enqueue({ status: 200, body: oddVault });
      const vault = await lenient.vaults.get(IDS.vault);
      await lenient.close();
      assert.deepEqual(vault, oddVault);
      assert.deepEqual(responseValidationIssues(vault), [ID_ISSUE]);
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!.message,
        /^GET .* \(getVault\): the response does not match its schema: response\.id/,
      );
    });
  });

  describe("what stays strict", () => {
    it("a request that breaks its schema is still refused before sending", async () => {
      const err = await client.vaults.create({ type: "evm", name: "" }).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyValidationError);
      assert.equal(server.requests.length, 0);
    });

    it("an error status is still an error, whatever its body", async () => {
      server.enqueue({ status: 400, body: { unexpected: ["shape"] } });
      const err = await client.vaults.create({ type: "evm", name: "x" }).catch((e: unknown) => e);
      assert.ok(err instanceof Error && !(err instanceof CustodyResponseValidationError));
      assert.equal((err as { status?: number }).status, 400);
    });
  });
});
