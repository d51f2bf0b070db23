/**
 * Figure 1: `pulumi up` of N vaults + N UTXO addresses, then `preview --refresh` with no changes, through the
 * Automation API and the real engine against the emulator, on both paths (the dynamic provider, and the
 * `custody` provider plugin through its generated SDK); against (a) the same API calls made directly with the
 * sdk and (b) the engine alone with no-op resources.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { CustodyClient } from "@pulumi-custody/sdk";
import { enginePaths, pluginLauncherDir } from "../../test/support/pulumi-engine";
import type { EmulatorProcess } from "../support/emulator-process";
import { startEmulatorProcess } from "../support/emulator-process";
import {
  attributeGap,
  BENCH_CHAIN,
  cpuBreakdownTable,
  expectCreates,
  noopStack,
  oursStack,
  pluginStack,
  type RoundTimes,
  timed,
  upThenRefresh,
} from "../support/engine-runs";
import {
  createFixtureStack,
  disposeFixtureStack,
  engineDefaultParallel,
  type FixtureStackOptions,
} from "../support/engine-stack";
import type { Figure, FigureContext, FigureOutcome } from "../support/figure";
import { formatMs } from "../support/format";
import type { EngineRole } from "../support/process-tree";
import { repoPath } from "../support/repo";
import { deriveRequestMix, describeMix, type LoggedRequest, type RequestMix } from "../support/request-mix";
import { compare, type Floor } from "../support/results";
import { replayRequests, replayResources } from "../support/sdk-replay";
import { type Stat, summarize } from "../support/stats";

const LATENCY_MS = 50;
/** `up` and `preview --refresh` within 10% of the engine with no-op resources (also figure 6 at every N). */
export const ENGINE_TARGET = { kind: "max", value: 1.1 } as const;
const execFileAsync = promisify(execFile);
/** The emulator keeps this many requests in its log (`startEmulator` default). */
const REQUEST_LOG_CAPACITY = 1000;

