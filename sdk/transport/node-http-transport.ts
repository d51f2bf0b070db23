/**
 * One HTTP exchange over Node's own `http`/`https` modules, with keep-alive connections and a per-attempt time
 * limit (`transport: "node:http"`, which the provider uses). Node's HTTP parser is native, where undici's is
 * WebAssembly, which V8 compiles a second time with its optimizing tier once it is hot; that compile alone
 * raised a provider process's peak memory by about 30 MiB (BENCHMARKS.md, figure 5), and loading undici cost
 * about 11 MiB more. undici costs less CPU per request (figure 3), so it stays the sdk's default.
 *
 * It knows nothing of endpoints, retries or errors of the API: it sends bytes and returns status, headers and
 * body text, or throws a {@link TransportFailure} that says whether the request may have reached the server.
 */
import * as http from "node:http";
import * as https from "node:https";
import {
  flattenHeaders,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  transportFailureOf,
} from "./transport";

/** Options of {@link NodeHttpTransport}. */
export interface NodeHttpTransportOptions {
  /** Time limit of one attempt, from sending to the last body byte, in ms. */
  timeoutMs: number;
}

/** Sends requests through keep-alive connection pools of its own (one for http, one for https). */
export class NodeHttpTransport implements Transport {
  readonly #timeoutMs: number;
  readonly #agentOptions: http.AgentOptions;
  #httpAgent: http.Agent | undefined;
  #httpsAgent: https.Agent | undefined;

  constructor(options: NodeHttpTransportOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.#agentOptions = {
      // Reuse connections between calls (a Pulumi run makes many small ones). An idle connection is closed
      // after 10 s, or a second before the server's own `Keep-Alive: timeout` hint, whichever comes first.
      keepAlive: true,
      timeout: 10_000,
      maxSockets: 16,
      scheduling: "lifo",
      noDelay: true,
    };
  }

  /** The pool for the scheme, made on its first request. */
  #agentFor(secure: boolean): http.Agent {
    if (secure) {
      this.#httpsAgent ??= new https.Agent(this.#agentOptions);
      return this.#httpsAgent;
    }
    this.#httpAgent ??= new http.Agent(this.#agentOptions);
    return this.#httpAgent;
  }

  send(req: TransportRequest): Promise<TransportResponse> {
    const url = new URL(req.url);
    const secure = url.protocol === "https:";
    const agent = this.#agentFor(secure);
    const signal = req.signal;
    const state = { timedOut: false, timeoutMs: this.#timeoutMs };
    return new Promise<TransportResponse>((resolve, reject) => {
      if (signal?.aborted) {
        reject(transportFailureOf(signal.reason, signal, state));
        return;
      }
      const headers: Record<string, string | number> = { ...req.headers };
      // A fixed length rather than chunked encoding, which some servers and proxies refuse.
      if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        cleanup();
        reject(transportFailureOf(err, signal, state));
      };
      const request = (secure ? https : http).request(url, { method: req.method, headers, agent }, (res) => {
        let bodyText = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          bodyText += chunk;
        });
        res.on("error", fail);
        res.on("end", () => {
          if (settled) return;
          settled = true;
          cleanup();
          resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), bodyText });
        });
        // Closed before its last byte: the connection broke mid-body.
        res.on("close", () => {
          if (!res.complete)
            fail(Object.assign(new Error("the response ended early"), { code: "ECONNRESET" }));
        });
      });
      const timer = setTimeout(() => {
        state.timedOut = true;
        request.destroy(
          Object.assign(new Error(`no response within ${this.#timeoutMs} ms`), { code: "ETIMEDOUT" }),
        );
      }, this.#timeoutMs);
      const onAbort = () => request.destroy(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      request.on("error", fail);
      request.end(req.body);
    });
  }

  /** Closes the connections this transport opened. */
  async close(): Promise<void> {
    this.#httpAgent?.destroy();
    this.#httpsAgent?.destroy();
  }
}
