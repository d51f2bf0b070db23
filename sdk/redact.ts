/**
 * Scrubbing of secrets from what the service (or anything between it and the client) sends back: error bodies,
 * response headers, issue lists, and the errors a transport's HTTP parser throws.
 *
 * The client never puts its credentials into an error, but a misbehaving proxy or service could echo the
 * Authorization header back, so everything it sends is scrubbed before an error, a log line or a request event
 * can show it. The rule (sdk/README.md, "Errors"):
 *
 * - Scrubbing happens on parsed values, at every depth (an iterative walk, no depth limit), keys included, so
 *   that JSON escapes are already undone; strings are also searched for the secret *written* in escapes, for
 *   text that was never parsed (a non-JSON body) or that holds JSON itself: each character may appear as
 *   itself, as `\uXXXX` (either case of hex, any number of backslashes; UTF-16 units, so surrogate pairs too),
 *   as its short JSON escape (`\/`, `\"`, `\\`, `\n`…) or, for ASCII, as `%XX`.
 * - A secret of {@link MIN_ANYWHERE_LENGTH} characters or more is replaced wherever it appears. A shorter one is
 *   replaced wherever it stands alone: not preceded by a letter or digit when it starts with one, and not
 *   followed by one when it ends with one. So a 4-character token goes from `Bearer k9/Q expired` but `k9/Qx`
 *   stays a word. Any length is scrubbed: a short secret costs at worst a garbled word, never a leak.
 * - Errors from below (a transport's parser errors) are copied without the raw bytes they may carry.
 */

/** Placeholder that replaces every occurrence of a secret. */
export const REDACTED = "[REDACTED]";

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
export const MIN_ANYWHERE_LENGTH = 8;

const SHORT_JSON_ESCAPES: Record<string, string> = {
  "/": "/",
  '"': '"',
  "\\": "\\",
  "\b": "b",
  "\f": "f",
  "\n": "n",
  "\r": "r",
  "\t": "t",
};