/** Figure 1 (`--only engine`). */
export const engineFigure: Figure = {
  id: "engine",
  number: 1,
  title: "pulumi up of N vaults + N addresses, and preview --refresh with no changes",
  method: [
    "**Ours.** The fixture program `bench/fixtures/custody-vaults` (precompiled by the repository build) declares " +
      "N UTXO vaults and, for each, one `VaultAddress` that depends on the vault's id. It runs through the " +
      "Automation API with the real engine (`pulumi` CLI, our `pulumi-language-nodejs`, the " +
      "`pulumi-resource-pulumi-nodejs` plugin) on a fresh `file://` backend, against the emulator in its own " +
      `process with ${LATENCY_MS} ms of latency per request. \`custody:requestsPerMinute\` is 0 (no client-side ` +
      "throttling) and the emulator's rate limit is off, so neither side waits for a quota. Measured: " +
      "`stack.up()` on a fresh stack and emulator state, then `stack.preview({ refresh: true, expectNoChanges: " +
      "true })`. Both run with `--parallel P`, P being the engine's own default on this machine (4 × cores).",
    "**Floor (a): the API calls alone.** The emulator's request log of our run says what the provider really sent " +
      "(endpoints and counts, with their query parameters). The harness replays that mix directly with the sdk " +
      "(`CustodyClient`, rate limiter off) on a reset emulator: per resource operation the same calls in the same " +
      "order, at most P operations at once, each address after its vault, as the engine schedules them. The " +
      "replay's own request log must equal ours, endpoint by endpoint, or the figure fails.",
    "**Floor (b): the engine alone.** The fixture `bench/fixtures/noop-dynamic` declares the same count of no-op " +
      "dynamic resources with the same dependency shape (N, each with a dependent one); their `create` and " +
      `\`read\` only sleep ${LATENCY_MS} ms (one round trip). Same engine, same Automation API calls, same P.`,
    "**The plugin path.** The fixture `bench/fixtures/custody-vaults-plugin` declares the same resources through " +
      "the `custody` provider plugin (`pulumi-resource-custody`, found on `PATH`) and the npm SDK generated from " +
      "its schema (the release's `@pulumi-custody/custody`). Same emulator, engine, Automation API calls, P and floors: " +
      "the plugin runs the same provider runtime, so it sends the same requests (the notes compare both mixes). " +
      "Its state holds no serialized provider.",
    "The ratio is ours ÷ max(a, b): what the provider adds on top of the slower of the two unavoidable parts. " +
      "Each round runs ours, the plugin path and (b), in an order that rotates every round, then (a); after one " +
      "untimed warm-up round with a small N, medians of the rounds are reported.",
  ],
  analysis: [
    "The provider sends the minimum a create-or-adopt needs: one create per resource, the lookups that adoption " +
      "and restore need being answered together by a page of the account's vaults, and a page per 100 vaults on " +
      "refresh (figure 7 counts them). Floor (a) shows those calls alone take about a second at the engine's " +
      "concurrency. Until 27 November 2026 each create looked its name up first, so floor (b)'s create waited one " +
      "round trip where ours made two, and `up` measured 1.08–1.24×; with the lookups batched it measures " +
      "1.04× in the run above (the round-trip diagnostic, which ran no-op creates as long as ours, no longer " +
      "applies and is skipped when our creates make one request each). " +
      "The findings above measure where the rest goes in this run: the wall time and CPU of each engine process, " +
      "ours against the no-op floor, and how much wall time the extra CPU alone accounts for on this machine's " +
      "cores. When the engine's processes keep the cores busy (CPU ÷ (wall × cores) near 100%), every extra second " +
      "of CPU is extra wall time, and the process with the largest extra CPU is the one to work on. Three sources " +
      "can put CPU there, each measured apart:",
    "**1. Checkpoints (the `pulumi CLI` row).** After every step the engine serializes the whole state and writes " +
      "it to the backend, so this work grows with N² and with the bytes each resource keeps in the state: the " +
      "serialized provider (`__provider`, stored in both inputs and outputs) and the outputs (figure 5 measures " +
      "both against the no-op floor). The `PULUMI_SKIP_CHECKPOINTS` diagnostic above isolates this cost; figure 6 " +
      "shows whether it makes the ratio grow with N. Smaller `__provider` text and fewer stored outputs reduce it; " +
      "users with very large stacks can also set `PULUMI_SKIP_CHECKPOINTS=true`, at the price of losing " +
      "intermediate state if the run is interrupted.",
    "**2. Declared outputs (the `program` row).** The program constructs every resource on every `up` and every " +
      "`preview`, and `@pulumi/pulumi` makes four promises per declared output property, each tagged with " +
      "`new Error().stack`, which `source-map-support` (registered by `@pulumi/pulumi/cmd/run`) formats frame by " +
      "frame at once; that stack is read only to report leaked promises under `PULUMI_DEBUG_PROMISE_LEAKS`. Done: " +
      "`Vault` and `VaultAddress` register with no stack frames captured (`provider/resources/promise-stacks.ts`; " +
      "the source position, which Pulumi reads with its own limit, is unchanged), which took a Vault from about " +
      "7 ms of program CPU to about 1 ms, below the no-op resource (the registration diagnostic above). The " +
      "plugin path's generated SDK classes still pay it: Pulumi's codegen writes their constructors, which declare " +
      "every output, so that path's program costs about what a Vault with the stacks costs in the diagnostic, per " +
      "resource. That, not its provider process, is where the plugin path spends more CPU than the dynamic " +
      "provider (compare the `program` rows of the two CPU tables); a program can avoid it by setting " +
      "`Error.stackTraceLimit = 0` around its declarations, as the dynamic provider's classes do.",
    "**3. The provider process (the `provider` row).** It loads the runtime on the first call (sdk, zod schemas; " +
      "figure 5 measures its peak memory); per call, its requests go through the sdk (figure 3), inputs " +
      "are checked with zod, and larger outputs cost more protobuf work in both the provider and the CLI. Done " +
      "since the first measurement: the shim caches the loaded runtime, and `@noble/curves` is loaded only when " +
      "something is signed or verified, which vaults never need; and its client uses Node's own `http` rather than " +
      "undici (figure 5).",
  ],
  run,
};

