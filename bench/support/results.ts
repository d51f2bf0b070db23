/**
 * The shape of a benchmark run, as written to `bench/results/latest.json` and rendered into `BENCHMARKS.md`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { MachineInfo } from "./machine";
import type { Stat } from "./stats";

/** Unit of a compared quantity; it decides how values are printed. */
export type Unit = "ms" | "requests" | "bytes" | "req/s" | "ratio";

/** One line of a {@link LineChart}. */
export interface ChartSeries {
  /** Legend text. */
  name: string;
  /** CSS colour of the line. */
  color: string;
  /** Dashed line with hollow markers (floors), or solid (ours). */
  dashed?: boolean;
  /** `[x, y]` in the chart's units, in x order. */
  points: Array<[number, number]>;
}

/** A line chart a figure asks the runner to write next to `BENCHMARKS.md` (see `svg-chart.ts`). */
export interface LineChart {
  /** File name, e.g. `scale.svg`: written to `bench/` by a full run, to `bench/results/` by a quick one. */
  file: string;
  /** Title, drawn above the plot. */
  title: string;
  /** Label of the horizontal axis. */
  xLabel: string;
  /** Label of the vertical axis. */
  yLabel: string;
  /** The lines. */
  series: ChartSeries[];
}

/** The goal a ratio is held to. */
export interface Target {
  /** `max`: the ratio must be at most `value` (costs); `min`: at least `value` (throughput). */
  kind: "max" | "min";
  /** The bound. */
  value: number;
}

/** A floor: the best a component could do, measured in the same run. */
export interface Floor {
  /** Short name, e.g. `(a) sdk replay`. */
  name: string;
  /** What was measured. */
  value: Stat;
  /** How it was measured, one sentence. */
  description: string;
}

/** One line of a figure: our measurement against its floors. */
export interface Comparison {
  /** What is measured, e.g. `pulumi up`. */
  label: string;
  /** Unit of `ours` and of each floor. */
  unit: Unit;
  /** Our measurement. */
  ours: Stat;
  /** The floors; the ratio divides by the largest median (for `min` targets, by the first one). */
  floors: Floor[];
  /** `ours.median / floor`, see {@link ratioOf}. */
  ratio: number;
  /** The goal, when the figure has one. */
  target?: Target;
  /** Whether `ratio` meets `target`; absent without a target. */
  met?: boolean;
}

/** The outcome of one figure. */
export interface FigureResult {
  /** Stable id used by `--only`, e.g. `engine`. */
  id: string;
  /** Figure number as in the issue (1-5). */
  number: number;
  /** Heading. */
  title: string;
  /** How the figure measures ours and its floors, in Markdown paragraphs. */
  method: string[];
  /** Settings that shape the numbers (N, latency, concurrency, durations...). */
  settings: Record<string, string | number | boolean>;
  /** The comparisons. */
  comparisons: Comparison[];
  /** Findings in Markdown, computed from this run's numbers. */
  notes: string[];
  /** Causes and fixes, written by hand from profiles and measurements (see the figure module). */
  analysis: string[];
  /** A chart of the figure's numbers, rendered to SVG by the runner and shown in its section. */
  chart?: LineChart;
  /** Set when the figure could not run; the message says why. */
  error?: string;
  /** Wall time the figure took, in seconds. */
  durationS: number;
  /**
   * The machine's 1-minute load average when the figure started and ended. Well above the core count means
   * something else competed for the CPU, and the figure's numbers deserve less trust.
   */
  loadAverage: { start: number; end: number };
}

/** A whole run. */
export interface BenchResults {
  /** Format version of this file. */
  format: 1;
  /** ISO-8601 start time. */
  date: string;
  /** Whether `--quick` (smaller N, fewer samples) was used; quick numbers are a smoke test, not a result. */
  quick: boolean;
  /** The command line that reproduces the run. */
  command: string;
  /** Where it ran. */
  machine: MachineInfo;
  /** The figures, in order. */
  figures: FigureResult[];
  /** Wall time of the whole run, in seconds. */
  durationS: number;
}

/**
 * The ratio of a comparison. For costs (`max` targets, or none) it is ours ÷ the largest floor, so the floor
 * is the slowest of the unavoidable parts. For throughput (`min` targets) it is ours ÷ the first floor.
 */
export function ratioOf(ours: Stat, floors: readonly Floor[], target?: Target): number {
  if (floors.length === 0) throw new Error("ratioOf: a comparison needs at least one floor");
  const floor =
    target?.kind === "min" ? floors[0]!.value.median : Math.max(...floors.map((f) => f.value.median));
  return ours.median / floor;
}

/** Builds a {@link Comparison}, computing the ratio and whether it meets the target. */
export function compare(label: string, unit: Unit, ours: Stat, floors: Floor[], target?: Target): Comparison {
  const ratio = ratioOf(ours, floors, target);
  const comparison: Comparison = { label, unit, ours, floors, ratio };
  if (target) {
    comparison.target = target;
    // A tiny tolerance so that 400 requests against a minimum of 400 reads as met despite float division.
    comparison.met = target.kind === "max" ? ratio <= target.value + 1e-9 : ratio >= target.value - 1e-9;
  }
  return comparison;
}

/** Writes `results` as pretty JSON, creating the directory. */
export async function writeResults(file: string, results: BenchResults): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  await fs.promises.writeFile(tmp, `${JSON.stringify(results, null, 2)}\n`);
  await fs.promises.rename(tmp, file);
}

/** Reads a results file written by {@link writeResults}. */
export async function readResults(file: string): Promise<BenchResults> {
  const parsed = JSON.parse(await fs.promises.readFile(file, "utf8")) as BenchResults;
  if (parsed.format !== 1) throw new Error(`${file}: unknown results format ${String(parsed.format)}`);
  return parsed;
}

/** Which run a result comes from: what {@link FigureMerger} needs to say when each part was measured. */
export interface RunLabel {
  /** ISO-8601 start time of the run. */
  date: string;
  /** The command line that reproduces it. */
  command: string;
}

/**
 * How a figure combines its result in the previous results with a new partial one, for a figure whose run can
 * measure part of its set (figure 7's `--sizes`): the new result wins where both measured the same thing.
 */
export type FigureMerger = (
  previous: FigureResult,
  current: FigureResult,
  runs: { previous: RunLabel; current: RunLabel },
) => FigureResult;

/**
 * A partial run (`--only`) merged into the previous results, so that `bench/results/latest.json` and a
 * `BENCHMARKS.md` rendered from it keep the figures that did not run: each figure of `run` replaces the one with
 * the same id (or, when `mergers` has one for that id and neither failed, is merged with it), the others are
 * kept, in the order of `order` (figure ids). Results of another mode (quick or full) are not mixed: `run` is
 * returned alone. The total duration becomes the sum of the figures' durations.
 */
export function mergeResults(
  previous: BenchResults | undefined,
  run: BenchResults,
  order: readonly string[],
  mergers: Readonly<Partial<Record<string, FigureMerger>>> = {},
): BenchResults {
  if (!previous || previous.quick !== run.quick) return run;
  const byId = new Map(previous.figures.map((f) => [f.id, f]));
  for (const f of run.figures) {
    const before = byId.get(f.id);
    const merge = mergers[f.id];
    byId.set(
      f.id,
      merge && before && !before.error && !f.error ? merge(before, f, { previous, current: run }) : f,
    );
  }
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const figures = [...byId.values()].sort((a, b) => rank(a.id) - rank(b.id));
  return { ...run, figures, durationS: figures.reduce((sum, f) => sum + f.durationS, 0) };
}
