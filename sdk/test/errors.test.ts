/**
 * Each error status becomes its class, with the fields of a realistic body (docs/api-notes.md, "Errors"), and
 * success responses that break their schema lose nothing.
 */
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import {
  CustodyAuthenticationError,
  CustodyBadRequestError,
  type CustodyClient,
  CustodyConflictError,
  CustodyError,
  CustodyNotFoundError,
  CustodyPermissionError,
  CustodyRateLimitError,
  CustodyResponseValidationError,
  CustodyServerError,
  CustodyTimeoutError,
  CustodyValidationError,
} from "../index";
import { evmVault, IDS, testClient } from "./helpers";

const REQUEST_ID = "7d1c9a52-55c4-4d3a-a3c1-2f1c0e9b8a77";

interface StatusCase {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  call: (c: CustodyClient) => Promise<unknown>;
  cls: new (...args: never[]) => CustodyError;
  code: string;
  expect: Partial<
    Record<"title" | "detail" | "requestId" | "errorType" | "resource" | "method" | "path", string>
  >;
}

const createVault = (c: CustodyClient) => c.vaults.create({ type: "evm", name: "treasury" });
const getVault = (c: CustodyClient) => c.vaults.get(IDS.vault);

const statusCases: StatusCase[] = [
  {
    status: 400,
    body: {
      title: "Invalid vault type",
      detail: "Invalid vault type for vault creation.",
      request_id: REQUEST_ID,
      error_type: "invalid_vault_type",
    },
    call: (c) => c.vaults.addresses.create(IDS.vault, { name: "a" }),
    cls: CustodyBadRequestError,
    code: "ERR_CUSTODY_BAD_REQUEST",
    expect: {
      title: "Invalid vault type",
      detail: "Invalid vault type for vault creation.",
      requestId: REQUEST_ID,
      errorType: "invalid_vault_type",
      method: "POST",
      path: `/api/v1/vaults/${IDS.vault}/addresses`,
    },
  },
  {
    status: 401,
    body: {
      title: "Unauthorized user",
      detail: "The access token is invalid or has expired.",
      request_id: REQUEST_ID,
    },
    call: getVault,
    cls: CustodyAuthenticationError,
    code: "ERR_CUSTODY_AUTHENTICATION",
    expect: {
      title: "Unauthorized user",
      detail: "The access token is invalid or has expired.",
      requestId: REQUEST_ID,
    },
  },
  {
    status: 403,
    body: {
      title: "Forbidden user",
      detail: "User is not allowed to perform this action.",
      request_id: REQUEST_ID,
    },
    call: createVault,
    cls: CustodyPermissionError,
    code: "ERR_CUSTODY_PERMISSION",
    expect: { title: "Forbidden user", requestId: REQUEST_ID, method: "POST", path: "/api/v1/vaults" },
  },
  {
    status: 404,
    body: {
      title: "Not found",
      detail: `Vault ${IDS.vault} not found`,
      request_id: REQUEST_ID,
      resource: "vault",
    },
    call: getVault,
    cls: CustodyNotFoundError,
    code: "ERR_CUSTODY_NOT_FOUND",
    expect: {
      resource: "vault",
      detail: `Vault ${IDS.vault} not found`,
      path: `/api/v1/vaults/${IDS.vault}`,
    },
  },
  {
    status: 404,
    body: {
      title: "Not found",
      detail: `Path /api/v1/vaults/${IDS.vault}/addresses/${IDS.address} not found`,
      request_id: REQUEST_ID,
      resource: "path",
    },
    call: (c) => c.users.get(IDS.user),
    cls: CustodyNotFoundError,
    code: "ERR_CUSTODY_NOT_FOUND",
    expect: { resource: "path", title: "Not found" },
  },
  {
    status: 408,
    body: { title: "Request timeout", detail: "The request took too long.", request_id: REQUEST_ID },
    call: createVault,
    cls: CustodyTimeoutError,
    code: "ERR_CUSTODY_TIMEOUT",
    expect: { title: "Request timeout", requestId: REQUEST_ID },
  },
  {
    status: 409,
    body: {
      title: "Already exists",
      detail: "A vault named treasury already exists.",
      request_id: REQUEST_ID,
      resource: "vault",
    },
    call: createVault,
    cls: CustodyConflictError,
    code: "ERR_CUSTODY_CONFLICT",
    expect: { title: "Already exists", resource: "vault" },
  },
  {
    status: 429,
    body: {},
    headers: { "x-request-id": REQUEST_ID },
    call: getVault,
    cls: CustodyRateLimitError,
    code: "ERR_CUSTODY_RATE_LIMITED",
    expect: { title: "Rate limit exceeded", requestId: REQUEST_ID },
  },
  {
    status: 500,
    body: { title: "Unexpected error", detail: "An unexpected error occurred.", request_id: REQUEST_ID },
    call: getVault,
    cls: CustodyServerError,
    code: "ERR_CUSTODY_SERVER",
    expect: { title: "Unexpected error", detail: "An unexpected error occurred.", requestId: REQUEST_ID },
  },
];

