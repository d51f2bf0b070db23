/**
 * A service (or a proxy in front of it) that echoes the Authorization header back never gets the token into
 * an error, whatever form the echo takes: JSON escapes (`\/`, `\uXXXX` with lower- or upper-case hex, for one,
 * some or all characters, surrogate pairs, JSON inside JSON), nesting at any depth, a short token, a server-chosen
 * object key, or raw bytes that a transport's HTTP parser keeps on its error. Every surface is checked: message,
 * stack, `String(err)`, `JSON.stringify(err)`, `toJSON()`, `util.inspect(err)`, the fields, and the whole
 * `cause` chain.
 */
import { strict as assert } from "node:assert";
import { createServer, type Server, type Socket } from "node:net";
import { inspect } from "node:util";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import fc from "fast-check";
import {
  CustodyClient,
  CustodyError,
  type CustodyLogger,
  type RequestEvent,
  responseValidationIssues,
} from "../index";
import { REDACTED, redactSecrets } from "../redact";
import { IDS } from "./helpers";
import { LeakFinder, tokenForms } from "./secret-forms";

/** A token with slashes, so that the `\/` escape applies to it. */
const SLASHED_TOKEN = "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhcGkvdXNlciJ9/c2ln+bmF0/dXJl";

/** How one UTF-16 unit of an echoed secret is written in JSON text. */
type Form = "literal" | "lower" | "upper" | "short";

const SHORT_ESCAPES: Record<string, string> = {
  "/": "\\/",
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** `text` as the inside of a JSON string, each UTF-16 unit written in the form `pick` chooses for it. */
function jsonEscaped(text: string, pick: (unit: string, index: number) => Form): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text[i] as string;
    const hex = unit.charCodeAt(0).toString(16).padStart(4, "0");
    const form = pick(unit, i);
    if (form === "lower") out += `\\u${hex}`;
    else if (form === "upper") out += `\\u${hex.toUpperCase()}`;
    else if (form === "short" && SHORT_ESCAPES[unit] !== undefined) out += SHORT_ESCAPES[unit];
    // Literal where JSON allows it; JSON.stringify escapes what it must (quotes, controls, lone surrogates).
    else out += JSON.stringify(unit).slice(1, -1);
  }
  return out;
}

const LETTER_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * `text` with every JSON escape and every %-escape of an ASCII character undone, again and again (JSON inside
 * JSON inside JSON…).
 */
