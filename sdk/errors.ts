/**
 * Errors of the custody client: one base class, one subclass per status family (docs/api-notes.md,
 * "Errors"), and local failures (configuration, validation before sending, transport, unreadable responses).
 *
 * Callers branch on `code` (stable strings, like undici's `UND_ERR_*`) or on the class, never on message text.
 * No error ever holds the access token, the Authorization header or the private key: errors keep only what the
 * service said plus the method and path, and `toJSON` / `util.inspect` print an explicit allow-list of fields.
 *
 * What an error carries of a response is bounded and known: the status, and the service's texts (`title`,
 * `detail`, the 422 issues, the request id…), each escaped by the one rule of messages (./shown.ts: control,
 * C1, bidi and zero-width characters, lone surrogates) and cut to a fixed length, so that a hostile or broken
 * service can neither forge a line of a terminal nor flood a log through an error. The body itself, which may be
 * anything, is kept only behind {@link CustodyError.rawBody}, which nothing prints or serializes.
 */
import { inspect } from "node:util";
import {
  boundedIssues,
  ERROR_DETAIL_MAX,
  ERROR_MESSAGE_MAX,
  ERROR_TITLE_MAX,
  safeString,
  shownServiceText,
} from "./error-fields";
import type { ValidationIssue } from "./schema/errors";
import { escapeControls, shownText } from "./shown";

export { responseValidationIssues } from "./validation-issues";

/** Every `code` a {@link CustodyError} can carry. */
export const CustodyErrorCode = {
  /** 400: a precondition failed; see `errorType`. */
  BAD_REQUEST: "ERR_CUSTODY_BAD_REQUEST",
  /** 401: the access token is missing, expired or invalid. */
  AUTHENTICATION: "ERR_CUSTODY_AUTHENTICATION",
  /** 403: the API user may not do this. */
  PERMISSION: "ERR_CUSTODY_PERMISSION",
  /** 404: the object (see `resource`) does not exist. */
  NOT_FOUND: "ERR_CUSTODY_NOT_FOUND",
  /** 408: the service timed out; the request may or may not have taken effect. */
  TIMEOUT: "ERR_CUSTODY_TIMEOUT",
  /** 409: an object with that name already exists. */
  CONFLICT: "ERR_CUSTODY_CONFLICT",
  /** 422: the service rejected the request; see `issues`. */
  VALIDATION: "ERR_CUSTODY_VALIDATION",
  /** The request was rejected locally, before anything was sent; see `issues`. */
  INVALID_REQUEST: "ERR_CUSTODY_INVALID_REQUEST",
  /** 429: too many requests; see `retryAfterMs`. */
  RATE_LIMITED: "ERR_CUSTODY_RATE_LIMITED",
  /** 5xx: the service failed; the request may or may not have taken effect. */
  SERVER: "ERR_CUSTODY_SERVER",
  /** Any other unexpected HTTP status. */
  HTTP_STATUS: "ERR_CUSTODY_HTTP_STATUS",
  /** The connection could not be made; nothing reached the service. */
  CONNECTION: "ERR_CUSTODY_CONNECTION",
  /** The connection failed or timed out after the request was sent and the call is not safe to repeat. */
  OUTCOME_UNKNOWN: "ERR_CUSTODY_OUTCOME_UNKNOWN",
  /** The connection broke after the request was sent (reset, socket closed). */
  CONNECTION_LOST: "ERR_CUSTODY_CONNECTION_LOST",
  /** No response within `timeoutMs`. */
  REQUEST_TIMEOUT: "ERR_CUSTODY_REQUEST_TIMEOUT",
  /** The caller's `AbortSignal` fired. */
  ABORTED: "ERR_CUSTODY_ABORTED",
  /** The 2xx body of a read did not match its schema; `rawBody()` gives what arrived, `issues` where it differed. */
  RESPONSE_INVALID: "ERR_CUSTODY_RESPONSE_INVALID",
  /** A client option is missing or malformed. */
  INVALID_CONFIG: "ERR_CUSTODY_INVALID_CONFIG",
  /** A plain `http://` base URL for a non-loopback host. */
  INSECURE_URL: "ERR_CUSTODY_INSECURE_URL",
  /** A signed endpoint was called without `apiUserPrivateKey`. */
  SIGNING_KEY_MISSING: "ERR_CUSTODY_SIGNING_KEY_MISSING",
  /** `apiUserPrivateKey` is not a P-256 private key in PEM form. */
  INVALID_PRIVATE_KEY: "ERR_CUSTODY_INVALID_PRIVATE_KEY",
} as const;
/** A stable error code string. */
export type CustodyErrorCode = (typeof CustodyErrorCode)[keyof typeof CustodyErrorCode];

