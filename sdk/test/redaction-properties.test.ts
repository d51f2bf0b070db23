/**
 * Properties of the redaction, against a loopback server that echoes what fast-check makes of a secret: random
 * tokens in a random encoding (or each character in its own escape), whole at a random depth or split at random
 * points across adjacent fields (title and detail, a header and the body, the members of a `loc`); random
 * JWT-shaped tokens split at their dots; random P-256 keys given and echoed in random forms; and short tokens,
 * which are still scrubbed where they stand alone. No 12-character piece of the secret or of any of its
 * encodings may show in `JSON.stringify(err)`, `util.inspect(err, {depth: null})`, `err.message`, `String(err)`
 * or any concatenation of adjacent fields (./secret-forms.ts).
 */
import { strict as assert } from "node:assert";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { type LoopbackServer, type ScriptedResponse, startLoopbackServer } from "@pulumi-custody/testing";
import fc from "fast-check";
import { CustodyClient, type CustodyClientOptions } from "../index";
import { IDS } from "./helpers";
import {
  CHARACTER_ESCAPES,
  crlf,
  ENCODERS,
  echoForms,
  type Form,
  keyForms,
  LeakFinder,
  leakOf,
  pemBodyLines,
  tokenForms,
} from "./secret-forms";

/** The characters a token may hold (the client refuses whitespace and controls). */
const TOKEN_CHARACTER = fc.constantFrom(
  ...Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)),
);
const BASE64URL_CHARACTER = fc.constantFrom(
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split(""),
);

/** An encoding of the whole secret, or each character in an escape of its own. */
const ENCODING = fc.oneof(
  fc
    .constantFrom(...Object.keys(ENCODERS))
    .map((name) => ({ name, encode: ENCODERS[name] as (s: string) => string })),
  fc.array(fc.nat({ max: CHARACTER_ESCAPES.length - 1 }), { minLength: 1, maxLength: 200 }).map((picks) => ({
    name: "a mix of escapes",
    encode: (s: string) =>
      [...s]
        .map((c, i) => (CHARACTER_ESCAPES[picks[i % picks.length] as number] as (c: string) => string)(c))
        .join(""),
  })),
);

/** Where the echo goes. */
type Placement = "detail" | "nested" | "title+detail" | "header+body" | "loc";

/** `text` cut at `cuts` (fractions of its length) into at most `cuts.length + 1` non-empty parts. */
function cut(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((f) => Math.floor(f * text.length)))]
    .filter((p) => p > 0 && p < text.length)
    .sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const p of [...points, text.length]) {
    parts.push(text.slice(from, p));
    from = p;
  }
  return parts;
}

/** A response that echoes `echo` as `placement` says. */
function echoResponse(
  echo: string,
  placement: Placement,
  cuts: readonly number[],
  depth: number,
): ScriptedResponse {
  switch (placement) {
    case "detail":
      return { status: 401, body: { title: "Unauthorized", detail: `Bearer ${echo} expired` } };
    case "nested": {
      let nested: unknown = { authorization: `Bearer ${echo}` };
      for (let i = 0; i < depth; i++) nested = i % 2 === 0 ? [nested] : { a: nested };
      return { status: 400, body: { title: "Bad request", detail: "x", nested } };
    }
    case "title+detail": {
      const [a = "", b = ""] = cut(echo, cuts.slice(0, 1));
      return { status: 403, body: { title: `Forbidden ${a}`, detail: `${b} denied` } };
    }
    case "header+body": {
      const [a = "", b = ""] = cut(echo, cuts.slice(0, 1));
      return { status: 400, headers: { "x-request-id": a }, body: `${b} is not accepted` };
    }
    case "loc":
      return {
        status: 422,
        body: {
          title: "Validation error",
          detail: [{ loc: ["header", ...cut(echo, cuts)], msg: "is not valid", type: "value_error" }],
        },
      };
  }
}

const PLACEMENT = fc.constantFrom<Placement>("detail", "nested", "title+detail", "header+body", "loc");
const CUTS = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 });

