/**
 * Figure 3: the sdk's cost per request against raw undici on the same endpoint, same server, same keep-alive
 * pool settings, no injected latency.
 */

import { CustodyClient, type CustodyClientOptions } from "@pulumi-custody/sdk";
import { Agent, request } from "undici";
import { startEmulatorProcess } from "../support/emulator-process";
import type { Figure, FigureContext, FigureOutcome } from "../support/figure";
import { formatMs } from "../support/format";
import { type Comparison, compare } from "../support/results";
import { sampleInterleavedMs } from "../support/sample";
import { summarize } from "../support/stats";

/** Pool settings given to both clients. */
const POOL = { connections: 16, keepAliveTimeout: 30_000, pipelining: 1 } as const;
const CONCURRENT = 16;

/** Figure 3 (`--only sdk-overhead`). */
export const sdkOverheadFigure: Figure = {
  id: "sdk-overhead",
  number: 3,
  title: "sdk overhead per request, against raw undici",
  method: [
    "The emulator runs as its own process with no injected latency. The clients fetch `GET /api/v1/vaults/{id}` " +
      "(one UTXO vault of the seed) in batches, the raw one and the sdk each through its own undici `Agent` with the " +
      `same settings (${POOL.connections} connections, keep-alive ${POOL.keepAliveTimeout / 1000} s, no pipelining). ` +
      "The raw client sends the request and parses the JSON body (`body.json()`), nothing more. The sdk client is " +
      "`new CustodyClient({ baseUrl, accessToken, requestsPerMinute: 0, dispatcher })` calling " +
      "`client.vaults.get(id)`: URL building, headers, the retry wrapper, response validation with the shared " +
      "schema and the typed result. The client-side rate limiter is off (0), as in figure 1. A third client, " +
      'reported without a target, is the same sdk call over its other transport, `transport: "node:http"` ' +
      "(Node's own `http`, keep-alive, 16 connections), which the provider uses.",
    "Batches alternate raw, sdk, sdk over node:http, raw... so machine drift hits them alike; after one untimed warm-up batch each, " +
      "the median over batches of (batch time ÷ requests) is reported. Two shapes: one request at a time (the " +
      `per-request cost), and ${CONCURRENT} in flight (throughput under the concurrency the engine uses). The per-request time ` +
      "includes the emulator's own handling, which is the same for both.",
  ],
  analysis: [
    "The sdk adds a fixed amount of client CPU per request and nothing per byte of latency: against the emulator " +
      "on loopback a whole round trip is only about 0.3 ms, so that fixed cost shows. Decomposed by timing the " +
      "steps apart (sequential GETs of the same vault, client CPU per request, medians of 8 alternating rounds of " +
      "500), before the fix below: raw undici with `body.json()` 151 µs; plus a per-request " +
      "`AbortSignal.timeout()` passed to undici +25 µs; plus response validation (`body.text()`, `JSON.parse`, " +
      "`Vault.safeParse`) instead of `body.json()` +36 µs; the whole sdk call 241 µs, so about 29 µs more for " +
      "request validation of the path parameters, header and URL building and the retry loop.",
    "Done: `sdk/transport/http-transport.ts` now uses undici's own `headersTimeout` and `bodyTimeout` per request " +
      "instead of an `AbortSignal.timeout` (and `AbortSignal.any`) per call; that took the 16-in-flight ratio from " +
      "1.63× to about 1.15×. What is left is response validation (about 36 µs for a 2.7 KB vault), which the sdk " +
      "does by design, and request validation; both are fixed costs per call.",
    "Done: responses are validated by ajv-compiled validators translated from the same zod schemas " +
      "(`sdk/schema/compiled-validator.ts`; zod still runs for a body they reject, to word the error), compiled " +
      "at build time (`sdk/scripts/build-validators.js`, ajv standalone code), so no request pays a compile. In-process, the vault's validation went from about 10 µs (zod) to about " +
      "2 µs; in this figure the client CPU gap at 16 in flight went from +37..50 µs to +7..8 µs over 3 runs each. " +
      "One at a time the gap is still +40..56 µs of client CPU on a loaded machine, which this figure alone " +
      "does not break down further.",
    "Where the rest goes, measured on 26 November 2026: in-process, with a stub transport that answers at once, " +
      "the pipeline's own CPU per `vaults.get` is 4 to 6 µs, of which response validation is 3.6 µs (zod alone " +
      "takes 10.9 µs for the same 2.6 KB vault) and `JSON.parse` 7.7 µs, which the raw client pays too. The " +
      "undici transport alone is within 2 to 5% of raw undici's CPU at 16 in flight (interleaved batches). In a " +
      "CPU profile of the 16-in-flight batches the sdk's own code (the pipeline, path parameter checks, the " +
      "validators and the copy they return) is about 11% of the client's CPU, which is the ratio this figure " +
      "shows: 1.13× to 1.23× over the last four full runs, moving with the machine's speed (raw undici took " +
      "69 µs in one run and 124 µs in the next). What remains is validation, which the sdk does by design (a " +
      "response that breaks the vendor's schema must not reach a program as typed data).",
    'The `transport: "node:http"` row is the sdk over Node\'s own `http` instead of undici, which the provider ' +
      "uses because it never loads undici's WebAssembly parser and so peaks about 30 MiB lower (figure 5). It costs " +
      "more CPU per request than undici, through Node's `ClientRequest`, its agent and the socket timers, and its " +
      "16-in-flight time varies more from run to run; at the provider's few hundred requests per `up`, at most a " +
      "few ms. It has no target: undici stays the sdk's default.",
    "With 16 requests in flight both processes are busy and the client's CPU sets the pace on 2 cores, so the " +
      "ratio is close to the ratio of client CPU. Against a service with any real latency the same 0.09 ms is " +
      "noise: at 1 ms per round trip it is under 10%, at the 50 ms used elsewhere in these benchmarks 0.2%.",
  ],
  run,
};

