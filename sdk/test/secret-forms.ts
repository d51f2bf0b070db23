/**
 * The oracle of the redaction tests, written apart from sdk/redact.ts so that it does not share its mistakes:
 * the forms in which a secret the client holds can be echoed (the secret itself, its base64, base64url and hex,
 * the PEM and DER texts of a private key), a decoder of the escapes a server may write (JSON, `%XX`, `\xNN`,
 * HTML entities, nested), the texts an error shows, and the concatenations of its adjacent fields. A leak is any
 * 12-character piece of a form in any of them; reports name the form and where, never the text.
 */
import type { KeyObject } from "node:crypto";
import { inspect } from "node:util";
import { CustodyError } from "../index";

/** Pieces of a form at least this long must not survive anywhere. */
export const PIECE = 12;

/** One written form of a secret. */
export interface Form {
  /** What it is, for reports (never the text). */
  name: string;
  text: string;
  /** Hex: found in either case. */
  anyCase?: boolean;
}

/** base64, base64url and hex (either case) of some bytes. */
export function byteForms(name: string, bytes: Buffer): Form[] {
  return [
    { name: `${name} as base64`, text: bytes.toString("base64") },
    { name: `${name} as base64url`, text: bytes.toString("base64url") },
    { name: `${name} as hex`, text: bytes.toString("hex"), anyCase: true },
  ];
}

/** The token and its byte encodings. */
export function tokenForms(token: string): Form[] {
  return [{ name: "token", text: token }, ...byteForms("token", Buffer.from(token, "utf8"))];
}

/** `text` with LF line ends turned into CRLF. */
export const crlf = (text: string): string => text.replace(/\r?\n/g, "\r\n");

/** The base64 lines between the BEGIN and END lines of a PEM text. */
export function pemBodyLines(pem: string): string[] {
  return pem.split(/\r?\n/).filter((line) => line !== "" && !line.startsWith("-----"));
}

/**
 * Every form of a P-256 private key: its PKCS#8 and SEC1 PEM texts (LF and CRLF), their base64 bodies joined and
 * line by line, the DER bytes and the private scalar as base64, base64url and hex, and the PEM text as base64.
 */
export function keyForms(key: KeyObject): Form[] {
  const forms: Form[] = [];
  for (const type of ["pkcs8", "sec1"] as const) {
    const pem = key.export({ type, format: "pem" }).toString();
    const der = key.export({ type, format: "der" });
    forms.push(
      { name: `${type} PEM`, text: pem },
      { name: `${type} PEM with CRLF`, text: crlf(pem) },
      { name: `${type} PEM body`, text: pemBodyLines(pem).join("") },
      ...pemBodyLines(pem).map((line, i) => ({ name: `${type} PEM line ${i + 1}`, text: line })),
      ...byteForms(`${type} DER`, der),
      ...byteForms(`${type} PEM text`, Buffer.from(pem)),
    );
  }
  const { d } = key.export({ format: "jwk" }) as { d: string };
  forms.push(...byteForms("private scalar", Buffer.from(d, "base64url")));
  return forms;
}

