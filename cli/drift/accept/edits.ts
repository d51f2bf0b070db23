/**
 * The text edits of an accept, made so that the rest of the file stays as it was: a literal is replaced by
 * another in its place; an input is added as one more item in the style of its neighbours (its own line with
 * their indentation and trailing comma, or `, key: value` on a single line); an input is removed with its line
 * when it has one to itself, else with the comma that joins it.
 */
import type { Declaration, ProgramLanguage } from "./declarations";
import { snakeCase } from "./declarations";
import { booleanLiteral, listLiteral, stringLiteral } from "./literals";
import { type Expr, indentOf, lineEnd, lineStart, type Span } from "./source-model";

/** Replaces `[start, end)` of a file's text with `text`. */
export interface TextEdit {
  /** The first offset replaced. */
  readonly start: number;
  /** The offset after the last one replaced (`start` for an insertion). */
  readonly end: number;
  /** The new text. */
  readonly text: string;
}

/** The literal of `value` in `language`, in the style of `like`, for a place in `text` indented by `indent`. */
export function literalOf(
  language: ProgramLanguage,
  value: unknown,
  like: Expr | undefined,
  text: string,
  indent: string,
): string {
  if (typeof value === "boolean") return booleanLiteral(language, value);
  if (typeof value === "string")
    return stringLiteral(language, value, like?.kind === "string" ? like.quote : undefined);
  if (Array.isArray(value) && value.every((v) => typeof v === "string"))
    return listLiteral(language, value, like?.kind === "list" ? like : undefined, text, indent);
  throw new Error(
    `a value of this kind (${Array.isArray(value) ? "a list of non-strings" : typeof value}) has no literal here`,
  );
}

/** Replaces a literal with the literal of `value`, in its style. */
export function replaceLiteral(declaration: Declaration, span: Span, like: Expr, value: unknown): TextEdit {
  const { text, language } = declaration;
  const literal = literalOf(language, value, like, text, indentOf(text, span.start));
  // A YAML block node's text ends with its line break: the replacement keeps it.
  const lineBreak = text.slice(span.start, span.end).endsWith("\n") && !literal.endsWith("\n") ? "\n" : "";
  return { ...span, text: literal + lineBreak };
}

