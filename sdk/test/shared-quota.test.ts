// Several programs with one API user share one quota: K clients, each with its own limiter as separate
// processes would have, create vaults at once against one emulator. Each infers from the service's headers that
// others draw on the same budget and takes its share, so that together they stay inside the quota; a 429 that
// does happen is waited out and the create repeated, as the provider does.
import { strict as assert } from "node:assert";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient, type CustodyError, CustodyErrorCode } from "../index";

/**
 * The emulator's quota in these tests: the service's 200 per 60 s, scaled to a shorter window. Its reset header
 * counts whole seconds, so the window is long enough that a second of it, and a loaded machine's delays, are a
 * small part of it.
 */
const LIMIT = 80;
const WINDOW_SECONDS = 8;
/** Creates each client has in flight at once, as the engine's default parallelism gives a provider. */
const CONCURRENCY = 8;

interface Tally {
  requests: number;
  refused: number;
  created: number;
}

/** One program: `count` creates through its own client, `CONCURRENCY` at a time; a 429 is waited out. */
async function runProgram(emulator: RunningEmulator, program: number, count: number, tally: Tally) {
  const client = new CustodyClient({
    baseUrl: emulator.baseUrl,
    accessToken: emulator.accessToken,
    onRequest: (event) => {
      tally.requests += 1;
      if (event.status === 429) tally.refused += 1;
    },
  });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      for (;;) {
        try {
          await client.vaults.create({ name: `shared quota ${program}-${i}`, type: "evm" });
          tally.created += 1;
          break;
        } catch (err) {
          // A create is never repeated by the client itself; a 429 did nothing, and the limiter now holds
          // every call until the window resets, so the create goes again once it lets it.
          if ((err as CustodyError).code !== CustodyErrorCode.RATE_LIMITED) throw err;
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await client.close();
  }
}

async function runPrograms(programs: number, creates: number): Promise<Tally> {
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: "empty",
    rateLimit: LIMIT,
    rateLimitWindowSeconds: WINDOW_SECONDS,
    latencyMs: 20,
  });
  const tally: Tally = { requests: 0, refused: 0, created: 0 };
  try {
    await Promise.all(Array.from({ length: programs }, (_, p) => runProgram(emulator, p, creates, tally)));
  } finally {
    await emulator.close();
  }
  return tally;
}

// Each case crosses one window boundary, where the shares are taken; the same property at the scale of many
// windows and of the service's real quota is sdk/test/shared-quota-simulated.test.ts's, on a virtual clock
// (docs/testing.md).
describe("sdk rate limiter: programs sharing one API user's quota", () => {
  for (const [programs, creates] of [
    [4, 30],
    [8, 15],
  ] as const) {
    it(`${programs} programs × ${creates} creates at ${LIMIT} per ${WINDOW_SECONDS} s: at most 1 % of requests refused, every create done`, async function () {
      // 120 creates at 80 per 8 s need two windows, so at least 8 s; a loaded machine may take much longer.
      this.timeout(240_000);
      const tally = await runPrograms(programs, creates);
      const share = tally.refused / tally.requests;
      assert.equal(tally.created, programs * creates, "every create succeeded");
      assert.ok(
        share <= 0.01,
        `429 answers: ${tally.refused} of ${tally.requests} requests (${(share * 100).toFixed(1)} %)`,
      );
    });
  }
});
