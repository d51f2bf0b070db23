/**
 * The emulator's HTTP server (fastify). Routes of `/api/v1` are registered by walking the endpoint table
 * (`sdk/schema/endpoints.ts`) and all go through one pipeline:
 *
 *   rate limit (onRequest) → faults and latency → bearer auth (401) → write permission (403)
 *   → request signature for signed endpoints (401) → path, query and body validation with the table's
 *   zod schemas (one 422 listing every issue) → handler → after-commit faults → response.
 *
 * Every response carries `x-request-id`, and every error body carries the same value as `request_id`.
 * fastify's own errors (bad content type, body too large, malformed JSON, bad URL) are mapped to 4xx bodies
 * of the same shape; only an unexpected exception is a 500.
 */
import { randomUUID } from "node:crypto";
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { type EndpointName, type EndpointSpec, endpoints } from "@pulumi-custody/sdk/schema";
import fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { ApiError, forbidden, pathNotFound, unauthorized, validationFailed } from "./api-error";
import type { EmulatorContext } from "./context";
import { CONTROL_PREFIX, registerControlRoutes } from "./control/routes";
import type { FaultDecision } from "./faults";
import { buildOpenApiDocument } from "./openapi";
import { verifyRequestSignature } from "./request-signature";
import { handlers } from "./routes";
import type { HandlerContext, HandlerResult, Principal } from "./routes/types";
import { validate } from "./validation";

/** Largest accepted request body (bytes); larger bodies get a 413. */
export const BODY_LIMIT = 1_048_576;

interface RequestState {
  startedAt: number;
  /** Emulator time of arrival, ISO-8601. */
  arrivedAt?: string;
  rawBody?: string;
  fault?: string;
  route?: string;
}

const requestState = new WeakMap<FastifyRequest, RequestState>();
function stateOf(req: FastifyRequest): RequestState {
  let s = requestState.get(req);
  if (!s) {
    s = { startedAt: performance.now() };
    requestState.set(req, s);
  }
  return s;
}

function pathOf(url: string): string {
  const i = url.indexOf("?");
  return i < 0 ? url : url.slice(0, i);
}

/** Sends an error body with `request_id`; the single place error responses are written. */
function sendError(req: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  reply.header("x-request-id", req.id);
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).send({ ...err.body, request_id: req.id });
}

class MalformedJsonError extends Error {
  constructor(
    message: string,
    readonly position: number | undefined,
  ) {
    super(message);
  }
}

/** The header of an answer after which the server reads nothing more from the connection. */
const CLOSE = { connection: "close" };

/**
 * What node's HTTP parser rejected, as the emulator answers it: status, title, detail. `inBody`: the error
 * came after the request head was parsed, so it is about the body; the parser reads a body of a known length
 * without looking at it, so only chunked framing can be malformed there.
 */
function clientErrorAnswer(code: string | undefined, inBody: boolean): [number, string, string] {
  if (inBody && code?.startsWith("HPE_"))
    return [400, "Bad request", "The request body's chunked transfer encoding is malformed"];
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [
        431,
        "Request header fields too large",
        "The request's header block exceeds the server's limit; send fewer or smaller headers",
      ];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request timeout", "The request was not received in time"];
    default:
      return [400, "Bad request", "The request line or a header is malformed"];
  }
}

/** Connections already answered by {@link answerClientError}: node reports each later chunk's error too. */
const answeredSockets = new WeakSet<Duplex>();

/** The response node has attached to a connection: the one of the request being read or answered. */
type HttpSocket = Duplex & { _httpMessage?: ServerResponse | null };

