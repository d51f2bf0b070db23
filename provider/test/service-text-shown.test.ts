// The service's text is data: what a hostile or broken service puts in an error (title, detail, a 422 `msg`,
// the request id) or in a vault it returns (a name that the next diff quotes) reaches the provider's diagnostics
// (the errors its lifecycle throws on both paths, the data sources' errors, the notices) escaped by the one rule
// and bounded: no control, C1, bidi or zero-width character and no lone surrogate, however it came (property
// tests against a loopback service).
import * as assert from "node:assert/strict";
import { CustodyClient } from "@pulumi-custody/sdk";
import { type LoopbackServer, type ScriptedResponse, startLoopbackServer } from "@pulumi-custody/testing";
import fc from "fast-check";
import { beginOperation } from "../core/batch/operation";
import { configure, disconnect, setNoticeSink, vault, vaultAddress } from "../core/index";
import { getVaults } from "../data-sources/vaults";

const TOKEN = "service-text-test-token-0123456789";
const VAULT_ID = "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

/** What must never reach the engine, and so a terminal, raw. */
const UNSAFE =
  /[\p{Cc}\p{Cf}\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

const HOSTILE_TEXT = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "\r\n    error: forged",
        "\u0007",
        "\u001b[31m",
        "\u009b31m",
        "\u0085",
        "\u202e",
        "\u2066",
      ),
      fc.constantFrom("\u200b", "\u200d", "\ufeff", "\u2028", "\ud800", "\udc00", "\u{e0041}", "🏦"),
      fc.constantFrom(..."abc XYZ-_:."),
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((parts) => parts.join(""));

/** An error answer of the service, with hostile texts wherever a body has text. */
const HOSTILE_ANSWER: fc.Arbitrary<ScriptedResponse> = fc.oneof(
  fc
    .record({
      // Answers that end a create at once (a 409 or a 5xx is reconciled, with pauses, before it fails).
      status: fc.constantFrom(400, 401, 403, 404),
      title: HOSTILE_TEXT,
      detail: HOSTILE_TEXT,
      error_type: HOSTILE_TEXT,
      request_id: HOSTILE_TEXT,
    })
    .map(({ status, ...body }) => ({ status, body })),
  fc.record({ msg: HOSTILE_TEXT, loc: HOSTILE_TEXT }).map(({ msg, loc }) => ({
    status: 422,
    body: { title: "Validation error", detail: [{ loc: ["body", loc], msg, type: "value_error" }] },
  })),
  HOSTILE_TEXT.map((text) => ({ status: 400, headers: { "content-type": "text/plain" }, body: text })),
);

function assertShown(text: string, what: string): void {
  assert.doesNotMatch(text, UNSAFE, `${what}: ${JSON.stringify(text)}`);
  assert.ok(text.length <= 4001, `${what}: ${text.length} characters`);
}

describe("the service's text in the provider's diagnostics: escaped and bounded (property)", () => {
  let server: LoopbackServer;
  let answer: ScriptedResponse = { status: 599 };
  /** Whether the list of vaults fails too (a data source's read), or finds nothing (the lookups of a create). */
  let readsFail = false;
  let notices: string[] = [];
  let restoreSink: () => void;

  before(async () => {
    // Reads find nothing (the settings check, the lookups by name); the call under test gets the hostile answer.
    server = await startLoopbackServer((req) => {
      if (req.method === "GET" && req.path === "/api/v1/vaults" && !readsFail)
        return { body: { total: 0, page: 1, size: 50, vaults: [] } };
      if (req.method === "GET" && req.path.endsWith("/addresses"))
        return { body: { total: 0, page: 1, size: 50, addresses: [] } };
      return answer;
    });
    restoreSink = setNoticeSink((message) => {
      notices.push(message);
    });
  });
  after(async () => {
    restoreSink();
    await disconnect();
    configure(undefined);
    await server.close();
  });

  async function connected(): Promise<void> {
    await disconnect();
    beginOperation();
    configure({
      "custody:baseUrl": server.url,
      "custody:accessToken": TOKEN,
      "custody:requestsPerMinute": "0",
      "custody:maxRetries": "0",
    });
  }

  /** How many calls threw: the property must have met errors, not only calls that succeeded. */
  let thrown = 0;

  /** The message of what `operation` throws; `""` when it does not throw (some answers are not errors). */
  async function messageOf(operation: () => Promise<unknown>): Promise<string> {
    const err = await operation().then(
      () => undefined,
      (e: unknown) => e,
    );
    if (err === undefined) return "";
    thrown++;
    assert.ok(err instanceof Error, String(err));
    return err.message;
  }

  it("a create, a read and an address create answered with hostile errors", async function () {
    this.timeout(120_000);
    await connected();
    await fc.assert(
      fc.asyncProperty(HOSTILE_ANSWER, async (hostile) => {
        answer = hostile;
        beginOperation();
        assertShown(await messageOf(() => vault.create({ name: "Shown Ops", type: "evm" })), "vault create");
        beginOperation();
        assertShown(
          await messageOf(() => vault.read(VAULT_ID, { name: "Shown Ops", type: "evm" })),
          "vault read",
        );
        beginOperation();
        assertShown(
          await messageOf(() => vaultAddress.create({ vaultId: VAULT_ID, name: "deposits" })),
          "address create",
        );
      }),
      { numRuns: 25 },
    );
    assert.ok(thrown >= 25, `${thrown} errors`);
  });

  it("a data source answered with hostile errors", async () => {
    const client = new CustodyClient({
      baseUrl: server.url,
      accessToken: TOKEN,
      maxRetries: 0,
      requestsPerMinute: 0,
    });
    await fc.assert(
      fc.asyncProperty(HOSTILE_ANSWER, async (hostile) => {
        answer = hostile;
        readsFail = true;
        const message = await messageOf(() => getVaults({}, { client }));
        assertShown(message, "getVaults");
      }),
      { numRuns: 20 },
    );
    readsFail = false;
    await client.close();
  });

  it("notices that quote what the service holds: an archived vault's hostile name", async () => {
    await connected();
    await fc.assert(
      fc.asyncProperty(HOSTILE_TEXT, async (name) => {
        notices = [];
        const olds = { name, type: "evm", state: "archived", acquisition: "created" };
        await vault.diff(VAULT_ID, olds, { name: "Shown Ops", type: "evm" });
        assert.ok(notices.length > 0, "the diff gives a notice");
        for (const notice of notices) assertShown(notice, "notice");
      }),
      { numRuns: 25 },
    );
    assert.ok(thrown >= 25, `${thrown} errors`);
  });
});