async function run(context: FigureContext): Promise<FigureOutcome> {
  const count = context.quick ? 20 : 100;
  // Five rounds: the no-op floor's own rounds have differed by 20% (7.8 to 9.4 s) on this 2-core machine, and
  // the median of three moved the ratio by ±0.1 between full runs.
  const rounds = context.quick ? 1 : 5;
  const warmupCount = context.quick ? 5 : 10;
  const parallel = engineDefaultParallel(os.cpus().length);
  const cores = os.availableParallelism();
  const emulator = await startEmulatorProcess({ latencyMs: LATENCY_MS });
  try {
    await emulator.control.setRateLimit(0);
    context.log("the plugin's npm SDK, from the release artifacts (scripts/release-artifacts.sh)");
    const { stdout: releaseDir } = await execFileAsync(
      "bash",
      [repoPath("scripts", "release-artifacts.sh")],
      {
        cwd: repoPath(),
      },
    );
    // Unpacked inside the repository, where the SDK's `require("@pulumi/pulumi")` finds the repository's copy.
    const sdkDir = repoPath("dist", "bench-sdk", "custody");
    await fs.promises.rm(sdkDir, { recursive: true, force: true });
    await fs.promises.mkdir(sdkDir, { recursive: true });
    const version = JSON.parse(
      await fs.promises.readFile(repoPath("plugin", "package.json"), "utf8"),
    ).version;
    await execFileAsync("tar", [
      "-xzf",
      path.join(releaseDir.trim(), `pulumi-custody-custody-${version}.tgz`),
      "-C",
      sdkDir,
      "--strip-components=1",
    ]);
    const launcherRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "bench-plugin-"));
    const pluginPath = [
      await pluginLauncherDir(launcherRoot),
      (await enginePaths()).binDir,
      process.env.PATH,
    ].join(path.delimiter);
    const times = {
      ours: [] as RoundTimes[],
      plugin: [] as RoundTimes[],
      noop: [] as RoundTimes[],
      replay: [] as RoundTimes[],
    };
    let mixes: { up: RequestMix; refresh: RequestMix } | undefined;
    let pluginMixes: { up: RequestMix; refresh: RequestMix } | undefined;
    for (let round = -1; round < rounds; round++) {
      const n = round < 0 ? warmupCount : count;
      const label = round < 0 ? `warm-up (N=${n})` : `round ${round + 1} of ${rounds} (N=${n})`;
      const measured: {
        ours?: Awaited<ReturnType<typeof runOurs>>;
        plugin?: Awaited<ReturnType<typeof runOurs>>;
        noop?: RoundTimes;
      } = {};
      const measures = {
        ours: async () => {
          context.log(`${label}: ours (dynamic provider)`);
          measured.ours = await runOurs(emulator, n, parallel, oursStack(emulator, n, "ours"));
          const t = measured.ours.times;
          context.log(`  up ${formatMs(t.up)}, preview --refresh ${formatMs(t.refresh)}`);
        },
        plugin: async () => {
          context.log(`${label}: ours (provider plugin, generated SDK)`);
          measured.plugin = await runOurs(
            emulator,
            n,
            parallel,
            pluginStack(emulator, n, "plugin", pluginPath),
          );
          const t = measured.plugin.times;
          context.log(`  up ${formatMs(t.up)}, preview --refresh ${formatMs(t.refresh)}`);
        },
        noop: async () => {
          context.log(`${label}: floor (b), engine with no-op resources`);
          measured.noop = await runNoop(n, parallel, [emulator.pid]);
          context.log(
            `  up ${formatMs(measured.noop.up)}, preview --refresh ${formatMs(measured.noop.refresh)}`,
          );
        },
      };
      // The order rotates every round, so a drift of the machine cannot favour any of the three.
      const order = ["ours", "plugin", "noop"] as const;
      const start = (round + 1) % order.length;
      for (const which of [...order.slice(start), ...order.slice(0, start)]) await measures[which]();
      const ours = measured.ours!;
      context.log(
        `${label}: floor (a), sdk replay of ${ours.mix.up.total} + ${ours.mix.refresh.total} requests`,
      );
      const replay = await runReplay(emulator, n, parallel, ours.mix, ours.logs);
      context.log(`  up ${formatMs(replay.up)}, refresh ${formatMs(replay.refresh)}`);
      if (round < 0) continue;
      times.ours.push(ours.times);
      times.plugin.push(measured.plugin!.times);
      times.noop.push(measured.noop!);
      times.replay.push(replay);
      mixes = ours.mix;
      pluginMixes = measured.plugin!.mix;
    }
    await fs.promises.rm(launcherRoot, { recursive: true, force: true });

    const stat = (which: keyof typeof times, key: "up" | "refresh"): Stat =>
      summarize(times[which].map((t) => t[key]));
    const floors = (key: "up" | "refresh"): Floor[] => [
      {
        name: "(a) sdk replay",
        value: stat("replay", key),
        description: `The provider's own requests (from the emulator's log) made directly with the sdk, P = ${parallel} operations at once.`,
      },
      {
        name: "(b) engine, no-op",
        value: stat("noop", key),
        description: `The engine with ${count} + ${count} no-op dynamic resources whose create/read sleep ${LATENCY_MS} ms, same P.`,
      },
    ];
    const up = compare(
      `pulumi up, ${count} vaults + ${count} addresses`,
      "ms",
      stat("ours", "up"),
      floors("up"),
      ENGINE_TARGET,
    );
    const refresh = compare(
      `preview --refresh, no changes (${2 * count} resources)`,
      "ms",
      stat("ours", "refresh"),
      floors("refresh"),
      ENGINE_TARGET,
    );
    const pluginUp = compare(
      `pulumi up through the provider plugin, ${count} vaults + ${count} addresses`,
      "ms",
      stat("plugin", "up"),
      floors("up"),
      ENGINE_TARGET,
    );
    const pluginRefresh = compare(
      `preview --refresh through the provider plugin, no changes (${2 * count} resources)`,
      "ms",
      stat("plugin", "refresh"),
      floors("refresh"),
      ENGINE_TARGET,
    );
    const cpu = (which: "ours" | "plugin" | "noop", key: "upCpu" | "refreshCpu") =>
      summarize(times[which].map((t) => t[key] ?? 0)).median;
    const roleCpu = (which: "ours" | "noop", key: "upRoles" | "refreshRoles", role: EngineRole) =>
      summarize(times[which].map((t) => t[key]?.[role] ?? 0)).median;
    const perResource = (key: "upCpu" | "refreshCpu", which: "ours" | "plugin" = "ours") =>
      (cpu(which, key) - cpu("noop", key)) / (2 * count);
    const registration = await registrationCost();
    let checkpoints: string | undefined;
    if (!context.quick) {
      context.log(`diagnostic: up of both fixtures with PULUMI_SKIP_CHECKPOINTS=true (N=${count})`);
      const skipped = await upWithoutCheckpoints(emulator, count, parallel);
      const [oursCli, noopCli] = [
        roleCpu("ours", "upRoles", "pulumi CLI"),
        roleCpu("noop", "upRoles", "pulumi CLI"),
      ];
      const [oursSaved, noopSaved] = [
        oursCli - skipped.ours["pulumi CLI"],
        noopCli - skipped.noop["pulumi CLI"],
      ];
      checkpoints =
        "Checkpoints, measured apart: with `PULUMI_SKIP_CHECKPOINTS=true` (the engine then does not write the " +
        `whole state to the backend after every step) the CLI used ${formatMs(skipped.ours["pulumi CLI"])} of CPU ` +
        `for our \`up\` instead of ${formatMs(oursCli)}, and ${formatMs(skipped.noop["pulumi CLI"])} for the no-op ` +
        `one instead of ${formatMs(noopCli)}: checkpoints cost ours ${formatMs(oursSaved)} and the floor ` +
        `${formatMs(noopSaved)}. Each write serializes the whole state so far, so this cost grows with N² and ` +
        "with the bytes each resource keeps in the state (figure 5).";
    }
    const roundTrips = context.quick
      ? undefined
      : await longerCreates(context, mixes!.up.total, count, parallel, emulator, stat("ours", "up"), [
          stat("noop", "up").median,
          stat("plugin", "up").median,
        ]);
    const notes = [
      `Requests the provider sent for \`up\`: ${describeMix(mixes!.up)} (${mixes!.up.total} in all, ` +
        `${(mixes!.up.total / (2 * count)).toFixed(1)} per resource).`,
      `Requests for \`preview --refresh\`: ${describeMix(mixes!.refresh)} (${mixes!.refresh.total} in all).`,
      samePluginMix(mixes!, pluginMixes!),
      ...[up, refresh, pluginUp, pluginRefresh].map((c) => {
        const [a, b] = c.floors.map((f) => f.value.median) as [number, number];
        const over = c.ours.median - Math.max(a, b);
        return (
          `${c.label}: ours ${formatMs(c.ours.median)}, (a) ${formatMs(a)}, (b) ${formatMs(b)}; ours is ` +
          `${formatMs(over)} above the larger floor, ${formatMs(over / (2 * count))} per resource. The API ` +
          `calls alone (a) take ${((a / c.ours.median) * 100).toFixed(0)}% of our time and overlap with the ` +
          "engine's work; what waiting on them adds in the engine is measured apart below (round trips)."
        );
      }),
      `Where the time goes, measured. The engine's processes used ${formatMs(perResource("upCpu"))} more CPU per ` +
        `resource than the no-op floor during \`up\` and $formatMs(perResource("refreshCpu"))more during ` +
        `\`preview --refresh\`, on $corescores shared by the CLI, the program, the provider and the ` +
        "emulator. By process (sampled from /proc every 200 ms; short-lived processes are slightly undercounted):",
      cpuBreakdownTable(times.ours, times.noop, cores),
      attributeGap(times.ours, times.noop, cores, "up"),
      attributeGap(times.ours, times.noop, cores, "refresh"),
      `The plugin path used $formatMs(perResource("upCpu", "plugin"))more CPU per resource than the no-op ` +
        `floor during \`up\` and $formatMs(perResource("refreshCpu", "plugin"))during \`preview --refresh\`. ` +
        "By process:",
      cpuBreakdownTable(times.plugin, times.noop, cores),
      ...(checkpoints ? [checkpoints] : []),
      ...(roundTrips ? [roundTrips] : []),
      ...(registration ? [registration] : []),
    ];
    return {
      settings: { N: count, latencyMs: LATENCY_MS, parallel, rounds, requestsPerMinute: 0, rateLimit: "off" },
      comparisons: [up, refresh, pluginUp, pluginRefresh],
      notes,
    };
  } finally {
    await emulator.close();
  }
}