/** What an error is built from; every field is optional because local errors have no response. */
export interface CustodyErrorFields {
  /** HTTP status of the response; `undefined` when there was none. */
  status?: number;
  /** `title` of the error body. */
  title?: string;
  /** `detail` of the error body (for 422, the issues joined into one line). */
  detail?: string;
  /** `full_detail` of the error body, when sent. */
  fullDetail?: string;
  /** `request_id` of the body, or the `x-request-id` response header. */
  requestId?: string;
  /** `error_type` of a typed 400 (e.g. `invalid_vault_type`). */
  errorType?: string;
  /** `system_error_code` of a 400, when sent. */
  systemErrorCode?: string;
  /** `resource` of a 404/409 `ResourceError` (e.g. `vault`). */
  resource?: string;
  /** HTTP method of the call. */
  method?: string;
  /** Path of the call, including `/api/v1`, without the query string. */
  path?: string;
  /** 422 and local validation: the issues, `{loc, msg, type}` like the service's `detail` list. */
  issues?: ValidationIssue[];
  /** 429: how long the service asked us to wait, in milliseconds. */
  retryAfterMs?: number;
  /** The request may have taken effect although no success response arrived; reconcile before repeating. */
  outcomeUnknown?: boolean;
  /** How many attempts were made (1 = no retry). */
  attempts?: number;
  /**
   * The parsed response body (JSON) or its text, secrets removed; kept so that nothing the service said is
   * lost, but only behind {@link CustodyError.rawBody}: never printed or serialized.
   */
  body?: unknown;
  /** The underlying error (a socket error, a zod error). */
  cause?: unknown;
}

const BRAND = Symbol.for("pulumi-custody.CustodyError");

/** The responses' bodies, kept out of the errors' own properties so that no walk over an error meets them. */
const BODIES = new WeakMap<CustodyError, unknown>();

/**
 * Base of every error the client throws. Carries the fields of the service's error body (`title`, `detail`,
 * `requestId`, `errorType`, `resource`), the HTTP `status`, and the `method` and `path` of the call, each text
 * escaped and cut (see the module comment); the body only through {@link CustodyError.rawBody}.
 */
export class CustodyError extends Error {
  /** Stable machine-readable code; see {@link CustodyErrorCode}. */
  readonly code: CustodyErrorCode;
  /** HTTP status; `undefined` when no response arrived (or the error is local). */
  readonly status: number | undefined;
  /** The error body's `title`, escaped, at most 200 characters. */
  readonly title: string | undefined;
  /** The error body's `detail` (for 422, the issues joined), escaped, at most 1,000 characters. */
  readonly detail: string | undefined;
  /** The error body's `full_detail`, escaped, at most 1,000 characters. */
  readonly fullDetail: string | undefined;
  /** The service's request id (body `request_id` or header `x-request-id`); quote it to support. */
  readonly requestId: string | undefined;
  /** Typed precondition error (`error_type`) of a 400. */
  readonly errorType: string | undefined;
  /** `system_error_code` of a 400. */
  readonly systemErrorCode: string | undefined;
  /** Kind of object a 404/409 is about (`vault`, `user`, `path`…). */
  readonly resource: string | undefined;
  /** HTTP method of the failed call. */
  readonly method: string | undefined;
  /** Path of the failed call (no host, no query string). */
  readonly path: string | undefined;
  /** True when the request may have taken effect; reconcile (e.g. look the object up) before repeating. */
  readonly outcomeUnknown: boolean;
  /** Attempts made, retries included. */
  readonly attempts: number | undefined;