describe("sdk redaction: properties", function () {
  this.timeout(180_000);
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  /** The error of one call by a client holding `options`, answered by `response`. */
  async function errorFor(
    options: Partial<CustodyClientOptions>,
    response: ScriptedResponse,
  ): Promise<unknown> {
    const client = new CustodyClient({
      baseUrl: server.url,
      accessToken: "unused-token-value",
      requestsPerMinute: 0,
      maxRetries: 0,
      ...options,
    });
    try {
      server.enqueue(response);
      return await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    } finally {
      await client.close();
    }
  }

  it("random tokens of 12 or more characters, in any encoding, whole at any depth or split across adjacent fields", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(TOKEN_CHARACTER, { minLength: 12, maxLength: 90 }).map((cs) => cs.join("")),
        ENCODING,
        PLACEMENT,
        CUTS,
        fc.nat({ max: 80 }),
        async (token, { name, encode }, placement, cuts, depth) => {
          const echo = encode(token);
          const err = await errorFor({ accessToken: token }, echoResponse(echo, placement, cuts, depth));
          const forms: Form[] = [...tokenForms(token), ...echoForms(name, echo)];
          const leak = leakOf(err, new LeakFinder(forms));
          assert.equal(leak, undefined, `${name}, ${placement}: ${leak}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("random JWT-shaped tokens split at their dots into a 422 loc", async () => {
    const segment = fc.array(BASE64URL_CHARACTER, { minLength: 1, maxLength: 40 }).map((cs) => cs.join(""));
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(segment, { minLength: 2, maxLength: 4 })
          .map((parts) => parts.join("."))
          .filter((t) => t.length >= 12),
        async (jwt) => {
          const err = await errorFor(
            { accessToken: jwt },
            {
              status: 422,
              body: {
                title: "Validation error",
                detail: [{ loc: ["header", ...jwt.split(".")], msg: "is not valid", type: "value_error" }],
              },
            },
          );
          const leak = leakOf(err, new LeakFinder(tokenForms(jwt)));
          assert.equal(leak, undefined, leak);
        },
      ),
      { numRuns: 150 },
    );
  });

  describe("random P-256 keys", () => {
    const keys: KeyObject[] = Array.from(
      { length: 6 },
      () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey,
    );
    const finders = keys.map((key) => new LeakFinder(keyForms(key)));

    const givenAs: Record<string, (key: KeyObject) => string | Buffer | KeyObject> = {
      "PKCS#8 PEM": (key) => key.export({ type: "pkcs8", format: "pem" }).toString(),
      "PKCS#8 PEM with CRLF": (key) => crlf(key.export({ type: "pkcs8", format: "pem" }).toString()),
      "SEC1 PEM": (key) => key.export({ type: "sec1", format: "pem" }).toString(),
      "SEC1 PEM with CRLF as a Buffer": (key) =>
        Buffer.from(crlf(key.export({ type: "sec1", format: "pem" }).toString())),
      Buffer: (key) => Buffer.from(key.export({ type: "pkcs8", format: "pem" }).toString()),
      KeyObject: (key) => key,
    };
    const echoedAs: Record<string, (key: KeyObject) => string> = {
      "PKCS#8 PEM": (key) => key.export({ type: "pkcs8", format: "pem" }).toString(),
      "PKCS#8 PEM with CRLF": (key) => crlf(key.export({ type: "pkcs8", format: "pem" }).toString()),
      "SEC1 PEM": (key) => key.export({ type: "sec1", format: "pem" }).toString(),
      "SEC1 PEM with CRLF": (key) => crlf(key.export({ type: "sec1", format: "pem" }).toString()),
      "PKCS#8 body": (key) => pemBodyLines(key.export({ type: "pkcs8", format: "pem" }).toString()).join(""),
      "SEC1 body": (key) => pemBodyLines(key.export({ type: "sec1", format: "pem" }).toString()).join(""),
      "PKCS#8 DER as hex": (key) => key.export({ type: "pkcs8", format: "der" }).toString("hex"),
      "SEC1 DER as base64url": (key) => key.export({ type: "sec1", format: "der" }).toString("base64url"),
      "the private scalar as hex": (key) =>
        Buffer.from((key.export({ format: "jwk" }) as { d: string }).d, "base64url").toString("hex"),
      JWK: (key) => JSON.stringify(key.export({ format: "jwk" })),
    };

    it("given in any form, echoed in any form, whole, escaped or split across adjacent fields", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: keys.length - 1 }),
          fc.constantFrom(...Object.keys(givenAs)),
          fc.constantFrom(...Object.keys(echoedAs)),
          fc.constantFrom("plain", "\\u escapes", "% escapes", "HTML decimal entities"),
          fc.constantFrom<Placement>("detail", "nested", "title+detail", "loc"),
          CUTS,
          fc.nat({ max: 40 }),
          async (k, given, echoed, written, placement, cuts, depth) => {
            const key = keys[k] as KeyObject;
            const echo = (ENCODERS[written] as (s: string) => string)(
              (echoedAs[echoed] as (key: KeyObject) => string)(key),
            );
            const err = await errorFor(
              { apiUserPrivateKey: (givenAs[given] as (key: KeyObject) => string | Buffer | KeyObject)(key) },
              echoResponse(echo, placement, cuts, depth),
            );
            const leak = leakOf(err, finders[k] as LeakFinder);
            assert.equal(
              leak,
              undefined,
              `given as ${given}, echoed as ${echoed} (${written}), ${placement}: ${leak}`,
            );
          },
        ),
        { numRuns: 120 },
      );
    });
  });

  it("short tokens (under 12 characters) are still scrubbed where they stand alone, also split across title and detail or in Basic", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(TOKEN_CHARACTER, { minLength: 1, maxLength: 11 }).map((cs) => cs.join("")),
        fc.constantFrom("detail", "title+detail", "Basic"),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (token, how, at) => {
          const finder = new LeakFinder([{ name: "token", text: token }]);
          const basic = ENCODERS["Basic base64(user:secret)"] as (s: string) => string;
          const response = (echo: string) =>
            how === "Basic"
              ? echoResponse(echo, "detail", [], 0)
              : echoResponse(echo, how === "detail" ? "detail" : "title+detail", [at], 0);
          // A token such as "/" or "api" also occurs in the path or the words around the echo: not an echo.
          const baseline = await errorFor(
            { accessToken: token },
            response(how === "Basic" ? "Basic [REDACTED]" : "[REDACTED]"),
          );
          fc.pre(leakOf(baseline, finder) === undefined);
          const err = await errorFor(
            { accessToken: token },
            response(how === "Basic" ? basic(token) : token),
          );
          const leak = leakOf(err, finder);
          assert.equal(leak, undefined, `${how}: ${leak}`);
        },
      ),
      { numRuns: 200 },
    );
  });
});
