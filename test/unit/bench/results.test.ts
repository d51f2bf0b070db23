/**
 * Partial runs (`npm run bench -- --only X`) and the results file: the figures that did not run keep their
 * previous results, so that BENCHMARKS.md rendered afterwards still has every section; and `--only` alone never
 * renders BENCHMARKS.md.
 */
import { strict as assert } from "node:assert";
import { parseOptions } from "../../../bench/support/options";
import { type BenchResults, compare, type FigureResult, mergeResults } from "../../../bench/support/results";
import { exact } from "../../../bench/support/stats";

function figure(id: string, value: number, durationS = 10): FigureResult {
  return {
    id,
    number: 1,
    title: id,
    method: [],
    analysis: [],
    settings: {},
    comparisons: [
      compare(id, "ms", exact(value), [{ name: "floor", value: exact(100), description: "" }], {
        kind: "max",
        value: 1.1,
      }),
    ],
    notes: [],
    durationS,
    loadAverage: { start: 0, end: 0 },
  };
}

function results(figures: FigureResult[], quick = false): BenchResults {
  return {
    format: 1,
    date: quick ? "2026-01-02T00:00:00.000Z" : "2026-01-01T00:00:00.000Z",
    quick,
    command: "npm run bench",
    machine: {
      cpuModel: "cpu",
      cores: 2,
      memoryBytes: 1,
      os: "linux",
      node: "v20",
      pulumiCli: "v3.248.0",
      pulumiSdk: "3",
      tools: {},
    },
    figures,
    durationS: figures.reduce((s, f) => s + f.durationS, 0),
  };
}

const order = ["engine", "sizes", "engine-scale"];

describe("bench: partial runs and the results file", () => {
  it("merges a figure with its previous result where the figure says how, and only then", () => {
    const previous = results([figure("engine", 120), figure("sizes", 130)]);
    const run = results([figure("sizes", 105, 600)]);
    const seen: string[] = [];
    const merged = mergeResults(previous, run, order, {
      sizes: (before, after, runs) => {
        seen.push(
          `${before.comparisons[0]!.ours.median}+${after.comparisons[0]!.ours.median} ${runs.current.command}`,
        );
        return { ...after, durationS: before.durationS + after.durationS };
      },
    });
    assert.deepEqual(seen, ["130+105 npm run bench"]);
    assert.equal(merged.figures.find((f) => f.id === "sizes")!.durationS, 610);
    assert.equal(mergeResults(previous, run, order).figures.find((f) => f.id === "sizes")!.durationS, 600);
  });

  it("replaces the figures that ran and keeps the others, in the figures' order", () => {
    const previous = results([figure("engine", 120), figure("sizes", 130), figure("engine-scale", 140)]);
    const run = results([figure("engine-scale", 105, 600)]);
    const merged = mergeResults(previous, run, order);
    assert.deepEqual(
      merged.figures.map((f) => [f.id, f.comparisons[0]!.ours.median]),
      [
        ["engine", 120],
        ["sizes", 130],
        ["engine-scale", 105],
      ],
    );
    assert.equal(merged.durationS, 620);
    assert.equal(merged.date, run.date);
  });

  it("adds a figure the previous run did not have, and mixes no quick results into full ones", () => {
    const previous = results([figure("sizes", 130), figure("engine", 120)]);
    assert.deepEqual(
      mergeResults(previous, results([figure("engine-scale", 105)]), order).figures.map((f) => f.id),
      ["engine", "sizes", "engine-scale"],
    );
    const quick = results([figure("engine-scale", 105)], true);
    assert.equal(mergeResults(previous, quick, order), quick);
    assert.equal(mergeResults(undefined, quick, order), quick);
  });

  it("--only alone leaves BENCHMARKS.md alone; --markdown asks for it", () => {
    assert.equal(parseOptions(["--only", "engine-scale"]).markdown, false);
    assert.equal(parseOptions(["--only", "engine-scale", "--markdown"]).markdown, true);
    assert.equal(parseOptions([]).markdown, true);
    assert.equal(parseOptions(["--quick"]).markdown, false);
  });
});
