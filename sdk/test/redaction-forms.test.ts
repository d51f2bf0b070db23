/**
 * A server (or a proxy) that echoes a secret the client holds gets no part of it into an error, whatever form it
 * echoes: the access token in base64, base64url, hex, `Basic base64(user:token)`, HTML entities, `\x` or `%`
 * escapes; split in halves across the title and the detail, or across a header and the body; a JWT split at its
 * dots into a 422 `loc`; every token a token function returned; and the signing key given as a PEM string (LF or
 * CRLF), a SEC1 PEM, a Buffer or a KeyObject, echoed as PEM, as its base64 body alone, line by line, as DER in
 * hex or base64url, or as a JWK. The oracle (./secret-forms.ts) looks for any 12-character piece of any form in
 * every surface of the error and in every concatenation of its adjacent fields.
 */
import { strict as assert } from "node:assert";
import { createPrivateKey, type KeyObject } from "node:crypto";
import { type LoopbackServer, type ScriptedResponse, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient, type CustodyClientOptions, type CustodyError } from "../index";
import { REDACTED, redactSecrets, SecretRedactor } from "../redact";
import { privateKeyForms } from "../signing/pem-keys";
import { fixture, IDS } from "./helpers";
import {
  base64Inside,
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

/** A JWT whose parts hold `-` and `_`, so that base64url and base64 differ. */
const JWT =
  "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhcGktdXNlci0xIiwiZXhwIjoxNzM5NDU5MjM2fQ." +
  "MEUCIQD3x_9kK-nV2rLqWz0tA8bP4sJf7yHcE1uGxRmNoQ";
/** Tokens of 16 and 30 characters: split in halves, each half is shorter than 12 or just above it. */
const SHORTER_TOKENS = ["Zq3-xT9_kLmN8pQr", "tok_4f9a2c71e8b3d05a6c7e9f1b2d"];

/** The error a client holding `options` gets for one call answered by `response`. */
async function errorFor(
  server: LoopbackServer,
  options: Partial<CustodyClientOptions>,
  ...responses: ScriptedResponse[]
): Promise<CustodyError> {
  const client = new CustodyClient({
    baseUrl: server.url,
    accessToken: JWT,
    requestsPerMinute: 0,
    maxRetries: 0,
    ...options,
  });
  try {
    server.enqueue(...responses);
    let err: unknown;
    for (let i = 0; i < responses.length; i++)
      err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    return err as CustodyError;
  } finally {
    await client.close();
  }
}

function assertNoLeak(err: unknown, forms: readonly Form[], what: string): void {
  const leak = leakOf(err, new LeakFinder(forms));
  assert.equal(leak, undefined, `${what}: ${leak}`);
}

function halves(text: string): [string, string] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

describe("sdk redaction: the access token in any encoding", () => {
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  for (const [name, encode] of Object.entries(ENCODERS)) {
    it(`echoed ${name === "plain" ? "as it is" : `as ${name}`} in the detail, a header, a key and deep in the body`, async () => {
      const echo = encode(JWT);
      const err = await errorFor(
        server,
        {},
        {
          status: 401,
          headers: { "x-request-id": echo },
          body: {
            title: "Unauthorized",
            detail: `Token ${echo} has expired`,
            echo: { headers: { authorization: [`Bearer ${echo}`] }, deep: [[[{ [echo]: echo }]]] },
          },
        },
      );
      assertNoLeak(err, [...tokenForms(JWT), ...echoForms(name, echo)], name);
      // Only the secret goes: the words around it stay.
      assert.match(err.detail ?? "", /^Token .*\[REDACTED\] has expired$/);
    });
  }

  it("split in two halves across the title and the detail, in every encoding, for tokens of 16 to 130 characters", async () => {
    for (const token of [...SHORTER_TOKENS, JWT]) {
      for (const [name, encode] of Object.entries(ENCODERS)) {
        const [a, b] = halves(encode(token));
        const err = await errorFor(
          server,
          { accessToken: token },
          {
            status: 403,
            body: { title: `Forbidden: ${a}`, detail: `${b} may not do this` },
          },
        );
        assertNoLeak(
          err,
          [...tokenForms(token), ...echoForms(name, encode(token))],
          `${token.length} characters, ${name}`,
        );
      }
    }
  });

  it("split across the x-request-id header and a text body, in every encoding", async () => {
    for (const token of [...SHORTER_TOKENS, JWT]) {
      for (const [name, encode] of Object.entries(ENCODERS)) {
        const [a, b] = halves(encode(token));
        const err = await errorFor(
          server,
          { accessToken: token },
          {
            status: 400,
            headers: { "x-request-id": a },
            body: `${b} is not accepted here`,
          },
        );
        assertNoLeak(
          err,
          [...tokenForms(token), ...echoForms(name, encode(token))],
          `${token.length} characters, ${name}`,
        );
      }
    }
  });

  for (const [what, jwt] of [
    ["a JWT", JWT],
    ["a JWT whose parts are all shorter than 12 characters", "eyJhbGci.eyJzdWIi.c2lnbmF0"],
  ] as const) {
    it(`${what} split at its dots into a 422 loc: issues, body, message and JSON`, async () => {
      const err = await errorFor(
        server,
        { accessToken: jwt },
        {
          status: 422,
          body: {
            title: "Validation error",
            detail: [{ loc: ["header", ...jwt.split(".")], msg: "is not valid", type: "value_error" }],
          },
        },
      );
      assert.equal(err.code, "ERR_CUSTODY_VALIDATION");
      assertNoLeak(err, tokenForms(jwt), what);
      const finder = new LeakFinder(tokenForms(jwt));
      const issues = (err as CustodyError & { issues: { loc: string[] }[] }).issues;
      for (const joiner of ["", "."]) {
        assert.equal(
          finder.find(issues[0]?.loc.join(joiner) ?? ""),
          undefined,
          `issues[0].loc joined by "${joiner}"`,
        );
      }
      assert.equal(finder.find(JSON.stringify(err.rawBody())), undefined, "body");
      assert.equal(issues[0]?.loc[0], "header", "the location's own words stay");
    });
  }

  it("a token function: every token it returned, in every encoding, after a rotation too", async () => {
    const tokens = [`${JWT.slice(0, 60)}-first`, `${JWT.slice(0, 60)}-second`];
    let current = tokens[0] as string;
    const client = new CustodyClient({
      baseUrl: server.url,
      accessToken: () => current,
      requestsPerMinute: 0,
      maxRetries: 0,
    });
    try {
      for (const [name, encode] of Object.entries(ENCODERS)) {
        for (const echoed of tokens) {
          server.enqueue({ status: 401, body: { title: "Unauthorized", detail: `was ${encode(echoed)}` } });
          const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
          assertNoLeak(
            err,
            [...tokenForms(echoed), ...echoForms(name, encode(echoed))],
            `${name} after ${current === tokens[0] ? "the first" : "a rotation"}`,
          );
        }
        current = tokens[1] as string;
      }
    } finally {
      await client.close();
    }
  });
});

describe("sdk redaction: the signing key, in whatever form it was given and echoed", () => {
  const pkcs8Pem = fixture("api-user-p256.pem");
  const key = createPrivateKey(pkcs8Pem);
  const sec1Pem = key.export({ type: "sec1", format: "pem" }).toString();
  const forms = keyForms(key);
  const jwk = JSON.stringify(key.export({ format: "jwk" }));

  const given: Record<string, string | Buffer | KeyObject> = {
    "a PKCS#8 PEM string": pkcs8Pem,
    "a PKCS#8 PEM string with CRLF line ends": crlf(pkcs8Pem),
    "a SEC1 PEM string": sec1Pem,
    "a Buffer": Buffer.from(pkcs8Pem),
    "a KeyObject": key,
  };

  /** Each echo as the body (or headers) of an error response. */
  const echoes: Record<string, () => ScriptedResponse> = {
    "the PKCS#8 PEM": () => ({ status: 400, body: { title: "Bad request", detail: pkcs8Pem } }),
    "the PKCS#8 PEM with CRLF": () => ({
      status: 400,
      body: { title: "Bad request", detail: crlf(pkcs8Pem) },
    }),
    "the SEC1 PEM": () => ({ status: 400, body: { title: "Bad request", detail: `key: ${sec1Pem}` } }),
    "the SEC1 PEM with CRLF, as a text body": () => ({ status: 400, body: crlf(sec1Pem) }),
    "the PEM body without its BEGIN/END lines": () => ({
      status: 400,
      body: { title: "Bad request", detail: `key ${pemBodyLines(pkcs8Pem).join("")} refused` },
    }),
    "the PEM body line by line in an array": () => ({
      status: 400,
      body: { title: "Bad request", detail: "x", lines: pemBodyLines(pkcs8Pem) },
    }),
    "the PEM body lines, space-separated": () => ({
      status: 400,
      body: { title: "Bad request", detail: pemBodyLines(sec1Pem).join(" ") },
    }),
    "the PEM body split across the title and the detail": () => {
      const [a, b] = halves(pemBodyLines(pkcs8Pem).join(""));
      return { status: 400, body: { title: a, detail: b } };
    },
    "the PEM body in the x-request-id header": () => ({
      status: 400,
      headers: { "x-request-id": pemBodyLines(pkcs8Pem).join("") },
      body: {},
    }),
    "the DER as hex": () => ({
      status: 400,
      body: { title: "Bad request", detail: key.export({ type: "pkcs8", format: "der" }).toString("hex") },
    }),
    "the SEC1 DER as base64url": () => ({
      status: 400,
      body: {
        title: "Bad request",
        detail: key.export({ type: "sec1", format: "der" }).toString("base64url"),
      },
    }),
    "the JWK": () => ({ status: 400, body: { title: "Bad request", detail: jwk, jwk: JSON.parse(jwk) } }),
    "the PEM text as base64": () => ({
      status: 400,
      body: { title: "Bad request", detail: Buffer.from(pkcs8Pem).toString("base64") },
    }),
  };

  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  for (const [givenAs, apiUserPrivateKey] of Object.entries(given)) {
    it(`given as ${givenAs}: no echoed form of it survives`, async () => {
      const leaks: string[] = [];
      for (const [echoed, response] of Object.entries(echoes)) {
        const err = await errorFor(server, { apiUserPrivateKey }, response());
        const leak = leakOf(err, new LeakFinder(forms));
        if (leak !== undefined) leaks.push(`${echoed}: ${leak}`);
      }
      assert.deepEqual(leaks, []);
    });
  }
});

describe("redactSecrets: encodings, nested escapes and what stays", () => {
  const TOKEN = "Zq3-xT9_kLmN8pQr";
  const hex = (s: string) => Buffer.from(s).toString("hex");
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const each = (s: string, f: (code: number) => string) =>
    [...s].map((c) => f(c.codePointAt(0) as number)).join("");

  const wrapped = (before: string, after: string, alphabet: "base64" | "base64url") => ({
    echo: Buffer.from(before + TOKEN + after).toString(alphabet),
    form: base64Inside(before, TOKEN, after, alphabet),
  });
  const echoes: Record<string, { echo: string; form?: Form }> = {
    "escaped twice: %5Cu00XX (a JSON escape, %-encoded)": {
      echo: each(TOKEN, (c) => `%5Cu00${c.toString(16)}`),
    },
    "escaped twice: &amp;#xXX; (an HTML entity, HTML-escaped)": {
      echo: each(TOKEN, (c) => `&amp;#x${c.toString(16)};`),
    },
    "escaped twice: %25XX": { echo: each(TOKEN, (c) => `%25${c.toString(16)}`) },
    "hex in mixed case": {
      echo: [...hex(TOKEN)].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join(""),
    },
    "base64 of a JSON object that holds it": wrapped('{"user":"bot","token":"', '"}', "base64"),
    "base64url of a JSON object that holds it": wrapped('{"t":"', '"}', "base64url"),
    "Basic base64(user:token) for a user of any length": {
      echo: `Basic ${b64(`a-much-longer-user-name:${TOKEN}`)}`,
      form: base64Inside("a-much-longer-user-name:", TOKEN, "", "base64"),
    },
  };
  for (const [what, { echo, form }] of Object.entries(echoes)) {
    it(what, () => {
      const clean = redactSecrets(`Bearer ${echo} expired`, [TOKEN]);
      assert.equal(new LeakFinder([...tokenForms(TOKEN), ...(form ? [form] : [])]).find(clean), undefined);
      assert.match(clean, /^Bearer .*\[REDACTED\].* expired$/);
    });
  }

  it("a non-ASCII secret %-encoded as UTF-8", () => {
    const secret = "kéy-🔑-geheim-𝄞-wert";
    const clean = redactSecrets(`key=${encodeURIComponent(secret)}&x=1`, [secret]);
    assert.equal(clean, `key=${REDACTED}&x=1`);
  });

  it("a short token (4 characters) in a Basic credential, and not in another one", () => {
    assert.equal(
      redactSecrets(`Authorization: Basic ${b64("bot:k9/Q")}`, ["k9/Q"]),
      `Authorization: Basic ${REDACTED}`,
    );
    const other = `Basic ${b64("bot:k9/Qx")}`;
    assert.equal(
      redactSecrets(other, ["k9/Q"]),
      other,
      "the token glued to another character is another word",
    );
  });

  it("a secret given as bytes is found in its encodings", () => {
    const der = Buffer.from("3077020101042019695975", "hex");
    const scalar = new Uint8Array([...der, ...der, ...der]);
    for (const encoded of [Buffer.from(scalar).toString("hex"), Buffer.from(scalar).toString("base64url")]) {
      assert.equal(redactSecrets(`d=${encoded};`, [scalar]), `d=${REDACTED};`);
    }
  });

  it("what holds no secret stays as it is: other base64, hex and Basic values, pieces under 12, the words", () => {
    const text =
      `Basic ${b64("bot:another-password")} ${hex("another value entirely")} ${b64("something else")} ` +
      `${TOKEN.slice(0, 11)} and ${TOKEN.slice(3, 14)}, but ${TOKEN.slice(4)}`;
    // Pieces of 11 characters stay; one of 12 goes.
    assert.equal(redactSecrets(text, [TOKEN]), text.replace(TOKEN.slice(4), REDACTED));
  });
});

describe("sdk redaction: a 2xx body that breaks its schema, echoing the secrets in their encodings", () => {
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  it("the error, its issues and body, the log line and the request event carry none of them", async () => {
    const key = createPrivateKey(fixture("api-user-p256.pem"));
    const forms = [...tokenForms(JWT), ...keyForms(key)];
    const finder = new LeakFinder(forms);
    const lines: string[] = [];
    const events: unknown[] = [];
    for (const responseValidation of ["throw", "warn"] as const) {
      const client = new CustodyClient({
        baseUrl: server.url,
        accessToken: JWT,
        apiUserPrivateKey: key,
        requestsPerMinute: 0,
        maxRetries: 0,
        responseValidation,
        logger: { warn: (m, f) => lines.push(m + JSON.stringify(f)) },
        onRequest: (e) => events.push(e),
      });
      const [a, b] = halves(Buffer.from(JWT).toString("base64"));
      server.enqueue({
        status: 200,
        headers: { "x-request-id": a },
        body: {
          suggested_fees: { [Buffer.from(JWT).toString("hex")]: { type: 42 } },
          [b]: pemBodyLines(fixture("api-user-p256.pem")),
          jwt: JWT.split("."),
        },
      });
      const result = await client.blockchains.suggestedFees().catch((e: unknown) => e);
      await client.close();
      if (responseValidation === "throw") {
        assert.equal(leakOf(result, finder), undefined);
      }
    }
    assert.equal(lines.length, 1, "the lenient read logged its issues");
    for (const line of lines) assert.equal(finder.find(line), undefined, "log line");
    for (const event of events) assert.equal(finder.find(JSON.stringify(event)), undefined, "request event");
  });
});

describe("sdk redaction: cost", () => {
  it("a client with a key scrubs a 1 MB text and a 20 000-item body in reasonable time, and finds what they hide", () => {
    const key = createPrivateKey(fixture("api-user-p256.pem"));
    const pem = key.export({ type: "pkcs8", format: "pem" }).toString();
    const redactor = new SecretRedactor([JWT]);
    // As the client does it: once per client, when the key is given.
    let started = performance.now();
    const { encoded, plain } = privateKeyForms(key);
    for (const form of encoded) redactor.add(form, { joiners: false });
    for (const form of plain) redactor.add(form, { encodings: false, joiners: false });
    const setupMs = performance.now() - started;

    const words = Array.from({ length: 150_000 }, (_, i) => `word${i % 97}`);
    words[75_000] = Buffer.from(JWT).toString("hex");
    const text = words.join(" ");
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      id: `item-${i}`,
      name: `vault ${i}`,
      tags: ["a", "b"],
    }));
    (items[10_000] as { tags: string[] }).tags = halves(pemBodyLines(pem).join(""));
    started = performance.now();
    const cleanText = redactor.text(text);
    const cleanBody = redactor.value({ items });
    const scrubMs = performance.now() - started;

    const finder = new LeakFinder([...tokenForms(JWT), ...keyForms(key)]);
    assert.equal(finder.find(cleanText), undefined);
    assert.equal(finder.find(JSON.stringify(cleanBody)), undefined);
    assert.equal(
      cleanText.length,
      text.length - words[75_000].length + REDACTED.length,
      "only the echo went",
    );
    // Generous bounds for a shared machine; the point is no quadratic blow-up (about 10 ms and 0.4 s here).
    assert.ok(setupMs < 2_000, `the key's forms took ${Math.round(setupMs)} ms`);
    assert.ok(scrubMs < 10_000, `scrubbing took ${Math.round(scrubMs)} ms`);
  });
});