/**
 * Answers a request that node's HTTP parser rejected (`clientError`: a header block over the limit, a
 * malformed request line, header or chunked body, a header or request timeout) in the API's error shape,
 * with `Connection: close`, then closes the connection: nothing more can be read from it, and a keep-alive
 * client that is not told so sends its next request there and loses it. fastify's default answer has no
 * `Connection: close`.
 *
 * A broken body (malformed chunked encoding, a body not complete at the request timeout) comes after its
 * request head was parsed, so the request is already being handled: while no byte of its response is
 * written, the error answer takes its place (the handler never gets a complete body, and its late answer
 * is dropped); once one is, nothing can be added and the connection is just closed.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed || answeredSockets.has(socket)) return;
  answeredSockets.add(socket);
  const inFlight = (socket as HttpSocket)._httpMessage ?? undefined;
  // The request being handled is not read to its end: the error is in its body. Otherwise an earlier
  // request's answer is pending or being written, and bytes written now would pass for it or corrupt it.
  const inBody = inFlight !== undefined && !inFlight.req.complete;
  if (!socket.writable || (inFlight && (!inBody || inFlight.headersSent))) {
    socket.destroy();
    return;
  }
  if (inFlight) {
    // Node writes nothing more of this response: its bytes would follow the error answer.
    inFlight.writeHead = (() => inFlight) as unknown as ServerResponse["writeHead"];
    inFlight.write = () => true;
    inFlight.end = (() => inFlight) as unknown as ServerResponse["end"];
  }
  const [status, title, detail] = clientErrorAnswer(err.code, inBody);
  const requestId = randomUUID();
  const body = JSON.stringify({ title, detail, request_id: requestId });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nx-request-id: ${requestId}\r\n\r\n${body}`,
  );
  // Closing while the client still sends would reset the connection and could drop the answer on its way:
  // keep reading (and discarding) until the client closes its side, for at most a few seconds.
  socket.on("data", () => undefined);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), 5_000);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/** Maps anything thrown to an `ApiError`: fastify's client errors keep their 4xx, the rest is a 500. */
function toApiError(err: unknown, req?: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof MalformedJsonError) {
    return validationFailed([
      {
        loc: err.position === undefined ? ["body"] : ["body", err.position],
        msg: "JSON decode error",
        type: "json_invalid",
      },
    ]);
  }
  const e = err as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(415, {
        title: "Unsupported media type",
        detail: `Content-Type '${req?.headers["content-type"] ?? ""}' is not supported; send application/json`,
      });
    // The rest of the body is not read: the connection ends after the answer, and the answer says so.
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError(
        413,
        { title: "Payload too large", detail: `The request body exceeds the limit of ${BODY_LIMIT} bytes` },
        CLOSE,
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError(
        400,
        { title: "Bad request", detail: "Content-Length does not match the body" },
        CLOSE,
      );
    case "FST_ERR_BAD_URL":
      return new ApiError(400, { title: "Bad request", detail: "The request URL is malformed" });
  }
  const status = e.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError(status, {
      title: STATUS_CODES[status] ?? "Bad request",
      detail: e.message ?? "Bad request",
    });
  }
  return new ApiError(500, { title: "Internal server error", detail: "An unexpected error occurred" });
}

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== "string") return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

function principalOf(ctx: EmulatorContext, token: string | undefined): Principal | undefined {
  if (!token) return undefined;
  const c = ctx.store.credentials;
  if (token === c.accessToken) return { userId: ctx.store.apiUserId, role: "trader", token };
  if (token === c.viewerAccessToken) return { userId: ctx.store.viewerUserId, role: "viewer", token };
  return undefined;
}

function injectedError(kind: string): ApiError {
  switch (kind) {
    case "http_429":
      return new ApiError(
        429,
        { title: "Too many requests", detail: "Rate limit exceeded (injected fault)" },
        { "retry-after": "1" },
      );
    case "http_408":
      return new ApiError(408, {
        title: "Request timeout",
        detail: "The request timed out (injected fault)",
      });
    default:
      return new ApiError(500, {
        title: "Internal server error",
        detail: "An unexpected error occurred (injected fault)",
      });
  }
}

/** How long the server waits for a client, ms (see `EmulatorOptions`). */
export interface ServerTimeouts {
  /** For a request's head (request line and headers), from the connection or the previous answer on. */
  headersMs: number;
  /** For a whole request, body included. */
  requestMs: number;
  /** For a connection with no request in flight and no traffic (kept alive between requests). */
  idleMs: number;
}

/** What {@link buildServer} needs besides the emulator's state. */
export interface ServerOptions {
  /** The base URL of the links the emulator hands out: its own address, or the configured public URL. */
  baseUrl: () => string;
  /** How long the server waits for clients. */
  timeouts: ServerTimeouts;
}

