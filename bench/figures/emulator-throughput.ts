/**
 * Figure 4: the emulator's throughput for GET /vaults and POST /vaults, with autocannon, against Prism (a
 * stateless mock server fed the emulator's own `/openapi.json`) under the same load.
 */
import type { Figure, FigureContext, FigureOutcome } from "../support/figure";
import { startEmulatorProcess } from "../support/emulator-process";
import { formatInt, formatMs } from "../support/format";
import { type LoadOptions, type LoadResult, runLoad } from "../support/load-test";
import { prismExecutable, startPrism } from "../support/prism-process";
import { type Comparison, compare, type Floor } from "../support/results";
import { exact } from "../support/stats";

const CONNECTIONS = 16;

/** The loads, as paths and bodies relative to a server origin. */
const LOADS = [
  { label: "GET /api/v1/vaults", method: "GET", path: "/api/v1/vaults", body: undefined, okStatus: 200 },
  {
    label: "POST /api/v1/vaults",
    method: "POST",
    path: "/api/v1/vaults",
    // `[<id>]` becomes a fresh id per request: vault names are unique, so every create succeeds (spec §4, 409).
    body: JSON.stringify({ name: "bench-[<id>]", type: "evm" }),
    okStatus: 201,
  },
] as const;

export const emulatorThroughputFigure: Figure = {
  id: "emulator-throughput",
  number: 4,
  title: "Emulator throughput: GET /vaults and POST /vaults",
  method: [
    "autocannon (programmatic API, in the harness process) drives the emulator, started as its own process with " +
      "no injected latency and the rate limit off, with " +
      `${CONNECTIONS} keep-alive connections: GET /api/v1/vaults (the first page, 50 vaults of the default seed) ` +
      "and POST /api/v1/vaults (an EVM vault with a unique name per request, so every create succeeds and the " +
      "store grows during the run). The load generator and the server share the machine's cores.",
    "The reference is Prism (`@stoplight/prism-cli` 5.14, static mode, logging at `warn`), a stateless OpenAPI " +
      "mock server, fed the emulator's own `/openapi.json` and driven by the same load. Prism validates each " +
      "request against the document and answers from the schema; it keeps no state. The ratio is emulator ÷ " +
      "Prism in requests per second (higher is better); there is no target, Prism is the reference.",
  ],
  run,
};

async function run(context: FigureContext): Promise<FigureOutcome> {
  const durationS = context.quick ? 3 : 10;
  const warmupS = context.quick ? 1 : 2;
  const notes: string[] = [];

  const emulator = await startEmulatorProcess({ latencyMs: 0 });
  const ours: LoadResult[] = [];
  let document: string;
  try {
    const origin = new URL(emulator.baseUrl).origin;
    const headers = { authorization: `Bearer ${emulator.accessToken}`, "content-type": "application/json" };
    const response = await fetch(`${origin}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    document = await response.text();
    for (const load of LOADS) {
      context.log(`emulator: ${load.label} for ${durationS} s`);
      ours.push(await measure(context, { origin, headers, load, durationS, warmupS }));
    }
  } finally {
    await emulator.close();
  }

  const prism: Array<LoadResult | undefined> = [];
  const exe = prismExecutable();
  if (!exe.path) {
    notes.push(`Prism did not run: ${exe.reason}.`);
  } else {
    const server = await startPrism(exe.path, document);
    try {
      const headers = { authorization: "Bearer bench", "content-type": "application/json" };
      for (const load of LOADS) {
        context.log(`prism: ${load.label} for ${durationS} s`);
        prism.push(await measure(context, { origin: server.origin, headers, load, durationS, warmupS }));
      }
    } finally {
      await server.close();
    }
  }

  const comparisons: Comparison[] = [];
  LOADS.forEach((load, i) => {
    const mine = ours[i]!;
    const reference = prism[i];
    notes.push(describe(`Emulator, ${load.label}`, mine, load.okStatus));
    if (reference) notes.push(describe(`Prism, ${load.label}`, reference, load.okStatus));
    const floors: Floor[] = reference
      ? [
          {
            name: "Prism",
            value: exact(reference.requestsPerSec),
            description: "Prism 5.14 mock server on the emulator's /openapi.json, same load.",
          },
        ]
      : [];
    if (floors.length > 0) comparisons.push(compare(load.label, "req/s", exact(mine.requestsPerSec), floors));
  });
  if (comparisons.length === 0) {
    throw new Error(`no reference to compare with: ${notes.join(" ")}`);
  }
  return {
    settings: { connections: CONNECTIONS, durationS, warmupS, latencyMs: 0, rateLimit: "off" },
    comparisons,
    notes,
  };
}

interface MeasureArgs {
  origin: string;
  headers: Record<string, string>;
  load: (typeof LOADS)[number];
  durationS: number;
  warmupS: number;
}

async function measure(context: FigureContext, args: MeasureArgs): Promise<LoadResult> {
  const options: LoadOptions = {
    url: `${args.origin}${args.load.path}`,
    method: args.load.method,
    headers: args.headers,
    body: args.load.body,
    connections: CONNECTIONS,
    durationS: args.warmupS,
  };
  await runLoad(options);
  const result = await runLoad({ ...options, durationS: args.durationS });
  const ok = result.statusCodes[String(args.load.okStatus)] ?? 0;
  context.log(
    `  ${formatInt(result.requestsPerSec)} req/s, p50 ${formatMs(result.latencyP50Ms)}, statuses ${JSON.stringify(result.statusCodes)}`,
  );
  // A server that answers errors fast would look fast: insist on the success status.
  if (ok < result.completed * 0.99 || result.errors > 0) {
    throw new Error(
      `${args.load.label} on ${args.origin}: only ${ok} of ${result.completed} responses were ${args.load.okStatus} ` +
        `(statuses ${JSON.stringify(result.statusCodes)}, ${result.errors} errors)`,
    );
  }
  return result;
}

function describe(label: string, r: LoadResult, okStatus: number): string {
  return (
    `${label}: ${formatInt(r.requestsPerSec)} req/s, latency p50 ${formatMs(r.latencyP50Ms)} / ` +
    `p99 ${formatMs(r.latencyP99Ms)}, ${formatInt(r.completed)} requests, all ${okStatus}.`
  );
}
