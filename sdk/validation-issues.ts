/**
 * Turning zod issues into the service's own issue shape `{loc, msg, type}` (docs/api-notes.md, "Errors"), so
 * that a request rejected locally reads like one the service rejected with 422:
 * `body.chain: must be one of "bitcoin_mainnet", …`.
 */
import type { z } from "zod";
import type { ValidationIssue } from "./schema/errors";

/** Where in the request (or response) an issue lies; the first element of `loc`. */
export type IssueLocation = "body" | "query" | "path" | "header" | "response";

const MAX_LISTED_VALUES = 12;

/**
 * Messages for issues whose schema set no message of its own. Passed per parse, so schema-level messages
 * ("must not be empty") still win, and nothing global is changed for other users of the schemas.
 */
export const requestErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${article(issue.expected)} (got ${describeType(issue.input)})`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${listValues(issue.values)}`;
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      if (Array.isArray(options) && options.length > 0) {
        return `must be one of ${listValues(options)}`;
      }
      return "does not match any of the allowed forms";
    }
    case "too_small":
      return sizeMessage(issue.origin, "at least", issue.minimum, issue.inclusive);
    case "too_big":
      return sizeMessage(issue.origin, "at most", issue.maximum, issue.inclusive);
    case "invalid_format":
      return issue.format === "regex" ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`;
    case "unrecognized_keys":
      return `has unknown field(s) ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
};

/** One issue per zod issue, `loc` prefixed with where it lies. */
export function toValidationIssues(error: z.ZodError, where: IssueLocation): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [where, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
    msg: issue.message,
    type: issue.code,
  }));
}

/** `body.details.to: must be …; query.size: must be <= 100`. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; ");
}

function sizeMessage(origin: string, bound: string, limit: unknown, inclusive: boolean | undefined): string {
  const n = Number(limit);
  switch (origin) {
    case "string":
      if (bound === "at least" && n === 1) return "must not be empty";
      return `must be ${bound} ${n} characters long`;
    case "array":
    case "set":
      return `must have ${bound} ${n} item${n === 1 ? "" : "s"}`;
    default: {
      const op = bound === "at least" ? (inclusive === false ? ">" : ">=") : inclusive === false ? "<" : "<=";
      return `must be ${op} ${String(limit)}`;
    }
  }
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map((v) => JSON.stringify(v));
  const more = values.length > MAX_LISTED_VALUES ? `, … (${values.length - MAX_LISTED_VALUES} more)` : "";
  return shown.join(", ") + more;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The non-enumerable property of a returned result that holds the issues of its body (sdk/README.md). */
const RESULT_ISSUES = "validationIssues";
const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

/**
 * What a call returns when its body broke the response schema but is returned all the same: the body as it
 * came, or `{}` when it is not a JSON object or array (so that there is something to carry the issues, which
 * say what arrived instead), with `issues` as its non-enumerable `validationIssues`.
 */
export function withResponseIssues(body: unknown, issues: readonly ValidationIssue[]): object {
  const result = body !== null && typeof body === "object" ? body : {};
  // The service's fields are snake_case; should one ever be called this, the data wins over the issues.
  if (Object.hasOwn(result, RESULT_ISSUES)) return result;
  Object.defineProperty(result, RESULT_ISSUES, {
    value: Object.freeze([...issues]),
    enumerable: false,
    writable: false,
    configurable: true,
  });
  return result;
}

/**
 * The issues of a result that a call returned although its body did not match the endpoint's response schema:
 * a write that took effect always returns its result this way, a read with `responseValidation: "warn"`
 * (sdk/README.md, "Lenient responses"). Each issue names the field (`loc`, starting with `response`) and the
 * rule it broke (`msg`). Empty for a result that matched its schema, and for any other value.
 */
export function responseValidationIssues(result: unknown): readonly ValidationIssue[] {
  if (result === null || typeof result !== "object") return NO_ISSUES;
  const own = Object.getOwnPropertyDescriptor(result, RESULT_ISSUES);
  return own !== undefined && !own.enumerable && Array.isArray(own.value)
    ? (own.value as readonly ValidationIssue[])
    : NO_ISSUES;
}
