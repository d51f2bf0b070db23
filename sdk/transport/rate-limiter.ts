/**
 * The client-side rate limiter: it keeps the client inside the service's quota, so that a busy program slows
 * itself down instead of collecting 429s (docs/api-notes.md, "Rate limits").
 *
 * Two rules, both FIFO:
 * - a token bucket, 180 requests per minute refilled continuously with a burst of 20 by default: in any 60 s
 *   window that admits at most 20 + 180 = 200 requests, the documented quota. It paces the first requests, and
 *   all of them when the service announces no quota or when `requestsPerMinute` was set explicitly (then it is
 *   a ceiling the client keeps below whatever the service allows);
 * - the service's own quota, once its answers announce one (`x-ratelimit-limit: 300, 300;w=60`,
 *   `x-ratelimit-remaining`, `x-ratelimit-reset` in seconds): the client then sends as many requests as the
 *   current window has left, counting those still in flight, and holds the rest until the window resets. The
 *   service's windows are fixed (the counts restart at each reset), so this uses the whole quota and never
 *   exceeds it: at the default settings the service's limit replaces the bucket's rate.
 */
import { parseRateLimitReset } from "./retry-policy";
import { realSleep, type Sleep } from "./sleep";

/** Requests per minute the client allows itself by default, until the service announces its quota. */
export const DEFAULT_REQUESTS_PER_MINUTE = 180;
/** Default bucket size (requests that may go out at once after a quiet spell). */
export const DEFAULT_BURST = 20;
/** The window assumed when `x-ratelimit-limit` names none (`w=`): a minute, as the service documents. */
const DEFAULT_WINDOW_MS = 60_000;
/**
 * How far apart two announced resets of one window may be (at most a quarter of the window): `x-ratelimit-reset`
 * is whole seconds, rounded up (the emulator's, and the real service's), and answers arrive with some delay.
 * Further apart, it is another window.
 */
const SAME_WINDOW_TOLERANCE_MS = 2_000;

/** Tuning of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Sustained rate of the client's own bucket; must be > 0 (a client with 0 has no limiter at all). */
  requestsPerMinute: number;
  /** Bucket size; default `min(20, requestsPerMinute)`. */
  burst?: number;
  /**
   * Whether the service's announced quota replaces the bucket once known (`requestsPerMinute` is then only
   * the plan until the first answer); otherwise the bucket stays a ceiling below the service's quota. The
   * client sets it when `requestsPerMinute` was left to its default.
   */
  followServiceQuota?: boolean;
  /** Current time in ms; injectable for tests. */
  now?: () => number;
  /** Waiting; injectable for tests. */
  sleep?: Sleep;
}

/** The service's quota as its `x-ratelimit-*` headers announced it. */
export interface ServiceQuota {
  /** Requests per window. */
  limit: number;
  /** Window length in ms (`w=` of `x-ratelimit-limit`; 60 s when absent). */
  windowMs: number;
}

/** What the limiter is doing, for diagnostics (the `rateLimit` of a request event). */
export interface RateLimitStatus {
  /** `service` when the service's announced quota paces requests, `client` when the client's own bucket does. */
  pacedBy: "service" | "client";
  /** Requests allowed per window of the pacing rule. */
  limit: number;
  /** That window, in seconds (60 for the client's per-minute rate). */
  windowSeconds: number;
  /** Requests waiting in the limiter now. */
  waiting: number;
  /** Expected time until the last of them may go, in ms (0 when none waits). */
  expectedWaitMs: number;
}

/** The parsed `x-ratelimit-*` headers of one answer; `undefined` fields were absent or unreadable. */
export interface QuotaHeaders {
  limit?: number;
  windowMs?: number;
  remaining?: number;
  /** Ms from the answer until the window resets. */
  resetInMs?: number;
}

/**
 * Reads `x-ratelimit-limit` (`300` or `300, 300;w=60`: the draft RateLimit header fields the service's proxy
 * sends), `x-ratelimit-remaining` and `x-ratelimit-reset` (seconds, or an epoch in seconds or ms).
 */
