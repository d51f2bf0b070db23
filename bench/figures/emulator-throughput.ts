/**
 * Figure 4: the emulator's throughput for GET /vaults and POST /vaults, with autocannon, against Prism (a
 * stateless mock server fed the emulator's own `/openapi.json`) under the same load.
 */

import { startEmulatorProcess } from "../support/emulator-process";
import type { Figure, FigureContext, FigureOutcome } from "../support/figure";
import { formatBytes, formatInt, formatMs } from "../support/format";
import { type LoadOptions, type LoadResult, runLoad } from "../support/load-test";
import { type PrismProcess, prismExecutable, startPrism } from "../support/prism-process";
import { type Comparison, compare } from "../support/results";
import { summarize } from "../support/stats";

const CONNECTIONS = 16;

/** The loads, as paths and bodies relative to a server origin. */
const LOADS = [
  { label: "GET /api/v1/vaults", method: "GET", path: "/api/v1/vaults", body: undefined, okStatus: 200 },
  {
    label: "POST /api/v1/vaults",
    method: "POST",
    path: "/api/v1/vaults",
    // `{n}` becomes a counter per request: vault names must be unique (409 otherwise), so every create succeeds.
    body: JSON.stringify({ name: `bench-${process.pid}-{n}`, type: "evm" }),
    okStatus: 201,
  },
] as const;

/** Figure 4 (`--only emulator-throughput`). */
export const emulatorThroughputFigure: Figure = {
  id: "emulator-throughput",
  number: 4,
  title: "Emulator throughput: GET /vaults and POST /vaults",
  method: [
    "autocannon (programmatic API, in the harness process) drives the emulator, started as its own process with " +
      "no injected latency and the rate limit off, with " +
      `${CONNECTIONS} keep-alive connections: GET /api/v1/vaults (the first page of the default seed's vaults) ` +
      "and POST /api/v1/vaults (an EVM vault with a unique name per request, so every create succeeds and the " +
      "store grows during the run). The load generator and the server share the machine's cores.",
    "The reference is Prism (`@stoplight/prism-cli` 5.14, static mode, logging off), a stateless OpenAPI " +
      "mock server, fed the emulator's own `/openapi.json` and driven by the same load. Prism validates each " +
      "request against the document and answers from the schema; it keeps no state. The ratio is emulator ÷ " +
      "Prism in requests per second (higher is better); there is no target, Prism is the reference.",
  ],
  analysis: [
    "Prism serves our document as it is: every request in every round answered 200 (GET) or 201 (POST), so no " +
      "change to the document was needed for it to run. Two things in the generated document " +
      "(`emulator/openapi.ts`) are worth fixing all the same. (1) Every `z.number().int()` carries zod's default " +
      "bounds `minimum: -9007199254740991, maximum: 9007199254740991`, so Prism's static mock answers " +
      '`"total": -9007199254740991, "page": -9007199254740991`; dropping bounds equal to ±' +
      "`Number.MAX_SAFE_INTEGER` in `jsonSchema()` (or through the `override` option of `z.toJSONSchema`) and " +
      "stating `minimum: 0` for `total`, `page` and `size` would give a truthful document. (2) Each operation " +
      "inlines its whole schema (the 16-variant vault union appears in every vault operation), so the document is " +
      "large and Prism needs over a second to compile its validators on the first request; registering the shared " +
      "schemas (Vault, UtxoVaultAddress, User, the error bodies) in a zod registry and emitting them under " +
      "`components.schemas` with `$ref`s would shrink it several-fold.",
    "Run with its default logging (`-v info`), Prism prints every violation it finds in its own generated example " +
      '(for instance `"string"` where the schema wants a UUID pattern), dozens of lines per request, and then ' +
      "serves only 15 to 20 requests per second here; with logging off it serves hundreds. The reference uses " +
      "logging off. The emulator's GET answers are larger than Prism's (the seeded vaults against one generated " +
      "example; sizes above), and it still serves several times more requests per second: it validates each " +
      "request with the same zod schemas but does not re-validate its own responses, and keeps its state in " +
      "memory with indexes, while Prism validates both the request and the response it generates against the " +
      "document on every call.",
  ],
  run,
};

