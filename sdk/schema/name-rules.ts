/**
 * The one rule for vault and address names, in two parts (docs/api-notes.md, "Names"):
 * - what the service documents ({@link ServiceName}: at least one character, no maximum), which every request
 *   of the sdk is held to, and never more;
 * - the rules of ours ({@link nameRuleViolations}) that the provider checks at preview time and the emulator
 *   applies on create and rename (docs/provider.md, "Names"): a name must fit in the lookup by name
 *   (`GET /vaults?names=` carries it percent-encoded in the URL), be well-formed Unicode, and not pass for another
 *   name (no controls, bidirectional controls, invisible characters, odd spaces; NFC). Their byte limits are
 *   choices of ours, one per holder ({@link NAME_BYTE_LIMITS}).
 *
 * Each reason names the code point by number, never by printing it: a printed override would reorder the very
 * message that reports it.
 */
import { z } from "zod";

/**
 * A name as the service documents it (`name` of `CreateVaultRequest`, `RenameVaultRequest` and
 * `CreateUtxoVaultAddressRequest`: `minLength: 1`, no maximum, no rule on characters).
 */
export const ServiceName = z.string().min(1, { message: "must not be empty" });

/**
 * The longest name in UTF-8 bytes, by who holds names to the rules of ours; the service documents no maximum,
 * so both are our choice (docs/api-notes.md, "Names"):
 * - `declared`: a name a program declares, which the provider's `check` refuses above 256 bytes: a lookup by name
 *   carries up to three URL characters per byte and must carry many names in one URL, and the names the provider
 *   derives from a declared one (`<name> (archived 1a2b3c4d)`, 20 bytes longer) must still fit under `held`;
 * - `held`: a name the emulator holds, refused above 1,024 bytes: percent-encoded (3,072 URL characters at most),
 *   its own lookup by name still fits under Node's 16 KiB limit on a request head.
 */
export const NAME_BYTE_LIMITS = { declared: 256, held: 1024 } as const;

/** Who holds a name to the rules: the provider a declared name, the emulator a name it holds. */
export type NameHolder = keyof typeof NAME_BYTE_LIMITS;

/** A rule of names. */
export type NameRule =
  | "blank"
  | "surrounding-whitespace"
  | "length"
  | "well-formed"
  | "control"
  | "bidi"
  | "invisible"
  | "whitespace"
  | "double-space"
  | "nfc"
  | "replacement";

/** A rule a name breaks, and the one-line reason (where a character is at fault: which, and where). */
export interface NameRuleViolation {
  /** The rule. */
  rule: NameRule;
  /** Why the name breaks it, e.g. `must be at most 256 bytes in UTF-8 (got 20000)`. */
  reason: string;
}

type Range = readonly [from: number, to: number];

/** C0 controls, DEL and C1 controls (general category Cc). */
const CONTROLS: readonly Range[] = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
];
/** Bidi_Control: marks, embeddings, overrides and isolates. They reorder how the text around them shows. */
const BIDI_CONTROLS: readonly Range[] = [
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];
/**
 * Default_Ignorable_Code_Point without the bidirectional controls: zero-width characters, joiners, fillers,
 * variation selectors, tags. They show as nothing, so a name with one looks like the name without it.
 */
const INVISIBLES: readonly Range[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200d],
  [0x2060, 0x2065],
  [0x206a, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];
