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
 *   `x-ratelimit-remaining`, `x-ratelimit-reset` in seconds): the client then sends its share of what the
 *   current window has left, counting its requests still in flight, and holds the rest until the window
 *   resets. The service's windows are fixed (the counts restart at each reset), so a client alone uses the
 *   whole quota and never exceeds it: at the default settings the service's limit replaces the bucket's rate.
 *
 * The quota is per API user, and several programs (parallel stacks, `custody` commands, other machines) may
 * draw on it at once. The headers are the truth they share: when what is left falls by more than this client
 * sent, others use the same window, and this client's share is the part of the window's recent use that was its
 * own: its requests against the window's count over the last fifth of the limit (or since the window's first
 * answer), steadied by the share measured before, and the lowest of the last few measures, since a client's own
 * answers come in runs. Measured over the recent span rather than the whole window, the share follows the others
 * as they start and finish: a client that joins a window the others have half spent is not judged by their past,
 * and one whose share was small takes more once they are done. Each client spending only its share of what is
 * left (less a margin of 5 % of the limit, and at least 8 requests, against answers that reach it late), the
 * clients together stay inside the quota instead of each spending all of it near a window's end; alone, the
 * share is 1. Held by its share with requests in flight, a client waits for their answers rather than for the
 * reset, as they may show that the others have finished.
 *
 * Each window starts with one request, whose answer says what others have already spent of it (a client wakes at
 * the reset it computed from whole seconds, and may wake after the others); shared, the window's requests in
 * flight then grow by one per answer until the span is counted, so that shares are measured before much is
 * sent. At the default settings, when others show in the headers of the first window (or the first answer came
 * while more requests were in flight, or after others'), in-flight requests grow by one per two answers until
 * that window ends, so that programs starting together learn their shares before they send much.
 * `sdk/test/shared-quota-simulated.test.ts` holds it to this on a virtual clock.
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
/**
 * Weight of the share a client had in the window before, against the requests counted in the current one, as a
 * fraction of the limit: the share learned over a whole window steadies the first answers of the next.
 */
const PRIOR_SHARE_WEIGHT = 0.25;
/**
 * The span of a window's count, as a fraction of the limit, over which the share is measured once the window has
 * counted that many: the recent requests, so that the share follows the others as they start and finish within
 * the window. In the first window, before that, the share only falls: with no window before to steady it, the
 * answers to a burst of a client's own requests, counted one after the other, overstate it.
 */
const SHARE_SPAN = 0.2;
/** How many of the latest measures of the share the limiter takes the lowest of. */
const RECENT_MEASURES = 32;
/** Part of the limit that clients sharing a quota leave unspent in each window, against late answers. */
const SHARED_MARGIN = 0.05;
/** The least that margin is, in requests: about one per client still finishing its requests in flight. */
const MIN_SHARED_MARGIN = 8;

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

/** What one answer of the window told: its count, this client's requests up to it, and the share measured then. */
type Sample = [counted: number, mine: number, share: number];

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
  #queue: Promise<unknown> = Promise.resolve();
  #waiting = 0;

  // The service's quota, once announced.
  #quota: ServiceQuota | undefined;
  /** What the service's current window has left, by the lowest count its answers announced. */
  #remaining = 0;
  /** When the service's current window ends (epoch ms). */
  #resetAt = 0;
  /** Requests sent whose answers have not been seen. */
  #inFlight = 0;
  /** Tickets handed out (one per request let go); answers name theirs to say which requests came before them. */
  #tickets = 0;
  /** The first ticket counted in the service's current window, as far as the answers tell. */
  #windowFirstTicket = 1;
  /** This client's share of the quota: the part of the window's use that was its own (1 when alone). */
  #share = 1;
  /** Whether an answer of the current window counted more requests than this client's. */
  #othersSeen = false;
  /** The share as the latest answer of the window measured it. */
  #measuredShare = 1;
  /** Whether no answer has told of the current window yet (its first answer sets the share afresh). */
  #windowFresh = true;
  /** What each answer of the current window told, in the order they came: where a span starts. */
  #samples: Sample[] = [];
  /**
   * Requests of the current window that may be in flight at once: one until its first answer, then, when the
   * quota is shared, one more per answer until the window has counted the span, so that shares are measured
   * before much is sent.
   */
  #windowCap = Number.POSITIVE_INFINITY;
  /** The share at the end of the window before (the weight of the first answers of a window). */
  #priorShare = 1;
  /**
   * Requests that may be in flight at once until the first window ends: one more per two answers, so that programs
   * starting together see each other in the headers before they have sent much.
   */
  #startCap = 1;
  /** Whether this client's first answer came with others of its requests in flight (its share is unsure). */
  #startUnsure = false;
  /** The last request sent before the first answer came. */
  #startBurstLast = 0;
  /** Resolves the waiters that wait for an answer (the first one, or one more of the first window). */
  #onAnswer: (() => void) | undefined;
  #answerSeen: Promise<void> | undefined;
  /** How long, in all, the limit itself has held the line of waiting requests (ms), up to the last hold's end. */
  #heldMs = 0;
  /** When the hold going on began, if the first in line is being held by the limit now. */
  #heldSince: number | undefined;

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
   * Resolves when one request may go out (rejects if `signal` aborts while waiting), with the request's ticket.
   * Every request it lets go must later be reported with {@link settle} (its answer's headers and its ticket)
   * or {@link release} (no answer).
   */
  acquire(signal?: AbortSignal): Promise<number> {
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
   * many requests the service's current window has left and when it resets. `ticket` is what `acquire` gave
   * that request (without it, the answer is taken for the newest request's).
   */
  settle(headers: Record<string, string>, ticket?: number): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#wakeAnswerWaiters();
    const now = this.#now();
    const q = parseQuotaHeaders(headers, now);
    if (q.limit === undefined || q.remaining === undefined || q.resetInMs === undefined) return;
    const windowMs = q.windowMs ?? this.#quota?.windowMs ?? DEFAULT_WINDOW_MS;
    const resetAt = now + q.resetInMs;
    const tolerance = Math.min(SAME_WINDOW_TOLERANCE_MS, windowMs / 4);
    const own = ticket ?? this.#tickets;
    const first = !this.#quota;
    let fresh = first;
    if (first || resetAt > this.#resetAt + tolerance) {
      fresh = true;
      // The first announcement, or a later window than the one the limiter plans with: its count began with
      // this request at the latest.
      if (!first) this.#endWindow();
      this.#remaining = q.remaining;
      this.#resetAt = resetAt;
      this.#windowFirstTicket = own;
      this.#samples = [];
      if (!first) this.#windowCap = 1;
    } else if (resetAt > this.#resetAt - windowMs + tolerance) {
      // The same window: what is left only shrinks (an answer that arrives late says more than is true now),
      // and this request was counted in it.
      this.#remaining = Math.min(this.#remaining, q.remaining);
      this.#resetAt = Math.max(this.#resetAt, resetAt);
      this.#windowFirstTicket = Math.min(this.#windowFirstTicket, own);
    } else {
      // A late answer from the window that has ended: it says nothing of the current one.
      return;
    }
    this.#quota = { limit: q.limit, windowMs };
    fresh ||= this.#windowFresh;
    this.#windowFresh = false;
    const span = Math.max(1, Math.ceil(SHARE_SPAN * q.limit));
    this.#windowCap = q.limit - q.remaining >= span ? Number.POSITIVE_INFINITY : this.#windowCap + 1;
    // The share: this client's requests counted up to this one, against the window's count so far.
    const counted = Math.max(1, q.limit - q.remaining);
    const mine = Math.min(counted, Math.max(1, own - this.#windowFirstTicket + 1));
    if (first) {
      // Requests sent with this one, or the others' that the window counted before it, make its share unsure:
      // what a window counted before a client's first answer is the others' past, not their pace now, so the
      // share is measured from this answer on, while requests in flight grow one per two answers.
      this.#startUnsure = this.#inFlight > 0 || counted > mine;
      this.#startBurstLast = this.#tickets;
      // For the window after, the measure of the whole window stands until better ones come.
      this.#priorShare = this.#measuredShare = mine / counted;
      this.#samples.push([counted, mine, 1]);
      this.#share = 1;
      if (counted > mine) this.#othersSeen = true;
      this.#startCap += 0.5;
      return;
    }
    // The share over the recent span: since the latest answer that counted at least `span` fewer, or else
    // since the window's first answer (or its start), steadied by the share measured then.
    let base: Sample = this.#samples[0] ?? [0, 0, this.#priorShare];
    for (const sample of this.#samples)
      if (sample[0] <= counted - span && sample[0] >= base[0]) base = sample;
    // No window before the first: its share is what its answers measure.
    const weight = this.#startCap === Number.POSITIVE_INFINITY ? PRIOR_SHARE_WEIGHT * q.limit : 0;
    const share = Math.min(
      1,
      (Math.max(0, mine - base[1]) + weight * base[2]) / (counted - base[0] + weight),
    );
    // In the first window, with no share of a window before to steady it, the answers to a burst counted first
    // overstate the share: there it only falls until the span has been counted.
    this.#samples.push([counted, mine, share]);
    if (weight === 0 && counted < span && !fresh) this.#share = Math.min(this.#share, share);
    else {
      // The lowest of the last few measures: this client's own answers come in runs (its requests in flight
      // are counted one after the other), and a run measured alone overstates the share.
      const recent = this.#samples.slice(-RECENT_MEASURES).map((sample) => sample[2]);
      this.#share = Math.min(...recent);
    }
    this.#measuredShare = share;
    if (counted > mine) this.#othersSeen = true;
    // Every request of the first burst counted, and none of others among them: this client is alone.
    if (this.#startUnsure && own >= this.#startBurstLast && !this.#othersSeen) this.#startUnsure = false;
    if (this.#startCap !== Number.POSITIVE_INFINITY) this.#startCap += 0.5;
  }

  /** Records that a request {@link acquire} let go got no answer (a connection failure or an abort). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#wakeAnswerWaiters();
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

  /**
   * How long, in all, the limit itself has held the first request in line (ms): waits for the client's bucket,
   * for the service's quota to reset, for the answers of this client's own requests while its share of a shared
   * quota is spent, and a 429's pause. Not the waits for answers a client makes while it learns its share (at
   * the start of a window, or while programs start together), which last as long as the service takes to
   * answer. The requests behind the first wait as long as it does: the difference of two readings is how long
   * the limit held a request that waited between them.
   */
  heldMs(): number {
    return this.#heldMs + (this.#heldSince === undefined ? 0 : Math.max(0, this.#now() - this.#heldSince));
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
      const budget = this.#budget(windowEnded ? limit : this.#remaining);
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

  /** What this client may still send in the current window: its share of what is left, less its requests in flight. */
  #budget(remaining: number): number {
    if (this.#share >= 1 || remaining < 1) return remaining - this.#inFlight;
    // With others, a margin of the window stays unspent: their answers reach each client late, by more on a
    // loaded machine, and what each believes is left is that much too high.
    const margin = Math.max(MIN_SHARED_MARGIN, Math.ceil(SHARED_MARGIN * (this.#quota?.limit ?? 0)));
    // At least one request a window, so that a client whose share rounds to nothing still learns it again.
    const sentInWindow = this.#tickets >= this.#windowFirstTicket;
    const share = Math.floor(this.#share * Math.max(0, remaining - margin));
    return (sentInWindow ? share : Math.max(1, share)) - this.#inFlight;
  }

  /** The window has ended: its share steadies the next window's first answers; in-flight growth is free. */
  #endWindow(): void {
    // The window's last measure counted the most: it, not the lowest, carries to the next window, so a share
    // climbs back when the others are done: after a window in which no answer showed others, it doubles (a
    // window's few answers, counted before the others', may miss them).
    this.#priorShare = this.#othersSeen ? this.#measuredShare : Math.min(1, 2 * this.#measuredShare);
    this.#othersSeen = false;
    this.#startCap = Number.POSITIVE_INFINITY;
  }

  #wakeAnswerWaiters(): void {
    const wake = this.#onAnswer;
    this.#onAnswer = undefined;
    this.#answerSeen = undefined;
    wake?.();
  }

  /** Resolves at the next answer (or request with none), rejects if `signal` aborts first. */
  #nextAnswer(signal?: AbortSignal): Promise<void> {
    if (!this.#answerSeen) {
      this.#answerSeen = new Promise<void>((resolve) => {
        this.#onAnswer = resolve;
      });
    }
    const seen = this.#answerSeen;
    if (!signal) return seen;
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      void seen.then(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  async #take(signal?: AbortSignal): Promise<number> {
    // Each pass either lets the request go or waits exactly until what holds it is due, so it terminates.
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const now = this.#now();
      if (now < this.#pausedUntil) {
        await this.#holding(() => this.#sleep(this.#pausedUntil - now, signal));
        continue;
      }
      // At the default settings, once others show in the headers (or the first answer came while more requests
      // were in flight), in-flight requests grow by one per two answers until the first window ends, so programs
      // starting together learn their shares before they send much.
      if (this.followServiceQuota && this.#inFlight > 0 && this.#quota) {
        if ((this.#share < 1 || this.#startUnsure) && this.#inFlight >= this.#startCap) {
          await this.#nextAnswer(signal);
          continue;
        }
        // A new window: until its first answer, what others may have spent of it already (a client that wakes at
        // the reset it computed, in whole seconds, may wake after them) is unknown, so one request goes and asks;
        // shared, the window's requests in flight then grow by one per answer until its span is counted.
        const ofThisWindow = this.#tickets - this.#windowFirstTicket + 1;
        const cap = this.#windowFresh ? 1 : this.#share < 1 ? this.#windowCap : Number.POSITIVE_INFINITY;
        if (now < this.#resetAt && ofThisWindow > 0 && Math.min(ofThisWindow, this.#inFlight) >= cap) {
          await this.#nextAnswer(signal);
          continue;
        }
      }
      let waitMs = 0;
      if (this.#quota) {
        if (now >= this.#resetAt) {
          // The window has reset: a fresh quota, less what is still in flight. Answers correct the reset time.
          this.#endWindow();
          this.#windowFresh = true;
          this.#windowCap = 1;
          this.#remaining = this.#quota.limit;
          this.#windowFirstTicket = this.#tickets + 1;
          this.#resetAt = now + this.#quota.windowMs;
          this.#samples = [];
        }
        if (this.#budget(this.#remaining) < 1) {
          // Shared, requests in flight hold part of the budget, and their answers may show that the others
          // have slowed or finished: wait for one. Alone, or with none in flight, only the reset brings more.
          if (this.#inFlight > 0 && this.#share < 1) {
            await this.#holding(() => this.#nextAnswer(signal));
            continue;
          }
          waitMs = this.#resetAt - now;
        }
      }
      if (this.#bucketApplies()) {
        this.#refill();
        if (this.#tokens < 1) waitMs = Math.max(waitMs, Math.ceil((1 - this.#tokens) / this.#perMs));
      }
      if (waitMs > 0) {
        await this.#holding(() => this.#sleep(waitMs, signal));
        continue;
      }
      if (this.#bucketApplies()) this.#tokens -= 1;
      this.#inFlight += 1;
      this.#tickets += 1;
      return this.#tickets;
    }
  }

  /** Waits for what `wait` starts, counted as a hold of the limit ({@link RateLimiter.heldMs}). */
  async #holding(wait: () => Promise<void>): Promise<void> {
    const since = this.#now();
    this.#heldSince = since;
    try {
      await wait();
    } finally {
      this.#heldMs += Math.max(0, this.#now() - since);
      this.#heldSince = undefined;
    }
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.#perMs);
    this.#updatedAt = now;
  }
}