export function parseQuotaHeaders(headers: Record<string, string>, nowMs: number): QuotaHeaders {
  const out: QuotaHeaders = {};
  const limitText = headers["x-ratelimit-limit"]?.trim();
  if (limitText !== undefined) {
    const first = /^(\d+)/.exec(limitText);
    if (first) out.limit = Number(first[1]);
    const window = /;\s*w=(\d+)/i.exec(limitText);
    if (window) out.windowMs = Number(window[1]) * 1000;
  }
  const remainingText = headers["x-ratelimit-remaining"]?.trim();
  if (remainingText !== undefined && /^\d+$/.test(remainingText)) out.remaining = Number(remainingText);
  const reset = parseRateLimitReset(headers["x-ratelimit-reset"], nowMs);
  if (reset !== undefined) out.resetInMs = reset;
  return out;
}

/** A FIFO rate limiter: the client's token bucket and, once announced, the service's quota. */
export class RateLimiter {
  readonly requestsPerMinute: number;
  readonly burst: number;
  readonly followServiceQuota: boolean;
  readonly #perMs: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #tokens: number;
  #updatedAt: number;
  #pausedUntil = 0;
  #queue: Promise<void> = Promise.resolve();
  #waiting = 0;

  // The service's quota, once announced.
  #quota: ServiceQuota | undefined;
  /** Requests that may still go out in the service's current window, those in flight already counted. */
  #budget = 0;
  /** When the service's current window ends (epoch ms). */
  #resetAt = 0;
  /** Requests sent whose answers have not been seen. */
  #inFlight = 0;
  /** Requests in flight when the limiter last assumed a new window; each was taken off that window's budget. */
  #inFlightAtReset = 0;

  constructor(options: RateLimiterOptions) {
    if (!(options.requestsPerMinute > 0) || !Number.isFinite(options.requestsPerMinute)) {
      throw new RangeError(`requestsPerMinute must be a positive number (got ${options.requestsPerMinute})`);
    }
    this.requestsPerMinute = options.requestsPerMinute;
    this.burst = Math.max(1, options.burst ?? Math.min(DEFAULT_BURST, Math.floor(options.requestsPerMinute)));
    this.followServiceQuota = options.followServiceQuota === true;
    this.#perMs = options.requestsPerMinute / 60_000;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? realSleep;
    this.#tokens = this.burst;
    this.#updatedAt = this.#now();
  }