/** White_Space other than U+0020 and the controls: they look like a space (or break the line) but are not. */
const OTHER_SPACES: readonly Range[] = [
  [0x00a0, 0x00a0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

const CHARACTER_NAMES = new Map<number, string>([
  [0x0000, "NULL"],
  [0x0009, "CHARACTER TABULATION"],
  [0x000a, "LINE FEED"],
  [0x000b, "LINE TABULATION"],
  [0x000c, "FORM FEED"],
  [0x000d, "CARRIAGE RETURN"],
  [0x001b, "ESCAPE"],
  [0x007f, "DELETE"],
  [0x0085, "NEXT LINE"],
  [0x00a0, "NO-BREAK SPACE"],
  [0x00ad, "SOFT HYPHEN"],
  [0x034f, "COMBINING GRAPHEME JOINER"],
  [0x061c, "ARABIC LETTER MARK"],
  [0x115f, "HANGUL CHOSEONG FILLER"],
  [0x1160, "HANGUL JUNGSEONG FILLER"],
  [0x1680, "OGHAM SPACE MARK"],
  [0x180e, "MONGOLIAN VOWEL SEPARATOR"],
  [0x2000, "EN QUAD"],
  [0x2001, "EM QUAD"],
  [0x2002, "EN SPACE"],
  [0x2003, "EM SPACE"],
  [0x2004, "THREE-PER-EM SPACE"],
  [0x2005, "FOUR-PER-EM SPACE"],
  [0x2006, "SIX-PER-EM SPACE"],
  [0x2007, "FIGURE SPACE"],
  [0x2008, "PUNCTUATION SPACE"],
  [0x2009, "THIN SPACE"],
  [0x200a, "HAIR SPACE"],
  [0x200b, "ZERO WIDTH SPACE"],
  [0x200c, "ZERO WIDTH NON-JOINER"],
  [0x200d, "ZERO WIDTH JOINER"],
  [0x200e, "LEFT-TO-RIGHT MARK"],
  [0x200f, "RIGHT-TO-LEFT MARK"],
  [0x2028, "LINE SEPARATOR"],
  [0x2029, "PARAGRAPH SEPARATOR"],
  [0x202a, "LEFT-TO-RIGHT EMBEDDING"],
  [0x202b, "RIGHT-TO-LEFT EMBEDDING"],
  [0x202c, "POP DIRECTIONAL FORMATTING"],
  [0x202d, "LEFT-TO-RIGHT OVERRIDE"],
  [0x202e, "RIGHT-TO-LEFT OVERRIDE"],
  [0x202f, "NARROW NO-BREAK SPACE"],
  [0x205f, "MEDIUM MATHEMATICAL SPACE"],
  [0x2060, "WORD JOINER"],
  [0x2061, "FUNCTION APPLICATION"],
  [0x2062, "INVISIBLE TIMES"],
  [0x2063, "INVISIBLE SEPARATOR"],
  [0x2064, "INVISIBLE PLUS"],
  [0x2066, "LEFT-TO-RIGHT ISOLATE"],
  [0x2067, "RIGHT-TO-LEFT ISOLATE"],
  [0x2068, "FIRST STRONG ISOLATE"],
  [0x2069, "POP DIRECTIONAL ISOLATE"],
  [0x3000, "IDEOGRAPHIC SPACE"],
  [0x3164, "HANGUL FILLER"],
  [0xfeff, "ZERO WIDTH NO-BREAK SPACE"],
  [0xffa0, "HALFWIDTH HANGUL FILLER"],
]);

function inRanges(cp: number, ranges: readonly Range[]): boolean {
  return ranges.some(([from, to]) => cp >= from && cp <= to);
}

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `U+202E RIGHT-TO-LEFT OVERRIDE`, `U+FE0F VARIATION SELECTOR-16`, `U+0086 (a C1 control character)`. */
function describe(cp: number): string {
  const name = CHARACTER_NAMES.get(cp);
  if (name !== undefined) return `${hex(cp)} ${name}`;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `${hex(cp)} VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `${hex(cp)} VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  if (cp <= 0x1f) return `${hex(cp)} (a C0 control character)`;
  if (cp >= 0x80 && cp <= 0x9f) return `${hex(cp)} (a C1 control character)`;
  return hex(cp);
}

function utf8Length(cp: number): number {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  // A lone surrogate is sent as U+FFFD, three bytes (and is refused on its own account).
  if (cp < 0x10000) return 3;
  return 4;
}

const CHARACTER_RULES: ReadonlyArray<{ rule: NameRule; ranges: readonly Range[]; why: string }> = [
  { rule: "control", ranges: CONTROLS, why: "control characters are not allowed" },
  { rule: "bidi", ranges: BIDI_CONTROLS, why: "bidirectional control characters are not allowed" },
  { rule: "invisible", ranges: INVISIBLES, why: "invisible characters are not allowed" },
  { rule: "whitespace", ranges: OTHER_SPACES, why: "the only space allowed is U+0020 SPACE" },
];

/** What a decoder writes for text it cannot decode (a lone surrogate, a malformed UTF-8 byte). */
const REPLACEMENT_CHARACTER = 0xfffd;

/**
 * The rules `name` breaks, each once (at its first offending character), in a fixed order; empty when the
 * name is fine. Positions count code points from 1 (a lone surrogate counts as one). `holder` sets the byte
 * limit ({@link NAME_BYTE_LIMITS}); a `declared` name may not hold U+FFFD either: on its way from a program a
 * lone surrogate may have been replaced by it, and the name would not be the one declared.
 */
export function nameRuleViolations(name: string, holder: NameHolder): NameRuleViolation[] {
  const maxBytes = NAME_BYTE_LIMITS[holder];
  const out: NameRuleViolation[] = [];
  const trimmed = name.trim();
  if (trimmed === "") out.push({ rule: "blank", reason: "must not be empty or only whitespace" });
  else if (trimmed !== name) {
    out.push({ rule: "surrounding-whitespace", reason: "must not start or end with whitespace" });
  }

  const codePoints = Array.from(name, (ch) => ch.codePointAt(0)!);
  const bytes = codePoints.reduce((sum, cp) => sum + utf8Length(cp), 0);
  if (bytes > maxBytes) {
    out.push({ rule: "length", reason: `must be at most ${maxBytes} bytes in UTF-8 (got ${bytes})` });
  }
  const surrogate = codePoints.findIndex((cp) => cp >= 0xd800 && cp <= 0xdfff);
  if (surrogate >= 0) {
    out.push({
      rule: "well-formed",
      reason: `must be well-formed Unicode text: position ${surrogate + 1} is a lone surrogate (${hex(codePoints[surrogate]!)}), which encodes no character`,
    });
  }
  for (const { rule, ranges, why } of CHARACTER_RULES) {
    const at = codePoints.findIndex((cp) => inRanges(cp, ranges));
    if (at >= 0) {
      out.push({ rule, reason: `contains ${describe(codePoints[at]!)} at position ${at + 1}; ${why}` });
    }
  }
  const doubleSpace = codePoints.findIndex((cp, i) => cp === 0x20 && codePoints[i + 1] === 0x20);
  if (doubleSpace >= 0) {
    out.push({
      rule: "double-space",
      reason: `contains two spaces in a row at position ${doubleSpace + 1}; use one space (they would show as one)`,
    });
  }
  const nfc = nfcDifference(name);
  if (nfc !== undefined) {
    out.push({
      rule: "nfc",
      reason: `must be in Unicode normalization form NFC: ${nfc}; declare the name in NFC (name.normalize("NFC"))`,
    });
  }
  const replaced = holder === "declared" ? codePoints.indexOf(REPLACEMENT_CHARACTER) : -1;
  if (replaced >= 0) {
    out.push({
      rule: "replacement",
      reason:
        `contains U+FFFD (the replacement character) at position ${replaced + 1}, which stands for text ` +
        "that could not be decoded: the name would not be the one declared",
    });
  }
  return out;
}

/**
 * Where `name` differs from its NFC form, as `U+0065 U+0301 at position 4 is U+00E9 in NFC`: the first
 * character (grapheme cluster) that NFC changes.
 */
function nfcDifference(name: string): string | undefined {
  const normalized = name.normalize("NFC");
  if (normalized === name) return undefined;
  const codes = (s: string) => Array.from(s, (ch) => hex(ch.codePointAt(0)!)).join(" ");
  let position = 1;
  for (const { segment } of new Intl.Segmenter("en", { granularity: "grapheme" }).segment(name)) {
    const composed = segment.normalize("NFC");
    if (composed !== segment) return `${codes(segment)} at position ${position} is ${codes(composed)} in NFC`;
    position += Array.from(segment).length;
  }
  // Compositions stay within a grapheme cluster; only a segmenter and a normalizer of different Unicode
  // versions could disagree and end up here.
  return "it differs from its NFC form";
}
