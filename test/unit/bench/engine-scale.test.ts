/**
 * Figure 6 (bench/figures/engine-scale.ts) from given round times: one ratio per N and operation against the
 * no-op floor, a growth comparison that fails when the ratio grows with N, a chart with a point per N, and the
 * chart linked from the figure's section of BENCHMARKS.md.
 */
import { strict as assert } from "node:assert";
import { type AtSize, outcome } from "../../../bench/figures/engine-scale";
import type { RoundTimes } from "../../../bench/support/engine-runs";
import type { EngineRole } from "../../../bench/support/process-tree";
import { renderBenchmarksMarkdown } from "../../../bench/support/render-markdown";
import type { BenchResults, FigureResult } from "../../../bench/support/results";

const roles = (cli: number): Record<EngineRole, number> => ({
  "pulumi CLI": cli,
  program: 100,
  provider: 50,
  "language host": 10,
  other: 0,
});

/** Round times with `up` and `refresh` in ms, and a CLI CPU proportional to them. */
function round(up: number, refresh: number): RoundTimes {
  return {
    up,
    refresh,
    upCpu: up,
    refreshCpu: refresh,
    upRoles: roles(up / 2),
    refreshRoles: roles(refresh / 2),
  };
}

/** Sizes whose ratio ours ÷ floor is `ratios[i]` for both operations; the floor takes 100 ms per N. */
function sizes(ratios: number[], ns = [50, 200, 500]): AtSize[] {
  return ns.map((n, i) => ({
    n,
    ours: [round(100 * n * ratios[i]!, 50 * n * ratios[i]!)],
    noop: [round(100 * n, 50 * n)],
  }));
}

describe("bench: figure 6, the scale figure", () => {
  it("compares ours with the floor at each N, with the engine's target", () => {
    const result = outcome(sizes([1.05, 1.08, 1.3]), { parallel: 8, cores: 2 });
    const perN = result.comparisons.slice(0, 6);
    assert.deepEqual(
      perN.map((c) => c.label),
      [
        "pulumi up, N = 50 (50 vaults + 50 addresses)",
        "preview --refresh, N = 50 (100 resources)",
        "pulumi up, N = 200 (200 vaults + 200 addresses)",
        "preview --refresh, N = 200 (400 resources)",
        "pulumi up, N = 500 (500 vaults + 500 addresses)",
        "preview --refresh, N = 500 (1000 resources)",
      ],
    );
    assert.deepEqual(
      perN.map((c) => Number(c.ratio.toFixed(2))),
      [1.05, 1.05, 1.08, 1.08, 1.3, 1.3],
    );
    assert.deepEqual(
      perN.map((c) => c.met),
      [true, true, true, true, false, false],
    );
    for (const c of perN) assert.deepEqual(c.target, { kind: "max", value: 1.1 });
  });

  it("fails the growth comparison when the ratio grows with N, and meets it when it does not", () => {
    const growing = outcome(sizes([1.05, 1.08, 1.3]), { parallel: 8, cores: 2 }).comparisons.slice(6);
    assert.equal(growing.length, 2);
    assert.equal(growing[0]!.label, "pulumi up: ratio at N = 500 ÷ ratio at N = 50");
    assert.equal(growing[0]!.unit, "ratio");
    assert.equal(Number(growing[0]!.ratio.toFixed(3)), Number((1.3 / 1.05).toFixed(3)));
    assert.deepEqual(
      growing.map((c) => c.met),
      [false, false],
    );
    const flat = outcome(sizes([1.2, 1.15, 1.18]), { parallel: 8, cores: 2 }).comparisons.slice(6);
    assert.deepEqual(
      flat.map((c) => c.met),
      [true, true],
    );
  });

  it("charts ours and the floor for both operations, one point per N, in seconds", () => {
    const { chart } = outcome(sizes([1.05, 1.08, 1.3]), { parallel: 8, cores: 2 });
    assert.ok(chart);
    assert.equal(chart.file, "scale.svg");
    assert.equal(chart.series.length, 4);
    for (const s of chart.series)
      assert.deepEqual(
        s.points.map(([n]) => n),
        [50, 200, 500],
      );
    const upOurs = chart.series.find((s) => s.name === "up, ours")!;
    assert.deepEqual(upOurs.points[2], [500, 65]);
  });

  it("needs two sizes to say whether the ratio grows", () => {
    assert.throws(() => outcome(sizes([1], [50]), { parallel: 8, cores: 2 }), /at least two sizes/);
  });

  it("links the chart in the figure's section of BENCHMARKS.md: bench/ for a full run, bench/results/ for a quick one", () => {
    const figure: FigureResult = {
      id: "engine-scale",
      number: 6,
      title: "Scale",
      method: [],
      analysis: [],
      ...outcome(sizes([1.05, 1.08, 1.3]), { parallel: 8, cores: 2 }),
      durationS: 1,
      loadAverage: { start: 0, end: 0 },
    };
    const run = (quick: boolean): BenchResults => ({
      format: 1,
      date: "2026-01-01T00:00:00.000Z",
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
      figures: [figure],
      durationS: 1,
    });
    const section = (markdown: string) => markdown.slice(markdown.indexOf("## 6. Scale"));
    assert.match(section(renderBenchmarksMarkdown(run(false))), /!\[[^\]]+\]\(bench\/scale\.svg\)/);
    assert.match(section(renderBenchmarksMarkdown(run(true))), /!\[[^\]]+\]\(bench\/results\/scale\.svg\)/);
  });
});
