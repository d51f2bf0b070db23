/**
 * One webhook delivery attempt: POST the raw JSON body with `X-Signature` (base64 DER ECDSA P-256/SHA-256
 * over the raw body), and classify a failure as a `TestWebhookErrorType`.
 */
import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import type { TestWebhookErrorType } from "@pulumi-custody/sdk/schema";
import { type Dispatcher, request } from "undici";
import { TARGET_REFUSED } from "./targets";

export interface AttemptResult {
  ok: boolean;
  /** HTTP status, when a response arrived. */
  status?: number;
  errorType?: TestWebhookErrorType;
  /** Human-readable reason of a failure. */
  error?: string;
  durationMs: number;
}

/** Signs webhook bodies with the emulator's P-256 key. */
export class WebhookSigner {
  private readonly key: KeyObject;
  constructor(privateKeyPem: string) {
    this.key = createPrivateKey(privateKeyPem);
  }
  /** `X-Signature` for `body`. */
  sign(body: string): string {
    return sign("sha256", Buffer.from(body), { key: this.key, dsaEncoding: "der" }).toString("base64");
  }
}

const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "EADDRNOTAVAIL",
]);
const TIMEOUT_ERRORS = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
  "ABORT_ERR",
]);
const DISCONNECT_ERRORS = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"]);

function classify(err: unknown): { errorType: TestWebhookErrorType; error: string } {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? "";
  const error = `${code ? `${code}: ` : ""}${e.message ?? String(err)}`;
  if (TIMEOUT_ERRORS.has(code) || e.name === "TimeoutError" || e.name === "AbortError") {
    return { errorType: "timeout", error };
  }
  // A host name that resolved to a refused address when connecting (webhooks/targets.ts) never connected.
  if (CONNECTION_ERRORS.has(code) || code === TARGET_REFUSED)
    return { errorType: "client_connection_error", error };
  if (DISCONNECT_ERRORS.has(code)) return { errorType: "server_disconnected", error };
  return { errorType: "unexpected_error", error };
}

/** Sends one signed POST of `body` to `url`; never throws. */
export async function deliverOnce(
  url: string,
  body: string,
  signature: string,
  opts: { timeoutMs: number; dispatcher: Dispatcher; signal?: AbortSignal },
): Promise<AttemptResult> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    const res = await request(url, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": "custody-emulator-webhooks/1",
        "x-signature": signature,
      },
      dispatcher: opts.dispatcher,
      signal,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    await res.body.dump().catch(() => undefined);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return {
      ok,
      status: res.statusCode,
      ...(ok ? {} : { errorType: "http_error" as const, error: `endpoint answered HTTP ${res.statusCode}` }),
      durationMs: Date.now() - started,
    };
  } catch (err) {
    const timedOut = timeout.aborted;
    const c = timedOut
      ? { errorType: "timeout" as const, error: `no response within ${opts.timeoutMs} ms` }
      : classify(err);
    return { ok: false, ...c, durationMs: Date.now() - started };
  }
}
