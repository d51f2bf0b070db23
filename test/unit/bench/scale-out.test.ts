// Figure 9's arithmetic: the API's minimum over K stacks, the targets (1.15× the floor + 30 s, ≤ 1 % of 429s,
// 1.10× for 5,000 vaults in 5 stacks), the acceptance check's verdict, the merge of a partial run, and the
// splicing of a partial run's sections into a committed BENCHMARKS.md.
import * as assert from "node:assert/strict";
import {
  acceptanceNote,
  type CaseRun,
  mergeCases,
  minimumRequests,
  type Operation,
  outcome,
  type ParallelRun,
  upTarget,
} from "../../../bench/figures/scale-out";
import { parseOptions } from "../../../bench/support/options";
import { spliceFigures } from "../../../bench/support/render-markdown";
import type { FigureResult } from "../../../bench/support/results";

function op(ms: number, requests?: number, refused = 0, failures: string[] = []): ParallelRun {
  return {
    ms,
    perStackMs: [ms * 0.9, ms],
    failures: failures.length,
    failureMessages: failures,
    ...(requests === undefined ? {} : { requests, refused }),
    cpu: { "pulumi CLI": 1000, "language host": 10, program: 500, provider: 300, other: 0 },
  };
}

function caseRun(
  stacks: number,
  perStack: number,
  ours: Record<Operation, ParallelRun>,
  distinctVaults = stacks * perStack,
): CaseRun {
  return {
    stacks,
    perStack,
    distinctVaults,
    ours,
    noop: { up: op(10_000), refresh: op(5_000), destroy: op(4_000) },
  };
}

const machine = { parallel: 8, cores: 2 };

function result(runs: CaseRun[], durationS: number): FigureResult {
  return {
    id: "scale-out",
    number: 9,
    title: "Scale-out",
    method: [],
    analysis: [],
    durationS,
    loadAverage: { start: 1, end: 1 },
    ...outcome(runs, machine),
  };
}