describe("sdk errors: one class per status", () => {
  let server: LoopbackServer;
  let client: CustodyClient;

  before(async () => {
    server = await startLoopbackServer();
    ({ client } = testClient(server, { maxRetries: 0 }));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  for (const tc of statusCases) {
    const label = tc.expect.resource ? `${tc.status} (${tc.expect.resource})` : String(tc.status);
    it(`${label} → ${tc.cls.name}`, async () => {
      server.enqueue({ status: tc.status, body: tc.body, headers: tc.headers });
      const err = await tc.call(client).then(
        () => assert.fail("expected a rejection"),
        (e: unknown) => e,
      );
      assert.ok(err instanceof tc.cls, `got ${String(err)}`);
      assert.ok(err instanceof CustodyError);
      assert.ok(CustodyError.isCustodyError(err));
      assert.equal(err.status, tc.status);
      assert.equal(err.code, tc.code);
      assert.equal(err.name, tc.cls.name);
      assert.equal(err.attempts, 1);
      for (const [key, value] of Object.entries(tc.expect)) {
        assert.equal(err[key as keyof CustodyError], value, key);
      }
      assert.deepEqual(err.rawBody(), tc.body);
      // A readable message: method, path, status, the service's words and the request id.
      assert.ok(err.message.startsWith(`${err.method} ${err.path} failed with ${tc.status}`), err.message);
      if (tc.expect.title) assert.ok(err.message.includes(tc.expect.title), err.message);
      if (tc.expect.detail) assert.ok(err.message.includes(tc.expect.detail), err.message);
      assert.ok(err.message.includes(REQUEST_ID), err.message);
      assert.equal(err.outcomeUnknown, tc.status === 408 || tc.status >= 500);
    });
  }

  it("422 → CustodyValidationError with the service's detail list", async () => {
    const body = {
      title: "Cannot process data due to validation error",
      detail: [
        {
          loc: ["body", "address_type"],
          msg: "Input should be 'legacy', 'segwit' or 'taproot'",
          type: "enum",
        },
        { loc: ["body", "name"], msg: "String should have at least 1 character", type: "string_too_short" },
      ],
      request_id: REQUEST_ID,
    };
    server.enqueue({ status: 422, body });
    const err = await client.vaults.addresses.create(IDS.utxoVault, { name: "x" }).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyValidationError);
    assert.equal(err.code, "ERR_CUSTODY_VALIDATION");
    assert.equal(err.status, 422);
    assert.equal(err.title, body.title);
    assert.equal(err.requestId, REQUEST_ID);
    assert.deepEqual(err.issues, body.detail);
    assert.equal(
      err.detail,
      "body.address_type: Input should be 'legacy', 'segwit' or 'taproot'; body.name: String should have at least 1 character",
    );
    assert.ok(err.message.includes("body.address_type: Input should be"), err.message);
  });

  it("takes the request id from x-request-id when the body has none", async () => {
    server.enqueue({
      status: 403,
      body: { title: "Forbidden user", detail: "no" },
      headers: { "x-request-id": "hdr-123" },
    });
    const err = await getVault(client).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyPermissionError);
    assert.equal(err.requestId, "hdr-123");
  });

  it("a 404 without `resource` in the body names the endpoint's resource", async () => {
    server.enqueue({ status: 404, body: { title: "Not found", detail: "gone" } });
    const err = await client.userGroups.get(IDS.userGroup).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyNotFoundError);
    assert.equal(err.resource, "user_group");
  });

  it("a 5xx with an HTML body from a proxy keeps the text as detail", async () => {
    server.enqueue({ status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" });
    const err = await getVault(client).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyServerError);
    assert.equal(err.status, 502);
    assert.equal(err.code, "ERR_CUSTODY_SERVER");
    assert.equal(err.detail, "<html><body><h1>502 Bad Gateway</h1></body></html>");
    assert.equal(err.outcomeUnknown, true);
  });

  it("an unexpected status is a plain CustodyError with ERR_CUSTODY_HTTP_STATUS", async () => {
    server.enqueue({ status: 418, body: { title: "I'm a teapot", detail: "short and stout" } });
    const err = await getVault(client).catch((e: unknown) => e);
    assert.ok(err instanceof CustodyError);
    assert.equal(err.constructor, CustodyError);
    assert.equal(err.code, "ERR_CUSTODY_HTTP_STATUS");
    assert.equal(err.status, 418);
    assert.equal(err.title, "I'm a teapot");
  });

  describe("success responses that break their schema", () => {
    // Certainly wrong (an id that is not a string), not merely newer than this release.
    const oddVault = { ...evmVault, id: 42 };

    it("a read rejects with CustodyResponseValidationError carrying the raw body (default)", async () => {
      server.enqueue({ status: 200, body: oddVault, headers: { "x-request-id": REQUEST_ID } });
      const err = await getVault(client).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyResponseValidationError);
      assert.equal(err.code, "ERR_CUSTODY_RESPONSE_INVALID");
      assert.equal(err.status, 200);
      assert.equal(err.requestId, REQUEST_ID);
      assert.deepEqual(err.rawBody(), oddVault, "nothing the service sent is lost");
      assert.deepEqual(err.issues[0].loc, ["response", "id"]);
      assert.equal(err.outcomeUnknown, false);
      assert.ok(err.message.includes("A read changes nothing"), err.message);
    });

    it("a write that took effect resolves instead (response-validation.test.ts)", async () => {
      server.enqueue({ status: 201, body: oddVault });
      assert.deepEqual(await createVault(client), oddVault);
    });

    it('resolve to the raw body and warn with responseValidation: "warn"', async () => {
      const warnings: string[] = [];
      const { client: lenient } = testClient(server, {
        responseValidation: "warn",
        logger: { warn: (message) => warnings.push(message) },
      });
      server.enqueue({ status: 200, body: oddVault });
      const vault = await lenient.vaults.get(IDS.vault);
      assert.deepEqual(vault, oddVault);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /response does not match its schema: response\.id/);
      await lenient.close();
    });

    it("a success body that is not JSON is reported, not swallowed", async () => {
      server.enqueue({ status: 200, body: "<html>maintenance</html>" });
      const err = await getVault(client).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyResponseValidationError);
      assert.equal(err.rawBody(), "<html>maintenance</html>");
    });
  });
});
