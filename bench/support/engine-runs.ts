/**
 * The measured part of the engine figures (`bench/figures/engine.ts`, `engine-scale.ts`): `up` on a fresh stack
 * of a fixture, then `preview --refresh --expect-no-changes`, timed, with the CPU of the engine's process tree
 * split by role.
 */
import { finishedChildrenCpuMs } from "./child-cpu";
import type { EmulatorProcess } from "./emulator-process";
import { createFixtureStack, disposeFixtureStack, type FixtureStackOptions } from "./engine-stack";
import { formatMs } from "./format";
import { cpuByRole, type EngineRole, watchProcessTree } from "./process-tree";
import { summarize } from "./stats";
import { elapsedMs, nowNs } from "./timing";

/** The chain of the vaults the `custody-vaults` fixture declares (addresses need a UTXO chain). */
export const BENCH_CHAIN = "bitcoin_testnet";

/** Times and CPU of one `up` + `preview --refresh` of a fixture. */
export interface RoundTimes {
  /** Wall time of `up`, in ms. */
  up: number;
  /** Wall time of `preview --refresh`, in ms. */
  refresh: number;
  /** CPU of the whole engine process tree (CLI, language host, program, provider) during each, in ms. */
  upCpu?: number;
  refreshCpu?: number;
  /** The same CPU split by process role (sampled from /proc, so slightly below the totals). */
  upRoles?: Record<EngineRole, number>;
  refreshRoles?: Record<EngineRole, number>;
}

/** Stack options of our fixture: N vaults + N addresses through `pulumi-custody` against `emulator`. */
export function oursStack(
  emulator: EmulatorProcess,
  count: number,
  stackName: string,
  envVars?: Record<string, string>,
): FixtureStackOptions {
  return {
    fixture: "custody-vaults",
    stackName,
    config: {
      "bench:count": { value: String(count) },
      "bench:chain": { value: BENCH_CHAIN },
      "custody:baseUrl": { value: emulator.baseUrl },
      "custody:accessToken": { value: emulator.accessToken, secret: true },
      // No client-side throttling: the figures measure the code, not a quota.
      "custody:requestsPerMinute": { value: "0" },
    },
    envVars,
  };
}

/**
 * Stack options of the plugin path: the `custody-vaults-plugin` fixture, the same N vaults + N addresses through
 * the `custody` provider plugin and its generated npm SDK. `path` is the stack's `PATH`: a directory with the
 * `pulumi-resource-custody` launcher, then the engine's.
 */
export function pluginStack(
  emulator: EmulatorProcess,
  count: number,
  stackName: string,
  path: string,
): FixtureStackOptions {
  return {
    ...oursStack(emulator, count, stackName),
    fixture: "custody-vaults-plugin",
    envVars: { PATH: path },
  };
}

/**
 * Stack options of the no-op floor: N + N no-op dynamic resources whose create/read sleep `sleepMs`; with
 * `createSleepMs`, create sleeps that long instead (a diagnostic, not the floor).
 */
export function noopStack(
  count: number,
  sleepMs: number,
  stackName: string,
  envVars?: Record<string, string>,
  createSleepMs?: number,
): FixtureStackOptions {
  return {
    fixture: "noop-dynamic",
    stackName,
    config: {
      "bench:count": { value: String(count) },
      "bench:sleepMs": { value: String(sleepMs) },
      ...(createSleepMs === undefined ? {} : { "bench:createSleepMs": { value: String(createSleepMs) } }),
    },
    envVars,
  };
}

/** Options of {@link upThenRefresh}. */
export interface UpThenRefreshOptions {
  /** N: the fixture declares N + N resources, so `up` must create 2N + 1 (with the stack). */
  count: number;
  /** `--parallel`. */
  parallel: number;
  /** Pids the CPU watcher skips (the emulator, started before and shared by the runs). */
  exclude: number[];
  /** Names the run in errors. */
  what: string;
  /** Runs right before each timed operation (e.g. clearing the emulator's request log); not timed. */
  before?: (operation: "up" | "refresh") => Promise<void>;
  /** Runs right after each timed operation (e.g. reading the emulator's request log); not timed. */
  after?: (operation: "up" | "refresh") => Promise<void>;
}

/** A fresh stack of the fixture: `up`, then `preview --refresh --expect-no-changes`; the stack is deleted after. */
export async function upThenRefresh(
  stack: FixtureStackOptions,
  options: UpThenRefreshOptions,
): Promise<RoundTimes> {
  const created = await createFixtureStack(stack);
  try {
    await options.before?.("up");
    const up = await timed(() => created.up({ parallel: options.parallel }), options.exclude);
    expectCreates(up.result.summary.resourceChanges, 2 * options.count + 1, `${options.what}: up`);
    await options.after?.("up");
    await options.before?.("refresh");
    const refresh = await timed(
      () => created.preview({ refresh: true, expectNoChanges: true, parallel: options.parallel }),
      options.exclude,
    );
    await options.after?.("refresh");
    return {
      up: up.ms,
      refresh: refresh.ms,
      upCpu: up.childCpuMs,
      refreshCpu: refresh.childCpuMs,
      upRoles: up.roles,
      refreshRoles: refresh.roles,
    };
  } finally {
    await disposeFixtureStack(created);
  }
}

/**
 * Wall time of `fn`; the CPU of the child processes that finished meanwhile (the engine's process tree); and,
 * when `exclude` is given, that CPU split by role from a /proc watcher (which skips the `exclude` pids).
 */
