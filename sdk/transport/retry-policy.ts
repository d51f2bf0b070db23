/**
 * When and how long to wait before retrying a failed call.
 *
 * Backoff is exponential with full jitter and a cap (a random wait in `[0, min(cap, base·2^n)]`), so that many
 * clients failing together do not come back together. A wait the service asks for (`Retry-After`, seconds or an
 * HTTP date; on 429 also `x-ratelimit-reset`) is honoured exactly, up to `maxRetryAfterMs`:
 * a longer one is not waited out but surfaced to the caller, who knows better whether to wait minutes.
 */
import type { RetrySafety } from "../schema/endpoints";

/** Tuning of {@link RetryPolicy}. */
export interface RetryPolicyOptions {
  /** Retries after the first attempt; default 3. */
  maxRetries?: number;
  /** First backoff ceiling in ms; default 500. */
  baseDelayMs?: number;
  /** Largest backoff ceiling in ms; default 20,000. */
  maxDelayMs?: number;
  /** Longest server-requested wait that is waited out; default 60,000. */
  maxRetryAfterMs?: number;
  /** Uniform random number in [0, 1); injectable for tests. */
  random?: () => number;
  /** Current time in ms since the epoch; injectable for tests (used to read HTTP-date `Retry-After`). */
  now?: () => number;
}

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | { kind: "status"; status: number; headers: Record<string, string> }
  | { kind: "transport"; aborted: boolean };

/** Statuses worth repeating: the service timed out, throttled, or failed. 501 will not change. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/** Decides whether an attempt is repeated and how long to wait first. */
export class RetryPolicy {
  readonly maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #random: () => number;
  readonly #now: () => number;

  constructor(options: RetryPolicyOptions = {}) {
    this.maxRetries = options.maxRetries ?? 3;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#maxDelayMs = options.maxDelayMs ?? 20_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The wait in ms before retry number `retryIndex` (0 for the first retry), or `undefined` when the call must
   * not be retried: the endpoint is never retried, retries are used up, the failure is not transient, or the
   * service asked for a wait longer than `maxRetryAfterMs`.
   */
  delayBeforeRetry(
    retrySafety: RetrySafety,
    failure: AttemptFailure,
    retryIndex: number,
  ): number | undefined {
    // A create without an idempotency key could be duplicated by a retry; the caller reconciles instead.
    if (retrySafety === "never" || retryIndex >= this.maxRetries) return undefined;
    if (failure.kind === "transport") return failure.aborted ? undefined : this.backoff(retryIndex);
    if (!isRetryableStatus(failure.status)) return undefined;
    const asked = serverRequestedDelayMs(failure.status, failure.headers, this.#now());
    if (asked !== undefined) return asked <= this.#maxRetryAfterMs ? asked : undefined;
    return this.backoff(retryIndex);
  }

  /** Full-jitter exponential backoff for retry number `retryIndex`. */
  backoff(retryIndex: number): number {
    const ceiling = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** retryIndex);
    return Math.floor(this.#random() * ceiling);
  }
}

/**
 * The wait the service asked for, in ms: `Retry-After` (delta seconds or HTTP date), else on 429
 * `x-ratelimit-reset` (seconds until the window resets; an epoch value is also understood).
 */
export function serverRequestedDelayMs(
  status: number,
  headers: Record<string, string>,
  nowMs: number,
): number | undefined {
  const retryAfter = parseRetryAfter(headers["retry-after"], nowMs);
  if (retryAfter !== undefined) return retryAfter;
  if (status === 429) return parseRateLimitReset(headers["x-ratelimit-reset"], nowMs);
  return undefined;
}

/** `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT` → ms from now (never negative). */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** `x-ratelimit-reset`: seconds until reset (the real service), or an epoch in seconds or ms. */
export function parseRateLimitReset(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  if (n >= 1e12) return Math.max(0, Math.round(n - nowMs));
  if (n >= 1e9) return Math.max(0, Math.round(n * 1000 - nowMs));
  return Math.round(n * 1000);
}
