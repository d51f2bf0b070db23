/**
 * Scrubbing of secrets from what the service (or anything between it and the client) sends back: error bodies,
 * response headers, issue lists, and the errors a transport's HTTP parser throws.
 *
 * The client never puts its credentials into an error, but a misbehaving proxy or service could echo the
 * Authorization header (or the signing key) back, in any form, so everything it sends is scrubbed before an
 * error, a log line or a request event can show it. The rule (sdk/README.md, "Errors"):
 *
 * - The secrets: each access token the client sent, and the signing key in every text it has (PKCS#8 and SEC1
 *   PEM, LF or CRLF, the base64 body alone and line by line, the DER bytes, the private scalar). Each is known in
 *   its byte encodings too: base64 and base64url (at each of the three alignments it can have inside a longer
 *   encoded text, so `Basic base64(user:token)` is covered), and hex in either case.
 * - Every text is searched as written and with its escapes undone, round after round until nothing is left to
 *   decode (an escape of an escape of an escape…): `\uXXXX`, `\u{X…}` and the short JSON escapes (any number of
 *   backslashes), `\xNN`, octal `\NNN`, `%XX` (UTF-8 sequences too), `%uXXXX`, HTML entities (`&#x41;`, `&#65;`,
 *   named ones), and invisible format characters (zero-width spaces and joiners, bidi marks), which are dropped. A secret written
 *   with a mix of escapes is found all the same. The rounds are bounded ({@link MAX_DECODE_ROUNDS}); whatever a
 *   text still holds escaped after the last one is replaced unchecked.
 * - Any piece of {@link MIN_PIECE_LENGTH} characters or more of a secret or of one of its encodings is replaced
 *   wherever it appears (every 12-character window of a text is looked up in a set of the secrets' windows; a
 *   run of matching windows is replaced whole). A secret shorter than that is replaced whole: anywhere from
 *   {@link MIN_ANYWHERE_LENGTH} characters on, and below that wherever it stands alone (not preceded by a letter
 *   or digit when it starts with one, not followed by one when it ends with one), so a 4-character token goes
 *   from `Bearer k9/Q expired` but `k9/Qx` stays a word. A `Basic` credential whose decoded text holds a secret
 *   is replaced too.
 * - Secrets split across fields: the strings of one array or object are also searched as if joined (by nothing,
 *   and by each punctuation character of the tokens, such as the dots a JWT is split at), and so are the surface
 *   texts of one response taken two by two (an error body's `title` and `detail`, the `x-request-id` header and
 *   the body: {@link SecretRedactor.together}); a piece found across the joint is replaced in each field that
 *   holds part of it. Every piece is found in the texts as given before anything is replaced, so that a split's
 *   short rest (the last 10 characters of a token whose first 30 are in another field) is found with the rest.
 * - Scrubbing happens on parsed values, at every depth (an iterative walk, no depth limit), keys included.
 * - Errors from below (a transport's parser errors) are copied without the raw bytes they may carry.
 */

/** Placeholder that replaces every occurrence of a secret. */
export const REDACTED = "[REDACTED]";

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
export const MIN_ANYWHERE_LENGTH = 8;

/** Pieces of a secret (or of one of its encodings) at least this long are replaced wherever they appear. */
export const MIN_PIECE_LENGTH = 12;

/**
 * A secret the client holds: a text (a token, a PEM text), or bytes (a DER key, a private scalar) that can only
 * appear in a text through their encodings.
 */
export type Secret = string | Uint8Array;

/** Options of {@link SecretRedactor.add}. */
export interface AddSecretOptions {
  /**
   * Whether the secret's byte encodings (base64, base64url, hex) are searched for too; default true. Off for texts
   * that are themselves another form's encoding (a PEM body), whose encodings nobody writes.
   */
  encodings?: boolean;
  /**
   * Whether the secret's punctuation is tried as the joint between fields (a JWT split at its dots, the parts
   * in consecutive fields); default true. Off for the forms of a key, whose pieces are found without it.
   */
  joiners?: boolean;
}

/** An encoded form shorter than this is too common to be evidence of a secret, and is not searched for. */
const MIN_ENCODED_LENGTH = 6;
/**
 * How many escape rounds a text is decoded through at most (an escape of an escape of an escape…): until nothing
 * is left to decode, which ordinary text reaches in one or two rounds. What still decodes after this many rounds
 * is replaced whole, unchecked: the bound keeps the cost linear in the text, and no bound leaves a leak.
 */
