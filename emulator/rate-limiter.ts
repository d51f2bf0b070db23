/**
 * Per-token rate limiting over fixed windows of the emulator clock, 60 s by default (the real service sends
 * `x-ratelimit-limit: 300, 300;w=60`); a shorter window lets tests cross many windows quickly with the same
 * header semantics. With a limit of 0 nothing is refused, but the headers still report a large nominal limit
 * so that clients exercise their header parsing.
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Longest window, in seconds: a day. */
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;
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
    /** Length of a window, ms; whole seconds, since `x-ratelimit-limit` names it in seconds (`w=`). */
    readonly windowMs: number = RATE_LIMIT_WINDOW_MS,
  ) {}

  /** Counts one request for `key` and says whether it may proceed. */
  hit(key: string): RateLimitVerdict {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs || now < window.start) {
      if (!window && this.windows.size >= MAX_KEYS) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const limit = this.limit > 0 ? this.limit : NOMINAL_UNLIMITED;
    const allowed = this.limit <= 0 || window.count <= this.limit;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    return {
      allowed,
      limit,
      retryAfterSeconds,
      headers: {
        "x-ratelimit-limit": `${limit}, ${limit};w=${this.windowMs / 1000}`,
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