async function run(context: FigureContext): Promise<FigureOutcome> {
  const durationS = context.quick ? 3 : 5;
  const warmupS = context.quick ? 1 : 2;
  const rounds = context.quick ? 1 : 3;
  const notes: string[] = [];

  const emulator = await startEmulatorProcess({ latencyMs: 0 });
  let prism: PrismProcess | undefined;
  try {
    const origin = new URL(emulator.baseUrl).origin;
    const response = await fetch(`${origin}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    const document = await response.text();
    notes.push(describeDocument(document));
    const exe = prismExecutable();
    if (exe.path) prism = await startPrism(exe.path, document);
    else notes.push(`Prism did not run: ${exe.reason}.`);

    const servers = [
      {
        name: "emulator",
        origin,
        headers: { authorization: `Bearer ${emulator.accessToken}`, "content-type": "application/json" },
      },
      ...(prism
        ? [
            {
              name: "prism",
              origin: prism.origin,
              headers: { authorization: "Bearer bench", "content-type": "application/json" },
            },
          ]
        : []),
    ];

    const comparisons: Comparison[] = [];
    for (const load of LOADS) {
      // Rounds alternate the two servers (emulator, Prism, emulator, ...), so background load and drift on the
      // machine fall on both alike; the median round is reported.
      const rps: Record<string, number[]> = { emulator: [], prism: [] };
      const last: Record<string, LoadResult> = {};
      const broken = new Set<string>();
      for (let round = 0; round < rounds; round++) {
        for (const server of servers) {
          if (broken.has(server.name)) continue;
          context.log(`${server.name}: ${load.label}, round ${round + 1} of ${rounds}, ${durationS} s`);
          const measured = await measure(context, { ...server, load, durationS, warmupS });
          if (measured.problem && server.name === "emulator") {
            throw new Error(`emulator, ${load.label}: ${measured.problem}`);
          }
          if (measured.problem) {
            notes.push(`Prism could not serve ${load.label} with our document: ${measured.problem}.`);
            broken.add(server.name);
            continue;
          }
          rps[server.name]!.push(measured.result.requestsPerSec);
          last[server.name] = measured.result;
        }
      }
      notes.push(describe(`Emulator, ${load.label}`, last.emulator!, load.okStatus));
      if (rps.prism!.length === 0) continue;
      notes.push(describe(`Prism, ${load.label}`, last.prism!, load.okStatus));
      comparisons.push(
        compare(load.label, "req/s", summarize(rps.emulator!), [
          {
            name: "Prism",
            value: summarize(rps.prism!),
            description:
              "Prism 5.14 (static mode, logging off) serving the emulator's own /openapi.json, same load.",
          },
        ]),
      );
    }
    if (comparisons.length === 0) throw new Error(`no reference to compare with: ${notes.join(" ")}`);
    return {
      settings: { connections: CONNECTIONS, rounds, durationS, warmupS, latencyMs: 0, rateLimit: "off" },
      comparisons,
      notes,
    };
  } finally {
    await Promise.allSettled([emulator.close(), prism?.close()]);
  }
}

/** Size and shape of the OpenAPI document, which decides much of Prism's cost per request. */
function describeDocument(document: string): string {
  const parsed = JSON.parse(document) as { paths?: object; components?: { schemas?: object } };
  const safeIntegerBounds = document.split(String(Number.MAX_SAFE_INTEGER)).length - 1;
  return (
    `The emulator's /openapi.json is ${formatBytes(document.length)} with ${Object.keys(parsed.paths ?? {}).length} ` +
    `paths and ${Object.keys(parsed.components?.schemas ?? {}).length} shared component schemas (the rest is ` +
    `inline); ${safeIntegerBounds} integer schemas carry zod's default bounds of ±${Number.MAX_SAFE_INTEGER}.`
  );
}

interface MeasureArgs {
  name: string;
  origin: string;
  headers: Record<string, string>;
  load: (typeof LOADS)[number];
  durationS: number;
  warmupS: number;
}

/** A load result, or why it cannot count (wrong statuses), with a sample answer as evidence. */
type Measured = { result: LoadResult; problem?: string };

async function measure(context: FigureContext, args: MeasureArgs): Promise<Measured> {
  const options: LoadOptions = {
    url: `${args.origin}${args.load.path}`,
    method: args.load.method,
    headers: args.headers,
    body: args.load.body,
    connections: CONNECTIONS,
    durationS: args.warmupS,
  };
  // One request first: Prism compiles its validators on the first call (over a second), which would
  // otherwise swallow a short warm-up whole.
  await sampleAnswer(options.url, args);
  await runLoad(options);
  const result = await runLoad({ ...options, durationS: args.durationS });
  const ok = result.statusCodes[String(args.load.okStatus)] ?? 0;
  context.log(
    `  ${formatInt(result.requestsPerSec)} req/s, p50 ${formatMs(result.latencyP50Ms)}, statuses ${JSON.stringify(result.statusCodes)}`,
  );
  // A server that answers errors fast would look fast: only a run of success statuses counts.
  if (result.completed > 0 && ok >= result.completed * 0.99 && result.errors === 0) return { result };
  const sample = await sampleAnswer(options.url, args);
  return {
    result,
    problem:
      `only ${ok} of ${result.completed} responses were ${args.load.okStatus} (statuses ` +
      `${JSON.stringify(result.statusCodes)}, ${result.errors} socket errors); a sample answer: ` +
      `${sample.status} \`${sample.text.replace(/`/g, "'")}\``,
  };
}

async function sampleAnswer(url: string, args: MeasureArgs): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: args.load.method,
    headers: args.headers,
    body: args.load.body?.replace("{n}", `sample-${Date.now()}`),
  });
  return { status: response.status, text: (await response.text()).slice(0, 600) };
}

function describe(label: string, r: LoadResult, okStatus: number): string {
  return (
    `${label}: ${formatInt(r.requestsPerSec)} req/s, latency p50 ${formatMs(r.latencyP50Ms)} / ` +
    `p99 ${formatMs(r.latencyP99Ms)}, ${formatInt(r.completed)} requests, all ${okStatus}, ` +
    `${formatBytes(r.bytesPerResponse)} per response.`
  );
}
