/**
 * Any logger may serialize an error: `JSON.stringify(err)` and `util.inspect(err)` of every error class are
 * bounded in depth and size and never throw, whatever the service sent: a body nested 100,000 levels deep, a
 * 422 whose `loc` is nested as deep, a 200 GET of the wrong shape, a 10 MB detail, thousands of issues. The body
 * itself is never part of what they print: it is behind `rawBody()`.
 */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { type LoopbackServer, type ScriptedResponse, startLoopbackServer } from "@pulumi-custody/testing";
import {
  CustodyClient,
  CustodyConfigurationError,
  CustodyError,
  CustodyErrorCode,
  CustodyResponseValidationError,
  CustodyValidationError,
} from "../index";
import { IDS } from "./helpers";

const DEEP = 100_000;
/** `[[[…"x"…]]]`, `DEEP` levels, as text (a JSON.stringify of it would itself overflow the stack). */
const deepArray = `${"[".repeat(DEEP)}"x"${"]".repeat(DEEP)}`;
/** `{"a":{"a":…}}`, `DEEP` levels. */
const deepObject = `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`;

/** The deepest nesting of a JSON text. */
function depthOf(json: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return max;
}

/** Serializes `err` the ways a logger does; each within bounds. */
function assertSerializable(err: unknown, what: string): void {
  assert.ok(CustodyError.isCustodyError(err), `${what}: ${String(err)}`);
  const json = JSON.stringify(err);
  assert.ok(json.length < 20_000, `${what}: JSON.stringify gave ${json.length} characters`);
  assert.ok(depthOf(json) <= 4, `${what}: JSON.stringify nests ${depthOf(json)} levels`);
  for (const options of [{}, { depth: null }, { depth: null, showHidden: true }]) {
    const shown = inspect(err, options);
    assert.ok(shown.length < 30_000, `${what}: util.inspect gave ${shown.length} characters`);
  }
  assert.ok(String(err).length < 5_000, what);
  assert.ok(err.message.length <= 4_001, what);
}

describe("sdk errors: serializable, bounded, whatever the service sent", () => {
  let server: LoopbackServer;
  let client: CustodyClient;
  before(async () => {
    server = await startLoopbackServer();
    client = new CustodyClient({
      baseUrl: server.url,
      accessToken: "serialize-test-token",
      requestsPerMinute: 0,
      maxRetries: 0,
    });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  async function errorFor(
    response: ScriptedResponse,
    call = () => client.vaults.get(IDS.vault),
  ): Promise<unknown> {
    server.enqueue(response);
    return call().then(
      () => assert.fail("the call succeeded"),
      (e: unknown) => e,
    );
  }

  for (const status of [400, 401, 403, 404, 408, 409, 418, 422, 429, 500, 503]) {
    it(`${status} with a body nested ${DEEP} levels deep (an array and an object)`, async () => {
      for (const body of [deepArray, deepObject, `{"title":"t","detail":${deepArray}}`]) {
        const err = await errorFor({ status, body, headers: { "content-type": "application/json" } });
        assertSerializable(err, `${status}`);
        // Nothing is lost: the body is there for code that asks for it.
        assert.ok((err as CustodyError).rawBody() !== undefined);
      }
    });
  }

  it(`422 whose loc is nested ${DEEP} levels deep, and 5,000 issues`, async () => {
    const err = await errorFor({
      status: 422,
      body: `{"title":"Validation error","detail":[{"loc":["body",${deepArray}],"msg":"m","type":"t"}]}`,
    });
    assertSerializable(err, "nested loc");
    assert.ok(err instanceof CustodyValidationError);
    assert.deepEqual(err.issues, [{ loc: ["body"], msg: "m", type: "t" }]);

    const many = await errorFor({
      status: 422,
      body: {
        title: "Validation error",
        detail: Array.from({ length: 5000 }, (_, i) => ({ loc: ["body", `f${i}`], msg: "bad", type: "t" })),
      },
    });
    assertSerializable(many, "5,000 issues");
    assert.equal((many as CustodyValidationError).issues.length, 50);
    assert.match((many as CustodyError).message, /; and 4950 more issues/);
  });

  it(`200 GET of the wrong shape, nested ${DEEP} levels deep`, async () => {
    for (const body of [`{"id":${deepArray}}`, deepArray, deepObject]) {
      const err = await errorFor({ status: 200, body, headers: { "content-type": "application/json" } });
      assert.ok(err instanceof CustodyResponseValidationError, String(err));
      assertSerializable(err, "wrong shape");
    }
  });

  it("a 10 MB detail and title, an 8,000-character request id: cut, each with an ellipsis", async () => {
    const huge = "x".repeat(10 * 1024 * 1024);
    const err = (await errorFor({
      status: 400,
      // A header as long as a header may be (the transport refuses longer ones).
      headers: { "x-request-id": "r".repeat(8000) },
      body: { title: huge, detail: huge, error_type: huge },
    })) as CustodyError;
    assertSerializable(err, "10 MB");
    assert.equal(err.title?.length, 201);
    assert.ok(err.title?.endsWith("…"));
    assert.equal(err.detail?.length, 1001);
    assert.equal(err.requestId?.length, 201);
  });

  it("errors built by hand: hostile fields, a cyclic issue and cause, a huge message", () => {
    const cyclic: Record<string, unknown> = { loc: ["body"], msg: "m", type: "t" };
    cyclic.self = cyclic;
    const cause = new Error("x".repeat(100_000));
    (cause as { cause?: unknown }).cause = cause;
    const errors = [
      new CustodyError(CustodyErrorCode.SERVER, "y".repeat(1_000_000), {
        title: "t\u0007".repeat(10_000),
        body: JSON.parse(deepObject),
        cause,
      }),
      new CustodyValidationError(CustodyErrorCode.VALIDATION, "bad", {
        issues: [cyclic as never, ...Array.from({ length: 1000 }, () => cyclic as never)],
      }),
      new CustodyConfigurationError(CustodyErrorCode.INVALID_CONFIG, "bad\r\nforged line"),
    ];
    for (const err of errors) assertSerializable(err, err.name);
    assert.equal(errors[2]?.message, "bad\\r\\nforged line");
  });
});