/**
 * Runs `bench/support/registration-cost.js` in its own process and describes the program-side cost of
 * declaring each kind of resource; undefined (with the reason in the text) if it fails.
 */
async function registrationCost(): Promise<string | undefined> {
  try {
    const script = repoPath("dist", "bench", "support", "registration-cost.js");
    // Pulumi's promise-leak check may fail the exit code after the result is printed; the JSON line counts.
    const stdout = await execFileAsync(process.execPath, [script, "200"], {
      cwd: repoPath(),
      timeout: 120_000,
    }).then(
      (r) => r.stdout,
      (err: { stdout?: string; message: string }) => {
        if (err.stdout?.trim().startsWith("{")) return err.stdout;
        throw err;
      },
    );
    const costs = JSON.parse(stdout.trim().split("\n")[0]!) as Record<
      string,
      { cpuMsPerResource: number; declaredOutputs: number }
    >;
    const [stacks, noop] = [costs.VaultWithStacks!, costs.noop!];
    const perOutput =
      (stacks.cpuMsPerResource - noop.cpuMsPerResource) / (stacks.declaredOutputs - noop.declaredOutputs);
    const line = (kind: string) =>
      `\`${kind}\` ${formatMs(costs[kind]!.cpuMsPerResource)} (${costs[kind]!.declaredOutputs} declared outputs)`;
    return (
      "Program side, measured apart (`bench/support/registration-cost.ts`: 200 constructions under Pulumi's " +
      "mocks, with `source-map-support` registered as `@pulumi/pulumi/cmd/run` registers it for every program): " +
      `declaring one resource costs ${line("Vault")}, ${line("VaultAddress")}, against ${line("noop")} for the ` +
      "no-op resource. The program pays it on every `up` and every `preview`. With the SDK's promise stacks " +
      `captured, as before \`provider/resources/promise-stacks.ts\`, a Vault costs ${formatMs(stacks.cpuMsPerResource)}: ` +
      "`transferProperties` in `@pulumi/pulumi/runtime/rpc.js` makes four promises per declared output, and " +
      "`debuggablePromise` formats `new Error().stack` for each through source-map-support, about " +
      `${formatMs(perOutput)} per declared output (against the no-op resource).`
    );
  } catch (err) {
    return `The program-side registration diagnostic failed: ${(err as Error).message.split("\n")[0]}`;
  }
}