describe("bench figure 9 (scale-out)", () => {
  it("the API's minimum over K stacks: K × n creates and archives, K × ⌈n/100⌉ pages", () => {
    assert.equal(minimumRequests("up", { stacks: 4, perStack: 60 }), 240);
    assert.equal(minimumRequests("destroy", { stacks: 8, perStack: 30 }), 240);
    assert.equal(minimumRequests("refresh", { stacks: 8, perStack: 125 }), 16);
    assert.equal(minimumRequests("refresh", { stacks: 1, perStack: 1000 }), 10);
  });

  it("targets: 1.15× the floor + 30 s with several stacks, 1.10× for 5 × 1,000, none for one stack", () => {
    assert.deepEqual(upTarget({ stacks: 4, perStack: 60 }, 72_000), {
      kind: "max",
      value: (1.15 * 72_000 + 30_000) / 72_000,
    });
    assert.deepEqual(upTarget({ stacks: 5, perStack: 1000 }, 1_500_000), { kind: "max", value: 1.1 });
    assert.equal(upTarget({ stacks: 1, perStack: 5000 }, 1_500_000), undefined);
  });

  it("compares each operation's wall time with the larger floor, and the 429s with 1 % of the requests", () => {
    const r = result(
      [
        caseRun(1, 240, { up: op(80_000, 242), refresh: op(4_000, 4), destroy: op(75_000, 241) }),
        caseRun(4, 60, { up: op(90_000, 248, 2), refresh: op(6_000, 8), destroy: op(80_000, 244, 3) }),
      ],
      600,
    );
    const up4 = r.comparisons.find((c) => c.label === "pulumi up, 4 stacks × 60 vaults: wall time")!;
    assert.equal(up4.floors.find((f) => f.name === "writes at the rate limit")!.value.median, 72_000);
    assert.equal(up4.ratio, 90_000 / 72_000);
    assert.equal(up4.met, true, "90 s is within 1.15 × 72 s + 30 s");
    const refused = r.comparisons.filter((c) => c.label.endsWith("requests answered 429"));
    assert.equal(refused.length, 3, "only the case of several stacks is held to the 429 bound");
    const destroy429 = refused.find((c) => c.label.startsWith("pulumi destroy"))!;
    assert.equal(destroy429.ours.median, 3);
    assert.equal(destroy429.met, false, "3 of 244 is above 1 %");
    const refresh1 = r.comparisons.find(
      (c) => c.label === "preview --refresh, 1 stack × 240 vaults: wall time",
    )!;
    assert.deepEqual(
      refresh1.floors.map((f) => f.name),
      ["engine, no-op"],
      "a refresh has no writes: its floor is the engine's",
    );
    assert.equal(r.chart?.file, "scale-out.svg", "two cases of 240 vaults in all make a chart");
    assert.deepEqual(r.chart?.series.find((s) => s.name === "pulumi up, ours")?.points, [
      [1, 80],
      [4, 90],
    ]);
  });

  it("the acceptance check fails on a failed command, missing vaults, a slow up, or more than 1 % of 429s", () => {
    const good = caseRun(8, 30, { up: op(100_000, 246), refresh: op(5_000, 8), destroy: op(80_000, 248, 2) });
    assert.match(
      acceptanceNote(good),
      /^8 × 30: passes the acceptance check: every command exited 0 \(met\)/,
    );
    assert.match(acceptanceNote(good), /2 of 502 requests answered 429 \(0\.40 %\) \(met\)/);
    const failed = caseRun(8, 30, {
      up: op(100_000, 246, 0, ["up created 29, not 31"]),
      refresh: op(5_000, 8),
      destroy: op(80_000, 248),
    });
    assert.match(acceptanceNote(failed), /fails the acceptance check: 1 commands failed \(not met\)/);
    const missing = caseRun(
      8,
      30,
      { up: op(100_000, 246), refresh: op(5_000, 8), destroy: op(80_000, 248) },
      239,
    );
    assert.match(
      acceptanceNote(missing),
      /fails .* 239 distinct vaults after `up` \(K × n = 240\) \(not met\)/,
    );
    const slow = caseRun(8, 30, { up: op(113_000, 246), refresh: op(5_000, 8), destroy: op(80_000, 248) });
    assert.match(
      acceptanceNote(slow),
      /fails .*`up` 113\.0 s against 1\.15 × 72\.0 s \+ 30 s = 112\.8 s \(not met\)/,
    );
    const refusing = caseRun(8, 30, {
      up: op(100_000, 246, 6),
      refresh: op(5_000, 8),
      destroy: op(80_000, 248),
    });
    assert.match(acceptanceNote(refusing), /fails .*6 of 502 requests answered 429 \(1\.20 %\) \(not met\)/);
  });

  it("a run of some cases keeps the others, sorted, says which run measured which, and draws them all", () => {
    const acceptance = result(
      [
        caseRun(4, 60, { up: op(90_000, 248), refresh: op(6_000, 8), destroy: op(80_000, 244) }),
        caseRun(8, 30, { up: op(95_000, 256), refresh: op(7_000, 16), destroy: op(81_000, 248) }),
      ],
      900,
    );
    const thousand = result(
      [
        caseRun(1, 1000, { up: op(310_000, 1002), refresh: op(8_000, 11), destroy: op(305_000, 1001) }),
        caseRun(2, 500, { up: op(312_000, 1004), refresh: op(8_000, 12), destroy: op(306_000, 1002) }),
      ],
      2000,
    );
    const runs = {
      previous: { date: "2026-11-28T20:00:00.000Z", command: "npm run bench -- --only scale-out" },
      current: {
        date: "2026-11-28T21:00:00.000Z",
        command: "npm run bench -- --only scale-out --stacks 1x1000,2x500",
      },
    };
    const merged = mergeCases(acceptance, thousand, runs);
    assert.equal(merged.settings.cases, "4 × 60, 8 × 30, 1 × 1000, 2 × 500");
    assert.equal(
      merged.settings["measured in"],
      "4 × 60, 8 × 30: npm run bench -- --only scale-out (2026-11-28 20:00 UTC); " +
        "1 × 1000, 2 × 500: npm run bench -- --only scale-out --stacks 1x1000,2x500 (2026-11-28 21:00 UTC)",
    );
    const table = merged.notes
      .find((n) => n.startsWith("| stacks × vaults |"))!
      .split("\n")
      .slice(2);
    assert.deepEqual(
      table.map((row) => row.split("|")[1]!.trim()),
      ["4 × 60", "4 × 60", "4 × 60", "8 × 30", "8 × 30", "8 × 30", "1 × 1000", "1 × 1000", "1 × 1000"].concat(
        ["2 × 500", "2 × 500", "2 × 500"],
      ),
    );
    assert.equal(merged.notes.filter((n) => / the acceptance check: /.test(n)).length, 4);
    assert.equal(merged.durationS, 2900);
    assert.deepEqual(
      merged.chart?.series.find((s) => s.name === "pulumi up, ours")?.points,
      [
        [1, 310],
        [2, 312],
      ],
      "the chart is of the total with the most cases",
    );

    const again = result(
      [caseRun(4, 60, { up: op(88_000, 247), refresh: op(6_000, 8), destroy: op(79_000, 244) })],
      300,
    );
    const later = { previous: runs.current, current: { date: "2026-11-29T01:00:00.000Z", command: "c3" } };
    const twice = mergeCases(merged, again, later);
    const up = twice.comparisons.filter((c) => c.label === "pulumi up, 4 stacks × 60 vaults: wall time");
    assert.equal(up.length, 1);
    assert.equal(up[0]!.ours.median, 88_000);
    assert.equal(
      twice.settings["measured in"],
      "8 × 30: npm run bench -- --only scale-out (2026-11-28 20:00 UTC); " +
        "1 × 1000, 2 × 500: npm run bench -- --only scale-out --stacks 1x1000,2x500 (2026-11-28 21:00 UTC); " +
        "4 × 60: c3 (2026-11-29 01:00 UTC)",
    );
  });

  it("--stacks takes K×n cases and refuses anything else", () => {
    assert.deepEqual(parseOptions(["--only", "scale-out", "--stacks", "4x60,8x30"]).stackCases, [
      { stacks: 4, perStack: 60 },
      { stacks: 8, perStack: 30 },
    ]);
    assert.throws(
      () => parseOptions(["--stacks", "4*60"]),
      /--stacks needs cases <stacks>x<vaults per stack>/,
    );
    assert.throws(() => parseOptions(["--stacks", "0x60"]), /--stacks needs/);
  });
});

