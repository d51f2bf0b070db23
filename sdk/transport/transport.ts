/**
 * What a transport is, for the request pipeline: one HTTP exchange that returns status, headers and body text,
 * or throws a {@link TransportFailure} saying whether the request may have reached the server. Two implement
 * it: `undici-transport.ts` (the default) and `node-http-transport.ts` (`transport: "node:http"`).
 */

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

/** Sends one request; implemented by both transports. */
export interface Transport {
  /**
   * Sends one request and reads the whole response.
   *
   * @throws {TransportFailure} when no complete response arrived.
   */
  send(req: TransportRequest): Promise<TransportResponse>;
  /** Closes the connections the transport opened. */
  close(): Promise<void>;
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

/**
 * Error codes of failures that happen before a connection exists, so nothing was sent: no route or no
 * listener, and a TLS handshake that refused the server's certificate (the request is sent only after it).
 */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * The failure for an error thrown while no complete response had arrived, by the same rules for both
 * transports, in this order: the caller's abort, the transport's own time limit (`timeout.timedOut`), a refused
 * or unreachable connection (nothing sent), else a lost one.
 */
export function transportFailureOf(
  err: unknown,
  signal: AbortSignal | undefined,
  timeout: { timedOut: boolean; timeoutMs: number },
): TransportFailure {
  if (err instanceof TransportFailure) return err;
  if (signal?.aborted) return new TransportFailure("aborted", "the request was aborted", err);
  if (timeout.timedOut)
    return new TransportFailure("timeout", `no response within ${timeout.timeoutMs} ms`, err);
  const code = errorCode(err);
  if (code !== undefined && CONNECT_CODES.has(code)) {
    return new TransportFailure("connect", `could not connect (${code})`, err);
  }
  return new TransportFailure("connection-lost", `the connection failed (${code ?? describe(err)})`, err);
}

/** Header names in lower case, repeated values joined with `, `. */
export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
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
