/**
 * One HTTP exchange over undici, with keep-alive connections and a per-attempt time limit.
 *
 * It knows nothing of endpoints, retries or errors of the API: it sends bytes and returns status, headers and
 * body text, or throws a {@link TransportFailure} that says whether the request may have reached the server.
 */
import { Agent, type Dispatcher, request } from "undici";

/** One request as the transport sends it. */
export interface TransportRequest {
  /** HTTP method. */
  method: "GET" | "POST" | "PUT";
  /** Absolute URL, query string included. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The exact body bytes, when there is a body. */
  body?: string;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

/** What came back. */
export interface TransportResponse {
  /** HTTP status code. */
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Body as text (empty for 204). */
  bodyText: string;
}

/** Why no response arrived. */
export type TransportFailureKind = "aborted" | "timeout" | "connect" | "connection-lost";

/** No response: the caller aborted, time ran out, the connection was refused, or it broke mid-exchange. */
export class TransportFailure extends Error {
  /** What happened. */
  readonly kind: TransportFailureKind;
  /** The request may have reached the server (false only when the connection was never made). */
  readonly maybeSent: boolean;
  /** The socket error code (`ECONNRESET`, `UND_ERR_SOCKET`…), when there was one. */
  readonly socketCode: string | undefined;
  constructor(kind: TransportFailureKind, message: string, cause?: unknown, maybeSent = kind !== "connect") {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "TransportFailure";
    this.kind = kind;
    this.maybeSent = maybeSent;
    this.socketCode = errorCode(cause);
  }
}

/** Options of {@link HttpTransport}. */
export interface HttpTransportOptions {
  /** Time limit of one attempt, from sending to the last body byte, in ms. */
  timeoutMs: number;
  /** An undici dispatcher (Agent, Pool, MockAgent, proxy…); when absent the transport makes its own Agent. */
  dispatcher?: Dispatcher;
}

/** Error codes of failures that happen before a connection exists, so nothing was sent. */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Sends requests through a keep-alive connection pool. */
export class HttpTransport {
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;

  constructor(options: HttpTransportOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        // Reuse connections between calls (a Pulumi run makes many small ones); the server's own keep-alive
        // hint, when sent, takes precedence.
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 16,
        connect: { timeout: Math.min(options.timeoutMs, 10_000) },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
  }

  /**
   * Sends one request and reads the whole response.
   *
   * @throws {TransportFailure} when no complete response arrived.
   */
  async send(req: TransportRequest): Promise<TransportResponse> {
    try {
      // Per-request undici timeouts rather than an AbortSignal.timeout per call: the signal's timer and
      // AbortSignal.any cost ~25 µs a request (BENCHMARKS.md, figure 3), and these also bind an injected dispatcher.
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        dispatcher: this.#dispatcher,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      const bodyText = await res.body.text();
      return { status: res.statusCode, headers: flattenHeaders(res.headers), bodyText };
    } catch (err) {
      if (req.signal?.aborted) throw new TransportFailure("aborted", "the request was aborted", err);
      const code = errorCode(err);
      if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
        throw new TransportFailure("timeout", `no response within ${this.#timeoutMs} ms`, err);
      }
      if (code !== undefined && CONNECT_CODES.has(code)) {
        throw new TransportFailure("connect", `could not connect (${code})`, err);
      }
      throw new TransportFailure("connection-lost", `the connection failed (${code ?? describe(err)})`, err);
    }
  }

  /** Closes the connections, if this transport opened them (an injected dispatcher is the caller's). */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** The `code` of an error or of its `cause` chain (undici wraps socket errors). */
function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR") {
      // undici's generic socket error hides the OS code in its cause; prefer the more specific one.
      const inner = (e as { cause?: { code?: unknown } }).cause?.code;
      return typeof inner === "string" ? inner : code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}