describe("bench: a run of some figures without the previous raw results", () => {
  const existing = [
    "# Benchmarks",
    "",
    "Last run 2026-11-27.",
    "",
    "## How to reproduce",
    "",
    "```sh",
    "npm run bench",
    "```",
    "",
    "## Summary",
    "",
    "| # | measure | ours | floor | ratio | target | verdict |",
    "|---|---|---|---|---|---|---|",
    "| 1 | up | 5 s | 5 s | **1.00×** | ≤ 1.10× | met |",
    "| 7 | up, 5000 | 1815 s | 1500 s | **1.21×** | ≤ 1.10× | MISSED |",
    "| 9 | old nine | 1 s | 1 s | **1.00×** | (reference) | - |",
    "",
    "Targets missed in this run; each figure's **Analysis** gives the cause, measured, and the fix:",
    "",
    "- Figure 7, up, 5000: 1.21× against ≤ 1.10× (see [7. Seven](#7-seven)).",
    "- Figure 9, old nine: 1.30× against ≤ 1.10× (see [9. Nine](#9-nine)).",
    "",
    "## 1. One",
    "",
    "figure one's text",
    "",
    "## 7. Seven",
    "",
    "figure seven's text",
    "",
    "## 9. Nine",
    "",
    "old figure nine",
    "",
  ].join("\n");
  const rendered = [
    "# Benchmarks",
    "",
    "Last run 2026-11-28 (a run of figure 9 alone).",
    "",
    "## How to reproduce",
    "",
    "```sh",
    "npm run bench",
    "npm run bench -- --only scale-out",
    "```",
    "",
    "## Summary",
    "",
    "| # | measure | ours | floor | ratio | target | verdict |",
    "|---|---|---|---|---|---|---|",
    "| 9 | new nine | 2 s | 1 s | **2.00×** | ≤ 1.10× | MISSED |",
    "",
    "Targets missed in this run; each figure's **Analysis** gives the cause, measured, and the fix:",
    "",
    "- Figure 9, new nine: 2.00× against ≤ 1.10× (see [9. Nine](#9-nine)).",
    "",
    "## 9. Nine",
    "",
    "new figure nine",
    "",
  ].join("\n");

  it("replaces the figures that ran, their summary rows and misses, and keeps every other figure", () => {
    const spliced = spliceFigures(existing, rendered, [9]);
    assert.match(spliced, /figure one's text/);
    assert.match(spliced, /figure seven's text/);
    assert.match(spliced, /new figure nine/);
    assert.doesNotMatch(spliced, /old figure nine|old nine/);
    assert.match(spliced, /Last run 2026-11-27\./, "the head of the committed file stays");
    assert.match(spliced, /npm run bench -- --only scale-out/, "the commands are the current ones");
    const rows = spliced.split("\n").filter((l) => /^\| \d \| /.test(l));
    assert.deepEqual(
      rows.map((r) => r.split("|")[2]!.trim()),
      ["up", "up, 5000", "new nine"],
    );
    const misses = spliced.split("\n").filter((l) => l.startsWith("- Figure "));
    assert.deepEqual(
      misses.map((l) => l.slice(0, 20)),
      ["- Figure 7, up, 5000", "- Figure 9, new nine"],
    );
    assert.deepEqual(
      spliced.split("\n").filter((l) => l.startsWith("## ")),
      ["## How to reproduce", "## Summary", "## 1. One", "## 7. Seven", "## 9. Nine"],
    );
  });

  it("adds a figure the committed file did not have, in its place", () => {
    const withoutNine = existing.slice(0, existing.indexOf("## 9. Nine"));
    const spliced = spliceFigures(withoutNine, rendered, [9]);
    assert.deepEqual(
      spliced.split("\n").filter((l) => l.startsWith("## ")),
      ["## How to reproduce", "## Summary", "## 1. One", "## 7. Seven", "## 9. Nine"],
    );
  });
});
