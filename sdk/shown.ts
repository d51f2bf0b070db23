/**
 * The one rule by which every message of pulumi-custody shows text it did not write itself: a value from a
 * program, the stack config or the environment, and everything the service sent (a title, a detail, a 422 `msg`
 * or `loc`, a vault, address, user or group name). Characters that would change what a terminal or a log shows
 * are escaped: a CR/LF would forge a line, an ANSI escape (ESC or the C1 CSI) would rewrite the screen, a bidi
 * override or isolate would reorder it, a zero-width or other invisible format character would hide a difference
 * between two names, a lone surrogate cannot be written as UTF-8 at all. And the text is cut to a bounded length,
 * so that a pasted blob, or a 10 MB name, does not flood the log.
 *
 * It lives in the sdk, the lowest package, so that the client's own errors follow it; the provider, the plugin
 * and the command line use it through `@pulumi-custody/sdk` (and `pulumi-custody/core`, which re-exports it).
 */

/** How many characters of a value a message shows at most (an ellipsis marks the cut). */
export const SHOWN_VALUE_MAX = 80;

/**
 * A lone surrogate: a UTF-16 unit that encodes no character. Such text cannot be sent as UTF-8 (gRPC, JSON
 * bodies, percent-encoded queries): on the way it is dropped, replaced or refused, so the value that arrives is
 * not the one declared. The one definition of the rule.
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is escaped: C0, DEL and C1 (`\p{Cc}`); every format character (`\p{Cf}`: the bidi marks, embeddings,
 * overrides and isolates, the zero-width space, joiners and word joiner, the byte order mark, soft hyphens, tag
 * characters…); the line and paragraph separators; and surrogates that are not half of a pair (a pair is one
 * character, and is kept).
 */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029\ud800-\udfff]/u;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0" };

/** One character as a message shows it: itself, or its escape (`\x1b`, `\n`, `\u202e`, `\u{e0041}`). */
function escapeChar(char: string): string {
  if (!UNSAFE.test(char)) return char;
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/** The escaped characters of `text`, as many as fit in `max` characters, then `…` if any were left out. */
function clipped(text: string, max: number, escaped: (char: string) => string): string {
  let out = "";
  // Never more than `max` characters are looked at: a cut 10 MB text costs what its first lines cost.
  for (const char of text) {
    const shown = escaped(char);
    // An escape is never cut in two.
    if (out.length + shown.length > max) return `${out}…`;
    out += shown;
  }
  return out;
}

/**
 * A value as a message shows it, in double quotes: control and format characters, quotes and backslashes
 * escaped, at most `max` characters of it (then `…`). Anything that is not a string is shown as its JSON.
 */
export function shownValue(value: unknown, max = SHOWN_VALUE_MAX): string {
  const text = typeof value === "string" ? value : (jsonOf(value) ?? String(value));
  const quotedChar = (char: string) => (char === '"' || char === "\\" ? `\\${char}` : escapeChar(char));
  return `"${clipped(text, max, quotedChar)}"`;
}

/** Text (a reason, a name) as a message shows it, unquoted: control characters escaped, at most `max` long. */
export function shownText(text: string, max = SHOWN_VALUE_MAX): string {
  return clipped(text, max, escapeChar);
}

/** Whether `text` can be printed as it is: no character that {@link shownText} escapes, and within `max`. */
export function isShownAsIs(text: string, max = SHOWN_VALUE_MAX): boolean {
  return text.length <= max && !UNSAFE.test(text);
}

/**
 * `text` with every control and format character escaped, whatever its length (a reason of our own may be long).
 * @param keep - characters left as they are (a multi-line message keeps its newlines)
 */
export function escapeControls(text: string, keep = ""): string {
  const escaped = (char: string) => (keep.includes(char) ? char : escapeChar(char));
  return clipped(text, Number.POSITIVE_INFINITY, escaped);
}

/** JSON of a value, or `undefined` when it has none or cannot be written (a cycle, a BigInt, a deep nest). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