export const MAX_DECODE_ROUNDS = 16;
/** The runs of an array's members searched as if joined: all of them, as [start, step]. */
const ARRAY_RUNS: readonly (readonly [number, number])[] = [[0, 1]];
/** The runs of an object's entries (keys and values in turn): keys and values together, and the values alone. */
const OBJECT_RUNS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 2],
];
/** At most this many surface strings of one response are searched two by two ({@link SecretRedactor.together}). */
const MAX_SURFACE_STRINGS = 32;
/** Characters of context taken on each side of a joint between two fields (room for escapes). */
const JOINT_CONTEXT = 256;
/** At most this many punctuation characters of the tokens are tried as joints between fields. */
const MAX_JOINERS = 8;

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
const LETTER_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** HTML's named character references for printable ASCII and the line breaks (the ones that exist). */
const HTML_NAMED: Record<string, string> = {
  excl: "!",
  quot: '"',
  QUOT: '"',
  num: "#",
  dollar: "$",
  percnt: "%",
  amp: "&",
  AMP: "&",
  apos: "'",
  lpar: "(",
  rpar: ")",
  ast: "*",
  midast: "*",
  plus: "+",
  comma: ",",
  period: ".",
  sol: "/",
  colon: ":",
  semi: ";",
  lt: "<",
  LT: "<",
  equals: "=",
  gt: ">",
  GT: ">",
  quest: "?",
  commat: "@",
  lsqb: "[",
  lbrack: "[",
  bsol: "\\",
  rsqb: "]",
  rbrack: "]",
  Hat: "^",
  lowbar: "_",
  UnderBar: "_",
  grave: "`",
  DiacriticalGrave: "`",
  lcub: "{",
  lbrace: "{",
  verbar: "|",
  vert: "|",
  VerticalLine: "|",
  rcub: "}",
  rbrace: "}",
  NewLine: "\n",
  Tab: "\t",
};
const HTML_NAMES_OF = new Map<string, string[]>();
for (const [name, c] of Object.entries(HTML_NAMED))
  HTML_NAMES_OF.set(c, [...(HTML_NAMES_OF.get(c) ?? []), name]);

/**
 * One escape of any kind, for decoding: `\uXXXX`, `\u{X…}`, `\xNN`, an octal `\NNN`, a short JSON escape (each
 * after any number of backslashes), `%XX`, `%uXXXX`, an HTML numeric or named entity; and an invisible format
 * character (a zero-width space or joiner, a bidi mark, a soft hyphen, a byte order mark), which decodes to
 * nothing: put between the characters of a secret, it hides nothing.
 */
