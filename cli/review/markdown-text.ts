/**
 * Text the review did not write, as its Markdown shows it: a vault's or an address's name, an id, an address,
 * a type, a value, an input's name, a policy's name and message, a diagnostic of the engine. Each is shown by
 * the one rule (`shownText`, ../shown.ts): control (C0, DEL, C1), bidi, zero-width and other format characters
 * and lone surrogates escaped, a line break among them, so that no text starts a line of its own inside a list
 * item; and cut to a bounded length. Then it is kept from making markup of its own: in a code span nothing is
 * markup; in prose, what would start an HTML tag or comment (which could hide the rest of a pull-request
 * comment), an entity (`&#x202e;` is a bidi override again once rendered), a link, emphasis or a code span is
 * escaped with a backslash.
 */
import { shownText } from "../shown";

/** A name is cut after this many characters: a name a program declares (at most 256 bytes) never is. */
export const NAME_MAX = 256;
/** An id, an address, a resource's name, a type, a chain, an input's or a policy's name. */
export const CODE_MAX = 200;
/** A value, as its JSON. */
export const VALUE_MAX = 400;
/** A message of the engine, the provider or a policy. */
export const MESSAGE_MAX = 2000;

/** Characters that start markup inline: a code span, emphasis, an HTML tag or comment, an entity. */
const INLINE_MARKUP = new Set(["`", "*", "<", "&"]);
/** ASCII punctuation, which a backslash before it escapes (CommonMark, "Backslash escapes"). */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
/** What makes a block when it starts a line (a heading, a quote, a list, a setext underline). */
const BLOCK_START = /^(#|>|[-+=]|\d+[.)])/;

/**
 * `text` as Markdown prose: shown by the one rule, at most `max` characters, with every character that would
 * make markup escaped. A backslash is doubled where it would escape what follows it (the one rule's own escapes,
 * `\x1b`, `\u202e`, are a backslash before a letter, and read the same either way). A `]` right before `(` is
 * escaped, so that no link forms; on its own, `[…]` is no link (a reference would need a definition, which
 * starts a line).
 */
export function proseText(text: string, max: number): string {
  const shown = shownText(text, max);
  let out = "";
  for (let i = 0; i < shown.length; i++) {
    const char = shown[i] as string;
    const next = shown[i + 1];
    if (char === "\\") out += next === undefined || ASCII_PUNCTUATION.test(next) ? "\\\\" : "\\";
    else if (INLINE_MARKUP.has(char) || (char === "]" && next === "(")) out += `\\${char}`;
    else out += char;
  }
  return out;
}

/** `text` as Markdown prose that starts a line (a quoted warning): nor does it start a block of its own. */
export function proseLine(text: string, max: number): string {
  const prose = proseText(text, max);
  const start = BLOCK_START.exec(prose)?.[0];
  if (!start) return prose;
  // The block's last character escaped: `\#`, `\-`, `1\.`.
  return `${start.slice(0, -1)}\\${prose.slice(start.length - 1)}`;
}

/** `text` as a Markdown code span, whatever backticks it holds. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(" ") || text.endsWith(" ") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** `text` shown by the one rule, at most `max` characters, in a code span (where nothing is markup). */
export function codeText(text: string, max: number): string {
  return codeSpan(shownText(text, max));
}
