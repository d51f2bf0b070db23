/**
 * Raw-HTTP helpers for the emulator's unit tests: start an emulator on 127.0.0.1, call it with undici (no
 * sdk), sign transaction requests, and check the shape of error bodies.
 *
 * ```ts
 * const h = await startHarness();
 * const res = await h.api("GET", "/api/v1/vaults", { query: { size: 5 } });
 * await h.close();
 * ```
 */
import assert from "node:assert/strict";
import { createPrivateKey, randomUUID, sign } from "node:crypto";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { type EndpointName, endpoints } from "@pulumi-custody/sdk/schema";
import { request } from "undici";

/** A JSON body read loosely: tests assert on its fields one by one. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests.
export type Loose = any;

export interface ApiResponse<T = Loose> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  body: T;
  text: string;
}

export interface RawCallOptions {
  /** Query parameters; arrays become repeated keys. */
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  /** A JSON value to send (serialized) … */
  json?: unknown;
  /** … or the exact body text to send. */
  body?: string;
  /** Bearer token; default: the trader token. `null` sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
}

/** Builds a query string with repeated keys for arrays. */
export function queryString(query: RawCallOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** One raw HTTP call. */
export async function rawCall(
  baseUrl: string,
  method: string,
  path: string,
  opts: RawCallOptions & { defaultToken?: string } = {},
): Promise<ApiResponse> {
  const token = opts.token === undefined ? opts.defaultToken : opts.token;
  const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.body;
  const headers: Record<string, string> = {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body !== undefined ? { "content-type": "application/json" } : {}),
    ...(opts.headers ?? {}),
  };
  const res = await request(`${baseUrl}${path}${queryString(opts.query)}`, {
    method: method as "GET",
    headers,
    body,
  });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, text };
}

export interface Harness {
  emulator: RunningEmulator;
  /** Calls the emulator as the trader API user (unless `token` says otherwise). */
  api(method: string, path: string, opts?: RawCallOptions): Promise<ApiResponse>;
  /** A signed `POST /api/v1/transactions`. */
  createTransaction(
    body: unknown,
    opts?: {
      idempotenceId?: string | null;
      timestamp?: string | number;
      signWith?: string;
      bodyText?: string;
      token?: string;
    },
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** `x-signature` of `<path>|<timestamp>|<body>` with a PEM private key (node:crypto, independent of sdk/). */
export function signMessage(privateKeyPem: string, path: string, timestamp: string, body: string): string {
  return sign("sha256", Buffer.from(`${path}|${timestamp}|${body}`), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: "der",
  }).toString("base64");
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, ...options });
  const api = (method: string, path: string, opts: RawCallOptions = {}) =>
    rawCall(emulator.baseUrl, method, path, { ...opts, defaultToken: emulator.accessToken });
  return {
    emulator,
    api,
    createTransaction(body, opts = {}) {
      const text = opts.bodyText ?? JSON.stringify(body);
      const timestamp = String(opts.timestamp ?? Date.now());
      const path = "/api/v1/transactions";
      const signature = signMessage(opts.signWith ?? emulator.apiUserPrivateKeyPem, path, timestamp, text);
      const idempotenceId = opts.idempotenceId === undefined ? randomUUID() : opts.idempotenceId;
      return api("POST", path, {
        body: text,
        token: opts.token,
        headers: {
          "x-signature": signature,
          "x-timestamp": timestamp,
          ...(idempotenceId !== null ? { "x-idempotence-id": idempotenceId } : {}),
        },
      });
    },
    close: () => emulator.close(),
  };
}

/** Asserts the error shape of the API: status, `title`, `detail`, and `request_id` = `x-request-id`. */
export function assertError(res: ApiResponse, status: number, extra: Record<string, unknown> = {}): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.equal(typeof res.body?.title, "string", `no title in ${res.text}`);
  assert.ok(res.body.detail !== undefined, `no detail in ${res.text}`);
  assert.equal(res.body.request_id, res.headers["x-request-id"], "request_id must equal x-request-id");
  for (const [k, v] of Object.entries(extra)) assert.deepEqual(res.body[k], v, `${k} of ${res.text}`);
}

/** Asserts a 422 whose `detail` contains an issue at `loc` (and of `type`, if given). */
export function assertValidationIssue(res: ApiResponse, loc: (string | number)[], type?: string): void {
  assertError(res, 422, { title: "Cannot process data due to validation error" });
  const issue = (res.body.detail as { loc: unknown[]; msg: string; type: string }[]).find(
    (i) => JSON.stringify(i.loc) === JSON.stringify(loc),
  );
  assert.ok(issue, `no issue at ${JSON.stringify(loc)} in ${res.text}`);
  assert.equal(typeof issue.msg, "string");
  if (type) assert.equal(issue.type, type, `type of the issue at ${JSON.stringify(loc)}`);
}

/** Asserts that `body` parses with the endpoint table's response schema of `name`. */
export function assertResponseShape(name: EndpointName, body: unknown): void {
  const schema = (
    endpoints[name] as { response?: { safeParse(v: unknown): { success: boolean; error?: unknown } } }
  ).response;
  assert.ok(schema, `${name} has no response schema`);
  const result = schema.safeParse(body);
  assert.ok(result.success, `${name} response does not match its schema: ${JSON.stringify(result.error)}`);
}

/** A vault name no other test uses. */
export function uniqueName(prefix = "test vault"): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}