/** An escape just before a match (to learn which character precedes it once decoded). */
const ESCAPE_AT_END = /(?:\\+u([0-9a-fA-F]{4})|\\+([bfnrt/"\\])|%([0-7][0-9a-fA-F]))$/;
/** An escape just after a match. */
const ESCAPE_AT_START = /^(?:\\+u([0-9a-fA-F]{4})|\\+([bfnrt/"\\])|%([0-7][0-9a-fA-F]))/;
const LETTER_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Own string properties of an error kept by {@link SecretRedactor.error}; every other string is dropped. */
const ERROR_TEXT_FIELDS = new Set(["name", "message", "stack", "code", "syscall", "kind", "socketCode"]);

interface SecretPattern {
  regex: RegExp;
  /** Whether a match must not be glued to a letter or digit before / after it. */
  boundaryBefore: boolean;
  boundaryAfter: boolean;
}

/** Scrubs a fixed set of secrets; built once per client, since its patterns are compiled once. */
export class SecretRedactor {
  readonly #patterns: SecretPattern[];

  constructor(secrets: readonly string[]) {
    this.#patterns = [...new Set(secrets)].filter((s) => s.length > 0).map(patternOf);
  }

  /** Whether there is anything to scrub. */
  get active(): boolean {
    return this.#patterns.length > 0;
  }

  /** `text` with every occurrence of each secret, in any written form, replaced by {@link REDACTED}. */
  text(text: string): string {
    let out = text;
    for (const pattern of this.#patterns) out = replaceMatches(out, pattern);
    return out;
  }

  /**
   * A copy of `value` with every string (keys included) scrubbed, at any depth. Arrays and plain objects are
   * copied (a key `__proto__` stays a key; a cycle stays a cycle); other values are returned as they are.
   */
  value<T>(value: T): T {
    if (!this.active) return value;
    const copies = new Map<object, unknown>();
    const pending: [source: object, copy: Record<string | number, unknown>][] = [];
    const copyOf = (v: unknown): unknown => {
      if (typeof v === "string") return this.text(v);
      if (!isWalkable(v)) return v;
      const known = copies.get(v);
      if (known !== undefined) return known;
      const copy = Array.isArray(v) ? new Array<unknown>(v.length) : {};
      copies.set(v, copy);
      pending.push([v, copy as Record<string | number, unknown>]);
      return copy;
    };
    const result = copyOf(value);
    // A work list instead of recursion: no nesting depth can overflow the stack or stop the walk early.
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [source, copy] = next;
      if (Array.isArray(source)) {
        for (let i = 0; i < source.length; i++) copy[i] = copyOf(source[i]);
      } else {
        for (const [key, v] of Object.entries(source)) {
          Object.defineProperty(copy, this.text(key), {
            value: copyOf(v),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      }
    }
    return result as T;
  }

  /**
   * A copy of an error and its `cause` chain that keeps, of each error, its prototype, its scrubbed name,
   * message, stack and code-like strings, and its numbers and booleans; every other property is dropped, since
   * it may hold bytes the server sent (undici's `HTTPParserError.data` keeps the raw response after the byte it
   * refused). Anything that is not an Error is replaced by its scrubbed `String()`.
   */
  error(err: unknown): unknown {
    const seen = new Map<unknown, Error>();
    let result: unknown;
    let attach = (copy: unknown) => {
      result = copy;
    };
    for (let current: unknown = err; current !== undefined; ) {
      if (!(current instanceof Error)) {
        attach(this.text(String(current)));
        break;
      }
      const known = seen.get(current);
      if (known !== undefined) {
        attach(known);
        break;
      }
      const copy = Object.create(Object.getPrototypeOf(current)) as Error;
      seen.set(current, copy);
      for (const key of Object.getOwnPropertyNames(current)) {
        if (key === "cause") continue;
        const v = (current as unknown as Record<string, unknown>)[key];
        let kept: unknown;
        if (typeof v === "string") kept = ERROR_TEXT_FIELDS.has(key) ? this.text(v) : undefined;
        else if (typeof v === "number" || typeof v === "boolean") kept = v;
        if (kept === undefined) continue;
        const enumerable = Object.getOwnPropertyDescriptor(current, key)?.enumerable ?? false;
        Object.defineProperty(copy, key, { value: kept, enumerable, writable: true, configurable: true });
      }
      attach(copy);
      attach = (cause) =>
        Object.defineProperty(copy, "cause", {
          value: cause,
          enumerable: false,
          writable: true,
          configurable: true,
        });
      current = (current as { cause?: unknown }).cause;
    }
    return result;
  }
}

/**
 * A copy of `value` (string, array or plain object, at any depth) with every occurrence of each secret
 * replaced by {@link REDACTED}, by the rule in this module's comment. Other values are returned as they are.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  return new SecretRedactor(secrets).value(value);
}

function isWalkable(v: unknown): v is object {
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function patternOf(secret: string): SecretPattern {
  let source = "";
  for (let i = 0; i < secret.length; i++) source += unitPattern(secret.charCodeAt(i));
  const short = secret.length < MIN_ANYWHERE_LENGTH;
  return {
    regex: new RegExp(source, "g"),
    boundaryBefore: short && isAlnum(secret.charAt(0)),
    boundaryAfter: short && isAlnum(secret.charAt(secret.length - 1)),
  };
}

/** Every way one UTF-16 unit can be written: itself, `\uXXXX`, its short JSON escape, `%XX`. */
function unitPattern(code: number): string {
  const hex = code.toString(16).padStart(4, "0");
  const alternatives = [`\\u${hex}`, `\\\\+u${anyCase(hex)}`];
  const short = SHORT_JSON_ESCAPES[String.fromCharCode(code)];
  if (short !== undefined) alternatives.push(`\\\\+\\u${short.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (code < 0x80) alternatives.push(`%${anyCase(hex.slice(2))}`);
  return `(?:${alternatives.join("|")})`;
}

function anyCase(hex: string): string {
  return [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("");
}

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && c !== "" && /[A-Za-z0-9]/.test(c);
}

/** How far around a match to look for an escape (longer runs of backslashes are cut, which is harmless). */
const NEIGHBOUR_WINDOW = 64;

/** The character just before (or after) a match, decoded when it is written as an escape. */
function decodedNeighbour(text: string, at: number, before: boolean): string | undefined {
  const near = before
    ? text.slice(Math.max(0, at - NEIGHBOUR_WINDOW), at)
    : text.slice(at, at + NEIGHBOUR_WINDOW);
  const m = (before ? ESCAPE_AT_END : ESCAPE_AT_START).exec(near);
  if (m === null) return before ? near.at(-1) : near.charAt(0) || undefined;
  if (m[1] !== undefined) return String.fromCharCode(Number.parseInt(m[1], 16));
  if (m[2] !== undefined) return LETTER_ESCAPES[m[2]] ?? m[2];
  return String.fromCharCode(Number.parseInt(m[3] as string, 16));
}

function replaceMatches(text: string, pattern: SecretPattern): string {
  const { regex, boundaryBefore, boundaryAfter } = pattern;
  let out = "";
  let copiedUpTo = 0;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    const glued =
      (boundaryBefore && isAlnum(decodedNeighbour(text, start, true))) ||
      (boundaryAfter && isAlnum(decodedNeighbour(text, end, false)));
    if (glued) {
      // Part of a longer word; an occurrence that overlaps this one may still stand alone.
      regex.lastIndex = start + 1;
      continue;
    }
    out += text.slice(copiedUpTo, start) + REDACTED;
    copiedUpTo = end;
  }
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}
