/**
 * The single path every call takes: validate → build the request once → (rate limit → sign → send) with
 * retries → map errors → parse the response. Driven entirely by the endpoint table (`schema/endpoints.ts`),
 * so each namespace method is a line of data (`resources/namespaces.ts`).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { ERROR_DETAIL_MAX, ERROR_TITLE_MAX } from "./error-fields";
import { errorFromResponse } from "./error-from-response";
import {
  CustodyAbortedError,
  CustodyConfigurationError,
  CustodyConnectionError,
  type CustodyError,
  CustodyErrorCode,
  CustodyResponseValidationError,
  CustodyValidationError,
} from "./errors";
import type { SecretRedactor } from "./redact";
import { UUID_PATTERN } from "./schema/common";
import { prebuiltParse } from "./schema/compiled-validator";
import { type EndpointName, type EndpointSpec, endpoints, fillPath } from "./schema/endpoints";
import type { ValidationIssue } from "./schema/errors";
import { withErrorMap } from "./schema/open";
import { shownText } from "./shown";
import { encodeQuery } from "./transport/query-string";
import type { RateLimiter, RateLimitStatus } from "./transport/rate-limiter";
import { type AttemptFailure, type RetryPolicy, serverRequestedDelayMs } from "./transport/retry-policy";
import type { Sleep } from "./transport/sleep";
import { type Transport, TransportFailure, type TransportResponse } from "./transport/transport";
import {
  describeIssues,
  type IssueLocation,
  requestErrorMap,
  toValidationIssues,
  withResponseIssues,
} from "./validation-issues";

/** The success value of an endpoint: its parsed response schema, or `undefined` for 204 endpoints. */
export type EndpointResponse<N extends EndpointName> = (typeof endpoints)[N] extends {
  response: infer R extends z.ZodType;
}
  ? z.output<R>
  : undefined;

/** Per-call options every namespace method accepts last. */
export interface CallOptions {
  /** Cancels the call (including a pending retry wait); the call then rejects with `CustodyAbortedError`. */
  signal?: AbortSignal;
}

/** The inputs of one call; each part is validated against the endpoint's schema before anything is sent. */
export interface RequestArgs extends CallOptions {
  /** Values for the `{placeholders}` of the path. */
  pathParams?: Record<string, string>;
  /** Query parameters (API names); arrays are sent as repeated keys. */
  query?: object;
  /** The JSON body (API names). It is sent exactly as given, after validation. */
  body?: unknown;
  /** Extra request headers (e.g. `x-idempotence-id`). Authorization and signing headers cannot be overridden. */
  headers?: Record<string, string>;
}

/** Where diagnostics go. Messages never contain credentials. */
export interface CustodyLogger {
  /** Retries and other routine events. */
  debug?(message: string, fields: Record<string, unknown>): void;
  /** 2xx responses returned although their body did not match its schema (every write; reads with "warn"). */
  warn?(message: string, fields: Record<string, unknown>): void;
}

/**
 * One attempt of a call, as the `onRequest` hook sees it. It holds no header, body or query string, so no
 * credential can reach a log through it.
 */
export interface RequestEvent {
  /** HTTP method. */
  method: string;
  /** Path with its ids filled in, without the query string, e.g. `/api/v1/vaults/…/name`. */
  path: string;
  /** Attempt number of this call, from 1. */
  attempt: number;
  /** HTTP status; absent when no response arrived. */
  status?: number;
  /** Why no response arrived: `connect` (nothing sent), `connection-lost`, `timeout` or `aborted`. */
  failure?: string;
  /** Time from sending to the response (or failure), ms. */
  durationMs: number;
  /** Time the client-side rate limiter held the attempt before it was sent, ms. */
  queuedMs: number;
  /**
   * Of `queuedMs`, the time the rate limit itself held the attempt, ms: the client's own rate or the service's
   * announced quota spent, or a 429's pause. The rest of a wait is for the answers to earlier requests, which a
   * client waits for while it learns its share of the service's quota (at the start of each window, or while
   * programs start together): it lasts as long as the service takes to answer, and is no sign of a limit.
   */
  rateLimitedMs: number;
  /**
   * The rate limiter after this attempt, when the client has one: whether the service's announced quota or the
   * client's own rate paces requests, that limit, and how long the requests waiting now are expected to wait.
   */
  rateLimit?: RateLimitStatus;
  /**
   * For a 2xx whose body did not match the endpoint's response schema: each field and the rule it broke (`loc`
   * starts with `response`), secrets removed; absent otherwise. The call's result carries the same list
   * (`responseValidationIssues(result)`) when it is returned; a read with `responseValidation: "throw"` rejects.
   */
  validationIssues?: readonly ValidationIssue[];
}