/**
 * Closes a connection idle for `idleMs` unless its request is still being answered with nothing waiting to
 * be written (latency, a webhook test that waits for its receiver): that is the emulator's time, not the
 * client's. A response whose bytes the client does not read, and a connection with no request in flight,
 * are closed.
 */
function onIdleSocket(socket: Duplex): void {
  const inFlight = (socket as HttpSocket)._httpMessage;
  if (inFlight && !inFlight.writableEnded && socket.writableLength === 0) return;
  socket.destroy();
}

/** The emulator's fastify server: the API, the control API and the error pipeline; not yet listening. */
export function buildServer(ctx: EmulatorContext, opts: ServerOptions): FastifyInstance {
  const { headersMs, requestMs, idleMs } = opts.timeouts;
  const app = fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    forceCloseConnections: true,
    clientErrorHandler: answerClientError,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: (error, req, reply) => {
      sendError(req, reply, toApiError(error, req));
    },
    // A shared server must not let clients hold connections for ever (slowloris): node answers 408 to a
    // request whose head or whole is late, checked every `connectionsCheckingInterval` (30 s by default,
    // far too coarse for short timeouts).
    http: {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersMs / 4))),
    },
    requestTimeout: requestMs,
    keepAliveTimeout: idleMs,
    connectionTimeout: idleMs,
  });
  // With a listener, node no longer destroys every socket idle for `connectionTimeout`; `onIdleSocket` decides.
  app.server.on("timeout", onIdleSocket);

  // One JSON parser that keeps the raw text: request signatures cover the exact body bytes.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = body as string;
    stateOf(req).rawBody = text;
    if (text.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      const m = /position (\d+)/.exec((err as Error).message);
      done(new MalformedJsonError((err as Error).message, m ? Number(m[1]) : undefined), undefined);
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const apiError = toApiError(err, req);
    if (apiError.status >= 500) console.error(`custody-emulator: ${req.method} ${req.url}:`, err);
    sendError(req, reply, apiError);
  });
  app.setNotFoundHandler((req, reply) => {
    sendError(req, reply, pathNotFound(pathOf(req.url)));
  });

  app.addHook("onRequest", (req, reply, done) => {
    stateOf(req).arrivedAt = ctx.clock.isoNow();
    reply.header("x-request-id", req.id);
    if (!req.url.startsWith("/api/")) return done();
    // Rate limit per token (unknown tokens share their client address's window): 429.
    const token = bearerToken(req);
    const key = principalOf(ctx, token) ? `token:${token}` : `ip:${req.ip}`;
    const verdict = ctx.rateLimiter.hit(key);
    reply.headers(verdict.headers);
    if (!verdict.allowed) {
      sendError(
        req,
        reply,
        new ApiError(
          429,
          {
            title: "Too many requests",
            detail: `Rate limit of ${verdict.limit} requests per ${ctx.rateLimiter.windowMs / 1000} s exceeded; retry in ${verdict.retryAfterSeconds} s`,
          },
          { "retry-after": String(verdict.retryAfterSeconds) },
        ),
      );
      return;
    }
    done();
  });

  // An acknowledged write is on disk: a write request's answer leaves only once the state file holds its
  // change (concurrent writes share one file write), so `kill -9` right after a 201 loses nothing and no id
  // is handed out twice.
  app.addHook("onSend", async (req, _reply, payload) => {
    if (req.method !== "GET" && req.method !== "HEAD") await ctx.flush();
    return payload;
  });

  app.addHook("onResponse", (req, reply, done) => {
    if (!req.url.startsWith(CONTROL_PREFIX)) logRequest(ctx, req, reply.statusCode);
    done();
  });

  app.get("/openapi.json", async (_req, reply) => reply.send(buildOpenApiDocument()));

  for (const [name, spec] of Object.entries(endpoints) as [EndpointName, EndpointSpec][]) {
    app.route({
      method: spec.method,
      url: spec.path.replace(/\{(\w+)\}/g, ":$1"),
      handler: (req, reply) => runEndpoint(ctx, opts, name, spec, req, reply),
    });
  }

  registerControlRoutes(app, ctx);
  return app;
}