function unescapeAll(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = current
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\+([/"\\])/g, "$1")
      .replace(/\\+([bfnrt])/g, (_, letter: string) => LETTER_ESCAPES[letter] as string)
      .replace(/%([0-7][0-9a-fA-F])/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  } while (current !== previous);
  return current;
}

const isAlnum = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);

/**
 * Whether `text`, as written or with its escapes undone, shows `secret`: anywhere for a secret of 8 characters or
 * more; for a shorter one, wherever it is not glued to letters or digits (the rule in sdk/redact.ts).
 */
function shows(text: string, secret: string): boolean {
  return occurrences(text, secret) > 0;
}

/** How many times `text` shows `secret` by the rule of {@link shows} (the larger count of the two readings). */
function occurrences(text: string, secret: string): number {
  let most = 0;
  for (const candidate of [text, unescapeAll(text)]) {
    let count = 0;
    for (let at = candidate.indexOf(secret); at !== -1; at = candidate.indexOf(secret, at + 1)) {
      const gluedBefore = secret.length < 8 && isAlnum(secret[0]) && isAlnum(candidate[at - 1]);
      const gluedAfter =
        secret.length < 8 && isAlnum(secret.at(-1)) && isAlnum(candidate[at + secret.length]);
      if (!gluedBefore && !gluedAfter) count++;
    }
    most = Math.max(most, count);
  }
  return most;
}

/** Every way a caller, a logger or a crash report can turn an error into text. */
function surfacesOf(err: unknown): Record<string, string> {
  assert.ok(err instanceof CustodyError, `expected a CustodyError, got ${String(err)}`);
  const deep = { depth: Number.POSITIVE_INFINITY, showHidden: true };
  const out: Record<string, string> = {
    message: err.message,
    stack: String(err.stack),
    "String(err)": String(err),
    "JSON.stringify(err)": JSON.stringify(err),
    "toJSON()": inspect(err.toJSON(), deep),
    "util.inspect(err)": inspect(err, deep),
    "own fields": inspect({ ...err }, deep),
    body: inspect(err.rawBody(), deep),
  };
  let level = 0;
  for (let c: unknown = err.cause; c !== undefined && c !== null && level < 10; level++) {
    out[`cause ${level}`] = inspect(c, deep);
    if (c instanceof Error) out[`cause ${level} stack`] = String(c.stack);
    c = (c as { cause?: unknown }).cause;
  }
  return out;
}

function assertNoSecret(err: unknown, secret: string): void {
  for (const [where, text] of Object.entries(surfacesOf(err))) {
    assert.ok(!shows(text, secret), `${where} shows the secret: ${text.slice(0, 400)}`);
  }
}

function clientFor(server: LoopbackServer, accessToken: string, extra: object = {}): CustodyClient {
  return new CustodyClient({
    baseUrl: server.url,
    accessToken,
    requestsPerMinute: 0,
    maxRetries: 0,
    ...extra,
  });
}

const allForms: Record<string, (unit: string, index: number) => Form> = {
  "\\/ for every slash": () => "short",
  "\\uXXXX with lower-case hex for every character": () => "lower",
  "\\uXXXX with upper-case hex for every character": () => "upper",
  "mixed: literal, \\/, lower- and upper-case \\uXXXX": (_, i) =>
    (["literal", "short", "lower", "upper"] as const)[i % 4] as Form,
};

describe("sdk redaction of echoed secrets in every JSON escape form", () => {
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  /** A 401 body that echoes the token in every field an error reads, and as a key. */
  function echoBody(echo: string): string {
    return (
      `{"title":"Unauthorized: Bearer ${echo}","detail":"Token Bearer ${echo} has expired",` +
      `"full_detail":"${echo}","request_id":"${echo}","error_type":"${echo}","resource":"${echo}",` +
      `"system_error_code":"${echo}","echo":{"headers":{"authorization":["Bearer ${echo}"]}},"${echo}":1}`
    );
  }

  for (const [name, pick] of Object.entries(allForms)) {
    it(`an error body that echoes the token with ${name}`, async () => {
      const client = clientFor(server, SLASHED_TOKEN);
      server.enqueue({ status: 401, body: echoBody(jsonEscaped(SLASHED_TOKEN, pick)) });
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      await client.close();
      assertNoSecret(err, SLASHED_TOKEN);
      // Only the token goes; the words around it stay.
      assert.equal((err as CustodyError).detail, `Token Bearer ${REDACTED} has expired`);
    });
  }

  it("the token with exactly one character escaped, for each position in turn", async () => {
    const client = clientFor(server, SLASHED_TOKEN);
    for (let position = 0; position < SLASHED_TOKEN.length; position++) {
      const echo = jsonEscaped(SLASHED_TOKEN, (_, i) =>
        i === position ? (position % 2 === 0 ? "lower" : "upper") : "literal",
      );
      server.enqueue({ status: 403, body: `{"title":"Forbidden","detail":"Bearer ${echo}"}` });
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      assertNoSecret(err, SLASHED_TOKEN);
    }
    await client.close();
  });

  it("JSON inside JSON: a string field whose text is itself JSON with escapes", async () => {
    const client = clientFor(server, SLASHED_TOKEN);
    const inner = `{"authorization":"Bearer ${jsonEscaped(SLASHED_TOKEN, allForms["mixed: literal, \\/, lower- and upper-case \\uXXXX"]!)}"}`;
    const twice = JSON.stringify(JSON.stringify({ echo: inner }));
    server.enqueue({ status: 400, body: JSON.stringify({ title: "Bad request", detail: inner, twice }) });
    const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    await client.close();
    assertNoSecret(err, SLASHED_TOKEN);
  });

  it("a 422 whose issues echo the header in msg, input and loc", async () => {
    const client = clientFor(server, SLASHED_TOKEN);
    const echo = jsonEscaped(SLASHED_TOKEN, () => "upper");
    server.enqueue({
      status: 422,
      body:
        `{"title":"Validation error","detail":[{"loc":["header","Bearer ${echo}"],` +
        `"msg":"Bearer ${echo} is not valid","type":"value_error","input":"Bearer ${echo}"}]}`,
    });
    const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    await client.close();
    assertNoSecret(err, SLASHED_TOKEN);
  });

  it("a text body (not JSON) and an x-request-id header that echo it", async () => {
    const client = clientFor(server, SLASHED_TOKEN);
    server.enqueue({
      status: 400,
      headers: { "x-request-id": `Bearer ${SLASHED_TOKEN}` },
      body: `<p>Bearer ${jsonEscaped(SLASHED_TOKEN, () => "short")} is %-encoded as ${encodeURIComponent(SLASHED_TOKEN)}</p>`,
    });
    const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
    await client.close();
    assertNoSecret(err, SLASHED_TOKEN);
    assert.ok(!(err as CustodyError).detail?.includes(encodeURIComponent(SLASHED_TOKEN)));
  });

  for (const depth of [33, 100, 1000]) {
    it(`a body that hides the echo ${depth} levels deep`, async () => {
      const client = clientFor(server, SLASHED_TOKEN);
      let nested = `"Bearer ${jsonEscaped(SLASHED_TOKEN, () => "short")}"`;
      for (let i = 0; i < depth; i++) nested = i % 2 === 0 ? `{"a":${nested}}` : `[${nested}]`;
      server.enqueue({ status: 401, body: `{"title":"Unauthorized","detail":"x","nested":${nested}}` });
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      await client.close();
      assertNoSecret(err, SLASHED_TOKEN);
    });
  }

  describe("short tokens", () => {
    for (const token of ["Z", "k9/Q", "a1B2c3D"]) {
      it(`a ${token.length}-character token is scrubbed where it stands alone, and other words are kept`, async () => {
        const client = clientFor(server, token);
        const glued = `x${token}x`;
        const escaped = jsonEscaped(token, (_, i) => (i === 0 ? "upper" : "literal"));
        server.enqueue({
          status: 401,
          body: `{"title":"Unauthorized","detail":"Bearer ${escaped} rejected; ${glued} is another word","token":"${token}"}`,
        });
        const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
        await client.close();
        assertNoSecret(err, token);
        assert.equal((err as CustodyError).detail, `Bearer ${REDACTED} rejected; ${glued} is another word`);
        assert.deepEqual(((err as CustodyError).rawBody() as { token: string }).token, REDACTED);
      });
    }
  });

  it("random tokens, each character echoed in a random form, add no occurrence to any surface (property)", async () => {
    const client = { current: undefined as CustodyClient | undefined };
    const printable = fc.constantFrom(
      ...Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)),
    );
    const tokens = fc
      .array(printable, { minLength: 1, maxLength: 48 })
      .map((chars) => chars.join(""))
      .filter((t) => !/^bearer$/i.test(t));
    const forms = fc.array(fc.constantFrom<Form>("literal", "lower", "upper", "short"), {
      minLength: 48,
      maxLength: 48,
    });
    await fc.assert(
      fc.asyncProperty(tokens, forms, async (token, picks) => {
        client.current = clientFor(server, token);
        try {
          const bodyWith = (echo: string) =>
            `{"title":"Unauthorized","detail":"Bearer ${echo} expired","echo":["${echo}"]}`;
          server.enqueue(
            { status: 401, body: bodyWith(jsonEscaped(token, (_, i) => picks[i] as Form)) },
            { status: 401, body: bodyWith(REDACTED) },
          );
          const echoed = surfacesOf(await client.current.vaults.get(IDS.vault).catch((e: unknown) => e));
          // The same error from a server that echoed nothing: a one-character token such as "-" also occurs in
          // the path or the placeholder, so the echo is judged by what it adds.
          const baseline = surfacesOf(await client.current.vaults.get(IDS.vault).catch((e: unknown) => e));
          for (const [where, text] of Object.entries(echoed)) {
            const added = occurrences(text, token) - occurrences(baseline[where] ?? "", token);
            assert.ok(added <= 0, `${where} shows the token ${added} more time(s): ${text.slice(0, 300)}`);
          }
        } finally {
          await client.current.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("sdk redaction: success responses that break their schema", () => {
  let server: LoopbackServer;
  before(async () => {
    server = await startLoopbackServer();
  });
  after(async () => server.close());

  it("a key that echoes the token never reaches the issues, the message, the log or the request event", async () => {
    const warnings: string[] = [];
    const events: RequestEvent[] = [];
    const logger: CustodyLogger = { warn: (m, f) => warnings.push(m + JSON.stringify(f)) };
    const strict = clientFor(server, SLASHED_TOKEN, {
      logger,
      onRequest: (e: RequestEvent) => events.push(e),
    });
    const echo = jsonEscaped(SLASHED_TOKEN, () => "short");
    const body = `{"suggested_fees":{"Bearer ${echo}":{"type":42}},"echo":"Bearer ${echo}"}`;
    server.enqueue({ status: 200, body });
    const err = await strict.blockchains.suggestedFees().catch((e: unknown) => e);
    await strict.close();
    assertNoSecret(err, SLASHED_TOKEN);
    for (const e of events) assert.ok(!shows(JSON.stringify(e), SLASHED_TOKEN), "request event");

    const lenient = clientFor(server, SLASHED_TOKEN, {
      logger,
      responseValidation: "warn",
      onRequest: (e: RequestEvent) => events.push(e),
    });
    server.enqueue({ status: 200, body });
    await lenient.blockchains.suggestedFees();
    await lenient.close();
    assert.ok(warnings.length > 0, "the mismatch was logged");
    for (const line of warnings) assert.ok(!shows(line, SLASHED_TOKEN), `log line: ${line.slice(0, 200)}`);
    for (const e of events) assert.ok(!shows(JSON.stringify(e), SLASHED_TOKEN), "request event");
  });

  it("a write that took effect: its issues, log line and event are scrubbed; its result is the service's data", async () => {
    const warnings: string[] = [];
    const events: RequestEvent[] = [];
    const client = clientFor(server, SLASHED_TOKEN, {
      logger: { warn: (m: string, f: Record<string, unknown>) => warnings.push(m + JSON.stringify(f)) },
      onRequest: (e: RequestEvent) => events.push(e),
    });
    const echo = jsonEscaped(SLASHED_TOKEN, () => "upper");
    server.enqueue({
      status: 201,
      headers: { "x-request-id": `Bearer ${SLASHED_TOKEN}` },
      body: `{"id":42,"name":"Bearer ${echo}","type":"evm","state":"active"}`,
    });
    const vault = await client.vaults.create({ type: "evm", name: "x" });
    await client.close();
    assert.ok(responseValidationIssues(vault).length > 0, "the body broke its schema");
    assert.ok(!shows(JSON.stringify(responseValidationIssues(vault)), SLASHED_TOKEN), "issues");
    assert.equal(warnings.length, 1);
    assert.ok(!shows(warnings[0]!, SLASHED_TOKEN), `log line: ${warnings[0]!.slice(0, 200)}`);
    for (const e of events) assert.ok(!shows(JSON.stringify(e), SLASHED_TOKEN), "request event");
    // sdk/README.md, "Lenient responses": the result itself is returned as the service sent it.
    assert.equal(vault.name, `Bearer ${SLASHED_TOKEN}`);
  });
});

describe("sdk redaction: log lines of retries", () => {
  it("a retried status whose x-request-id echoes the token leaves it out of the debug line", async () => {
    const server = await startLoopbackServer();
    const lines: string[] = [];
    const client = clientFor(server, SLASHED_TOKEN, {
      maxRetries: 1,
      advanced: { sleep: async () => {} },
      logger: { debug: (m: string, f: Record<string, unknown>) => lines.push(m + JSON.stringify(f)) },
    });
    server.enqueue(
      { status: 503, headers: { "x-request-id": `Bearer ${SLASHED_TOKEN}` }, body: {} },
      { status: 204 },
    );
    await client.vaults.archive(IDS.vault);
    await client.close();
    await server.close();
    assert.equal(lines.length, 1);
    for (const line of lines) assert.ok(!shows(line, SLASHED_TOKEN), line);
    assert.match(lines[0]!, /"requestId":"Bearer \[REDACTED\]"/);
  });
});

describe("sdk redaction: raw bytes a transport's HTTP parser keeps", () => {
  let raw: Server;
  let answer = "";
  const sockets = new Set<Socket>();
  before(async () => {
    raw = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.once("data", () => socket.end(answer));
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  });

  const malformed = {
    "a chunk size": (t: string) => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${t}\r\n`,
    "a status line": (t: string) => `Bearer ${t} 200 OK\r\n\r\n`,
    "a header line": (t: string) => `HTTP/1.1 200 OK\r\nBearer ${t}\r\n\r\n`,
  };
  for (const transport of ["undici", "node:http"] as const) {
    for (const [where, make] of Object.entries(malformed)) {
      it(`${transport}: a malformed response that echoes the token in ${where} leaves no part of it in the cause chain`, async () => {
        answer = make(SLASHED_TOKEN);
        const { port } = raw.address() as { port: number };
        const client = new CustodyClient({
          baseUrl: `http://127.0.0.1:${port}`,
          accessToken: SLASHED_TOKEN,
          requestsPerMinute: 0,
          maxRetries: 0,
          transport,
        });
        const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
        await client.close();
        // A parser may keep the bytes after the first one it refused: no 12 characters of the token may remain.
        for (const [surface, text] of Object.entries(surfacesOf(err))) {
          for (let i = 0; i + 12 <= SLASHED_TOKEN.length; i++) {
            const piece = SLASHED_TOKEN.slice(i, i + 12);
            assert.ok(!text.includes(piece), `${surface} holds part of the token: ${text.slice(0, 300)}`);
          }
        }
        assert.equal((err as CustodyError).code, "ERR_CUSTODY_CONNECTION_LOST");
      });
    }
  }
});

describe("redactSecrets", () => {
  it("scrubs at any depth, 100 000 levels included, without recursion", () => {
    const secret = "s3cr3t-t0k3n-value";
    let value: unknown = { token: `Bearer ${secret}` };
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value, "x"] : { next: value, [secret]: 1 };
    const clean = redactSecrets(value, [secret]);
    for (const stack: unknown[] = [clean]; stack.length > 0; ) {
      const v = stack.pop();
      if (typeof v === "string") assert.ok(!v.includes(secret));
      else if (v !== null && typeof v === "object") {
        for (const [k, child] of Object.entries(v)) {
          assert.ok(!k.includes(secret));
          stack.push(child);
        }
      }
    }
  });

  it("keeps a key named __proto__ as data and does not walk into cycles forever", () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":"Bearer s3cr3t-t0k3n-value"}}') as Record<
      string,
      unknown
    >;
    const cyclic: Record<string, unknown> = { text: "s3cr3t-t0k3n-value" };
    cyclic.self = cyclic;
    const clean = redactSecrets({ parsed, cyclic }, ["s3cr3t-t0k3n-value"]);
    assert.equal(Object.getPrototypeOf(clean.parsed), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(clean.parsed, "__proto__")?.value, {
      polluted: `Bearer ${REDACTED}`,
    });
    assert.equal(clean.cyclic.text, REDACTED);
    assert.equal(clean.cyclic.self, clean.cyclic);
  });

  it("surrogate pairs: a secret outside the Basic Multilingual Plane, escaped pair by pair or half by half", () => {
    const secret = "kéy-🔑-geheim-𝄞";
    const texts = (["literal", "lower", "upper"] as const).flatMap((a) =>
      (["literal", "lower", "upper"] as const).map((b) =>
        jsonEscaped(secret, (unit) =>
          /[\uD800-\uDBFF]/.test(unit) ? a : /[\uDC00-\uDFFF]/.test(unit) ? b : a,
        ),
      ),
    );
    for (const text of texts) {
      const quoted = `"Bearer ${text}"`;
      assert.equal(redactSecrets(JSON.parse(quoted), [secret]), `Bearer ${REDACTED}`, quoted);
      assert.ok(!shows(redactSecrets(quoted, [secret]), secret), `raw: ${quoted}`);
    }
  });

  it("any secret, any escape of each of its units, in raw JSON text or parsed (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
        fc.array(fc.constantFrom<Form>("literal", "lower", "upper", "short"), {
          minLength: 60,
          maxLength: 60,
        }),
        fc.string({ maxLength: 20 }),
        (secret, picks, around) => {
          const padding = JSON.stringify(around).slice(1, -1);
          const text = `${padding} ${jsonEscaped(secret, (_, i) => picks[i] as Form)} ${padding}`;
          const parsed = JSON.parse(`"${text}"`) as string;
          assert.ok(!shows(redactSecrets(parsed, [secret]), secret), "parsed");
          const rawClean = redactSecrets(text, [secret]);
          assert.ok(!shows(rawClean, secret), "raw text");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("text that does not hold the secret in any form is returned unchanged (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.string({ maxLength: 200 }),
        (secret, text) => {
          // "Any form" includes every piece of 12 characters of the secret and of its encodings.
          fc.pre(!shows(text, secret) && new LeakFinder(tokenForms(secret)).find(text) === undefined);
          assert.equal(redactSecrets(text, [secret]), text);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