/**
 * One of our runs (`stack`: the dynamic provider's fixture or the plugin's): a fresh emulator state and stack,
 * `up`, then `preview --refresh`, with the request log of each.
 */
async function runOurs(
  emulator: EmulatorProcess,
  count: number,
  parallel: number,
  stack: FixtureStackOptions,
): Promise<{
  times: RoundTimes;
  mix: { up: RequestMix; refresh: RequestMix };
  logs: { up: LoggedRequest[]; refresh: LoggedRequest[] };
}> {
  await emulator.control.reset("default");
  const logs: { up: LoggedRequest[]; refresh: LoggedRequest[] } = { up: [], refresh: [] };
  const times = await upThenRefresh(stack, {
    count,
    parallel,
    exclude: [emulator.pid],
    what: stack.fixture,
    before: () => emulator.control.clearRequests(),
    after: async (operation) => {
      logs[operation] = await requestLog(emulator);
    },
  });
  return {
    times,
    mix: { up: deriveRequestMix(logs.up), refresh: deriveRequestMix(logs.refresh) },
    logs,
  };
}

/**
 * Diagnostic: one `up` of each fixture with `PULUMI_SKIP_CHECKPOINTS=true`, which stops the engine from writing
 * the whole state to the backend after every step. The CLI's CPU with and without tells what checkpoints cost.
 */
