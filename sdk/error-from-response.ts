/**
 * The one mapping from an error response to an error class (docs/api-notes.md, "Errors").
 */

import { boundedIssues, shownServiceText } from "./error-fields";
import {
  CustodyErrorCode as Code,
  CustodyAuthenticationError,
  CustodyBadRequestError,
  CustodyConflictError,
  CustodyError,
  type CustodyErrorCode,
  type CustodyErrorFields,
  CustodyNotFoundError,
  CustodyPermissionError,
  CustodyRateLimitError,
  CustodyServerError,
  CustodyTimeoutError,
  CustodyValidationError,
} from "./errors";
import { SecretRedactor } from "./redact";
import type { ValidationIssue } from "./schema/errors";
import { describeIssues } from "./validation-issues";

/** An error response and the call it answered. */
export interface ErrorResponse {
  /** HTTP status (not 2xx). */
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** Response body text. */
  bodyText: string;
  /** Method of the call. */
  method: string;
  /** Path of the call (no query string). */
  path: string;
  /** The endpoint's `resource`, used when a 404/409 body does not name one. */
  resource?: string;
  /** Attempts made. */
  attempts: number;
  /** For 429: the wait the service asked for, in ms. */
  retryAfterMs?: number;
}

type ErrorClass = new (code: CustodyErrorCode, message: string, fields?: CustodyErrorFields) => CustodyError;

const BY_STATUS: Record<number, [ErrorClass, CustodyErrorCode]> = {
  400: [CustodyBadRequestError, Code.BAD_REQUEST],
  401: [CustodyAuthenticationError, Code.AUTHENTICATION],
  403: [CustodyPermissionError, Code.PERMISSION],
  404: [CustodyNotFoundError, Code.NOT_FOUND],
  408: [CustodyTimeoutError, Code.TIMEOUT],
  409: [CustodyConflictError, Code.CONFLICT],
  422: [CustodyValidationError, Code.VALIDATION],
  429: [CustodyRateLimitError, Code.RATE_LIMITED],
};

/** Texts for statuses whose body says nothing (e.g. the real 429 body is `{}`). */
const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  408: "Request timeout",
  409: "Already exists",
  422: "Validation error",
  429: "Rate limit exceeded",
  500: "Unexpected error",
};

const MAX_TEXT_DETAIL = 500;

const NO_SECRETS = new SecretRedactor([]);

/**
 * The error for a non-2xx response: class and code by status, fields from the body and headers.
 *
 * Everything the server sent is scrubbed by `redactor` before any field or the message is made of it, and
 * after the body is parsed: scrubbing the raw text would miss a secret written with JSON escapes (`\/`,
 * `\uXXXX`), which parsing turns back into the secret (sdk/redact.ts). The body and the `x-request-id` header
 * are scrubbed together, every piece found before any is replaced, so that a secret split across the title and
 * the detail, or across the header and the body, loses both parts. The texts an error keeps are then escaped and
 * cut (./error-fields.ts) and scrubbed once more, together (a 422 `loc` joined with dots, as a JWT has them, or
 * an escape that spells what the raw text did not), and so is the message made of them.
 */
export function errorFromResponse(res: ErrorResponse, redactor: SecretRedactor = NO_SECRETS): CustodyError {
  const [body, requestIdHeader] = redactor.together([
    parseBody(res.bodyText),
    res.headers["x-request-id"],
  ]) as [unknown, string | undefined];
  const record = isRecord(body) ? body : {};
  const issues = readIssues(record.detail);
  const title =
    str(record.title) ?? STATUS_TEXT[res.status] ?? STATUS_TEXT[Math.floor(res.status / 100) * 100];
  const detail =
    issues !== undefined
      ? describeKept(issues)
      : (str(record.detail) ?? (typeof body === "string" && body !== "" ? truncate(body) : undefined));
  const texts: Record<(typeof SHOWN_TEXTS)[number], string | undefined> = {
    title,
    detail,
    fullDetail: str(record.full_detail),
    requestId: str(record.request_id) ?? requestIdHeader,
    errorType: str(record.error_type),
    systemErrorCode: str(record.system_error_code),
    resource: str(record.resource) ?? (res.status === 404 || res.status === 409 ? res.resource : undefined),
  };
  const shown = redactor.together(SHOWN_TEXTS.map((name) => shownServiceText(name, texts[name])));
  const fields: CustodyErrorFields = {
    ...Object.fromEntries(SHOWN_TEXTS.map((name, i) => [name, shown[i]])),
    status: res.status,
    method: res.method,
    path: res.path,
    issues: issues && redactor.value(boundedIssues(issues)),
    retryAfterMs: res.status === 429 ? res.retryAfterMs : undefined,
    // The service may have done the work before it timed out or failed.
    outcomeUnknown: res.status === 408 || res.status >= 500,
    attempts: res.attempts,
    body,
  };
  const [cls, code] =
    BY_STATUS[res.status] ??
    (res.status >= 500 ? [CustodyServerError, Code.SERVER] : [CustodyError, Code.HTTP_STATUS]);
  return new cls(code, redactor.text(messageFor(fields)), fields);
}

/** The texts of the service an error shows, as fields of {@link CustodyErrorFields}. */
const SHOWN_TEXTS = [
  "title",
  "detail",
  "fullDetail",
  "requestId",
  "errorType",
  "systemErrorCode",
  "resource",
] as const satisfies readonly (keyof CustodyErrorFields)[];

/** `GET /api/v1/vaults/… failed with 404 Not found: Vault not found (resource: vault; request id: …)`. */
function messageFor(f: CustodyErrorFields): string {
  let text = `${f.method} ${f.path} failed with ${f.status}`;
  if (f.title) text += ` ${f.title}`;
  if (f.detail && f.detail !== f.title) text += `: ${f.detail}`;
  const extras: string[] = [];
  if (f.errorType) extras.push(`error type: ${f.errorType}`);
  if (f.resource) extras.push(`resource: ${f.resource}`);
  if (f.retryAfterMs !== undefined) extras.push(`retry after ${Math.ceil(f.retryAfterMs / 1000)} s`);
  if (f.attempts !== undefined && f.attempts > 1) extras.push(`after ${f.attempts} attempts`);
  if (f.requestId) extras.push(`request id: ${f.requestId}`);
  return extras.length > 0 ? `${text} (${extras.join("; ")})` : text;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The 422 `detail` list, when `detail` is one (`[{loc, msg, type}]`). */
function readIssues(detail: unknown): ValidationIssue[] | undefined {
  if (!Array.isArray(detail)) return undefined;
  return detail.filter(isRecord).map((d) => ({
    loc: Array.isArray(d.loc) ? d.loc.filter((p) => typeof p === "string" || typeof p === "number") : [],
    msg: str(d.msg) ?? "",
    type: str(d.type) ?? "",
  }));
}

/** The issues as one line: those an error keeps, and how many more there were. */
function describeKept(issues: readonly ValidationIssue[]): string {
  const kept = boundedIssues(issues);
  const more = issues.length - kept.length;
  return `${describeIssues(kept)}${more > 0 ? `; and ${more} more issue${more === 1 ? "" : "s"}` : ""}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function truncate(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_TEXT_DETAIL ? `${oneLine.slice(0, MAX_TEXT_DETAIL)}…` : oneLine;
}