/** HTML's named character references for printable ASCII (those that exist). */
export const HTML_NAMED: Record<string, string> = {
  "!": "excl",
  '"': "quot",
  "#": "num",
  $: "dollar",
  "%": "percnt",
  "&": "amp",
  "'": "apos",
  "(": "lpar",
  ")": "rpar",
  "*": "ast",
  "+": "plus",
  ",": "comma",
  ".": "period",
  "/": "sol",
  ":": "colon",
  ";": "semi",
  "<": "lt",
  "=": "equals",
  ">": "gt",
  "?": "quest",
  "@": "commat",
  "[": "lsqb",
  "\\": "bsol",
  "]": "rsqb",
  "^": "Hat",
  _: "lowbar",
  "`": "grave",
  "{": "lcub",
  "|": "verbar",
  "}": "rcub",
  "\n": "NewLine",
  "\t": "Tab",
};
const BY_HTML_NAME = new Map(Object.entries(HTML_NAMED).map(([c, name]) => [name, c]));
const LETTER_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** `text` with every escape undone, again and again (an escape of an escape, JSON inside JSON…). */
export function decodeAll(text: string): string {
  let current = text;
  for (let round = 0; round < 8; round++) {
    const next = current
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\+x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\+([bfnrt])/g, (_, l: string) => LETTER_ESCAPES[l] as string)
      .replace(/\\+([/"'\\])/g, "$1")
      .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&#[xX]([0-9a-fA-F]{1,6});?/g, (_, h: string) => fromCodePoint(Number.parseInt(h, 16)))
      .replace(/&#([0-9]{1,7});?/g, (_, d: string) => fromCodePoint(Number.parseInt(d, 10)))
      .replace(/&([A-Za-z]+);/g, (m, name: string) => BY_HTML_NAME.get(name) ?? m);
    if (next === current) break;
    current = next;
  }
  return current;
}

function fromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
}

const isAlnum = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);

/** Finds pieces of a set of forms in texts, as written and with their escapes undone. */
export class LeakFinder {
  readonly #exact = new Map<string, string>();
  readonly #anyCase = new Map<string, string>();
  readonly #short: Form[] = [];

  constructor(forms: readonly Form[]) {
    for (const form of forms) {
      if (form.text.length < PIECE) {
        this.#short.push(form);
        continue;
      }
      for (let i = 0; i + PIECE <= form.text.length; i++) {
        const window = form.text.slice(i, i + PIECE);
        if (form.anyCase) this.#anyCase.set(window.toLowerCase(), form.name);
        else this.#exact.set(window, form.name);
      }
    }
  }

  /**
   * Where `text` shows a piece of a form: `"<form> (piece at <offset>, <view>)"`, or `undefined`. Forms shorter
   * than 12 characters count whole: anywhere from 8 characters on, where they stand alone below that.
   */
  find(text: string): string | undefined {
    const decoded = decodeAll(text);
    for (const [view, name] of [
      [text, "as written"],
      [decoded, "decoded"],
    ] as const) {
      const lower = view.toLowerCase();
      for (let i = 0; i + PIECE <= view.length; i++) {
        const hit = this.#exact.get(view.slice(i, i + PIECE)) ?? this.#anyCase.get(lower.slice(i, i + PIECE));
        if (hit !== undefined) return `${hit} (piece at ${i}, ${name})`;
      }
      for (const form of this.#short) {
        const s = form.text;
        for (let at = view.indexOf(s); at !== -1; at = view.indexOf(s, at + 1)) {
          const glued =
            s.length < 8 &&
            ((isAlnum(s[0]) && isAlnum(view[at - 1])) || (isAlnum(s.at(-1)) && isAlnum(view[at + s.length])));
          if (!glued) return `${form.name} (whole at ${at}, ${name})`;
        }
      }
    }
    return undefined;
  }
}

/** Every way a caller, a logger or a crash report turns an error into text. */
export function surfacesOf(err: unknown): Record<string, string> {
  if (!(err instanceof CustodyError)) throw new Error(`expected a CustodyError, got ${typeof err}`);
  const out: Record<string, string> = {
    "err.message": err.message,
    "String(err)": String(err),
    "err.stack": withoutFrames(String(err.stack)),
    "JSON.stringify(err)": JSON.stringify(err),
    "util.inspect(err, {depth: null})": withoutFrames(inspect(err, { depth: null })),
    "util.inspect(err, {showHidden})": withoutFrames(inspect(err, { depth: null, showHidden: true })),
    "own fields": inspect({ ...err }, { depth: null }),
    // Never printed by the error itself, but a caller may print it.
    "err.rawBody()": inspect(err.rawBody(), { depth: null }),
  };
  let level = 0;
  for (let c: unknown = err.cause; c !== undefined && c !== null && level < 10; level++) {
    out[`cause ${level}`] = withoutFrames(inspect(c, { depth: null, showHidden: true }));
    c = (c as { cause?: unknown }).cause;
  }
  return out;
}

/**
 * A stack's frames are the code's own places (a function, a file, a line and a column), never the service's
 * text, which is escaped onto one line: a short token such as "23" would be found in `test.ts:261:23`.
 */
function withoutFrames(text: string): string {
  return text.replace(/^ {4,}at .*$/gm, "    at <frame>");
}

/** Joiners of adjacent fields: nothing, and the dot a JWT is split at. */
const JOINERS = ["", "."];

/**
 * The concatenations of an error's adjacent string fields: every ordered pair of its top-level texts (title,
 * detail, request id…, the body when it is text), and the consecutive strings (keys and values) of every array
 * and object in its issues and body, each joined by nothing and by a dot.
 */
export function adjacentJoins(err: CustodyError): Record<string, string> {
  const out: Record<string, string> = {};
  const top: [string, unknown][] = [
    ["title", err.title],
    ["detail", err.detail],
    ["fullDetail", err.fullDetail],
    ["requestId", err.requestId],
    ["errorType", err.errorType],
    ["systemErrorCode", err.systemErrorCode],
    ["resource", err.resource],
    ["body", err.rawBody()],
  ];
  const texts = top.filter((e): e is [string, string] => typeof e[1] === "string");
  for (const [a, x] of texts) {
    for (const [b, y] of texts) {
      if (a === b) continue;
      for (const j of JOINERS) out[`${a}${j || "+"}${b}`] = x + j + y;
    }
  }
  const issues = (err as { issues?: unknown }).issues;
  const stack: [string, unknown][] = [
    ["issues", issues],
    ["body", err.rawBody()],
  ];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [where, value] = next;
    if (value === null || typeof value !== "object") continue;
    const members: unknown[] = [];
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        members.push(v);
        stack.push([`${where}[${i}]`, v]);
      });
    } else {
      for (const [k, v] of Object.entries(value)) {
        members.push(k, v);
        stack.push([`${where}.${k.slice(0, 20)}`, v]);
      }
    }
    let run: string[] = [];
    const flush = () => {
      if (run.length > 1) for (const j of JOINERS) out[`members of ${where} joined by "${j}"`] = run.join(j);
      run = [];
    };
    for (const m of members) {
      if (typeof m === "string") run.push(m);
      else flush();
    }
    flush();
  }
  return out;
}