async function upWithoutCheckpoints(
  emulator: EmulatorProcess,
  count: number,
  parallel: number,
): Promise<{ ours: Record<EngineRole, number>; noop: Record<EngineRole, number> }> {
  const envVars = { PULUMI_SKIP_CHECKPOINTS: "true" };
  await emulator.control.reset("default");
  const roles: Partial<Record<"ours" | "noop", Record<EngineRole, number>>> = {};
  for (const which of ["ours", "noop"] as const) {
    const stack = await createFixtureStack(
      which === "ours"
        ? oursStack(emulator, count, "ours-nocheckpoints", envVars)
        : noopStack(count, LATENCY_MS, "noop-nocheckpoints", envVars),
    );
    try {
      const up = await timed(() => stack.up({ parallel }), [emulator.pid]);
      expectCreates(up.result.summary.resourceChanges, 2 * count + 1, `${which}: up without checkpoints`);
      roles[which] = up.roles!;
    } finally {
      await disposeFixtureStack(stack);
    }
  }
  return { ours: roles.ours!, noop: roles.noop! };
}

/** Floor (b): the no-op fixture, same count and dependency shape. */
function runNoop(count: number, parallel: number, exclude: number[]): Promise<RoundTimes> {
  return upThenRefresh(noopStack(count, LATENCY_MS, "noop"), { count, parallel, exclude, what: "noop" });
}

/**
 * A diagnostic for `up`: the no-op fixture whose create waits as many round trips as our create makes (a lookup,
 * which adoption and restore need, then the create), against floor (b)'s one. Median of 3.
 */
