/**
 * One HTTP exchange over undici, with keep-alive connections and a per-attempt time limit: the default
 * transport, and the one for a caller's own dispatcher (a proxy, a mock, its own pool).
 *
 * It knows nothing of endpoints, retries or errors of the API: it sends bytes and returns status, headers and
 * body text, or throws a {@link TransportFailure} that says whether the request may have reached the server.
 */
import { Agent, type Dispatcher, request } from "undici";
import {
  flattenHeaders,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  transportFailureOf,
} from "./transport";

/** Options of {@link UndiciTransport}. */
export interface UndiciTransportOptions {
  /** Time limit of one attempt, from sending to the last body byte, in ms. */
  timeoutMs: number;
  /** An undici dispatcher (Agent, Pool, ProxyAgent, MockAgent…); when absent the transport makes its own Agent. */
  dispatcher?: Dispatcher;
}

/** Sends requests through a keep-alive connection pool, its own or the caller's. */
export class UndiciTransport implements Transport {
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;

  constructor(options: UndiciTransportOptions) {
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

  async send(req: TransportRequest): Promise<TransportResponse> {
    try {
      // Per-request undici timeouts rather than an AbortSignal.timeout per call: the signal's timer and
      // AbortSignal.any cost ~25 µs a request (BENCHMARKS.md, figure 3), and these also bind the dispatcher.
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
      const code = (err as { code?: unknown } | undefined)?.code;
      const timedOut = code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
      throw transportFailureOf(err, req.signal, { timedOut, timeoutMs: this.#timeoutMs });
    }
  }

  /** Closes the connections, if this transport opened them (an injected dispatcher is the caller's). */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}
