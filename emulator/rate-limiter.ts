/**
 * Per-token rate limiting over fixed 60-second windows of the emulator clock (the real service sends
 * `x-ratelimit-limit: 300, 300;w=60`). With a limit of 0 nothing is refused, but the headers
 * still report a large nominal limit so that clients exercise their header parsing.
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** The limit reported when limiting is off. */
export const NOMINAL_UNLIMITED = 1_000_000;
/** Windows of idle keys are dropped past this many keys, so random tokens cannot grow memory. */
const MAX_KEYS = 10_000;

export interface RateLimitVerdict {
  allowed: boolean;
  /** Response headers to send, on success and on 429 alike. */
  headers: Record<string, string>;
  /** Seconds until the window resets (the 429's `Retry-After`). */
  retryAfterSeconds: number;
  limit: number;
}

/** The service's side of the quota: past `limit` requests in a window, a token's calls get 429. */
export class FixedWindowRateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    /** Requests per window per key; 0 = unlimited. */
    public limit: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request for `key` and says whether it may proceed. */
  hit(key: string): RateLimitVerdict {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= RATE_LIMIT_WINDOW_MS || now < window.start) {
      if (!window && this.windows.size >= MAX_KEYS) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const limit = this.limit > 0 ? this.limit : NOMINAL_UNLIMITED;
    const allowed = this.limit <= 0 || window.count <= this.limit;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + RATE_LIMIT_WINDOW_MS - now) / 1000));
    return {
      allowed,
      limit,
      retryAfterSeconds,
      headers: {
        "x-ratelimit-limit": `${limit}, ${limit};w=${RATE_LIMIT_WINDOW_MS / 1000}`,
        "x-ratelimit-remaining": String(Math.max(0, limit - window.count)),
        "x-ratelimit-reset": String(retryAfterSeconds),
      },
    };
  }

  /** Forgets every window (reset, or a new limit). */
  clear(): void {
    this.windows.clear();
  }
}
