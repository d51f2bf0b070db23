/**
 * How a message shows text that came from the command line (a flag's value, a path): with its control
 * characters escaped, so that an argument cannot rewrite the terminal or a CI log (an ANSI escape, a carriage
 * return, a bidi override), and cut to a bounded length, so that a pasted blob does not flood the log. What
 * `pulumi` printed is shown without the secrets the command was given ({@link withoutSecrets}).
 */
import * as path from "node:path";

/** How many characters of a value a message shows at most (an ellipsis marks the cut). */
export const SHOWN_VALUE_MAX = 60;

/** How many characters of a path a message shows at most (cut in the middle: its start and its file stay). */
export const SHOWN_PATH_MAX = 120;

// C0, DEL and C1 (\p{Cc}), the line and paragraph separators, and the bidi marks, embeddings, overrides and
// isolates, which reorder what a terminal shows.
const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

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

/**
 * `text` with every control character escaped (`\x1b`, `\r`, `\u202e`); `keep` lists characters left as they
 * are (a multi-line message keeps its newlines).
 */
export function escapeControls(text: string, keep = ""): string {
  let out = "";
  for (const char of text) out += keep.includes(char) ? char : escapeChar(char);
  return out;
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
 * A value as a message shows it, in double quotes: control characters, quotes and backslashes escaped, at
 * most `max` characters of it (then `…`).
 */
export function shownValue(value: string, max = SHOWN_VALUE_MAX): string {
  const quotedChar = (char: string) => (char === '"' || char === "\\" ? `\\${char}` : escapeChar(char));
  return `"${clipped(value, max, quotedChar)}"`;
}

/** Text (a name, a pattern, a reason) as a message shows it, unquoted: escaped, at most `max` characters. */
export function shownText(text: string, max = SHOWN_VALUE_MAX): string {
  return clipped(text, max, escapeChar);
}

/**
 * A path as a message shows it: relative to `cwd` when it is inside it (else absolute), control characters
 * escaped, and at most `max` characters ({@link SHOWN_PATH_MAX}), cut in the middle; a command line that the
 * user is to run passes `Infinity`, since a cut path would not run.
 */
export function shownPath(file: string, cwd: string, max = SHOWN_PATH_MAX): string {
  const relative = path.relative(cwd, file);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  const shown = escapeControls(inside ? relative : file);
  if (shown.length <= max) return shown;
  const head = Math.floor((max - 1) / 3);
  const tail = max - 1 - head;
  return `${[...shown].slice(0, head).join("")}…${[...shown].slice(-tail).join("")}`;
}

/** Environment variables whose value is a secret, by name (`CUSTODY_ACCESS_TOKEN`, `PULUMI_CONFIG_PASSPHRASE`). */
const SECRET_VARIABLE = /token|secret|password|passphrase|api-?key|credential/i;

/** Shorter values are not masked: they would mask ordinary words and numbers while hiding nothing. */
const SECRET_MIN_LENGTH = 8;

/**
 * `text` with every value of a secret variable of `env`, and each of `values` (e.g. the stack's secret config),
 * replaced by `[secret]`. What `pulumi` printed reaches a report (a pull-request comment) and the log, and must
 * not carry a token it was given.
 */
export function withoutSecrets(text: string, env: NodeJS.ProcessEnv, values: readonly string[] = []): string {
  const secrets = Object.entries(env)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value as string)
    .concat(values)
    .filter((value) => value.length >= SECRET_MIN_LENGTH)
    // The longest first, so that a secret that holds another is masked whole.
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of secrets) out = out.split(secret).join("[secret]");
  return out;
}
