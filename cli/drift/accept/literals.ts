/**
 * Values as literals of each language an accept writes: a string, a boolean, a list of strings. A value comes
 * from the service (a vault's name, typed by anyone in the console), so each writer makes any text a literal
 * that reads back as exactly that text and cannot end the literal early, start an interpolation or a comment, or
 * hide what it is: quotes and backslashes are escaped, and so is every character a terminal or an editor would
 * not show as itself (line breaks, C0 and C1 controls, bidi marks and overrides, the byte order mark, lone
 * surrogates; the set `shownText` of `pulumi-custody/core` escapes). A rewrite keeps the literal's quote style.
 */

import type { ProgramLanguage } from "./declarations";
import type { Expr, Quote } from "./source-model";

/**
 * The characters a literal never holds as they are: C0, DEL and C1 controls, the line and paragraph
 * separators, the bidi marks, embeddings, overrides and isolates, the byte order mark and lone surrogates
 * (`pulumi-custody/core`'s escaping rule, inputs/shown.ts).
 */
export const UNSAFE_CHARACTER =
  /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/u;

/** A character's escape as `\xNN` (up to 0xff) or `\uNNNN`. */
function hexEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `value` escaped for a quoted literal whose quote is `quote`, plus `more` characters escaped with a backslash. */
function escaped(value: string, quote: string, more = ""): string {
  let out = "";
  for (const char of value) {
    if (char === "\\" || char === quote || more.includes(char)) out += `\\${char}`;
    else if (NAMED_ESCAPES[char]) out += NAMED_ESCAPES[char];
    else if (UNSAFE_CHARACTER.test(char)) out += hexEscape(char);
    else out += char;
  }
  return out;
}

/** A JavaScript or TypeScript string literal of `value`, in `quote` (`'`, `"` or a backtick). */
export function javascriptString(value: string, quote: Quote = '"'): string {
  if (quote === "`") return `\`${escaped(value, "`", "$")}\``;
  const q = quote === "'" ? "'" : '"';
  return `${q}${escaped(value, q)}${q}`;
}

/** A Python string literal of `value`, in `quote` (`'` or `"`); never an f-string or a raw string. */
export function pythonString(value: string, quote: Quote = '"'): string {
  const q = quote === "'" ? "'" : '"';
  return `${q}${escaped(value, q)}${q}`;
}

/** Plain YAML scalars an accept writes: words, digits and a few marks, never a value YAML reads as another type. */
const PLAIN_SAFE = /^[A-Za-z0-9][A-Za-z0-9 _.()/+@-]*$/;
const PLAIN_NOT_A_STRING = /^(y|yes|n|no|true|false|on|off|null)$/i;

/** Whether YAML reads a plain scalar of these characters as a string: a letter in it, and not a number's form. */
function plainIsString(text: string): boolean {
  if (!/[A-Za-z]/.test(text) || PLAIN_NOT_A_STRING.test(text)) return false;
  if (/^[0-9]/.test(text) && (/^0[xXoObB]/.test(text) || /^[0-9_]*\.?[0-9_]*([eE][-+]?[0-9]+)?$/.test(text)))
    return false;
  return true;
}

/**
 * A YAML string scalar that Pulumi YAML reads as `value`: each `$` doubled (Pulumi YAML reads `$$` as `$` and
 * `${…}` as an interpolation), then plain when the style is plain and the text is plainly a string, single
 * quoted when the style is and the text has no character to escape, double quoted (with escapes) otherwise.
 */
export function yamlString(value: string, style: Quote = "plain"): string {
  const text = value.replace(/\$/g, "$$$$");
  if (style === "plain" && PLAIN_SAFE.test(text) && plainIsString(text) && !text.endsWith(" ")) return text;
  if (style === "single" && !UNSAFE_CHARACTER.test(text) && !/[\n\r\t]/.test(text))
    return `'${text.replace(/'/g, "''")}'`;
  return `"${escaped(text, '"')}"`;
}

/** A string literal of `value` in `language`, in the style of `like` when given. */
export function stringLiteral(language: ProgramLanguage, value: string, like?: Quote): string {
  switch (language) {
    case "javascript":
      return javascriptString(value, like === "'" || like === "`" ? like : '"');
    case "python":
      return pythonString(value, like === "'" ? "'" : '"');
    case "yaml":
      return yamlString(value, like ?? "plain");
  }
}

/** A boolean literal in `language`. */
export function booleanLiteral(language: ProgramLanguage, value: boolean): string {
  if (language === "python") return value ? "True" : "False";
  return value ? "true" : "false";
}

/** The quote style of a literal, or of a list's first item. */
function quoteOf(expr: Expr | undefined): Quote | undefined {
  if (expr?.kind === "string") return expr.quote;
  if (expr?.kind === "list") return quoteOf(expr.items[0]);
  return undefined;
}

/**
 * A list of strings as a literal in `language`, laid out as `like` was (one item per line, or on one line) in
 * `text`; `indent` is the indentation of the line it starts on.
 */
export function listLiteral(
  language: ProgramLanguage,
  values: readonly string[],
  like: Expr | undefined,
  text: string,
  indent: string,
): string {
  const quote = quoteOf(like);
  const items = values.map((v) => stringLiteral(language, v, quote));
  const original = like ? text.slice(like.span.start, like.span.end) : "";
  const multiline = original.includes("\n");
  if (language === "yaml") {
    const flow = original.startsWith("[");
    if (flow || values.length === 0 || !like) return `[${items.join(", ")}]`;
    // A block sequence: the original's items' indentation, one `- item` per line.
    const firstItem = like?.kind === "list" ? like.items[0] : undefined;
    const itemIndent = firstItem
      ? (/^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", firstItem.span.start - 1) + 1))?.[0] ?? indent)
      : indent;
    return items.map((item, i) => `${i === 0 ? "" : itemIndent}- ${item}`).join("\n");
  }
  if (!multiline || values.length === 0) {
    const padded = /^\[\s/.test(original) && values.length > 0;
    return padded ? `[ ${items.join(", ")} ]` : `[${items.join(", ")}]`;
  }
  const firstItem = like?.kind === "list" ? like.items[0] : undefined;
  const itemIndent = firstItem
    ? (/^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", firstItem.span.start - 1) + 1))?.[0] ??
      `${indent}    `)
    : `${indent}    `;
  const trailingComma = /,\s*[\])]$/.test(original);
  return `[\n${items.map((item) => `${itemIndent}${item}`).join(",\n")}${trailingComma ? "," : ""}\n${indent}]`;
}
