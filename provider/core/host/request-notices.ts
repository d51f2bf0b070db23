/**
 * What the provider says about its requests: one notice the first time the rate limit holds a request for
 * more than a second, saying which limit holds it and how long the requests waiting then are expected to wait
 * (so a slow `up` is never a silent one), and, with `CUSTODY_TRACE=1`, one line per request on stderr (method,
 * path, status, duration; never a header, body or query string). Only the limit's own hold counts
 * (`rateLimitedMs` of the request event): a request that waits for the answers to earlier ones, as the client
 * does while it learns its share of the service's quota, waits on the service's latency, not on a limit.
 */
import type { RequestEvent } from "@pulumi-custody/sdk";
import { SETTINGS } from "../settings/sources";
import { notifyUser } from "./notices";

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
    if (event.rateLimitedMs > NOTABLE_WAIT_MS && !waitNoticeGiven) {
      waitNoticeGiven = true;
      void notifyUser(waitNotice(event, requestsPerMinute));
    }
  };
}

/** The notice of a long wait: the limit that holds requests, and the wait still ahead of those waiting. */
export function waitNotice(event: RequestEvent, requestsPerMinute: number): string {
  const waited = `a request waited ${(event.rateLimitedMs / 1000).toFixed(1)} s`;
  const status = event.rateLimit;
  const ahead =
    status && status.waiting > 0
      ? `; the ${status.waiting === 1 ? "request" : `${status.waiting} requests`} waiting now ` +
        `${status.waiting === 1 ? "goes" : "go"} out within about ${duration(status.expectedWaitMs)}`
      : "";
  const spec = SETTINGS.requestsPerMinute;
  if (status?.pacedBy === "service") {
    return (
      `requests to the custody API are being held by the service's rate limit of ${status.limit} requests per ` +
      `${duration(status.windowSeconds * 1000)}, as its x-ratelimit headers announce (${waited})${ahead}. ` +
      `At that rate every further ${status.limit} requests take ${duration(status.windowSeconds * 1000)}; ` +
      `${spec.configKey} cannot raise a limit the service sets.`
    );
  }
  return (
    `requests to the custody API are being held by the client-side rate limit of ${requestsPerMinute} ` +
    `per minute (${waited})${ahead}. If the service allows more, raise it with ` +
    `\`pulumi config set ${spec.configKey} <n>\` or ${spec.envVar}; 0 turns the limit off.`
  );
}

/** `42 s`, `2 min 5 s`. */
function duration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
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