/** The first leak of any form in an error's surfaces or adjacent joins, described without the secret. */
export function leakOf(err: unknown, finder: LeakFinder): string | undefined {
  for (const [where, text] of Object.entries(surfacesOf(err))) {
    const hit = finder.find(text);
    if (hit !== undefined) return `${where} shows ${hit}`;
  }
  for (const [where, text] of Object.entries(adjacentJoins(err as CustodyError))) {
    const hit = finder.find(text);
    if (hit !== undefined) return `${where} shows ${hit}`;
  }
  return undefined;
}

/** A string's code points. */
const codes = (s: string) => [...s].map((c) => c.codePointAt(0) as number);

/** The user of the `Basic` echoes: 5 bytes, so that the token starts in the middle of a base64 group. */
const BASIC_USER = "user:";

/** The encodings that write a secret as other characters, as opposed to escaping its characters one by one. */
const BYTE_ENCODINGS = new Set([
  "base64",
  "base64 without padding",
  "base64url",
  "lower-case hex",
  "upper-case hex",
  "Basic base64(user:secret)",
]);

/**
 * The echo as a form, for an encoding that writes the secret as other characters: all of it, but of a `Basic`
 * credential only the base64 characters that carry nothing but the secret's bits (`Basic ` and the encoded
 * `user:` are no secret). An echo in escapes is no form of its own: its pieces count in decoded characters, and
 * the decoded text is searched for the secret itself.
 */
export function echoForms(encoding: string, echo: string): Form[] {
  if (!BYTE_ENCODINGS.has(encoding)) return [];
  const name = `the echo (${encoding})`;
  if (!echo.startsWith("Basic ")) return [{ name, text: echo, anyCase: encoding.endsWith("hex") }];
  const userCharacters = Math.ceil((Buffer.byteLength(BASIC_USER) * 4) / 3);
  return [{ name, text: echo.slice("Basic ".length + userCharacters) }];
}

/** The ways a server may write an echoed secret, each applied to the whole of it. */
export const ENCODERS: Record<string, (s: string) => string> = {
  plain: (s) => s,
  base64: (s) => Buffer.from(s).toString("base64"),
  "base64 without padding": (s) => Buffer.from(s).toString("base64").replace(/=+$/, ""),
  base64url: (s) => Buffer.from(s).toString("base64url"),
  "lower-case hex": (s) => Buffer.from(s).toString("hex"),
  "upper-case hex": (s) => Buffer.from(s).toString("hex").toUpperCase(),
  "Basic base64(user:secret)": (s) => `Basic ${Buffer.from(`${BASIC_USER}${s}`).toString("base64")}`,
  "HTML hex entities": (s) =>
    codes(s)
      .map((c) => `&#x${c.toString(16).toUpperCase()};`)
      .join(""),
  "HTML decimal entities": (s) =>
    codes(s)
      .map((c) => `&#${c};`)
      .join(""),
  "HTML named entities where they exist": (s) =>
    [...s].map((c) => (HTML_NAMED[c] === undefined ? c : `&${HTML_NAMED[c]};`)).join(""),
  "\\x escapes": (s) =>
    codes(s)
      .map((c) => `\\x${c.toString(16).padStart(2, "0")}`)
      .join(""),
  "% escapes": (s) =>
    codes(s)
      .map((c) => `%${c.toString(16).padStart(2, "0").toUpperCase()}`)
      .join(""),
  "\\u escapes": (s) =>
    codes(s)
      .map((c) => `\\u${c.toString(16).padStart(4, "0")}`)
      .join(""),
};

/** How one character may be written, for echoes that mix the escapes character by character. */
export const CHARACTER_ESCAPES: ((c: string) => string)[] = [
  (c) => c,
  (c) => `&#x${(c.codePointAt(0) as number).toString(16)};`,
  (c) => `&#${c.codePointAt(0)};`,
  (c) => (HTML_NAMED[c] === undefined ? c : `&${HTML_NAMED[c]};`),
  (c) => `\\x${(c.codePointAt(0) as number).toString(16).padStart(2, "0")}`,
  (c) => `%${(c.codePointAt(0) as number).toString(16).padStart(2, "0")}`,
  (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0").toUpperCase()}`,
];

/**
 * The characters of `base64(before + secret + after)` that carry bits of the secret only (character i carries bits
 * [6i, 6i + 6) of the bytes): the secret's own encoding inside an encoded wrapper.
 */
export function base64Inside(
  before: string,
  secret: string,
  after: string,
  alphabet: "base64" | "base64url",
): Form {
  const offset = Buffer.byteLength(before);
  const end = offset + Buffer.byteLength(secret);
  const encoded = Buffer.from(before + secret + after).toString(alphabet);
  return {
    name: `the secret's ${alphabet} inside a wrapper`,
    text: encoded.slice(Math.ceil((offset * 8) / 6), Math.floor((end * 8) / 6)),
  };
}
