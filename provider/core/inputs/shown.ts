/**
 * How the provider's messages show a value that came from a program, the stack config or the environment: with
 * control characters escaped (a CR/LF would forge a line of the output, an ANSI escape or a bidi override would
 * rewrite what a terminal shows) and cut to a bounded length, so that a pasted blob does not flood the log. The
 * one rule for every message of the provider, the plugin and the command line (`pulumi-custody/core`).
 */

/** How many characters of a value a message shows at most (an ellipsis marks the cut). */
export const SHOWN_VALUE_MAX = 80;

/**
 * A lone surrogate: a UTF-16 unit that encodes no character. Such text cannot be sent as UTF-8 (gRPC, JSON
 * bodies, percent-encoded queries): on the way it is dropped, replaced or refused, so the value that arrives is
 * not the one declared. The one definition of the rule.
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// C0, DEL and C1 (\p{Cc}), the line and paragraph separators, the bidi marks, embeddings, overrides and
// isolates (which reorder what a terminal shows), the byte order mark, and lone surrogates.
const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/u;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0" };

/** One character as a message shows it: itself, or its escape (`\x1b`, `\n`, `\u202e`). */
function escapeChar(char: string): string {
  if (!UNSAFE.test(char)) return char;
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** The escaped characters of `text`, as many as fit in `max` characters, then `…` if any were left out. */
function clipped(text: string, max: number, escaped: (char: string) => string): string {
  let out = "";
  for (const char of text) {
    const shown = escaped(char);
    // An escape is never cut in two.
    if (out.length + shown.length > max) return `${out}…`;
    out += shown;
  }
  return out;
}

/**
 * A value as a message shows it, in double quotes: control characters, quotes and backslashes escaped, at most
 * `max` characters of it (then `…`). Anything that is not a string is shown as its JSON.
 */
export function shownValue(value: unknown, max = SHOWN_VALUE_MAX): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
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

/** The longest input the engine may print whole beside a check failure (a short list of UUIDs fits). */
export const PRINTED_INPUT_MAX = 4 * SHOWN_VALUE_MAX;

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  }
  return out;
}

/**
 * Whether a value can be printed as it is: each string in it (at any depth of a list or an object) by the rules
 * of `isShownAsIs`, and the whole within `PRINTED_INPUT_MAX` characters of JSON. What the engine
 * prints of an input beside a check failure is judged by it.
 */
export function printsAsIs(value: unknown): boolean {
  if (!stringsOf(value).every((text) => isShownAsIs(text))) return false;
  return (JSON.stringify(value) ?? "").length <= PRINTED_INPUT_MAX;
}

/**
 * `text` with every control character escaped, whatever its length (a reason of our own may be long).
 * @param keep - characters left as they are (a multi-line message keeps its newlines)
 */
export function escapeControls(text: string, keep = ""): string {
  const escaped = (char: string) => (keep.includes(char) ? char : escapeChar(char));
  return clipped(text, Number.POSITIVE_INFINITY, escaped);
}