export async function timed<T>(
  fn: () => Promise<T>,
  exclude?: number[],
): Promise<{ ms: number; childCpuMs: number; roles?: Record<EngineRole, number>; result: T }> {
  const watcher = exclude ? watchProcessTree(200, exclude) : undefined;
  const cpuBefore = finishedChildrenCpuMs();
  const start = nowNs();
  try {
    const result = await fn();
    const ms = elapsedMs(start);
    const childCpuMs = finishedChildrenCpuMs() - cpuBefore;
    return { ms, childCpuMs, roles: watcher ? cpuByRole(await watcher.stop()) : undefined, result };
  } finally {
    await watcher?.stop();
  }
}

/** Throws unless `up` created exactly `expected` resources. */
export function expectCreates(
  changes: Record<string, number> | undefined,
  expected: number,
  what: string,
): void {
  if (changes?.create !== expected) {
    throw new Error(`${what}: expected ${expected} creates, got ${JSON.stringify(changes)}`);
  }
}

/** The roles of the CPU breakdown, in the order shown. */
const ROLES = ["pulumi CLI", "program", "provider", "language host"] as const;

/**
 * Where the time goes, as a Markdown table: for `up` and `preview --refresh`, the wall time and the CPU of each
 * engine process (medians of the rounds) for ours and the no-op floor, and ours minus the floor. The last row,
 * CPU ÷ (wall × cores), says whether the run was CPU-bound: near 100% means any extra CPU is extra wall time.
 */
export function cpuBreakdownTable(
  ours: readonly RoundTimes[],
  noop: readonly RoundTimes[],
  cores: number,
): string {
  const median = (rounds: readonly RoundTimes[], pick: (t: RoundTimes) => number | undefined) =>
    summarize(rounds.map((t) => pick(t) ?? 0)).median;
  const rows = [
    "| median of rounds | ours, up | no-op, up | ours − no-op | ours, preview --refresh | no-op, preview --refresh | ours − no-op |",
    "|---|---|---|---|---|---|---|",
  ];
  const row = (
    label: string,
    up: (t: RoundTimes) => number | undefined,
    refresh: (t: RoundTimes) => number | undefined,
  ) => {
    const cells = [up, refresh].flatMap((pick) => {
      const [o, n] = [median(ours, pick), median(noop, pick)];
      return [formatMs(o), formatMs(n), signedMs(o - n)];
    });
    rows.push(`| ${label} | ${cells.join(" | ")} |`);
  };
  row(
    "wall time",
    (t) => t.up,
    (t) => t.refresh,
  );
  row(
    "CPU, whole process tree",
    (t) => t.upCpu,
    (t) => t.refreshCpu,
  );
  for (const role of ROLES) {
    row(
      `CPU, ${role}`,
      (t) => t.upRoles?.[role],
      (t) => t.refreshRoles?.[role],
    );
  }
  const busy = (rounds: readonly RoundTimes[], op: "up" | "refresh") =>
    median(rounds, (t) => ((op === "up" ? t.upCpu : t.refreshCpu) ?? 0) / (op === "up" ? t.up : t.refresh)) /
    cores;
  const percent = (x: number) => `${(x * 100).toFixed(0)}%`;
  rows.push(
    `| CPU ÷ (wall × ${cores} cores) | ${percent(busy(ours, "up"))} | ${percent(busy(noop, "up"))} | | ` +
      `${percent(busy(ours, "refresh"))} | ${percent(busy(noop, "refresh"))} | |`,
  );
  return rows.join("\n");
}

/** A difference of durations with its sign, e.g. `+1.20 s` or `−35.0 ms`. */
export function signedMs(ms: number): string {
  return ms < 0 ? `−${formatMs(-ms)}` : `+${formatMs(ms)}`;
}

/**
 * One sentence attributing ours − floor for `operation`: the extra wall time, the extra CPU and its split by
 * process, and the least wall time that CPU costs on `cores` cores. Medians of the rounds.
 */
export function attributeGap(
  ours: readonly RoundTimes[],
  noop: readonly RoundTimes[],
  cores: number,
  operation: "up" | "refresh",
): string {
  const median = (rounds: readonly RoundTimes[], pick: (t: RoundTimes) => number | undefined) =>
    summarize(rounds.map((t) => pick(t) ?? 0)).median;
  const wall = (t: RoundTimes) => (operation === "up" ? t.up : t.refresh);
  const total = (t: RoundTimes) => (operation === "up" ? t.upCpu : t.refreshCpu);
  const role = (r: EngineRole) => (t: RoundTimes) => (operation === "up" ? t.upRoles : t.refreshRoles)?.[r];
  const extraWall = median(ours, wall) - median(noop, wall);
  const extraCpu = median(ours, total) - median(noop, total);
  const byRole = ROLES.map((r) => ({ r, ms: median(ours, role(r)) - median(noop, role(r)) })).sort(
    (a, b) => b.ms - a.ms,
  );
  const name = operation === "up" ? "`up`" : "`preview --refresh`";
  if (extraWall <= 0) {
    return `${name}: ours took ${formatMs(-extraWall)} less wall time than the no-op floor; there is no gap to explain.`;
  }
  const cpuWall = Math.max(0, extraCpu) / cores;
  const share = cpuWall / extraWall;
  return (
    `${name}: ours takes ${signedMs(extraWall)} of wall time over the no-op floor, and its processes use ` +
    `${signedMs(extraCpu)} of CPU over the floor's (${byRole.map((x) => `${x.r} ${signedMs(x.ms)}`).join(", ")}). ` +
    `On ${cores} cores that extra CPU alone accounts for at least ${formatMs(cpuWall)} of wall time, ` +
    (share >= 1
      ? "all of the gap."
      : `${(share * 100).toFixed(0)}% of the gap; the rest is time spent waiting (for the API, for the engine's ` +
        "scheduling, or for a core taken by other work on the machine: see the load average).")
  );
}
