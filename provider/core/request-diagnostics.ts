/**
 * What the provider says about its requests: one notice the first time the client-side rate limiter holds a
 * request for more than a second (so a slow `up` is never a silent one), and, with `CUSTODY_TRACE=1`, one
 * line per request on stderr (method, path, status, duration; never a header, body or query string).
 */
import type { RequestEvent } from "@pulumi-custody/sdk";
import { notifyUser } from "./notify";
import { SETTINGS } from "./settings";

/** Rate-limiter waits shorter than this are normal pacing and not worth a word. */
export const NOTABLE_WAIT_MS = 1000;
/** The environment variable that turns the request trace on. */
export const TRACE_ENV_VAR = "CUSTODY_TRACE";

let waitNoticeGiven = false;

/** The `onRequest` hook of the provider's clients, for a client limited to `requestsPerMinute`. */
export function requestDiagnostics(requestsPerMinute: number): (event: RequestEvent) => void {
  const trace = /^(1|true|yes)$/i.test(process.env[TRACE_ENV_VAR] ?? "");
  return (event) => {
    if (trace) process.stderr.write(`${traceLine(event)}\n`);
    if (event.queuedMs > NOTABLE_WAIT_MS && !waitNoticeGiven) {
      waitNoticeGiven = true;
      const spec = SETTINGS.requestsPerMinute;
      void notifyUser(
        `requests to the custody API are being held by the client-side rate limit of ${requestsPerMinute} ` +
          `per minute (a request waited ${(event.queuedMs / 1000).toFixed(1)} s). If the service allows more, ` +
          `raise it with \`pulumi config set ${spec.configKey} <n>\` or ${spec.envVar}; 0 turns the limit off.`,
      );
    }
  };
}

/** `custody: GET /api/v1/vaults/… 200 12 ms`, plus the wait and the attempt when they matter. */
export function traceLine(event: RequestEvent): string {
  const outcome = event.status !== undefined ? String(event.status) : `failed (${event.failure})`;
  const extras = [
    event.queuedMs > 0 ? `queued ${Math.round(event.queuedMs)} ms` : "",
    event.attempt > 1 ? `attempt ${event.attempt}` : "",
  ].filter(Boolean);
  return `custody: ${event.method} ${event.path} ${outcome} ${Math.round(event.durationMs)} ms${
    extras.length ? ` (${extras.join(", ")})` : ""
  }`;
}

/** Lets the wait notice be given again (tests). */
export function resetRequestDiagnostics(): void {
  waitNoticeGiven = false;
}
