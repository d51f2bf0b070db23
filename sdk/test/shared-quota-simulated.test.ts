// Programs sharing one API user's quota, simulated on a virtual clock: K limiters, each with its own requests
// in flight as a provider has them, against one service of fixed windows (docs/api-notes.md, "Rate limits").
// Virtual time makes the windows themselves the measure: how many a batch of creates needs, and how many
// answers are 429, whatever the machine's load.
import { strict as assert } from "node:assert";
import { RateLimiter } from "../transport/rate-limiter";
import { FixedWindowService } from "./helpers";

/** A virtual clock: `sleep` resolves when the simulation reaches its time; nothing waits for real. */
class VirtualClock {
  nowMs = 1_739_459_200_000;
  readonly #timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
  #seq = 0;
  readonly now = (): number => this.nowMs;
  readonly sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.#timers.push({ at: this.nowMs + Math.max(0, ms), seq: this.#seq++, resolve });
    });

  /** Runs until `done` settles: drains what can run now, then moves to the earliest timer. */
  async run<T>(done: Promise<T>): Promise<T> {
    let finished = false;
    const result = done.finally(() => {
      finished = true;
    });
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (finished) return result;
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers.shift();
      if (!next) throw new Error("the simulation is stuck: nothing runs and no timer is set");
      this.nowMs = Math.max(this.nowMs, next.at);
      next.resolve();
    }
  }
}

const LIMIT = 200;
const WINDOW_MS = 60_000;
const LATENCY_MS = 50;
/** Requests in flight per program: the engine's default `--parallel` on 2 cores. */
const PARALLEL = 8;

interface Program {
  /** When it starts, ms after the first. */
  startMs: number;
  /** Creates it sends after its two reads (the settings check and the lookup page of `up`). */
  creates: number;
}

/** Runs the programs at once; when the last one finished (ms after the start), and the service's counts. */
async function simulate(programs: readonly Program[]) {
  const clock = new VirtualClock();
  const service = new FixedWindowService(LIMIT, WINDOW_MS);
  const start = clock.nowMs;
  const finishedAt: number[] = [];
  const request = async (limiter: RateLimiter): Promise<boolean> => {
    const ticket = await limiter.acquire();
    await clock.sleep(LATENCY_MS / 2);
    const { headers, refused } = service.hit(clock.nowMs);
    await clock.sleep(LATENCY_MS / 2);
    limiter.settle(headers, ticket);
    if (refused) limiter.pauseUntil(clock.nowMs + Number(headers["x-ratelimit-reset"]) * 1000);
    return !refused;
  };
  const program = async (p: Program) => {
    await clock.sleep(p.startMs);
    const limiter = new RateLimiter({
      requestsPerMinute: 180,
      followServiceQuota: true,
      now: clock.now,
      sleep: clock.sleep,
    });
    while (!(await request(limiter))); // the settings check
    while (!(await request(limiter))); // the one lookup page
    let next = 0;
    const worker = async () => {
      while (next < p.creates) {
        next += 1;
        while (!(await request(limiter))); // a refused create is sent again after the pause
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    finishedAt.push(clock.nowMs - start);
  };
  await clock.run(Promise.all(programs.map(program)));
  return { lastMs: Math.max(...finishedAt), requests: service.requests, refused: service.refused };
}

describe("sdk rate limiter: programs sharing a quota, on a virtual clock", () => {
  const staggered = (count: number, creates: number, gapMs: number): Program[] =>
    Array.from({ length: count }, (_, k) => ({ startMs: k * gapMs, creates }));

  for (const [label, programs] of [
    ["4 programs × 60 creates, started 2 s apart", staggered(4, 60, 2000)],
    ["8 programs × 30 creates, started 1 s apart", staggered(8, 30, 1000)],
    ["4 programs × 60 creates, started together", staggered(4, 60, 0)],
    ["8 programs × 30 creates, started together", staggered(8, 30, 0)],
  ] as const) {
    it(`${label}: within the windows the requests need, and at most 1 % refused`, async () => {
      const result = await simulate(programs);
      const total = programs.reduce((sum, p) => sum + p.creates + 2, 0);
      // 240 creates and their reads fit in two windows of 200: the last request goes at the start of the second.
      const windows = Math.ceil(total / LIMIT);
      assert.ok(
        result.lastMs < windows * WINDOW_MS,
        `the last program finished at ${(result.lastMs / 1000).toFixed(1)} s, after ${windows} windows of ${WINDOW_MS / 1000} s`,
      );
      assert.ok(
        result.refused <= 0.01 * result.requests,
        `${result.refused} of ${result.requests} requests refused`,
      );
    });
  }
});