/** Signs `<path>|<timestamp>|<body>` with the API user's key (`signing/sign-request.ts`); gives `x-signature`. */
export type RequestSigner = (path: string, timestamp: string, body: string) => string;

/**
 * The access token: a value, or a function that gives the token in force at each call (a rotated token, or one
 * read from the environment when it is used), so that a client outlives its token.
 */
export type AccessToken = string | (() => string | Promise<string>);

/** Everything the pipeline needs; built by `CustodyClient`. */
export interface RequestPipelineOptions {
  baseUrl: string;
  accessToken: AccessToken;
  /** Checks a token a function gave; throws a configuration error that never echoes it. */
  checkToken: (token: unknown) => string;
  signer?: RequestSigner;
  transport: Transport;
  retryPolicy: RetryPolicy;
  limiter?: RateLimiter;
  userAgent: string;
  responseValidation: "throw" | "warn";
  logger?: CustodyLogger;
  /** Called after every attempt (see {@link RequestEvent}); errors it throws are ignored. */
  onRequest?: (event: RequestEvent) => void;
  now: () => number;
  sleep: Sleep;
  /**
   * Scrubs the client's secrets from anything the service sends back into an error, a log line or an event; the
   * pipeline adds each token a token function gives.
   */
  redactor: SecretRedactor;
  /** Default number of pages `listAll` keeps in flight. */
  listConcurrency: number;
}

const IDEMPOTENCY_HEADER = "x-idempotence-id";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Headers the pipeline owns; a caller's values for them are ignored. */
const RESERVED_HEADERS = new Set(["authorization", "x-signature", "x-timestamp", "content-type", "host"]);

/** A 2xx body, parsed; `issues` when it broke the endpoint's response schema (then `value` is the body as it came). */
interface ParsedSuccess {
  value: unknown;
  issues?: ValidationIssue[];
}

/** Validates, sends, retries and parses calls to the endpoints of the table. */
export class RequestPipeline {
  readonly #o: RequestPipelineOptions;
  /** Default number of pages `listAll` keeps in flight. */
  readonly listConcurrency: number;

  /** Scrubs the secrets from anything the service sends back before an error, log line or event shows it. */
  readonly #redactor: SecretRedactor;

  constructor(options: RequestPipelineOptions) {
    this.#o = options;
    this.#redactor = options.redactor;
    this.listConcurrency = options.listConcurrency;
  }

