/**
 * A client-side token bucket that keeps the client below the service's documented 200 requests per minute
 * (docs/api-notes.md, "Rate limits"), so that a busy program slows itself down instead of collecting 429s.
 *
 * Defaults: 180 requests per minute, refilled continuously, with a burst of 20. In any 60 s window that admits
 * at most 20 + 180 = 200 requests, the documented quota. Waiters are served first come, first served.
 */
import { realSleep, type Sleep } from "./sleep";

/** Requests per minute the client allows itself by default. */
export const DEFAULT_REQUESTS_PER_MINUTE = 180;
/** Default bucket size (requests that may go out at once after a quiet spell). */
export const DEFAULT_BURST = 20;

/** Tuning of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Sustained rate; must be > 0 (a client with 0 has no limiter at all). */
  requestsPerMinute: number;
  /** Bucket size; default `min(20, requestsPerMinute)`. */
  burst?: number;
  /** Current time in ms; injectable for tests. */
  now?: () => number;
  /** Waiting; injectable for tests. */
  sleep?: Sleep;
}

/** A FIFO token bucket. */
export class RateLimiter {
  readonly requestsPerMinute: number;
  readonly burst: number;
  readonly #perMs: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #tokens: number;
  #updatedAt: number;
  #pausedUntil = 0;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: RateLimiterOptions) {
    if (!(options.requestsPerMinute > 0) || !Number.isFinite(options.requestsPerMinute)) {
      throw new RangeError(`requestsPerMinute must be a positive number (got ${options.requestsPerMinute})`);
    }
    this.requestsPerMinute = options.requestsPerMinute;
    this.burst = Math.max(1, options.burst ?? Math.min(DEFAULT_BURST, Math.floor(options.requestsPerMinute)));
    this.#perMs = options.requestsPerMinute / 60_000;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? realSleep;
    this.#tokens = this.burst;
    this.#updatedAt = this.#now();
  }

  /** Resolves when one request may go out (taking a token); rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#take(signal));
    // The next waiter queues behind this one whether it succeeds or is aborted.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Holds every request until `untilMs` (epoch ms): used when the service says the quota is spent (429 with
   * `Retry-After`), so that concurrent callers wait too instead of each collecting its own 429.
   */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
  }

  /** Tokens available now (fractional), for tests and diagnostics. */
  available(): number {
    this.#refill();
    return this.#tokens;
  }

  async #take(signal?: AbortSignal): Promise<void> {
    // Each pass either takes a token or sleeps exactly until one (or the pause end) is due, so it terminates.
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const now = this.#now();
      if (now < this.#pausedUntil) {
        await this.#sleep(this.#pausedUntil - now, signal);
        continue;
      }
      this.#refill();
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await this.#sleep(Math.ceil((1 - this.#tokens) / this.#perMs), signal);
    }
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.#perMs);
    this.#updatedAt = now;
  }
}
