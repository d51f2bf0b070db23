/**
 * The service's text is data: whatever it puts in an error body (title, detail, a 422 `msg` or `loc`, the
 * request id, the error type, the resource) or in the `x-request-id` header reaches no field, message, JSON or
 * `util.inspect` of an error raw. Control characters (C0, DEL, C1 such as the CSI 0x9b), bidi marks and
 * overrides, zero-width characters and lone surrogates are escaped by the one rule of messages
 * (`shownText`), and every text is cut to its bound (property test at the client's boundary: a loopback server
 * answers what fast-check makes).
 */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import fc from "fast-check";
import { CustodyClient, type CustodyError, shownText } from "../index";
import { IDS } from "./helpers";

/** What must never reach a terminal raw. */
const UNSAFE =
  /[\p{Cc}\p{Cf}\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
/** The same, except the newlines that separate the frames of a stack trace. */
const UNSAFE_BUT_NEWLINE =
  /[^\P{Cc}\n]|\p{Cf}|[\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** Characters a hostile service sends: controls, C1, bidi, zero-width, lone surrogates, and ordinary text. */
const HOSTILE_CHARACTER = fc.oneof(
  fc.constantFrom(
    "\r",
    "\n",
    "\u0007",
    "\u001b",
    "\u009b",
    "\u0085",
    "\u007f",
    "\u0000",
    "\u202e",
    "\u202a",
    "\u2066",
    "\u2069",
    "\u200e",
    "\u200b",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u2028",
    "\ud800",
    "\udfff",
    "\u{e0041}",
    "😀",
  ),
  fc.constantFrom(..."abc XYZ-_:.;[]31m"),
);
const HOSTILE_TEXT = fc.array(HOSTILE_CHARACTER, { minLength: 1, maxLength: 60 }).map((cs) => cs.join(""));
/** What a header may carry (Node refuses the rest): printable ASCII and the bytes 0x80-0xff, C1 among them. */
const HEADER_TEXT = fc
  .array(fc.oneof(fc.constantFrom("\u009b", "\u0085", "\u00ad", "\u0090"), fc.constantFrom(..."abc-31m[")), {
    minLength: 1,
    maxLength: 40,
  })
  .map((cs) => cs.join(""));

/** Every string of a JSON value (keys included). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) out.push(k, ...stringsOf(v));
  return out;
}

describe("sdk errors: the service's text is escaped and bounded (property)", () => {
  let server: LoopbackServer;
  let client: CustodyClient;
  before(async () => {
    server = await startLoopbackServer();
    client = new CustodyClient({
      baseUrl: server.url,
      accessToken: "escaping-test-token",
      requestsPerMinute: 0,
      maxRetries: 0,
    });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  function assertSafe(err: CustodyError): void {
    const fields = [
      err.message,
      err.title,
      err.detail,
      err.fullDetail,
      err.requestId,
      err.errorType,
      err.resource,
    ];
    const issues = (err as { issues?: { loc: unknown[]; msg: string; type: string }[] }).issues ?? [];
    for (const text of [...fields, ...issues.flatMap((i) => [i.msg, i.type, ...i.loc.map(String)])]) {
      if (text === undefined) continue;
      assert.doesNotMatch(text, UNSAFE, JSON.stringify(text));
    }
    for (const text of stringsOf(JSON.parse(JSON.stringify(err)))) assert.doesNotMatch(text, UNSAFE, text);
    assert.doesNotMatch(inspect(err, { depth: null }), UNSAFE_BUT_NEWLINE);
    assert.doesNotMatch(String(err), UNSAFE);
    assert.ok((err.title?.length ?? 0) <= 201 && (err.detail?.length ?? 0) <= 1001);
  }

  it("title, detail, error type, resource, request id (body and header): escaped in every field and print", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          status: fc.constantFrom(400, 401, 403, 404, 409, 429, 500),
          title: HOSTILE_TEXT,
          detail: HOSTILE_TEXT,
          error_type: HOSTILE_TEXT,
          resource: HOSTILE_TEXT,
          request_id: fc.option(HOSTILE_TEXT, { nil: undefined }),
          header: HEADER_TEXT,
        }),
        async ({ status, header, ...body }) => {
          server.enqueue({ status, headers: { "x-request-id": header }, body });
          const err = (await client.vaults.get(IDS.vault).catch((e: unknown) => e)) as CustodyError;
          assertSafe(err);
          // Escaped, not dropped: the message shows the detail as the rule writes it.
          assert.ok(
            err.message.includes(shownText(body.detail, 1000)),
            `${err.message}\n${shownText(body.detail, 1000)}`,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("422 issues: every msg, type and part of a loc escaped", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            loc: fc.array(fc.oneof(HOSTILE_TEXT, fc.nat()), { maxLength: 4 }),
            msg: HOSTILE_TEXT,
            type: HOSTILE_TEXT,
          }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        async (detail) => {
          server.enqueue({ status: 422, body: { title: "Validation error", detail } });
          const err = (await client.vaults.get(IDS.vault).catch((e: unknown) => e)) as CustodyError;
          assertSafe(err);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("the issue's example: a detail that forges a line, rings the bell and opens a C1 CSI; a right-to-left override", async () => {
    server.enqueue({
      status: 400,
      body: { title: "Bad request", detail: "x\r\n    error: forged line\u0007\u009b31m" },
    });
    const forged = (await client.vaults
      .create({ name: "v", type: "evm" })
      .catch((e: unknown) => e)) as CustodyError;
    assert.equal(
      forged.message,
      "POST /api/v1/vaults failed with 400 Bad request: x\\r\\n    error: forged line\\x07\\x9b31m",
    );
    server.enqueue({
      status: 400,
      body: { title: "Bad request", detail: "name \u202Egnp.exe\u001b[31m red" },
    });
    const bidi = (await client.vaults
      .create({ name: "v", type: "evm" })
      .catch((e: unknown) => e)) as CustodyError;
    assert.equal(bidi.detail, "name \\u202egnp.exe\\x1b[31m red");
  });
});