  /**
   * @param message - the message; escaped and cut to 4,000 characters here
   * @param fields - the texts among them are escaped and cut here, whoever builds the error
   */
  constructor(code: CustodyErrorCode, message: string, fields: CustodyErrorFields = {}) {
    super(
      shownText(escapeControls(safeString(message)), ERROR_MESSAGE_MAX),
      fields.cause === undefined ? undefined : { cause: fields.cause },
    );
    this.code = code;
    this.status = fields.status;
    this.title = shownServiceText("title", fields.title);
    this.detail = shownServiceText("detail", fields.detail);
    this.fullDetail = shownServiceText("fullDetail", fields.fullDetail);
    this.requestId = shownServiceText("requestId", fields.requestId);
    this.errorType = shownServiceText("errorType", fields.errorType);
    this.systemErrorCode = shownServiceText("systemErrorCode", fields.systemErrorCode);
    this.resource = shownServiceText("resource", fields.resource);
    this.method = shownServiceText("method", fields.method);
    this.path = shownServiceText("path", fields.path);
    this.outcomeUnknown = fields.outcomeUnknown ?? false;
    this.attempts = fields.attempts;
    if (fields.body !== undefined) BODIES.set(this, fields.body);
  }

  /**
   * The response body as it arrived (parsed JSON, or text), with the client's secrets removed but nothing
   * escaped or cut: for code that inspects what the service said. It is not a property, so no log line,
   * `JSON.stringify`, `util.inspect` or spread of the error ever shows it; escape what you show of it
   * (`shownText`). `undefined` for a local error, and for an error without a body.
   */
  rawBody(): unknown {
    return BODIES.get(this);
  }

  /** True for errors of this client, even from another copy of the package (a Pulumi closure may hold one). */
  static isCustodyError(value: unknown): value is CustodyError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /**
   * The safe, loggable fields: bounded in size and depth whatever the service sent, and never throws. The
   * credentials and the body are never among them.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      name: safeString(this.name),
      code: this.code,
      message: safeString(this.message),
    };
    try {
      for (const key of SAFE_FIELDS) {
        const value = (this as unknown as Record<string, unknown>)[key];
        if (value === undefined || (key === "outcomeUnknown" && value === false)) continue;
        out[key] = key === "issues" ? boundedIssues(value as unknown[]) : value;
      }
      const cause = this.cause;
      if (cause instanceof Error) {
        const code = (cause as { code?: unknown }).code;
        out.cause = {
          name: shownText(safeString(cause.name), ERROR_TITLE_MAX),
          message: shownText(safeString(cause.message), ERROR_DETAIL_MAX),
          code:
            typeof code === "string" || typeof code === "number"
              ? shownText(String(code), ERROR_TITLE_MAX)
              : undefined,
        };
      }
    } catch {
      // A field that cannot be read (a subclass's getter) leaves the rest out rather than break a logger.
    }
    return out;
  }

  /** `util.inspect` / `console.log` print the stack and the safe fields only. */
  [inspect.custom](_depth: number, options: object): string {
    try {
      const { name: _n, message: _m, ...fields } = this.toJSON();
      return `${this.stack ?? `${this.name}: ${this.message}`} ${inspect(fields, { ...options, depth: 4 })}`;
    } catch {
      return `${safeString(this.name)}: ${safeString(this.message)}`;
    }
  }
}
Object.defineProperty(CustodyError.prototype, BRAND, { value: true });

const SAFE_FIELDS = [
  "status",
  "title",
  "detail",
  "fullDetail",
  "requestId",
  "errorType",
  "systemErrorCode",
  "resource",
  "method",
  "path",
  "issues",
  "retryAfterMs",
  "outcomeUnknown",
  "attempts",
] as const;

/** Sets `name` on the prototype so that the stack header (captured at construction) names the subclass. */
function setErrorName(cls: { prototype: Error }, name: string): void {
  Object.defineProperty(cls.prototype, "name", { value: name, writable: true, configurable: true });
}
setErrorName(CustodyError, "CustodyError");

/** 400: a precondition failed. `errorType` names which, when the service typed it (e.g. `invalid_vault_type`). */
export class CustodyBadRequestError extends CustodyError {}
setErrorName(CustodyBadRequestError, "CustodyBadRequestError");