const ESCAPE =
  /\\+u([0-9a-fA-F]{4})|\\+x([0-9a-fA-F]{2})|\\+([bfnrt/"'\\])|%([0-9a-fA-F]{2})|&#[xX]0*([0-9a-fA-F]{1,6});?|&#0*([0-9]{1,7});?|&([A-Za-z]{2,16});|([\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff])|\\+u\{0*([0-9a-fA-F]{1,6})\}|%[uU]([0-9a-fA-F]{4})|\\+([0-3][0-7]{2})/g;
/** The same escapes, just before a match (to learn which character precedes it once decoded)… */
const ESCAPE_AT_END =
  /(?:\\+u([0-9a-fA-F]{4})|\\+x([0-9a-fA-F]{2})|\\+([bfnrt/"'\\])|%([0-9a-fA-F]{2})|&#[xX]0*([0-9a-fA-F]{1,6});?|&#0*([0-9]{1,7});?)$/;
/** …and just after one. */
const ESCAPE_AT_START =
  /^(?:\\+u([0-9a-fA-F]{4})|\\+x([0-9a-fA-F]{2})|\\+([bfnrt/"'\\])|%([0-9a-fA-F]{2})|&#[xX]0*([0-9a-fA-F]{1,6});?|&#0*([0-9]{1,7});?)/;
/** A character that may start an escape: a text without one has nothing to decode. */
const ESCAPE_START = /[\\%&\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
/** A text that may hold a `Basic` credential. */
const BASIC_HINT = /[Bb][Aa][Ss][Ii][Cc]\s/;
/** `Basic <base64>`, the credential of HTTP basic authentication. */
const BASIC = /\b[Bb][Aa][Ss][Ii][Cc]\s+([A-Za-z0-9+/_-]{2,}={0,2})/g;

/** Own string properties of an error kept by {@link SecretRedactor.error}; every other string is dropped. */
const ERROR_TEXT_FIELDS = new Set(["name", "message", "stack", "code", "syscall", "kind", "socketCode"]);

interface SecretPattern {
  regex: RegExp;
  /** Whether a match must not be glued to a letter or digit before / after it. */
  boundaryBefore: boolean;
  boundaryAfter: boolean;
}

/**
 * A text with its escapes undone once or more: `text`, and for each of its UTF-16 units the range of the original
 * text it was decoded from (`undefined` for the original text itself).
 */
interface View {
  text: string;
  from?: Int32Array;
  to?: Int32Array;
}

/**
 * Scrubs a set of secrets, by the rule in this module's comment. Built once per client; the forms of each secret
 * (its windows, encodings and patterns) are computed once, when it is added.
 */
export class SecretRedactor {
  /** Whole-secret patterns: secrets and encodings shorter than a piece, and secrets that hold `\`, `%` or `&`. */
  readonly #patterns: SecretPattern[] = [];
  readonly #patternSources = new Set<string>();
  /** Every 12-character window of every secret and of its encodings (hex ones in lower case). */
  readonly #windows = new WindowSet();
  /** The secrets added so far (text, or `bytes:<hex>`), so that adding one again costs nothing. */
  readonly #known = new Set<string>();
  /** What the strings of one array or object are joined by when they are searched together. */
  readonly #joiners = new Set<string>([""]);

  constructor(secrets: readonly Secret[] = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Whether there is anything to scrub. */
  get active(): boolean {
    return this.#known.size > 0;
  }

  /**
   * Adds a secret (a token function's new token, say) and its forms; nothing happens for one already known or
   * an empty one.
   */
  add(secret: Secret, options: AddSecretOptions = {}): void {
    if (secret.length === 0) return;
    const id = typeof secret === "string" ? `text:${secret}` : `bytes:${Buffer.from(secret).toString("hex")}`;
    if (this.#known.has(id)) return;
    this.#known.add(id);
    if (typeof secret === "string") {
      this.#addText(secret, options.joiners !== false);
      if (options.encodings !== false) this.#addBytes(Buffer.from(secret, "utf8"));
    } else {
      this.#addBytes(Buffer.from(secret));
    }
  }

  /** `text` with every secret, in any written form, and every piece of 12+ characters of one replaced. */
  text(text: string): string {
    if (!this.active || text === "") return text;
    return applyIntervals(text, this.#find(text, 0));
  }

  /**
   * A copy of `value` with every string (keys included) scrubbed, at any depth, and the strings of each array and
   * object also scrubbed as if joined. Arrays and plain objects are copied (a key `__proto__` stays a key; a
   * cycle stays a cycle); other values are returned as they are. Every piece is found in the strings as given,
   * before any is replaced: a piece replaced first would hide the joint of a split (the short rest of a secret
   * would survive).
   */
  value<T>(value: T): T {
    if (!this.active) return value;
    return this.together([value])[0] as T;
  }

  /**
   * The parts of one response (or of one report) scrubbed together: each as {@link SecretRedactor.value} scrubs
   * it, and the surface strings of all of them (a part that is a string, and the strings directly inside a part
   * that is an object or an array: an error body's `title` and `detail`, a header's value) also two by two,
   * joined in either order, since a server can split a secret across any two of them. Everything is found in
   * the parts as given before anything is replaced, so neither part of a split hides the other. At most 32
   * surface strings are paired.
   */
  together(parts: readonly unknown[]): unknown[] {
    if (!this.active) return [...parts];
    // The surface strings, as [part, member index] (-1: the part itself), and what pairing them finds in each.
    const surface: [part: number, member: number, text: string][] = [];
    parts.forEach((part, p) => {
      if (typeof part === "string") surface.push([p, -1, part]);
      else if (Array.isArray(part)) {
        part.forEach((m, i) => {
          if (typeof m === "string") surface.push([p, i, m]);
        });
      } else if (isWalkable(part)) {
        Object.values(part).forEach((m, i) => {
          if (typeof m === "string") surface.push([p, 2 * i + 1, m]);
        });
      }
    });
    const paired = surface.filter(([, , text]) => text !== "").slice(0, MAX_SURFACE_STRINGS);
    const extra = parts.map(() => new Map<number, number[]>());
    const add = ([part, member]: [number, number, string], intervals: readonly number[]) => {
      if (intervals.length === 0) return;
      const byMember = extra[part] as Map<number, number[]>;
      byMember.set(member, [...(byMember.get(member) ?? []), ...intervals]);
    };
    for (const a of paired) {
      for (const b of paired) {
        if (a === b) continue;
        const [inA, inB] = this.#acrossJoints([a[2], b[2]]);
        add(a, inA as number[]);
        add(b, inB as number[]);
      }
    }
    return parts.map((part, p) => {
      const byMember = extra[p] as Map<number, number[]>;
      if (typeof part !== "string") return this.#scrubWalk(part, byMember);
      return applyIntervals(part, mergeIntervals([...this.#find(part, 0), ...(byMember.get(-1) ?? [])]));
    });
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

  /** A text secret: its windows, and a whole pattern when windows cannot find it in every form. */
  #addText(secret: string, joiners: boolean): void {
    this.#windows.add(secret);
    // Windows are searched in the text as written and decoded; a secret that itself holds an escape character
    // may be found only unit by unit, and one shorter than a piece only whole.
    if (secret.length < MIN_PIECE_LENGTH || ESCAPE_START.test(secret)) this.#addPattern(patternOf(secret));
    for (const c of joiners ? secret : "") {
      if (this.#joiners.size > MAX_JOINERS) break;
      if (c < "\x80" && !isAlnum(c) && c.trim() !== "") this.#joiners.add(c);
    }
  }

  /**
   * The encodings of some bytes: base64 and base64url at each alignment (inside a longer encoded text, the bytes
   * can start at any of the three positions of a 3-byte group), and hex.
   */
  #addBytes(bytes: Buffer): void {
    for (let shift = 0; shift < 3; shift++) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes]);
      for (const alphabet of ["base64", "base64url"] as const) {
        const padded = encoded.toString(alphabet);
        // The padding goes with the rest, so that no `=` is left behind (nor a half that ends in it).
        if (shift === 0 && padded.endsWith("=")) this.#windows.add(padded);
        let text = padded.replace(/=+$/, "");
        // The characters that mix in bits of the bytes before (a shifted start) are not the secret's own.
        if (shift > 0) text = text.slice(shift + 1);
        // Inside a longer text the last character mixes in bits of the bytes after.
        if (shift > 0 && encoded.length % 3 !== 0) text = text.slice(0, -1);
        if (text.length < MIN_ENCODED_LENGTH) continue;
        this.#windows.add(text);
        if (text.length >= MIN_PIECE_LENGTH) continue;
        if (shift === 0) this.#addPattern(patternOf(text));
        else if (text.length >= MIN_ANYWHERE_LENGTH) this.#addPattern(patternOf(text, false));
      }
    }
    const hex = bytes.toString("hex");
    if (hex.length < MIN_ENCODED_LENGTH) return;
    this.#windows.add(hex, true);
    if (hex.length < MIN_PIECE_LENGTH) this.#addPattern(hexPatternOf(hex));
  }

  #addPattern(pattern: SecretPattern): void {
    const key = `${pattern.regex.source}|${pattern.boundaryBefore}|${pattern.boundaryAfter}`;
    if (this.#patternSources.has(key)) return;
    this.#patternSources.add(key);
    this.#patterns.push(pattern);
  }

  /** The ranges of `text` to replace, sorted and merged: `[start, end, start, end, …]`. */
  #find(text: string, depth: number): number[] {
    const found: number[] = [];
    let view: View = { text };
    this.#scan(view, found, depth);
    // Until a fixed point: every round that decodes something makes the text shorter.
    for (let round = 0; ESCAPE_START.test(view.text); round++) {
      if (round === MAX_DECODE_ROUNDS) {
        // Still decoding: what is still escaped goes whole, unchecked, rather than be shown unchecked.
        stillEscaped(view, found);
        break;
      }
      const decoded = decodeView(view);
      if (decoded === undefined) break;
      view = decoded;
      this.#scan(view, found, depth);
    }
    return mergeIntervals(found);
  }

  /** Adds to `found` the original ranges of what `view` shows of a secret. */
  #scan(view: View, found: number[], depth: number): void {
    const t = view.text;
    const mark = (start: number, end: number) => {
      found.push(
        view.from ? (view.from[start] as number) : start,
        view.to ? (view.to[end - 1] as number) : end,
      );
    };
    this.#windows.scan(t, 0, t.length, mark);
    for (const pattern of this.#patterns) scanPattern(t, pattern, mark);
    // A `Basic` credential whose decoded text holds a secret (the token after a `user:` prefix) goes whole.
    if (depth === 0 && BASIC_HINT.test(t)) {
      BASIC.lastIndex = 0;
      for (let m = BASIC.exec(t); m !== null; m = BASIC.exec(t)) {
        const credential = m[1] as string;
        const decoded = Buffer.from(credential, "base64").toString("utf8");
        if (this.#find(decoded, depth + 1).length > 0)
          mark(m.index + m[0].length - credential.length, m.index + m[0].length);
      }
    }
  }

  /**
   * Scrubs `parts` as if joined (by nothing, and by each joiner): returns, for each part, the ranges of it that
   * belong to a secret found across a joint. Only the text around each joint is searched.
   */
  #acrossJoints(parts: readonly string[]): number[][] {
    const out: number[][] = parts.map(() => []);
    if (parts.length < 2) return out;
    // Escapes (a secret may be written across the joint in them) and Basic credentials call for the whole search
    // of the joined text; otherwise only the windows and patterns that hold a joint can find anything new.
    const everything = parts.some((p) => ESCAPE_START.test(p) || BASIC_HINT.test(p));
    for (const joiner of this.#joiners) {
      const joined = parts.join(joiner);
      const starts: number[] = [];
      let at = 0;
      for (const part of parts) {
        starts.push(at);
        at += part.length + joiner.length;
      }
      // The joints: where each part but the first starts, after the joiner.
      const joints: number[] = [];
      for (let i = 1; i < parts.length; i++)
        joints.push((starts[i] as number) - joiner.length, starts[i] as number);
      if (!everything && !this.#crosses(joined, joints)) continue;
      // The stretches of the joined text around the joints, merged where they meet.
      const stretches: number[] = [];
      for (let j = 0; j < joints.length; j += 2) {
        stretches.push(
          Math.max(0, (joints[j] as number) - JOINT_CONTEXT),
          Math.min(joined.length, (joints[j + 1] as number) + JOINT_CONTEXT),
        );
      }
      const merged = mergeIntervals(stretches);
      for (let s = 0; s < merged.length; s += 2) {
        const offset = merged[s] as number;
        const found = this.#find(joined.slice(offset, merged[s + 1]), 0);
        for (let f = 0; f < found.length; f += 2) {
          const start = offset + (found[f] as number);
          const end = offset + (found[f + 1] as number);
          // Each part that the found range overlaps loses the overlap.
          for (let p = 0; p < parts.length; p++) {
            const from = starts[p] as number;
            const to = from + (parts[p] as string).length;
            if (start < to && end > from)
              (out[p] as number[]).push(Math.max(start, from) - from, Math.min(end, to) - from);
          }
        }
      }
    }
    return out;
  }

  /** Whether a window or a whole pattern of a secret holds one of the `joints` (`[start, end, …]`) of `text`. */
  #crosses(text: string, joints: readonly number[]): boolean {
    let crosses = false;
    const mark = () => {
      crosses = true;
    };
    // The windows that hold the last character before a joint and the first after it, each scanned once.
    const ranges: number[] = [];
    for (let j = 0; j < joints.length; j += 2) {
      ranges.push((joints[j] as number) - MIN_PIECE_LENGTH + 1, joints[j + 1] as number);
    }
    const merged = mergeIntervals(ranges);
    for (let r = 0; r < merged.length && !crosses; r += 2) {
      this.#windows.scan(text, merged[r] as number, merged[r + 1] as number, mark);
    }
    for (let p = 0; p < this.#patterns.length && !crosses; p++) {
      scanPattern(text, this.#patterns[p] as SecretPattern, (from, to) => {
        for (let j = 0; j < joints.length; j += 2) {
          if (from < (joints[j + 1] as number) && to > (joints[j] as number)) crosses = true;
          // A joint with no joiner is a point: a match holds it when it has characters on both sides.
          if (joints[j] === joints[j + 1] && from < (joints[j] as number) && to > (joints[j] as number))
            crosses = true;
        }
      });
    }
    return crosses;
  }

  /**
   * A copy of `value` with every string (keys included) scrubbed, at any depth, and the strings of each array and
   * object also as if joined: an array's members, an object's values, and its keys and values in turn. `extra`
   * adds, for members of `value` itself (by index; an object's value `i` is member `2i + 1`), what was found
   * across the other parts of the same response.
   */
  #scrubWalk<T>(value: T, extra: ReadonlyMap<number, number[]> = new Map()): T {
    const copies = new Map<object, unknown>();
    const pending: [source: object, copy: Record<string | number, unknown>][] = [];
    // Strings stay as given here: each is scrubbed with the other members of its array or object.
    const copyOf = (v: unknown): unknown => {
      if (!isWalkable(v)) return v;
      const known = copies.get(v);
      if (known !== undefined) return known;
      const copy = Array.isArray(v) ? new Array<unknown>(v.length) : {};
      copies.set(v, copy);
      pending.push([v, copy as Record<string | number, unknown>]);
      return copy;
    };
    if (typeof value === "string") return this.text(value) as T;
    const result = copyOf(value);
    // A work list instead of recursion: no nesting depth can overflow the stack or stop the walk early.
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [source, copy] = next;
      const found = source === value ? extra : undefined;
      if (Array.isArray(source)) {
        const members = source.map(copyOf);
        this.#scrubMembers(members, ARRAY_RUNS, found);
        for (let i = 0; i < members.length; i++) copy[i] = members[i];
      } else {
        const entries: unknown[] = [];
        for (const [key, v] of Object.entries(source)) entries.push(key, copyOf(v));
        this.#scrubMembers(entries, OBJECT_RUNS, found);
        for (let i = 0; i < entries.length; i += 2) {
          Object.defineProperty(copy, entries[i] as string, {
            value: entries[i + 1],
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
   * Scrubs, in place, the strings of `members`: each alone, and each run of consecutive strings of every
   * sequence (the members from `start` on, every `step`th) as if joined, with what `extra` found in some of them;
   * all found in the strings as given, before any is replaced.
   */
  #scrubMembers(
    members: unknown[],
    sequences: readonly (readonly [start: number, step: number])[],
    extra?: ReadonlyMap<number, number[]>,
  ): void {
    let found: Map<number, number[]> | undefined;
    const add = (i: number, intervals: readonly number[]) => {
      if (intervals.length === 0) return;
      found ??= new Map();
      const known = found.get(i);
      if (known) known.push(...intervals);
      else found.set(i, [...intervals]);
    };
    for (let i = 0; i < members.length; i++) {
      const m = members[i];
      if (typeof m === "string") add(i, this.#find(m, 0));
    }
    for (const [i, intervals] of extra ?? []) if (typeof members[i] === "string") add(i, intervals);
    for (const [start, step] of sequences) {
      let run: number[] = [];
      const flush = () => {
        const indices = run;
        run = [];
        if (indices.length < 2) return;
        const parts = indices.map((i) => members[i] as string);
        this.#acrossJoints(parts).forEach((intervals, k) => {
          add(indices[k] as number, intervals);
        });
      };
      for (let i = start; i < members.length; i += step) {
        if (typeof members[i] === "string") run.push(i);
        else flush();
      }
      flush();
    }
    for (const [i, intervals] of found ?? []) {
      members[i] = applyIntervals(members[i] as string, mergeIntervals(intervals));
    }
  }
}

/**
 * A copy of `value` (string, array or plain object, at any depth) with every occurrence of each secret
 * replaced by {@link REDACTED}, by the rule in this module's comment. Other values are returned as they are.
 */
export function redactSecrets<T>(value: T, secrets: readonly Secret[]): T {
  return new SecretRedactor(secrets).value(value);
}

function isWalkable(v: unknown): v is object {
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * The pattern of a whole secret, each unit in any written form. `standAlone` false: matched anywhere, whatever
 * its length (for a piece cut out of a longer encoding).
 */
function patternOf(secret: string, standAlone = true): SecretPattern {
  let source = "";
  for (let i = 0; i < secret.length; i++) source += unitPattern(secret.charCodeAt(i));
  const short = standAlone && secret.length < MIN_ANYWHERE_LENGTH;
  return {
    regex: new RegExp(source, "g"),
    boundaryBefore: short && isAlnum(secret.charAt(0)),
    boundaryAfter: short && isAlnum(secret.charAt(secret.length - 1)),
  };
}

/** The pattern of a short hex text, in either case. */
function hexPatternOf(hex: string): SecretPattern {
  const short = hex.length < MIN_ANYWHERE_LENGTH;
  return { regex: new RegExp(anyCase(hex), "g"), boundaryBefore: short, boundaryAfter: short };
}

/**
 * Every way one UTF-16 unit can be written: itself, `\uXXXX`, its short JSON escape, `%XX`, `\xNN`, an HTML
 * entity.
 */
function unitPattern(code: number): string {
  const hex = code.toString(16).padStart(4, "0");
  const alternatives = [`\\u${hex}`, `\\\\+u${anyCase(hex)}`];
  const c = String.fromCharCode(code);
  const short = SHORT_JSON_ESCAPES[c];
  if (short !== undefined) alternatives.push(`\\\\+\\u${short.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (code < 0x80) alternatives.push(`%${anyCase(hex.slice(2))}`);
  if (code < 0x100) alternatives.push(`\\\\+x${anyCase(hex.slice(2))}`);
  // A surrogate has no entity of its own: an entity writes a whole code point (found in the decoded text).
  if (code < 0xd800 || code > 0xdfff) {
    alternatives.push(`&#[xX]0*${anyCase(code.toString(16))};?`, `&#0*${code};?`);
    for (const name of HTML_NAMES_OF.get(c) ?? []) alternatives.push(`&${name};`);
  }
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
  return decodeEscape(m) ?? undefined;
}

/** The text an escape match (of {@link ESCAPE} or its anchored forms) stands for; `undefined` if none. */
function decodeEscape(m: RegExpExecArray): string | undefined {
  if (m[1] !== undefined) return String.fromCharCode(Number.parseInt(m[1], 16));
  if (m[2] !== undefined) return String.fromCharCode(Number.parseInt(m[2], 16));
  if (m[3] !== undefined) return LETTER_ESCAPES[m[3]] ?? m[3];
  if (m[4] !== undefined) return String.fromCharCode(Number.parseInt(m[4], 16));
  const code =
    m[5] !== undefined ? Number.parseInt(m[5], 16) : m[6] !== undefined ? Number.parseInt(m[6], 10) : -1;
  if (code >= 0) return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  if (m[8] !== undefined) return "";
  if (m[9] !== undefined) {
    const point = Number.parseInt(m[9], 16);
    return point <= 0x10ffff ? String.fromCodePoint(point) : undefined;
  }
  if (m[10] !== undefined) return String.fromCharCode(Number.parseInt(m[10], 16));
  if (m[11] !== undefined) return String.fromCharCode(Number.parseInt(m[11], 8));
  return m[7] !== undefined ? HTML_NAMED[m[7]] : undefined;
}

/**
 * Adds to `found` the original ranges of the words of `view` (runs of characters other than white space) that
 * still hold an escape, i.e. what one more round would decode, whole: a piece of what an escape left behind
 * (the `4A` after a still-escaped `%25`) goes with it.
 */
function stillEscaped(view: View, found: number[]): void {
  const t = view.text;
  ESCAPE.lastIndex = 0;
  let covered = 0;
  for (let m = ESCAPE.exec(t); m !== null; m = ESCAPE.exec(t)) {
    if (decodeEscape(m) === undefined) {
      ESCAPE.lastIndex = m.index + 1;
      continue;
    }
    if (m.index < covered) continue;
    let start = m.index;
    while (start > 0 && !/\s/.test(t.charAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < t.length && !/\s/.test(t.charAt(end))) end++;
    covered = end;
    ESCAPE.lastIndex = end;
    found.push(
      view.from ? (view.from[start] as number) : start,
      view.to ? (view.to[end - 1] as number) : end,
    );
  }
}

/** UTF-8 continuation bytes written as `%XX`. */
const PERCENT_CONTINUATION = /^(?:%[89abAB][0-9a-fA-F])+/;

/** `view` with each escape undone once, or `undefined` when it holds none. */
function decodeView(view: View): View | undefined {
  const t = view.text;
  const from = new Int32Array(t.length);
  const to = new Int32Array(t.length);
  let out = "";
  let n = 0;
  const origin = (i: number) => (view.from ? (view.from[i] as number) : i);
  const originEnd = (i: number) => (view.to ? (view.to[i] as number) : i + 1);
  /** Appends `text`, decoded from units [start, end) of the view. */
  const emit = (text: string, start: number, end: number) => {
    for (let k = 0; k < text.length; k++) {
      from[n] = origin(start);
      to[n] = originEnd(end - 1);
      n++;
    }
    out += text;
  };
  /** Appends units [start, end) of the view as they are. */
  const copy = (start: number, end: number) => {
    for (let i = start; i < end; i++) {
      from[n] = origin(i);
      to[n] = originEnd(i);
      n++;
    }
    out += t.slice(start, end);
  };
  let copied = 0;
  let changed = false;
  ESCAPE.lastIndex = 0;
  for (let m = ESCAPE.exec(t); m !== null; m = ESCAPE.exec(t)) {
    let end = m.index + m[0].length;
    let decoded = decodeEscape(m);
    if (m[4] !== undefined && Number.parseInt(m[4], 16) >= 0xc0) {
      // A UTF-8 sequence written as %-escapes decodes as one character.
      const more = PERCENT_CONTINUATION.exec(t.slice(end, end + 9));
      if (more !== null) {
        const bytes = Buffer.from((m[0] + more[0]).replace(/%/g, ""), "hex").toString("utf8");
        if (!bytes.includes("\ufffd")) {
          decoded = bytes;
          end += more[0].length;
        }
      }
    }
    if (decoded === undefined) {
      // An unknown entity name: its `&` is just a character.
      ESCAPE.lastIndex = m.index + 1;
      continue;
    }
    copy(copied, m.index);
    emit(decoded, m.index, end);
    copied = end;
    ESCAPE.lastIndex = end;
    changed = true;
  }
  if (!changed) return undefined;
  copy(copied, t.length);
  return { text: out, from: from.subarray(0, n), to: to.subarray(0, n) };
}

/** {@link MIN_PIECE_LENGTH}, as a module constant for the inner loops. */
const PIECE = MIN_PIECE_LENGTH;
/**
 * Rolling hash of a window: Σ code × BASE^(11 - i), modulo 2^32 (integer arithmetic only; a known hash is always
 * checked against the windows themselves).
 */
const HASH_BASE = 0x01000193;
/** BASE^11 modulo 2^32: the weight of the character that leaves the window. */
let HASH_LEAVING = 1;
for (let i = 1; i < PIECE; i++) HASH_LEAVING = Math.imul(HASH_LEAVING, HASH_BASE);

/**
 * The 12-character windows of some texts, searched in a text without cutting it: a rolling hash of each window
 * of the text is looked up first (in a bit set, then in the set of hashes), and only a hash that is known is
 * checked against the windows themselves. Hex windows are kept in lower case and looked up with the text's ASCII
 * capitals lowered, so either case matches.
 */
class WindowSet {
  readonly #windows = new Set<string>();
  readonly #hashes = new Set<number>();
  readonly #lowerHashes = new Set<number>();
  /** One bit per hash value modulo its size, for the hashes and the lower-case hashes; rebuilt as they grow. */
  #bits: Int32Array = new Int32Array(0);
  #lowerBits: Int32Array = new Int32Array(0);

  /** Adds every window of `text`; with `anyCase`, in lower case, to be found in either case. */
  add(text: string, anyCase = false): void {
    const t = anyCase ? text.toLowerCase() : text;
    for (let i = 0; i + PIECE <= t.length; i++) {
      const window = t.slice(i, i + PIECE);
      let hash = 0;
      for (let k = 0; k < PIECE; k++) hash = (Math.imul(hash, HASH_BASE) + window.charCodeAt(k)) | 0;
      (anyCase ? this.#lowerHashes : this.#hashes).add(hash);
      this.#windows.add(anyCase ? `\0${window}` : window);
    }
    this.#bits = bitsOf(this.#hashes, this.#bits);
    this.#lowerBits = bitsOf(this.#lowerHashes, this.#lowerBits);
  }

  /**
   * Marks every run of consecutive windows of `text` that start in [from, to) and are in the set: a piece of a
   * secret of any length from 12 on is one such run.
   */
  scan(text: string, from: number, to: number, mark: (start: number, end: number) => void): void {
    if (this.#windows.size === 0) return;
    const first = Math.max(0, from);
    const last = Math.min(to, text.length - PIECE + 1);
    if (first >= last) return;
    const bits = this.#bits;
    const mask = bits.length * 32 - 1;
    const lowerBits = this.#lowerBits;
    const lowerMask = lowerBits.length * 32 - 1;
    const anyCase = lowerBits.length > 0;
    let hash = 0;
    let lower = 0;
    for (let k = first; k < first + PIECE; k++) {
      const c = text.charCodeAt(k);
      hash = (Math.imul(hash, HASH_BASE) + c) | 0;
      lower = (Math.imul(lower, HASH_BASE) + (c >= 65 && c <= 90 ? c + 32 : c)) | 0;
    }
    let runStart = -1;
    let runEnd = -1;
    for (let i = first; ; i++) {
      const h = hash & mask;
      const l = lower & lowerMask;
      if (
        (((bits[h >>> 5] as number) >>> (h & 31)) & 1 && this.#hashes.has(hash) && this.#has(text, i)) ||
        (anyCase &&
          ((lowerBits[l >>> 5] as number) >>> (l & 31)) & 1 &&
          this.#lowerHashes.has(lower) &&
          this.#has(text, i))
      ) {
        if (i <= runEnd) {
          runEnd = i + PIECE;
        } else {
          if (runStart >= 0) mark(runStart, runEnd);
          runStart = i;
          runEnd = i + PIECE;
        }
      }
      if (i + 1 >= last) break;
      const out = text.charCodeAt(i);
      const inc = text.charCodeAt(i + PIECE);
      hash = (Math.imul((hash - Math.imul(out, HASH_LEAVING)) | 0, HASH_BASE) + inc) | 0;
      const outLower = out >= 65 && out <= 90 ? out + 32 : out;
      const inLower = inc >= 65 && inc <= 90 ? inc + 32 : inc;
      lower = (Math.imul((lower - Math.imul(outLower, HASH_LEAVING)) | 0, HASH_BASE) + inLower) | 0;
    }
    if (runStart >= 0) mark(runStart, runEnd);
  }

  #has(text: string, at: number): boolean {
    const window = text.slice(at, at + PIECE);
    return this.#windows.has(window) || this.#windows.has(`\0${window.toLowerCase()}`);
  }
}

/**
 * The bit set of `hashes`: 32 bits per hash at least (a few percent of the windows of a text pass it by chance),
 * a power of two; `current` while it is still that size.
 */
function bitsOf(hashes: ReadonlySet<number>, current: Int32Array): Int32Array {
  if (hashes.size === 0) return current;
  let words = 32;
  while (words < hashes.size) words *= 2;
  if (words === current.length) {
    for (const hash of hashes) setBit(current, hash);
    return current;
  }
  const bits = new Int32Array(words);
  for (const hash of hashes) setBit(bits, hash);
  return bits;
}

function setBit(bits: Int32Array, hash: number): void {
  const h = hash & (bits.length * 32 - 1);
  bits[h >>> 5] = (bits[h >>> 5] as number) | (1 << (h & 31));
}

function scanPattern(text: string, pattern: SecretPattern, mark: (start: number, end: number) => void): void {
  const { regex, boundaryBefore, boundaryAfter } = pattern;
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
    mark(start, end);
    if (m[0].length === 0) regex.lastIndex++;
  }
}

/** `[start, end, …]` sorted by start, with overlapping or touching ranges merged. */
function mergeIntervals(intervals: readonly number[]): number[] {
  if (intervals.length <= 2) return intervals.slice();
  let list = intervals;
  for (let i = 2; i < list.length; i += 2) {
    if ((list[i - 2] as number) <= (list[i] as number)) continue;
    // Out of order (found by different searches): sorted by start, the ends kept with them.
    const pairs: [number, number][] = [];
    for (let k = 0; k < intervals.length; k += 2)
      pairs.push([intervals[k] as number, intervals[k + 1] as number]);
    list = pairs.sort((x, y) => x[0] - y[0]).flat();
    break;
  }
  const out: number[] = [];
  for (let i = 0; i < list.length; i += 2) {
    const start = list[i] as number;
    const end = list[i + 1] as number;
    if (out.length > 0 && start <= (out[out.length - 1] as number)) {
      out[out.length - 1] = Math.max(out[out.length - 1] as number, end);
    } else {
      out.push(start, end);
    }
  }
  return out;
}

/** `text` with each of the merged ranges replaced by {@link REDACTED}. */
function applyIntervals(text: string, intervals: readonly number[]): string {
  if (intervals.length === 0) return text;
  let out = "";
  let copied = 0;
  for (let i = 0; i < intervals.length; i += 2) {
    out += text.slice(copied, intervals[i]) + REDACTED;
    copied = intervals[i + 1] as number;
  }
  return out + text.slice(copied);
}
