/**
 * A tiny scripted HTTP server on 127.0.0.1 for client tests: it records every request exactly as it arrived
 * (method, path, raw query, headers, raw body) and answers from a queue of scripted responses, or from a
 * handler when the queue is empty.
 *
 * ```ts
 * const server = await startLoopbackServer();
 * server.enqueue({ status: 200, body: { total: 0, page: 1, size: 50, vaults: [] } });
 * // … call the client with baseUrl: server.url …
 * assert.equal(server.requests[0].path, "/api/v1/vaults");
 * await server.close();
 * ```
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";

/** One request as the server received it. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Path without the query string, still percent-encoded. */
  path: string;
  /** The query string without `?` (`""` when there was none), exactly as sent. */
  rawQuery: string;
  /** The query parsed into repeated values, e.g. `{ vault_ids: ["a", "b"] }`. */
  query: Record<string, string[]>;
  /** Headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes as text (`""` when there was none). */
  body: string;
  /** Position of the request since the server started (0-based). */
  index: number;
  /** The client's port: the same for two requests over one kept-alive connection. */
  remotePort: number | undefined;
}

/** A scripted answer. */
export interface ScriptedResponse {
  /** Status code; default 200. */
  status?: number;
  /** Response headers. */
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with `content-type: application/json`). */
  body?: unknown;
  /** Destroy the socket instead of answering (the client sees a reset after sending). */
  destroy?: boolean;
  /** Send the headers and half of the body, then destroy the socket (the response breaks mid-body). */
  cutBody?: boolean;
  /** Never answer (until the server closes); for client time-out tests. */
  hang?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
}

/** Computes an answer from the request, when the queue is empty. */
export type LoopbackHandler = (req: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

/** A running server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Adds answers to the queue (used first, in order). */
  enqueue(...responses: ScriptedResponse[]): void;
  /** Sets the fallback handler (default: 599 with a JSON body saying nothing was scripted). */
  setHandler(handler: LoopbackHandler): void;
  /** Requests currently being answered (received, not yet responded to). */
  inFlight(): number;
  /** Largest `inFlight()` seen so far. */
  maxInFlight(): number;
  /** Stops the server and drops every open connection. */
  close(): Promise<void>;
}

/** Options of {@link startLoopbackServer}. */
export interface LoopbackServerOptions {
  /** Serve https with this key and certificate (PEM) instead of plain http. */
  tls?: { key: string; cert: string };
}

/** Starts a server on 127.0.0.1 with a free port. */
export async function startLoopbackServer(
  handler?: LoopbackHandler,
  options: LoopbackServerOptions = {},
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedResponse[] = [];
  const sockets = new Set<Socket>();
  let fallback: LoopbackHandler =
    handler ??
    (() => ({ status: 599, body: { title: "Not scripted", detail: "no scripted response left" } }));
  let inFlight = 0;
  let maxInFlight = 0;

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const rawUrl = req.url ?? "/";
      const q = rawUrl.indexOf("?");
      const rawQuery = q === -1 ? "" : rawUrl.slice(q + 1);
      const query: Record<string, string[]> = {};
      for (const [k, v] of new URLSearchParams(rawQuery)) {
        query[k] = [...(query[k] ?? []), v];
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: q === -1 ? rawUrl : rawUrl.slice(0, q),
        rawQuery,
        query,
        headers: { ...req.headers },
        body: Buffer.concat(chunks).toString("utf8"),
        index: requests.length,
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      const scripted = queue.shift();
      Promise.resolve(scripted ?? fallback(recorded))
        .then((answer) => respond(res, answer))
        .catch((err: unknown) =>
          respond(res, { status: 598, body: { title: "handler failed", detail: String(err) } }),
        )
        .finally(() => {
          inFlight--;
        });
    });
  };
  const server: Server = options.tls ? createTlsServer(options.tls, onRequest) : createServer(onRequest);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    setHandler: (h) => {
      fallback = h;
    },
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function respond(res: ServerResponse, answer: ScriptedResponse): Promise<void> {
  if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
  if (answer.destroy) {
    res.socket?.destroy();
    return;
  }
  if (answer.hang) {
    // Resolves when the client gives up or the server closes the socket.
    await new Promise<void>((resolve) => res.on("close", () => resolve()));
    return;
  }
  const headers: Record<string, string> = { ...(answer.headers ?? {}) };
  let payload = "";
  if (answer.body !== undefined) {
    if (typeof answer.body === "string") {
      payload = answer.body;
    } else {
      payload = JSON.stringify(answer.body);
      headers["content-type"] ??= "application/json";
    }
  }
  if (answer.cutBody) {
    headers["content-length"] = String(Buffer.byteLength(payload));
    res.writeHead(answer.status ?? 200, headers);
    res.write(payload.slice(0, payload.length >> 1), () => res.socket?.destroy());
    return;
  }
  res.writeHead(answer.status ?? 200, headers);
  res.end(payload);
}