async function run(context: FigureContext): Promise<FigureOutcome> {
  // Many short alternating batches rather than a few long ones: background load on the machine then falls on
  // every client alike, and the median shrugs off the batches it hit hardest.
  const batch = context.quick ? 200 : 250;
  const rounds = context.quick ? 5 : 15;
  const emulator = await startEmulatorProcess({ latencyMs: 0 });
  const rawAgent = new Agent(POOL);
  const sdkAgent = new Agent(POOL);
  const clients: CustodyClient[] = [];
  try {
    const origin = new URL(emulator.baseUrl).origin;
    const headers = { authorization: `Bearer ${emulator.accessToken}` };
    const clientWith = (extra: Partial<CustodyClientOptions>) => {
      const client = new CustodyClient({
        baseUrl: emulator.baseUrl,
        accessToken: emulator.accessToken,
        requestsPerMinute: 0,
        ...extra,
      });
      clients.push(client);
      return client;
    };
    const undiciClient = clientWith({ dispatcher: sdkAgent });
    const nodeHttpClient = clientWith({ transport: "node:http" });
    const page = await undiciClient.vaults.list({ vault_types: ["utxo"], size: 1 });
    const vaultId = page.vaults[0]?.id;
    if (!vaultId) throw new Error("the emulator's default seed has no UTXO vault to fetch");
    const url = `${origin}/api/v1/vaults/${vaultId}`;

    const raw = async () => {
      const { statusCode, body } = await request(url, { dispatcher: rawAgent, headers });
      const json = (await body.json()) as { id?: string };
      if (statusCode !== 200 || json.id !== vaultId) throw new Error(`raw GET ${url} answered ${statusCode}`);
    };
    const viaSdk = (client: CustodyClient) => async () => {
      const vault = await client.vaults.get(vaultId);
      if (vault.id !== vaultId) throw new Error(`sdk get returned vault ${vault.id}`);
    };
    const sdkClients = [
      { key: "sdk", label: "", via: "the sdk", target: true },
      {
        key: "sdkNodeHttp",
        label: ', transport "node:http"',
        via: 'the sdk over "node:http"',
        target: false,
      },
    ] as const;

    const comparisons: Comparison[] = [];
    const notes: string[] = [];
    for (const inFlight of [1, CONCURRENT]) {
      context.log(`${inFlight} in flight: ${rounds} rounds of ${batch} requests per client`);
      // This process's CPU per batch (the client side; the emulator has its own process), timed batches only.
      const cpu: Record<string, number[]> = { raw: [], sdk: [], sdkNodeHttp: [] };
      const withCpu = (which: string, fn: () => Promise<void>) => async () => {
        const before = process.cpuUsage();
        await runBatch(fn, batch, inFlight);
        const used = process.cpuUsage(before);
        cpu[which]!.push((used.user + used.system) / 1000 / batch);
      };
      const stats = await sampleInterleavedMs(
        { warmup: 1, samples: rounds },
        {
          raw: { run: withCpu("raw", raw) },
          sdk: { run: withCpu("sdk", viaSdk(undiciClient)) },
          sdkNodeHttp: { run: withCpu("sdkNodeHttp", viaSdk(nodeHttpClient)) },
        },
      );
      const perRequest = (s: (typeof stats)["raw"]) => ({
        ...s,
        median: s.median / batch,
        min: s.min / batch,
        max: s.max / batch,
        values: s.values.map((v) => v / batch),
      });
      const floor = perRequest(stats.raw);
      // Drop the warm-up batch's CPU, as its time is dropped.
      const cpuOf = (which: string) => summarize(cpu[which]!.slice(1)).median;
      const rawCpu = cpuOf("raw");
      for (const { key, label, via, target } of sdkClients) {
        const ours = perRequest(stats[key]);
        context.log(`  ${via}: ${formatMs(ours.median)} vs raw ${formatMs(floor.median)} per request`);
        const sdkCpu = cpuOf(key);
        notes.push(
          `${inFlight === 1 ? "One at a time" : `${inFlight} in flight`}, ${via}: the client process used ` +
            `${formatMs(sdkCpu)} of CPU per request, raw undici ${formatMs(rawCpu)} ` +
            `(+${formatMs(sdkCpu - rawCpu)}); the wall time per request was ${formatMs(ours.median)} and ` +
            `${formatMs(floor.median)}.`,
        );
        comparisons.push(
          compare(
            inFlight === 1
              ? `GET /vaults/{id}, one at a time (per request)${label}`
              : `GET /vaults/{id}, ${inFlight} in flight (per request)${label}`,
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
            // The provider's transport is reported, not targeted: it trades this CPU for memory (figure 5).
            target ? { kind: "max", value: 1.1 } : undefined,
          ),
        );
      }
    }
    return {
      settings: { batch, rounds, latencyMs: 0, connections: POOL.connections, concurrent: CONCURRENT },
      comparisons,
      notes,
    };
  } finally {
    await Promise.allSettled([...clients.map((c) => c.close()), rawAgent.close(), sdkAgent.close()]);
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