/** 401: the access token is missing, expired or invalid. */
export class CustodyAuthenticationError extends CustodyError {}
setErrorName(CustodyAuthenticationError, "CustodyAuthenticationError");

/** 403: the API user lacks the permission. */
export class CustodyPermissionError extends CustodyError {}
setErrorName(CustodyPermissionError, "CustodyPermissionError");

/** 404: the object does not exist; `resource` says which kind (`path` for an unknown route). */
export class CustodyNotFoundError extends CustodyError {}
setErrorName(CustodyNotFoundError, "CustodyNotFoundError");

/** 408: the service timed out. The request may have taken effect (`outcomeUnknown`). */
export class CustodyTimeoutError extends CustodyError {}
setErrorName(CustodyTimeoutError, "CustodyTimeoutError");

/** 409: an object with that name already exists. */
export class CustodyConflictError extends CustodyError {}
setErrorName(CustodyConflictError, "CustodyConflictError");

/**
 * A request that breaks the API's rules: rejected by the service (422, code `ERR_CUSTODY_VALIDATION`) or, before
 * sending, by the client's own schemas (no status, code `ERR_CUSTODY_INVALID_REQUEST`). `issues` lists each
 * problem as `{loc, msg, type}`, where `loc` starts with `body`, `query`, `path` or `header`.
 */
export class CustodyValidationError extends CustodyError {
  /** The problems, one per offending field (at most 50, each text escaped and cut). */
  readonly issues: ValidationIssue[];
  constructor(code: CustodyErrorCode, message: string, fields: CustodyErrorFields = {}) {
    super(code, message, fields);
    this.issues = boundedIssues(fields.issues);
  }
}
setErrorName(CustodyValidationError, "CustodyValidationError");

/** 429: too many requests. `retryAfterMs` is the wait the service asked for, when it said. */
export class CustodyRateLimitError extends CustodyError {
  /** Milliseconds to wait before the next request, from `Retry-After` or `x-ratelimit-reset`. */
  readonly retryAfterMs: number | undefined;
  constructor(code: CustodyErrorCode, message: string, fields: CustodyErrorFields = {}) {
    super(code, message, fields);
    this.retryAfterMs = fields.retryAfterMs;
  }
}
setErrorName(CustodyRateLimitError, "CustodyRateLimitError");

/** 5xx: the service failed. The request may have taken effect (`outcomeUnknown`). */
export class CustodyServerError extends CustodyError {}
setErrorName(CustodyServerError, "CustodyServerError");

/**
 * No response arrived: the connection was refused, reset or closed, or `timeoutMs` passed. `outcomeUnknown`
 * is true when the request may have reached the service (code `ERR_CUSTODY_CONNECTION_LOST`,
 * `ERR_CUSTODY_REQUEST_TIMEOUT`, or `ERR_CUSTODY_OUTCOME_UNKNOWN` for a create that is never retried).
 */
export class CustodyConnectionError extends CustodyError {}
setErrorName(CustodyConnectionError, "CustodyConnectionError");

/** The caller's `AbortSignal` fired; nothing is retried after that. */
export class CustodyAbortedError extends CustodyError {}
setErrorName(CustodyAbortedError, "CustodyAbortedError");

/**
 * The 2xx body of a read (GET) did not match the response schema, so no typed value can be returned for it
 * (with `responseValidation: "throw"`, the default). A read changes nothing; `rawBody()` gives what the service
 * sent (secrets removed), and `issues` names each field and the rule it broke. A write that took effect never
 * throws this: it returns its result with the issues on it (`responseValidationIssues(result)`).
 */
export class CustodyResponseValidationError extends CustodyError {
  /** Where the body differs from the schema; `loc` starts with `response` (bounded as any issues are). */
  readonly issues: ValidationIssue[];
  constructor(code: CustodyErrorCode, message: string, fields: CustodyErrorFields = {}) {
    super(code, message, fields);
    this.issues = boundedIssues(fields.issues);
  }
}
setErrorName(CustodyResponseValidationError, "CustodyResponseValidationError");

/** A client option is missing or malformed (bad `baseUrl`, plain http, bad key, missing signing key…). */
export class CustodyConfigurationError extends CustodyError {}
setErrorName(CustodyConfigurationError, "CustodyConfigurationError");
