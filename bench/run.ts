/**
 * The benchmark harness: `node dist/bench/run.js [--only <figure>] [--quick]` (`npm run bench` runs it after
 * set-up). Runs the figures one after the other, prints a table, writes `bench/results/latest.json`, and on a
 * full run renders `BENCHMARKS.md`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { figures } from "./figures/index";
import { killAllChildren } from "./support/children";
import { describeMachine } from "./support/machine";
import { parseOptions } from "./support/options";
import { formatSummaryTable } from "./support/print-table";
import { renderBenchmarksMarkdown, spliceFigures } from "./support/render-markdown";
import { repoPath } from "./support/repo";
import type { FigureResult } from "./support/results";
import { type BenchResults, mergeResults, readResults, writeResults } from "./support/results";
import { renderLineChart } from "./support/svg-chart";
import { elapsedMs, nowNs } from "./support/timing";

const RESULTS_FILE = repoPath("bench", "results", "latest.json");
const MARKDOWN_FILE = repoPath("BENCHMARKS.md");

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options.renderOnly) {
    const results = await readResults(RESULTS_FILE);
    // The numbers are the run's; the prose (method, analysis) is the figure modules' current text.
    for (const result of results.figures) {
      const figure = figures.find((f) => f.id === result.id);
      if (figure) Object.assign(result, { method: figure.method, analysis: figure.analysis ?? [] });
    }
    // Raw results of some figures only (a fresh clone's run of some): only their parts of the file change.
    const complete = figures.every((f) => results.figures.some((r) => r.id === f.id));
    const markdown = complete
      ? renderBenchmarksMarkdown(results)
      : spliceFigures(
          await fs.promises.readFile(MARKDOWN_FILE, "utf8"),
          renderBenchmarksMarkdown(results),
          results.figures.map((f) => f.number),
        );
    await fs.promises.writeFile(MARKDOWN_FILE, markdown);
    process.stderr.write(`rendered ${MARKDOWN_FILE} from ${RESULTS_FILE}\n`);
    for (const file of await writeCharts(results)) process.stderr.write(`rendered ${file}\n`);
    return 0;
  }

  const selected = options.only.length === 0 ? figures : options.only.map(findFigure);
  const started = nowNs();
  const date = new Date().toISOString();
  const machine = await describeMachine();
  process.stderr.write(
    `bench: ${selected.map((f) => f.id).join(", ")}${options.quick ? " (quick)" : ""} on ${machine.cpuModel}, ` +
      `${machine.cores} cores, Node ${machine.node}, ${machine.pulumiCli}\n`,
  );

  const results: FigureResult[] = [];
  for (const figure of selected) {
    const figureStart = nowNs();
    const loadAtStart = os.loadavg()[0]!;
    const log = (message: string) => process.stderr.write(`[${figure.id}] ${message}\n`);
    log(`figure ${figure.number}: ${figure.title}`);
    let result: FigureResult;
    try {
      const outcome = await figure.run({
        quick: options.quick,
        log,
        ...(options.sizes ? { sizes: options.sizes } : {}),
        ...(options.addressSizes ? { addressSizes: options.addressSizes } : {}),
        ...(options.stackCases ? { stackCases: options.stackCases } : {}),
      });
      result = {
        id: figure.id,
        number: figure.number,
        title: figure.title,
        method: figure.method,
        analysis: figure.analysis ?? [],
        ...outcome,
        durationS: elapsedMs(figureStart) / 1000,
        loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
      };
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`FAILED: ${message}`);
      result = {
        id: figure.id,
        number: figure.number,
        title: figure.title,
        method: figure.method,
        analysis: figure.analysis ?? [],
        settings: {},
        comparisons: [],
        notes: [],
        error: message,
        durationS: elapsedMs(figureStart) / 1000,
        loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
      };
    }
    results.push(result);
    log(
      `done in ${result.durationS.toFixed(0)} s (load average ${result.loadAverage.start.toFixed(1)} → ` +
        `${result.loadAverage.end.toFixed(1)} on ${machine.cores} cores)`,
    );
  }

  const run: BenchResults = {
    format: 1,
    date,
    quick: options.quick,
    command: ["npm run bench", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(
      " ",
    ),
    machine,
    figures: results,
    durationS: elapsedMs(started) / 1000,
  };
  // A partial run keeps the other figures of the previous run, so that rendering never drops their sections.
  const previous =
    options.only.length === 0 ? undefined : await readResults(RESULTS_FILE).catch(() => undefined);
  const merged =
    options.only.length === 0
      ? run
      : mergeResults(
          previous,
          run,
          figures.map((f) => f.id),
          Object.fromEntries(figures.flatMap((f) => (f.mergePrevious ? [[f.id, f.mergePrevious]] : []))),
        );
  await writeResults(RESULTS_FILE, merged);
  // The figures that ran, each merged with its earlier result where it keeps part of it (figures 7 and 9).
  const ran = new Set(run.figures.map((f) => f.id));
  const ranMerged: BenchResults = { ...merged, figures: merged.figures.filter((f) => ran.has(f.id)) };
  const charts = await writeCharts(ranMerged);
  process.stdout.write(`\n${formatSummaryTable(results)}\n\n`);
  process.stdout.write(`results: ${RESULTS_FILE}\n`);
  for (const file of charts) process.stdout.write(`chart: ${file}\n`);
  if (options.markdown) {
    // Without the previous raw results of every figure (they are not committed: a fresh clone has none), a run
    // of some figures replaces only their parts of the committed file.
    const markdown = !figures.every((f) => merged.figures.some((m) => m.id === f.id))
      ? spliceFigures(
          await fs.promises.readFile(MARKDOWN_FILE, "utf8"),
          renderBenchmarksMarkdown(ranMerged),
          run.figures.map((f) => f.number),
        )
      : renderBenchmarksMarkdown(merged);
    await fs.promises.writeFile(MARKDOWN_FILE, markdown);
    process.stdout.write(`rendered: ${MARKDOWN_FILE}\n`);
  }
  process.stdout.write(`total: ${run.durationS.toFixed(0)} s\n`);
  // A figure that could not run fails the command; a missed target does not (it is a finding, reported).
  return results.some((r) => r.error) ? 1 : 0;
}

/**
 * Writes each figure's chart as SVG: a full run's to `bench/` (committed, linked from `BENCHMARKS.md`), a quick
 * run's to `bench/results/` (git-ignored), so that a smoke run never replaces the committed chart.
 */
async function writeCharts(results: BenchResults): Promise<string[]> {
  const written: string[] = [];
  for (const figure of results.figures) {
    if (!figure.chart || figure.error) continue;
    const file = results.quick
      ? repoPath("bench", "results", figure.chart.file)
      : repoPath("bench", figure.chart.file);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, renderLineChart(figure.chart));
    written.push(file);
  }
  return written;
}

function findFigure(key: string) {
  const figure = figures.find((f) => f.id === key || String(f.number) === key);
  if (!figure) {
    throw new Error(
      `unknown figure ${JSON.stringify(key)}; known: ${figures.map((f) => `${f.number}=${f.id}`).join(", ")}`,
    );
  }
  return figure;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAllChildren();
    process.exit(130);
  });
}

main().then(
  (code) => {
    killAllChildren();
    process.exit(code);
  },
  (err: unknown) => {
    killAllChildren();
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