async function longerCreates(
  context: FigureContext,
  upRequests: number,
  count: number,
  parallel: number,
  emulator: EmulatorProcess,
  ours: Stat,
  [noopUp, pluginUp]: [number, number],
): Promise<string | undefined> {
  const perCreate = Math.round(upRequests / (2 * count));
  if (perCreate <= 1) return undefined;
  const ups: number[] = [];
  for (let i = 0; i < 3; i++) {
    context.log(
      `diagnostic ${i + 1} of 3: up of no-op resources whose create waits ${perCreate} round trips`,
    );
    const stack = noopStack(count, LATENCY_MS, "noop-longer-create", undefined, perCreate * LATENCY_MS);
    const times = await upThenRefresh(stack, {
      count,
      parallel,
      exclude: [emulator.pid],
      what: "noop, longer create",
    });
    ups.push(times.up);
  }
  const longer = summarize(ups).median;
  return (
    `Round trips, measured apart: our create makes ${perCreate} requests (a lookup by name, which adoption and ` +
    `restore need, then the create), where floor (b)'s create waits one round trip. The same no-op resources ` +
    `whose create waits ${perCreate} round trips (${perCreate * LATENCY_MS} ms) took ${formatMs(longer)} for ` +
    `\`up\` (median of 3; samples ${ups.map(formatMs).join(", ")}), ${formatMs(longer - noopUp)} more than floor ` +
    `(b). Each vault's address waits for the vault, so every chain holds ${2 * perCreate} round trips in a row, ` +
    `and the engine's ${parallel} operations at a time spend them waiting. Against those resources ours would be ` +
    `${(ours.median / longer).toFixed(2)}× and the plugin path ${(pluginUp / longer).toFixed(2)}×; the target ` +
    "above stays measured against floor (b)."
  );
}

/** Floor (a): our request mix, replayed with the sdk on a reset emulator; checks the replay sent the same mix. */
async function runReplay(
  emulator: EmulatorProcess,
  count: number,
  parallel: number,
  mix: { up: RequestMix; refresh: RequestMix },
  logs: { up: LoggedRequest[]; refresh: LoggedRequest[] },
): Promise<RoundTimes> {
  await emulator.control.reset("default");
  const client = new CustodyClient({
    baseUrl: emulator.baseUrl,
    accessToken: emulator.accessToken,
    requestsPerMinute: 0,
  });
  try {
    const resources = replayResources(count);
    await emulator.control.clearRequests();
    const up = await timed(() =>
      replayRequests(client, resources, {
        mix: mix.up,
        log: logs.up,
        shape: "up",
        concurrency: parallel,
        chain: BENCH_CHAIN,
      }),
    );
    expectSameMix(mix.up, deriveRequestMix(await requestLog(emulator)), "up");
    await emulator.control.clearRequests();
    const refresh = await timed(() =>
      replayRequests(client, resources, {
        mix: mix.refresh,
        log: logs.refresh,
        shape: "refresh",
        concurrency: parallel,
        chain: BENCH_CHAIN,
      }),
    );
    expectSameMix(mix.refresh, deriveRequestMix(await requestLog(emulator)), "refresh");
    return { up: up.ms, refresh: refresh.ms };
  } finally {
    await client.close();
  }
}

/** The emulator's request log as {@link LoggedRequest}s (path with query); fails if the log overflowed. */
async function requestLog(emulator: EmulatorProcess): Promise<LoggedRequest[]> {
  const entries = await emulator.control.listRequests(REQUEST_LOG_CAPACITY);
  if (entries.length >= REQUEST_LOG_CAPACITY) {
    throw new Error(`the emulator's request log is full (${entries.length} entries): requests were lost`);
  }
  return entries.map((e) => ({ method: e.method, path: e.url }));
}

/** Whether the plugin path sent the same requests as the dynamic provider, in words. */
function samePluginMix(
  ours: { up: RequestMix; refresh: RequestMix },
  plugin: { up: RequestMix; refresh: RequestMix },
): string {
  const canonical = (mix: RequestMix) => JSON.stringify(Object.entries(mix.counts).sort());
  const same = (["up", "refresh"] as const).every((op) => canonical(ours[op]) === canonical(plugin[op]));
  return same
    ? "The plugin path sent exactly the same requests, endpoint by endpoint, for both operations."
    : `The plugin path sent different requests: \`up\` ${describeMix(plugin.up)}, \`preview --refresh\` ` +
        `${describeMix(plugin.refresh)}.`;
}

function expectSameMix(expected: RequestMix, actual: RequestMix, what: string): void {
  const canonical = (mix: RequestMix) => JSON.stringify(Object.entries(mix.counts).sort());
  if (canonical(expected) !== canonical(actual) || actual.unmatched.length > 0) {
    throw new Error(
      `sdk replay of ${what} sent ${describeMix(actual)}, but the provider sent ${describeMix(expected)}` +
        (actual.unmatched.length > 0 ? ` (unmatched: ${actual.unmatched.slice(0, 3).join(", ")})` : ""),
    );
  }
}