/** What a comment starts with in each language. */
function commentStart(language: ProgramLanguage): RegExp {
  return language === "javascript" ? /^\s*(\/\/.*|\/\*[\s\S]*?\*\/\s*)*$/ : /^\s*(#.*)?$/;
}

/** Whether only whitespace and comments lie in `text` between `from` and the end of its line. */
function restOfLineIsBlank(language: ProgramLanguage, text: string, from: number): boolean {
  return commentStart(language).test(text.slice(from, lineEnd(text, from)));
}

/** The offset after whitespace (and, in code, comments) from `from`. */
function skipBlank(language: ProgramLanguage, text: string, from: number): number {
  let at = from;
  for (;;) {
    const rest = text.slice(at);
    const blank = /^\s+/.exec(rest)?.[0].length ?? 0;
    at += blank;
    const next = text.slice(at);
    if (language === "javascript" && next.startsWith("//")) at = lineEnd(text, at);
    else if (language === "javascript" && next.startsWith("/*")) {
      const close = text.indexOf("*/", at + 2);
      at = close < 0 ? text.length : close + 2;
    } else if (language !== "javascript" && next.startsWith("#")) at = lineEnd(text, at);
    else if (blank === 0) return at;
  }
}

/** The item `key: value` (JavaScript, YAML) or `key=value` (Python) of an input. */
function itemText(language: ProgramLanguage, name: string, literal: string): string {
  return language === "python" ? `${snakeCase(name)}=${literal}` : `${name}: ${literal}`;
}

/** Adds the input `name` with `value` to the declaration's container; `undefined` when it has none. */
export function insertInput(declaration: Declaration, name: string, value: unknown): TextEdit[] | undefined {
  const { container, text, language } = declaration;
  if (!container || container.items.length === 0) return undefined;
  const { items } = container;

  if (container.block) {
    // A YAML block mapping: a line of its own after the last pair, at the pairs' indentation.
    const last = items[items.length - 1] as Span;
    const indent = indentOf(text, items[0]?.start ?? last.start);
    const literal = literalOf(language, value, undefined, text, `${indent}  `);
    const at = lineEnd(text, Math.max(last.end - 1, last.start));
    return [{ start: at, end: at, text: `\n${indent}${itemText(language, name, literal)}` }];
  }

  const before = container.insertBefore;
  if (before !== undefined && before > 0) {
    // Before an item (Python's `opts=`): in its place, pushing it on.
    const next = items[before] as Span;
    const previous = items[before - 1] as Span;
    const ownLine = lineStart(text, next.start) > previous.end;
    const indent = indentOf(text, next.start);
    const literal = literalOf(language, value, undefined, text, indent);
    const separator = ownLine ? `\n${indent}` : " ";
    return [
      { start: next.start, end: next.start, text: `${itemText(language, name, literal)},${separator}` },
    ];
  }

  // At the end: after the last item, with or without its trailing comma.
  const last = items[items.length - 1] as Span;
  const afterLast = skipBlank(language, text, last.end);
  const trailingComma = text[afterLast] === ",";
  // One item per line when the closing bracket, or the last item, has a line of its own.
  const previousEnd = items.length >= 2 ? (items[items.length - 2] as Span).end : container.open;
  const multiline = lineStart(text, container.close) > last.end || lineStart(text, last.start) > previousEnd;
  if (!multiline) {
    const literal = literalOf(language, value, undefined, text, indentOf(text, last.start));
    const item = itemText(language, name, literal);
    return trailingComma
      ? [{ start: afterLast + 1, end: afterLast + 1, text: ` ${item},` }]
      : [{ start: last.end, end: last.end, text: `, ${item}` }];
  }
  const indent = indentOf(text, last.start);
  const literal = literalOf(language, value, undefined, text, indent);
  const item = itemText(language, name, literal);
  // The new line goes after whatever ends the last item's line (its comment stays with it).
  const commaAt = trailingComma ? afterLast : last.end;
  if (!restOfLineIsBlank(language, text, trailingComma ? afterLast + 1 : last.end))
    return [
      {
        start: commaAt + (trailingComma ? 1 : 0),
        end: commaAt + (trailingComma ? 1 : 0),
        text: `${trailingComma ? "" : ","}\n${indent}${item}${trailingComma ? "," : ""}`,
      },
    ];
  const eol = lineEnd(text, trailingComma ? afterLast : last.end);
  const edits: TextEdit[] = [];
  if (!trailingComma) edits.push({ start: last.end, end: last.end, text: "," });
  edits.push({ start: eol, end: eol, text: `\n${indent}${item}${trailingComma ? "," : ""}` });
  return edits;
}

/** Removes the input at `item` of the declaration's container (with its line, or the comma that joins it). */
export function removeInput(declaration: Declaration, item: number, span: Span): TextEdit[] {
  const { container, text, language } = declaration;
  if (!container) return [];
  const first = lineStart(text, span.start);
  const onItsOwnLine = /^[ \t]*$/.test(text.slice(first, span.start));
  if (container.block) {
    const end = lineEnd(text, Math.max(span.end - 1, span.start));
    return [{ start: first, end: Math.min(end + 1, text.length), text: "" }];
  }
  const afterItem = skipBlank(language, text, span.end);
  const comma = text[afterItem] === "," ? afterItem + 1 : undefined;
  const restBlank = restOfLineIsBlank(language, text, comma ?? span.end);
  if (onItsOwnLine && restBlank) {
    const end = lineEnd(text, comma ?? span.end);
    // The item's line and its end of line, but never the line of the closing bracket.
    if (lineStart(text, container.close) > end) return [{ start: first, end: end + 1, text: "" }];
  }
  const next = container.items[item + 1];
  if (next) return [{ start: span.start, end: next.start, text: "" }];
  const previous = container.items[item - 1];
  if (previous) return [{ start: previous.end, end: span.end, text: "" }];
  return [{ start: span.start, end: comma ?? span.end, text: "" }];
}

/** Applies non-overlapping edits to `text`; overlapping ones are an error (two changes to one place). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1] as TextEdit;
    const current = sorted[i] as TextEdit;
    if (current.start < previous.end) throw new Error("two changes to the same place of a file");
  }
  let out = text;
  for (const edit of sorted.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