  /**
   * The token of this call. A token function is asked once per call (its retries send the same token); each new
   * token joins the secrets that are scrubbed, and stays there after a rotation.
   */
  async #token(): Promise<string> {
    const source = this.#o.accessToken;
    if (typeof source === "string") return source;
    const token = this.#o.checkToken(await source());
    // Its forms are worked out the first time it is seen; a known token costs a set lookup.
    this.#redactor.add(token);
    return token;
  }

  /**
   * Calls one endpoint of the table.
   *
   * @throws {CustodyValidationError} (`ERR_CUSTODY_INVALID_REQUEST`) when the inputs break the schema; nothing is sent.
   * @throws {CustodyConfigurationError} when the endpoint is signed and no private key was configured.
   * @throws {CustodyError} subclasses for error responses and transport failures (see `errors.ts`).
   */
  async request<N extends EndpointName>(name: N, args: RequestArgs = {}): Promise<EndpointResponse<N>> {
    const spec: EndpointSpec = endpoints[name];
    if (spec.signed && this.#o.signer === undefined) {
      throw new CustodyConfigurationError(
        CustodyErrorCode.SIGNING_KEY_MISSING,
        `${spec.method} ${spec.path} must be signed; pass apiUserPrivateKey (the API user's P-256 ` +
          "private key in PEM form) to the CustodyClient",
        { method: spec.method, path: spec.path },
      );
    }
    const path = this.#validate(spec, args);
    const url = this.#o.baseUrl + path + encodeQuery(args.query as Record<string, unknown> | undefined);
    // Serialised once: the signature covers these exact bytes, and every retry sends them again.
    const bodyText = spec.body !== undefined ? JSON.stringify(args.body) : undefined;
    const headers = this.#headers(spec, args, bodyText !== undefined, await this.#token());
    return (await this.#send(name, spec, path, url, headers, bodyText, args.signal)) as EndpointResponse<N>;
  }

  /** Checks path params, query, body and headers; returns the filled path. */
  #validate(spec: EndpointSpec, args: RequestArgs): string {
    const issues: ValidationIssue[] = [];
    const check = (schema: z.ZodType | undefined, value: unknown, where: IssueLocation) => {
      if (schema === undefined) return;
      if (value === undefined && where === "body") {
        issues.push({ loc: ["body"], msg: "is required", type: "missing" });
        return;
      }
      // The compiled validator settles the common case, a valid input; zod words the issues of the others.
      if (prebuiltParse(schema)?.(value ?? {}) !== undefined) return;
      const result = withErrorMap(requestErrorMap, () =>
        schema.safeParse(value ?? {}, { error: requestErrorMap }),
      );
      if (!result.success) issues.push(...toValidationIssues(result.error, where));
    };
    check(spec.pathParams, args.pathParams, "path");
    check(spec.query, args.query, "query");
    check(spec.body, args.body, "body");
    if (spec.query === undefined && args.query !== undefined && Object.keys(args.query).length > 0) {
      issues.push({ loc: ["query"], msg: "this endpoint takes no query parameters", type: "unexpected" });
    }
    if (spec.body === undefined && args.body !== undefined) {
      issues.push({ loc: ["body"], msg: "this endpoint takes no body", type: "unexpected" });
    }
    // encodeURIComponent cannot encode a lone surrogate; say which parameter has one.
    for (const [key, value] of args.query === undefined ? [] : Object.entries(args.query)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === "string" && LONE_SURROGATE.test(v))) {
        issues.push({ loc: ["query", key], msg: "must be well-formed Unicode text", type: "invalid_string" });
      }
    }
    const idempotencyId = args.headers && lowerCaseKeys(args.headers)[IDEMPOTENCY_HEADER];
    if (idempotencyId !== undefined && !UUID_PATTERN.test(idempotencyId)) {
      issues.push({ loc: ["header", IDEMPOTENCY_HEADER], msg: "must be a UUID", type: "invalid_format" });
    }
    if (issues.length > 0) {
      throw new CustodyValidationError(
        CustodyErrorCode.INVALID_REQUEST,
        `Invalid request for ${spec.method} ${spec.path}: ${describeIssues(issues)}`,
        { issues, method: spec.method, path: spec.path },
      );
    }
    return fillPath(spec.path, (args.pathParams ?? {}) as Record<string, string>);
  }

  #headers(spec: EndpointSpec, args: RequestArgs, hasBody: boolean, token: string): Record<string, string> {
    const headers: Record<string, string> = {};
    if (args.headers) {
      for (const [k, v] of Object.entries(lowerCaseKeys(args.headers))) {
        if (!RESERVED_HEADERS.has(k)) headers[k] = v;
      }
    }
    headers.accept = "application/json";
    headers["user-agent"] = this.#o.userAgent;
    headers.authorization = `Bearer ${token}`;
    if (hasBody) headers["content-type"] = "application/json";
    // Generated once per call, so every retry carries the same id and the service runs it at most once.
    if (spec.retry === "idempotency-key" && headers[IDEMPOTENCY_HEADER] === undefined) {
      headers[IDEMPOTENCY_HEADER] = randomUUID();
    }
    return headers;
  }

  async #send(
    name: EndpointName,
    spec: EndpointSpec,
    path: string,
    url: string,
    baseHeaders: Record<string, string>,
    bodyText: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      let res: TransportResponse;
      const queuedAt = this.#o.now();
      let sentAt = queuedAt;
      // How long the limit had held the line when this attempt joined it: the difference when it leaves is
      // how long the limit, not the service's answers, held it.
      const heldBefore = this.#o.limiter?.heldMs() ?? 0;
      let limitedMs = 0;
      // Whether the limiter let this attempt go: it is then told of the answer, or that none came.
      let admitted = false;
      // The limiter's number for this attempt: its answer says which requests were counted before it.
      let ticket: number | undefined;
      try {
        ticket = await this.#o.limiter?.acquire(signal);
        admitted = true;
        sentAt = this.#o.now();
        limitedMs = Math.max(0, (this.#o.limiter?.heldMs() ?? 0) - heldBefore);
        const headers = { ...baseHeaders };
        if (spec.signed) {
          // A fresh timestamp per attempt (the signature is valid for a short window) over the same bytes.
          const timestamp = String(Math.floor(this.#o.now()));
          headers["x-timestamp"] = timestamp;
          headers["x-signature"] = this.#o.signer!(path, timestamp, bodyText ?? "");
        }
        res = await this.#o.transport.send({ method: spec.method, url, headers, body: bodyText, signal });
      } catch (err) {
        if (admitted) this.#o.limiter?.release();
        const failure = toTransportFailure(err, signal);
        this.#report(spec, path, attempt, { queuedAt, sentAt, limitedMs }, { failure: failure.kind });
        const delay = this.#o.retryPolicy.delayBeforeRetry(
          spec.retry,
          { kind: "transport", aborted: failure.kind === "aborted" },
          attempt - 1,
        );
        if (delay === undefined) throw this.#transportError(spec, path, failure, attempt);
        this.#o.logger?.debug?.(`retrying ${spec.method} ${path} in ${delay} ms after ${failure.message}`, {
          method: spec.method,
          path,
          attempt,
          delayMs: delay,
        });
        await this.#wait(delay, signal, spec, path, attempt);
        continue;
      }

      // The service's quota headers (x-ratelimit-*) plan the next requests.
      this.#o.limiter?.settle(res.headers, ticket);
      if (res.status === 429 && this.#o.limiter) {
        // Spent: every caller waits, whether or not this call is retried (a create is not).
        const asked = serverRequestedDelayMs(429, res.headers, this.#o.now());
        if (asked !== undefined) this.#o.limiter.pauseUntil(this.#o.now() + asked);
      }

      if (res.status >= 200 && res.status < 300) {
        const { value, issues } = this.#parseSuccess(spec, res);
        const outcome =
          issues === undefined ? { status: res.status } : { status: res.status, validationIssues: issues };
        this.#report(spec, path, attempt, { queuedAt, sentAt, limitedMs }, outcome);
        if (issues === undefined) return value;
        return this.#unvalidated(name, spec, path, res, attempt, value, issues);
      }
      this.#report(spec, path, attempt, { queuedAt, sentAt, limitedMs }, { status: res.status });

      const failure: AttemptFailure = { kind: "status", status: res.status, headers: res.headers };
      const delay = this.#o.retryPolicy.delayBeforeRetry(spec.retry, failure, attempt - 1);
      if (delay === undefined) throw this.#responseError(spec, path, res, attempt);
      if (res.status === 429 && this.#o.limiter) this.#o.limiter.pauseUntil(this.#o.now() + delay);
      this.#o.logger?.debug?.(`retrying ${spec.method} ${path} in ${delay} ms after status ${res.status}`, {
        method: spec.method,
        path,
        attempt,
        status: res.status,
        delayMs: delay,
        requestId: this.#requestIdOf(res),
      });
      await this.#wait(delay, signal, spec, path, attempt);
    }
  }

  /** The response's `x-request-id`, scrubbed and shown by the one rule: a header is the server's text like its body. */
  #requestIdOf(res: TransportResponse): string | undefined {
    const id = res.headers["x-request-id"];
    return id === undefined ? undefined : shownText(this.#redactor.text(id), ERROR_TITLE_MAX);
  }

  #report(
    spec: EndpointSpec,
    path: string,
    attempt: number,
    { queuedAt, sentAt, limitedMs }: { queuedAt: number; sentAt: number; limitedMs: number },
    outcome: { status?: number; failure?: string; validationIssues?: readonly ValidationIssue[] },
  ): void {
    if (!this.#o.onRequest) return;
    try {
      this.#o.onRequest({
        method: spec.method,
        path,
        attempt,
        ...outcome,
        durationMs: Math.max(0, this.#o.now() - sentAt),
        queuedMs: Math.max(0, sentAt - queuedAt),
        rateLimitedMs: Math.min(limitedMs, Math.max(0, sentAt - queuedAt)),
        ...(this.#o.limiter ? { rateLimit: this.#o.limiter.status() } : {}),
      });
    } catch {
      // A broken hook must not break the call.
    }
  }

  async #wait(
    ms: number,
    signal: AbortSignal | undefined,
    spec: EndpointSpec,
    path: string,
    attempt: number,
  ): Promise<void> {
    try {
      await this.#o.sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted) {
        throw new CustodyAbortedError(CustodyErrorCode.ABORTED, `${spec.method} ${path} was aborted`, {
          method: spec.method,
          path,
          attempts: attempt,
          cause: err,
        });
      }
      throw err;
    }
  }

  /** The parsed body of a 2xx answer, and its issues when it broke the endpoint's response schema. */
  #parseSuccess(spec: EndpointSpec, res: TransportResponse): ParsedSuccess {
    if (spec.response === undefined || res.status === 204) return { value: undefined };
    let body: unknown;
    try {
      body = JSON.parse(res.bodyText);
    } catch {
      body = res.bodyText;
    }
    // The compiled validator accepts what zod accepts, and returns what zod would; zod still words the errors.
    const fast = prebuiltParse(spec.response)?.(body);
    if (fast !== undefined) return { value: fast.data };
    const schema = spec.response;
    const result = withErrorMap(requestErrorMap, () => schema.safeParse(body, { error: requestErrorMap }));
    if (result.success) return { value: result.data };
    // Issue paths hold the body's own keys (a record's keys are the server's choice): scrubbed like the body.
    return { value: body, issues: this.#redactor.value(toValidationIssues(result.error, "response")) };
  }

  /**
   * A 2xx body that broke its schema. A call that took effect (any write: POST or PUT) never fails because of
   * the shape of its answer: it returns the body with the issues on it, and warns. A read returns it so only
   * with `responseValidation: "warn"`; otherwise it throws, since no typed value can be made of the body.
   */
  #unvalidated(
    name: EndpointName,
    spec: EndpointSpec,
    path: string,
    res: TransportResponse,
    attempt: number,
    body: unknown,
    issues: ValidationIssue[],
  ): unknown {
    // Issue paths hold the body's own keys: shown by the one rule, as an error's texts are.
    const described = shownText(this.#redactor.text(describeIssues(issues)), ERROR_DETAIL_MAX);
    const requestId = this.#requestIdOf(res);
    const tookEffect = spec.method !== "GET";
    if (tookEffect || this.#o.responseValidation === "warn") {
      this.#o.logger?.warn?.(
        `${spec.method} ${path} (${name}): ${tookEffect ? "the call took effect, but " : ""}the response ` +
          `does not match its schema: ${described}. It is returned as it came; ` +
          "responseValidationIssues(result) lists the issues.",
        { method: spec.method, path, status: res.status, requestId, issues },
      );
      return withResponseIssues(body, issues);
    }
    // The body and the request id header scrubbed together: a secret split across them loses both parts.
    const [scrubbedBody, requestIdOfResponse] = this.#redactor.together([body, res.headers["x-request-id"]]);
    throw new CustodyResponseValidationError(
      CustodyErrorCode.RESPONSE_INVALID,
      this.#redactor.text(
        `${spec.method} ${path} answered ${res.status}, but the response does not match the ${name} response ` +
          `schema: ${described}. A read changes nothing; the body as it came ` +
          "(secrets removed) is given by `rawBody()`.",
      ),
      {
        status: res.status,
        method: spec.method,
        path,
        requestId: requestIdOfResponse as string | undefined,
        attempts: attempt,
        issues,
        body: scrubbedBody,
      },
    );
  }

  #responseError(spec: EndpointSpec, path: string, res: TransportResponse, attempts: number): CustodyError {
    return errorFromResponse(
      {
        status: res.status,
        headers: res.headers,
        bodyText: res.bodyText,
        method: spec.method,
        path,
        resource: spec.resource,
        attempts,
        retryAfterMs:
          res.status === 429 ? serverRequestedDelayMs(429, res.headers, this.#o.now()) : undefined,
      },
      this.#redactor,
    );
  }

  #transportError(
    spec: EndpointSpec,
    path: string,
    failure: TransportFailure,
    attempts: number,
  ): CustodyError {
    const fields = {
      method: spec.method,
      path,
      attempts,
      // A copy without the raw bytes a parser error may keep (they can echo the Authorization header).
      cause: this.#redactor.error(failure),
      // A read has no effect to be unsure about; a write that may have arrived does.
      outcomeUnknown: failure.maybeSent && spec.method !== "GET",
    };
    const what = `${spec.method} ${path}`;
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
    if (failure.kind === "aborted") {
      return new CustodyAbortedError(CustodyErrorCode.ABORTED, `${what} was aborted${tries}`, fields);
    }
    if (failure.kind === "connect") {
      return new CustodyConnectionError(
        CustodyErrorCode.CONNECTION,
        `${what}: ${failure.message}; nothing was sent${tries}`,
        fields,
      );
    }
    if (spec.retry === "never") {
      return new CustodyConnectionError(
        CustodyErrorCode.OUTCOME_UNKNOWN,
        `${what}: ${failure.message} after the request was sent. It is not retried automatically because a ` +
          "repeat could do it twice (a second object, proposal or delivery), and it may or may not have taken " +
          "effect: look up what happened before trying again.",
        fields,
      );
    }
    const code =
      failure.kind === "timeout" ? CustodyErrorCode.REQUEST_TIMEOUT : CustodyErrorCode.CONNECTION_LOST;
    return new CustodyConnectionError(code, `${what}: ${failure.message}${tries}`, fields);
  }
}

function toTransportFailure(err: unknown, signal: AbortSignal | undefined): TransportFailure {
  if (err instanceof TransportFailure) return err;
  // The rate limiter's wait rejects with the signal's reason when the caller aborts; nothing was sent yet.
  if (signal?.aborted) return new TransportFailure("aborted", "the request was aborted", err, false);
  throw err;
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}
