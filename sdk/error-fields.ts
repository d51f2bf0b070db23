/**
 * How much of what the service said an error keeps: each text escaped by the one rule of messages (./shown.ts)
 * and cut to a fixed length, and at most 50 issues of a few known fields each. Used by the error classes
 * (./errors.ts), whoever builds them, and by the mapping from a response (./error-from-response.ts), which builds
 * the message from the texts as they are kept.
 */
import type { ValidationIssue } from "./schema/errors";
import { shownText } from "./shown";

/** The longest `title` an error keeps, and a `requestId`, `errorType`, `resource`, method or issue `type`. */
export const ERROR_TITLE_MAX = 200;
/** The longest `detail`, `fullDetail` or path an error keeps. */
export const ERROR_DETAIL_MAX = 1000;
/** The longest message of an error. */
export const ERROR_MESSAGE_MAX = 4000;
/** How many issues an error keeps. */
export const ERROR_ISSUES_MAX = 50;
/** How many parts of an issue's `loc` are kept, each at most {@link ERROR_LOC_PART_MAX} characters. */
const LOC_MAX = 16;
const ERROR_LOC_PART_MAX = 100;
/** The longest `msg` of an issue. */
const ISSUE_MSG_MAX = 500;

/** The longest each text field of an error may be. */
const FIELD_MAX: Readonly<Record<string, number>> = {
  detail: ERROR_DETAIL_MAX,
  fullDetail: ERROR_DETAIL_MAX,
  path: ERROR_DETAIL_MAX,
};

/** `String(value)`, or a placeholder when even that throws (a hostile `toString`). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "(unprintable)";
  }
}

/** A text as an error keeps it in field `name`: escaped, cut to that field's length; `undefined` stays. */
export function shownServiceText(name: string, text: unknown): string | undefined {
  if (text === undefined || text === null) return undefined;
  return shownText(typeof text === "string" ? text : safeString(text), FIELD_MAX[name] ?? ERROR_TITLE_MAX);
}

/**
 * Issues as an error keeps them: at most {@link ERROR_ISSUES_MAX}, each only `loc` (strings and finite numbers,
 * at most 16 parts), `msg` and `type`, every text escaped and cut. Whatever else an issue held (a nested `loc`,
 * the `input` a service echoes) is dropped.
 */
export function boundedIssues(issues: unknown): ValidationIssue[] {
  if (!Array.isArray(issues)) return [];
  const out: ValidationIssue[] = [];
  for (const issue of issues.slice(0, ERROR_ISSUES_MAX)) {
    if (issue === null || typeof issue !== "object") continue;
    const { loc, msg, type } = issue as Partial<Record<string, unknown>>;
    const parts: unknown[] = Array.isArray(loc) ? loc.slice(0, LOC_MAX) : [];
    out.push({
      loc: parts
        .filter(
          (p): p is string | number => typeof p === "string" || (typeof p === "number" && Number.isFinite(p)),
        )
        .map((p) => (typeof p === "string" ? shownText(p, ERROR_LOC_PART_MAX) : p)),
      msg: shownText(typeof msg === "string" ? msg : "", ISSUE_MSG_MAX),
      type: shownText(typeof type === "string" ? type : "", ERROR_TITLE_MAX),
    });
  }
  return out;
}
