/**
 * Two ways an echo once got past the redaction: a token percent-encoded five or six times over (the escapes
 * were undone four rounds deep, no further), and the short rest of a token split across two texts of one
 * response (the longer part was replaced first, and the joint was never seen): 22/10 and 30/10 across the title
 * and the detail, 25/15 across the `x-request-id` header and a text body. The escapes are now undone until
 * nothing is left to decode (what still decodes after the last round is replaced unchecked), and every piece of
 * one response is found before any is replaced.
 */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { type LoopbackServer, type ScriptedResponse, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient, type CustodyError } from "../index";
import { MAX_DECODE_ROUNDS } from "../redact";
import { IDS } from "./helpers";

/** Tokens of 32 and 40 characters, as an API gateway issues them (base64url). */
const TOKEN_32 = "pQ7xZk2Lm9Vt4Rw8Yb3Nc6Hd1Fg5sHd6";
const TOKEN_40 = "Jr4Tq8Wm2Xv6Zb9Lc3Nd7Pf1Gh5Kk0Ys2Ua6Ie8O";

/** Each byte as `%XX`, then every `%` escaped again `times - 1` times (`%` → `%25`). */
function percentNested(text: string, times: number): string {
  let out = [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join("");
  for (let i = 1; i < times; i++) out = out.replace(/%/g, "%25");
  return out;
}

/** `text` percent-decoded until nothing is left to decode. */
function percentDecoded(text: string): string {
  let current = text;
  for (;;) {
    const next = current.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) =>
      String.fromCharCode(Number.parseInt(h, 16)),
    );
    if (next === current) return current;
    current = next;
  }
}

/** Every way the error is read or printed, as written and fully percent-decoded. */
function readings(err: CustodyError): string[] {
  const texts = [
    err.message,
    String(err.stack),
    JSON.stringify(err),
    inspect(err, { depth: null, showHidden: true }),
    inspect({ ...err }, { depth: null }),
    inspect(err.rawBody(), { depth: null }),
    ...[err.title, err.detail, err.requestId].map(String),
  ];
  return [...texts, ...texts.map(percentDecoded)];
}

/** The first reading that shows `piece`, or `undefined`. */
function shows(err: CustodyError, piece: string): string | undefined {
  return readings(err).find((text) => text.includes(piece));
}

describe("sdk redaction: nested escapes and the rest of a split", () => {
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  async function errorFor(token: string, response: ScriptedResponse): Promise<CustodyError> {
    const client = new CustodyClient({
      baseUrl: server.url,
      accessToken: token,
      requestsPerMinute: 0,
      maxRetries: 0,
    });
    try {
      server.enqueue(response);
      return (await client.vaults.get(IDS.vault).catch((e: unknown) => e)) as CustodyError;
    } finally {
      await client.close();
    }
  }

  /** Every 12-character piece of `token`, and `rest` whole. */
  function assertNothingOf(err: CustodyError, token: string, rest?: string): void {
    for (let i = 0; i + 12 <= token.length; i++) {
      const piece = token.slice(i, i + 12);
      assert.equal(shows(err, piece), undefined, `a piece at ${i} shows in ${shows(err, piece)}`);
    }
    if (rest !== undefined) assert.equal(shows(err, rest), undefined, `the rest "${rest}" shows`);
  }

  for (const times of [5, 6]) {
    it(`the token percent-encoded ${times} times over: no piece of it, decoded or not`, async () => {
      const err = await errorFor(TOKEN_40, {
        status: 400,
        body: { title: "Unauthorized", detail: `bad token ${percentNested(TOKEN_40, times)}` },
      });
      assertNothingOf(err, TOKEN_40);
      assert.match(err.detail ?? "", /^bad token \[REDACTED\]$/);
    });
  }

  it("escaped beyond the last decoding round: what is still escaped is replaced unchecked, the rest stays", async () => {
    const deep = percentNested(TOKEN_40, MAX_DECODE_ROUNDS + 2);
    const err = await errorFor(TOKEN_40, {
      status: 400,
      body: { title: "Bad request", detail: `bad token ${deep} (and 100% sure)` },
    });
    assertNothingOf(err, TOKEN_40);
    assert.match(err.detail ?? "", /^bad token \[REDACTED\] \(and 100% sure\)$/);
  });

  for (const [token, cut] of [
    [TOKEN_32, 22],
    [TOKEN_40, 30],
  ] as const) {
    it(`a ${token.length}-character token split ${cut}/${token.length - cut} across the title and the detail: neither part shows`, async () => {
      const err = await errorFor(token, {
        status: 401,
        body: { title: token.slice(0, cut), detail: token.slice(cut) },
      });
      assertNothingOf(err, token, token.slice(cut));
      // The other way round too: the detail ends with the first part, the title starts with the rest.
      const reversed = await errorFor(token, {
        status: 401,
        body: { title: `${token.slice(cut)} is not valid`, detail: `token expired: ${token.slice(0, cut)}` },
      });
      assertNothingOf(reversed, token, token.slice(cut));
    });
  }

  it("a token split 25/15 across the x-request-id header and a text body: neither part shows", async () => {
    const err = await errorFor(TOKEN_40, {
      status: 502,
      headers: { "x-request-id": TOKEN_40.slice(0, 25), "content-type": "text/plain" },
      body: `${TOKEN_40.slice(25)} upstream failed`,
    });
    assertNothingOf(err, TOKEN_40, TOKEN_40.slice(25));
    // And a 10-character rest in the header, the rest in the body.
    const short = await errorFor(TOKEN_40, {
      status: 502,
      headers: { "x-request-id": TOKEN_40.slice(30), "content-type": "text/plain" },
      body: `upstream failed: ${TOKEN_40.slice(0, 30)}`,
    });
    assertNothingOf(short, TOKEN_40, TOKEN_40.slice(30));
  });

  it("a split inside the body: the members of a 422 loc, a 30/10 split, neither part shows", async () => {
    const err = await errorFor(TOKEN_40, {
      status: 422,
      body: {
        title: "Validation error",
        detail: [
          { loc: ["body", TOKEN_40.slice(0, 30), TOKEN_40.slice(30)], msg: "bad", type: "value_error" },
        ],
      },
    });
    assertNothingOf(err, TOKEN_40, TOKEN_40.slice(30));
  });

  const codeEscapes: [string, (c: string) => string][] = [
    ["\\u{X}", (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`],
    ["%uXXXX", (c) => `%u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`],
    ["octal \\NNN", (c) => `\\${(c.codePointAt(0) as number).toString(8).padStart(3, "0")}`],
  ];
  for (const [name, escapeOf] of codeEscapes) {
    it(`the token with each character written as ${name}, and that escaped again: replaced whole`, async () => {
      const once = [...TOKEN_40].map(escapeOf).join("");
      for (const echo of [once, once.replace(/%/g, "%25").replace(/\\/g, "\\\\")]) {
        const err = await errorFor(TOKEN_40, {
          status: 400,
          body: { title: "Bad request", detail: `token ${echo}` },
        });
        assert.equal(err.detail, "token [REDACTED]", name);
      }
    });
  }

  it("zero-width characters between the token's characters hide nothing", async () => {
    const hidden = [...TOKEN_40].join("\u200b");
    const err = await errorFor(TOKEN_40, {
      status: 400,
      body: { title: "Bad request", detail: `token ${hidden}` },
    });
    for (const text of readings(err)) {
      const visible = text.replace(/\u200b|\\u200b/g, "");
      for (let i = 0; i + 12 <= TOKEN_40.length; i++)
        assert.ok(!visible.includes(TOKEN_40.slice(i, i + 12)), text);
    }
  });
});