function logRequest(ctx: EmulatorContext, req: FastifyRequest, status: number): void {
  const s = stateOf(req);
  ctx.requestLog.add({
    time: s.arrivedAt ?? ctx.clock.isoNow(),
    method: req.method,
    path: pathOf(req.url),
    url: req.url,
    ...(s.route ? { route: s.route } : {}),
    status,
    request_id: req.id,
    duration_ms: Math.round((performance.now() - s.startedAt) * 100) / 100,
    ...(s.fault ? { fault: s.fault } : {}),
  });
}

/** Applies a non-latency fault: an error response, or a destroyed socket. */
function applyFault(
  ctx: EmulatorContext,
  req: FastifyRequest,
  reply: FastifyReply,
  fault: string,
): FastifyReply {
  stateOf(req).fault = fault;
  if (fault === "connection_reset" || fault === "after_commit_reset") {
    reply.hijack();
    logRequest(ctx, req, 0);
    req.raw.socket?.destroy();
    return reply;
  }
  return sendError(req, reply, injectedError(fault));
}

async function runEndpoint(
  ctx: EmulatorContext,
  opts: ServerOptions,
  name: EndpointName,
  spec: EndpointSpec,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const state = stateOf(req);
  state.route = spec.path;
  const decision: FaultDecision = ctx.faults.decide(spec.method, spec.path, name);
  if (decision.latencyMs > 0) await sleep(decision.latencyMs);
  if (decision.fault && !decision.fault.startsWith("after_commit"))
    return applyFault(ctx, req, reply, decision.fault);

  let result: HandlerResult;
  try {
    const principal = principalOf(ctx, bearerToken(req));
    if (!principal) {
      throw unauthorized(
        req.headers.authorization === undefined
          ? "Missing Authorization header: send 'Authorization: Bearer <access token>'"
          : "Invalid or expired access token",
      );
    }
    if (spec.method !== "GET" && principal.role !== "trader") {
      throw forbidden(`The ${principal.role} role may not call ${spec.method} ${spec.path}`);
    }
    if (spec.signed) {
      const header = (h: string) => {
        const v = req.headers[h];
        return typeof v === "string" ? v : undefined;
      };
      verifyRequestSignature(
        {
          path: pathOf(req.url),
          timestamp: header("x-timestamp"),
          signature: header("x-signature"),
          rawBody: state.rawBody ?? (typeof req.body === "string" ? req.body : ""),
        },
        ctx.store.credentials.apiUserPublicKeyPem,
        ctx.clock.now(),
      );
    }
    const inputs = validateInputs(spec, req);
    const handlerCtx = {
      ...inputs,
      principal,
      emulator: ctx,
      request: req,
      requestId: req.id,
      // Never the request's Host header: a client must not steer where the links the emulator hands out point.
      baseUrl: opts.baseUrl(),
    } as HandlerContext<typeof name>;
    result = await (
      handlers[name] as (c: HandlerContext<typeof name>) => HandlerResult | Promise<HandlerResult>
    )(handlerCtx);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (decision.fault) return applyFault(ctx, req, reply, decision.fault);
    return sendError(req, reply, err);
  }
  // "Fault after commit": the write above is applied, but the client never learns it.
  if (decision.fault) return applyFault(ctx, req, reply, decision.fault);
  for (const [k, v] of Object.entries(result.headers ?? {})) reply.header(k, v);
  reply.code(result.status);
  return result.body === undefined ? reply.send() : reply.send(result.body);
}

/** Validates path, query and body with the table's schemas; all issues are reported in one 422. */
function validateInputs(
  spec: EndpointSpec,
  req: FastifyRequest,
): { params: unknown; query: unknown; body: unknown } {
  const issues = [];
  const out: { params: unknown; query: unknown; body: unknown } = { params: {}, query: {}, body: undefined };
  if (spec.pathParams) {
    const r = validate(spec.pathParams, req.params, "path");
    if (r.ok) out.params = r.value;
    else issues.push(...r.issues);
  }
  if (spec.query) {
    const r = validate(spec.query, req.query ?? {}, "query");
    if (r.ok) out.query = r.value;
    else issues.push(...r.issues);
  }
  if (spec.body) {
    if (req.body === undefined || req.body === "") {
      issues.push({ loc: ["body"], msg: "Field required", type: "missing" });
    } else {
      const r = validate(spec.body, req.body, "body");
      if (r.ok) out.body = r.value;
      else issues.push(...r.issues);
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
  return out;
}