  /**
   * Resolves when one request may go out (rejects if `signal` aborts while waiting). Every request it lets go
   * must later be reported with {@link settle} (its answer's headers) or {@link release} (no answer).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    this.#waiting += 1;
    const turn = this.#queue.then(() => this.#take(signal));
    // The next waiter queues behind this one whether it succeeds or is aborted.
    this.#queue = turn.catch(() => undefined);
    return turn.finally(() => {
      this.#waiting -= 1;
    });
  }

  /**
   * Records the answer to a request {@link acquire} let go: its `x-ratelimit-*` headers (when present) say how
   * many requests the service's current window has left and when it resets.
   */
  settle(headers: Record<string, string>): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    const now = this.#now();
    const q = parseQuotaHeaders(headers, now);
    if (q.limit === undefined || q.remaining === undefined || q.resetInMs === undefined) return;
    const windowMs = q.windowMs ?? this.#quota?.windowMs ?? DEFAULT_WINDOW_MS;
    const resetAt = now + q.resetInMs;
    const tolerance = Math.min(SAME_WINDOW_TOLERANCE_MS, windowMs / 4);
    // Requests still in flight may be counted after this one: they are taken off what it says is left.
    const left = q.remaining - this.#inFlight;
    if (!this.#quota || resetAt > this.#resetAt + tolerance) {
      // The first announcement, or a later window than the one the limiter plans with.
      this.#budget = left;
      this.#resetAt = resetAt;
      this.#inFlightAtReset = 0;
    } else if (resetAt > this.#resetAt - windowMs + tolerance) {
      // The same window: what is left only shrinks (an answer that arrives late says more than is true now).
      this.#budget = Math.min(this.#budget, left);
      this.#resetAt = Math.max(this.#resetAt, resetAt);
    } else if (this.#inFlightAtReset > 0) {
      // A late answer from the window that has ended: that request did not count against the new one.
      this.#inFlightAtReset -= 1;
      this.#budget += 1;
    }
    this.#quota = { limit: q.limit, windowMs };
  }

  /** Records that a request {@link acquire} let go got no answer (a connection failure or an abort). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /**
   * Holds every request until `untilMs` (epoch ms): used when the service says the quota is spent (429 with
   * `Retry-After`), so that concurrent callers wait too instead of each collecting its own 429.
   */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
  }

  /** Tokens of the client's bucket available now (fractional), for tests and diagnostics. */
  available(): number {
    this.#refill();
    return this.#tokens;
  }

  /** The service's quota as last announced, if it announced one. */
  serviceQuota(): ServiceQuota | undefined {
    return this.#quota ? { ...this.#quota } : undefined;
  }

  /** What paces requests now, how many wait, and how long until the last of them may go. */
  status(): RateLimitStatus {
    const now = this.#now();
    this.#refill();
    const waiting = this.#waiting;
    const paused = Math.max(0, this.#pausedUntil - now);
    let bucketWait = 0;
    if (this.#bucketApplies()) {
      const deficit = waiting - this.#tokens;
      bucketWait = deficit > 0 ? Math.ceil(deficit / this.#perMs) : 0;
    }
    let quotaWait = 0;
    if (this.#quota) {
      const { limit, windowMs } = this.#quota;
      const windowEnded = now >= this.#resetAt;
      const budget = windowEnded ? limit - this.#inFlight : this.#budget;
      const beyond = waiting - Math.max(0, budget);
      if (beyond > 0) {
        const untilReset = windowEnded ? windowMs : this.#resetAt - now;
        quotaWait = untilReset + (Math.ceil(beyond / limit) - 1) * windowMs;
      }
    }
    const service = this.#quota !== undefined && (this.followServiceQuota || quotaWait > bucketWait);
    return {
      pacedBy: service ? "service" : "client",
      limit: service ? this.#quota!.limit : this.requestsPerMinute,
      windowSeconds: service ? this.#quota!.windowMs / 1000 : 60,
      waiting,
      expectedWaitMs: waiting === 0 ? 0 : Math.max(paused, bucketWait, quotaWait),
    };
  }

  /** The bucket paces requests until the service announces a quota, and always when it is a ceiling. */
  #bucketApplies(): boolean {
    return !(this.followServiceQuota && this.#quota);
  }

  async #take(signal?: AbortSignal): Promise<void> {
    // Each pass either lets the request go or sleeps exactly until what holds it is due, so it terminates.
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const now = this.#now();
      if (now < this.#pausedUntil) {
        await this.#sleep(this.#pausedUntil - now, signal);
        continue;
      }
      let waitMs = 0;
      if (this.#quota) {
        if (now >= this.#resetAt) {
          // The window has reset: a fresh quota, less what is still in flight. Answers correct the reset time.
          this.#budget = this.#quota.limit - this.#inFlight;
          this.#inFlightAtReset = this.#inFlight;
          this.#resetAt = now + this.#quota.windowMs;
        }
        if (this.#budget < 1) waitMs = this.#resetAt - now;
      }
      if (this.#bucketApplies()) {
        this.#refill();
        if (this.#tokens < 1) waitMs = Math.max(waitMs, Math.ceil((1 - this.#tokens) / this.#perMs));
      }
      if (waitMs > 0) {
        await this.#sleep(waitMs, signal);
        continue;
      }
      if (this.#bucketApplies()) this.#tokens -= 1;
      if (this.#quota) this.#budget -= 1;
      this.#inFlight += 1;
      return;
    }
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.#perMs);
    this.#updatedAt = now;
  }
}
