/**
 * Figure 3: the sdk's cost per request against raw undici on the same endpoint, same server, same keep-alive
 * pool settings, no injected latency.
 */
import { Agent, request } from "undici";
import { CustodyClient } from "../../sdk";
import { startEmulatorProcess } from "../support/emulator-process";
import type { Figure, FigureContext, FigureOutcome } from "../support/figure";
import { formatMs } from "../support/format";
import { type Comparison, compare } from "../support/results";
import { sampleInterleavedMs } from "../support/sample";

/** Pool settings given to both clients. */
const POOL = { connections: 16, keepAliveTimeout: 30_000, pipelining: 1 } as const;
const CONCURRENT = 16;

export const sdkOverheadFigure: Figure = {
  id: "sdk-overhead",
  number: 3,
  title: "sdk overhead per request, against raw undici",
  method: [
    "The emulator runs as its own process with no injected latency. Both clients fetch `GET /api/v1/vaults/{id}` " +
      "(one UTXO vault of the seed) in batches, each through its own undici `Agent` with the same settings " +
      `(${POOL.connections} connections, keep-alive ${POOL.keepAliveTimeout / 1000} s, no pipelining). The raw ` +
      "client sends the request and parses the JSON body (`body.json()`), nothing more. The sdk client is " +
      "`new CustodyClient({ baseUrl, accessToken, requestsPerMinute: 0, dispatcher })` calling " +
      "`client.vaults.get(id)`: URL building, headers, the retry wrapper, response validation with the shared zod " +
      "schema and the typed result. The client-side rate limiter is off (0), as in figure 1.",
    "Batches alternate raw, sdk, raw, sdk... so machine drift hits both alike; after one untimed warm-up batch each, " +
      "the median over batches of (batch time ÷ requests) is reported. Two shapes: one request at a time (the " +
      `per-request cost), and ${CONCURRENT} in flight (throughput under the concurrency the engine uses). The per-request time ` +
      "includes the emulator's own handling, which is the same for both.",
  ],
  run,
};

async function run(context: FigureContext): Promise<FigureOutcome> {
  const batch = context.quick ? 400 : 2000;
  const rounds = context.quick ? 3 : 7;
  const emulator = await startEmulatorProcess({ latencyMs: 0 });
  const rawAgent = new Agent(POOL);
  const sdkAgent = new Agent(POOL);
  try {
    const origin = new URL(emulator.baseUrl).origin;
    const headers = { authorization: `Bearer ${emulator.accessToken}` };
    const client = new CustodyClient({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: 0,
      dispatcher: sdkAgent,
    });
    const page = await client.vaults.list({ vault_types: ["utxo"], size: 1 });
    const vaultId = page.vaults[0]?.id;
    if (!vaultId) throw new Error("the emulator's default seed has no UTXO vault to fetch");
    const url = `${origin}/api/v1/vaults/${vaultId}`;

    const raw = async () => {
      const { statusCode, body } = await request(url, { dispatcher: rawAgent, headers });
      const json = (await body.json()) as { id?: string };
      if (statusCode !== 200 || json.id !== vaultId) throw new Error(`raw GET ${url} answered ${statusCode}`);
    };
    const viaSdk = async () => {
      const vault = await client.vaults.get(vaultId);
      if (vault.id !== vaultId) throw new Error(`sdk get returned vault ${vault.id}`);
    };

    const comparisons: Comparison[] = [];
    for (const inFlight of [1, CONCURRENT]) {
      context.log(`${inFlight} in flight: ${rounds} rounds of ${batch} requests per client`);
      const stats = await sampleInterleavedMs(
        { warmup: 1, samples: rounds },
        {
          raw: { run: () => runBatch(raw, batch, inFlight) },
          sdk: { run: () => runBatch(viaSdk, batch, inFlight) },
        },
      );
      const perRequest = (s: (typeof stats)["raw"]) => ({
        ...s,
        median: s.median / batch,
        min: s.min / batch,
        max: s.max / batch,
        values: s.values.map((v) => v / batch),
      });
      const ours = perRequest(stats.sdk);
      const floor = perRequest(stats.raw);
      context.log(`  sdk ${formatMs(ours.median)} vs raw ${formatMs(floor.median)} per request`);
      comparisons.push(
        compare(
          inFlight === 1
            ? "GET /vaults/{id}, one at a time (per request)"
            : `GET /vaults/{id}, ${inFlight} in flight (per request)`,
          "ms",
          ours,
          [
            {
              name: "raw undici",
              value: floor,
              description:
                "`undici.request` + `body.json()` on the same URL and pool settings, no validation.",
            },
          ],
          { kind: "max", value: 1.1 },
        ),
      );
    }
    return {
      settings: { batch, rounds, latencyMs: 0, connections: POOL.connections, concurrent: CONCURRENT },
      comparisons,
      notes: [],
    };
  } finally {
    await Promise.allSettled([rawAgent.close(), sdkAgent.close()]);
    await emulator.close();
  }
}

/** Runs `fn` `count` times with `inFlight` calls at a time. */
async function runBatch(fn: () => Promise<void>, count: number, inFlight: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await fn();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}
