// Figure 7's arithmetic: the API's minimum request counts, the issue's targets, the floors of wall time (the
// larger of the engine alone and the writes at the rate limit), and the chart of the vault-only sizes.
import * as assert from "node:assert/strict";
import {
  atRateLimitMs,
  mergeSizes,
  minimumRequests,
  type Operation,
  type OperationRun,
  outcome,
  requestTarget,
  type SizeRun,
  timeTarget,
} from "../../../bench/figures/rate-limit";
import { parseOptions } from "../../../bench/support/options";
import type { FigureResult } from "../../../bench/support/results";

function op(ms: number, requests?: number): OperationRun {
  return {
    ms,
    ...(requests === undefined ? {} : { requests, refused: 0, byRoute: { "GET /api/v1/vaults": requests } }),
    cpu: { "pulumi CLI": 1000, "language host": 10, program: 500, provider: 300, other: 0 },
    peakRss: { provider: 150 * 2 ** 20, cli: 200 * 2 ** 20 },
  };
}

function size(n: number, addresses: boolean, ours: Record<Operation, [number, number]>): SizeRun {
  return {
    n,
    addresses,
    ours: { up: op(...ours.up), refresh: op(...ours.refresh), destroy: op(...ours.destroy) },
    noop: { up: op(80_000), refresh: op(15_000), destroy: op(40_000) },
  };
}

describe("bench figure 7 (rate limit)", () => {
  it("the API's minimum: N creates, ⌈N/100⌉ pages (plus an address list per vault), N archives", () => {
    assert.equal(minimumRequests("up", 1000, false), 1000);
    assert.equal(minimumRequests("up", 1000, true), 2000);
    assert.equal(minimumRequests("refresh", 1000, false), 10);
    assert.equal(minimumRequests("refresh", 1001, false), 11);
    assert.equal(minimumRequests("refresh", 100, true), 101);
    assert.equal(minimumRequests("destroy", 1000, true), 1000);
  });

  it("targets: ⌈N/100⌉ + 2 requests per refresh, N + ⌈N/100⌉ + 2 per up; 1.1× for up, 1.2× for a refresh at 1,000", () => {
    assert.deepEqual(requestTarget("refresh", 1000, false), { kind: "max", value: 12 / 10 });
    assert.deepEqual(requestTarget("up", 1000, false), { kind: "max", value: 1012 / 1000 });
    assert.equal(requestTarget("destroy", 1000, false), undefined);
    assert.equal(requestTarget("up", 1000, true), undefined);
    assert.deepEqual(timeTarget("up", 100, false), { kind: "max", value: 1.1 });
    assert.deepEqual(timeTarget("refresh", 1000, false), { kind: "max", value: 1.2 });
    assert.equal(timeTarget("refresh", 100, false), undefined);
    assert.equal(atRateLimitMs(1000), 300_000, "1,000 writes at 200 per minute take 5 minutes");
  });

  it("compares wall time with the larger floor, and counts requests against the minimum", () => {
    const result = outcome(
      [
        size(1000, false, { up: [310_000, 1002], refresh: [16_000, 12], destroy: [305_000, 1013] }),
        size(100, false, { up: [9_000, 102], refresh: [8_000, 2], destroy: [7_000, 102] }),
        size(100, true, { up: [70_000, 202], refresh: [12_000, 102], destroy: [8_000, 102] }),
      ],
      { parallel: 8, cores: 2 },
    );
    const by = (label: string) => {
      const found = result.comparisons.find((c) => c.label === label);
      assert.ok(
        found,
        `no comparison "${label}" among ${result.comparisons.map((c) => c.label).join(" | ")}`,
      );
      return found;
    };
    const upTime = by("pulumi up, 1000 vaults: wall time");
    // The larger floor: 1,000 creates at 200 per minute (300 s), not the engine's 80 s.
    assert.equal(upTime.ratio, 310_000 / 300_000);
    assert.equal(upTime.met, true);
    const refreshTime = by("preview --refresh, 1000 vaults: wall time");
    assert.equal(refreshTime.ratio, 16_000 / 15_000);
    assert.equal(refreshTime.met, true);
    const refreshRequests = by("preview --refresh, 1000 vaults: requests");
    assert.equal(refreshRequests.ratio, 12 / 10);
    assert.equal(refreshRequests.met, true);
    const missed = by("pulumi up, 100 vaults: requests");
    assert.equal(missed.met, true, "102 ≤ 100 + 1 + 2");
    assert.equal(by("pulumi up, 100 vaults + 100 addresses: requests").target, undefined);
    assert.equal(result.comparisons.length, 3 * 3 * 2);
    // The chart: the vault-only sizes in order of N, ours solid and the floors dashed.
    assert.equal(result.chart?.file, "rate-limit.svg");
    const upOurs = result.chart?.series.find((s) => s.name === "pulumi up, ours");
    assert.deepEqual(upOurs?.points, [
      [100, 9],
      [1000, 310],
    ]);
    const upFloor = result.chart?.series.find((s) => s.dashed && s.name.startsWith("pulumi up"));
    assert.deepEqual(upFloor?.points, [
      [100, 80],
      [1000, 300],
    ]);
    assert.match(result.notes.join("\n"), /No request of ours was refused with 429/);
  });

  it("--sizes and --address-sizes take lists of positive integers", () => {
    const options = parseOptions([
      "--only",
      "rate-limit",
      "--sizes",
      "100,1000,5000",
      "--address-sizes",
      "100",
    ]);
    assert.deepEqual(options.sizes, [100, 1000, 5000]);
    assert.deepEqual(options.addressSizes, [100]);
    assert.equal(parseOptions([]).sizes, undefined);
    assert.throws(() => parseOptions(["--sizes", "100,x"]), /--sizes needs positive integers/);
    assert.throws(() => parseOptions(["--address-sizes"]), /--address-sizes needs positive integers/);
  });

  describe("a partial run (--only rate-limit --sizes …) merged into the previous result", () => {
    const machine = { parallel: 8, cores: 2 };
    const result = (runs: SizeRun[], durationS: number): FigureResult => ({
      id: "rate-limit",
      number: 7,
      title: "t",
      method: [],
      analysis: [],
      ...outcome(runs, machine),
      durationS,
      loadAverage: { start: 1, end: 1 },
    });
    const defaults = result(
      [
        size(100, false, { up: [9_000, 102], refresh: [8_000, 2], destroy: [7_000, 101] }),
        size(1000, false, { up: [310_000, 1002], refresh: [16_000, 11], destroy: [305_000, 1001] }),
        size(100, true, { up: [70_000, 202], refresh: [12_000, 102], destroy: [8_000, 101] }),
      ],
      900,
    );
    const refusedOnce = size(1000, true, {
      up: [700_000, 2002],
      refresh: [300_000, 1011],
      destroy: [310_000, 1001],
    });
    refusedOnce.ours.up.refused = 1;
    const large = result(
      [
        size(5000, false, { up: [2_000_000, 5002], refresh: [21_000, 51], destroy: [1_800_000, 5001] }),
        refusedOnce,
      ],
      7000,
    );
    const runs = {
      previous: { date: "2026-11-27T05:29:10.000Z", command: "npm run bench" },
      current: {
        date: "2026-11-27T07:30:40.000Z",
        command: "npm run bench -- --only rate-limit --sizes 5000",
      },
    };
    const labels = (r: FigureResult) => r.comparisons.map((c) => c.label.replace(/: .*/, ""));

    it("keeps the sizes it did not measure, in order, and says which run measured which", () => {
      const merged = mergeSizes(defaults, large, runs);
      assert.equal(merged.settings["N (vaults)"], "100, 1000, 5000");
      assert.equal(merged.settings["N (with addresses)"], "100, 1000");
      assert.deepEqual(
        [...new Set(labels(merged).map((l) => l.replace(/^[^,]*, /, "")))],
        [
          "100 vaults",
          "1000 vaults",
          "5000 vaults",
          "100 vaults + 100 addresses",
          "1000 vaults + 1000 addresses",
        ],
      );
      assert.equal(merged.comparisons.length, 5 * 3 * 2);
      const table = merged.notes.find((n) => n.startsWith("| N |"))!.split("\n");
      assert.deepEqual(
        table.slice(2).map((row) => row.split("|")[1]!.trim()),
        ["100", "100", "100", "1000", "1000", "1000", "5000", "5000", "5000"]
          .concat(["100 + addresses", "100 + addresses", "100 + addresses"])
          .concat(["1000 + addresses", "1000 + addresses", "1000 + addresses"]),
      );
      assert.match(merged.notes.join("\n"), /1 request of ours was refused with 429 in these runs/);
      assert.match(merged.notes.join("\n"), /At N = 5,000 vaults/);
      const provenance = String(merged.settings["measured in"]);
      assert.match(provenance, /100, 1000 and 100 \+ addresses: npm run bench \(2026-11-27 05:29 UTC\)/);
      assert.match(
        provenance,
        /5000 and 1000 \+ addresses: npm run bench -- --only rate-limit --sizes 5000 \(2026-11-27 07:30 UTC\)/,
      );
      assert.ok(
        merged.notes.some((n) => n.includes(provenance)),
        "a note says it too",
      );
      const upOurs = merged.chart?.series.find((s) => s.name === "pulumi up, ours");
      assert.deepEqual(upOurs?.points, [
        [100, 9],
        [1000, 310],
        [5000, 2000],
      ]);
      assert.equal(merged.durationS, 7900);
    });

    it("replaces a size measured again, and drops it from the earlier run's part of the provenance", () => {
      const first = mergeSizes(defaults, large, runs);
      const again = result(
        [size(1000, false, { up: [305_000, 1002], refresh: [15_000, 11], destroy: [303_000, 1001] })],
        700,
      );
      const later = { previous: runs.current, current: { date: "2026-11-28T01:00:00.000Z", command: "c3" } };
      const merged = mergeSizes(first, again, later);
      const upTime = merged.comparisons.filter((c) => c.label === "pulumi up, 1000 vaults: wall time");
      assert.equal(upTime.length, 1);
      assert.equal(upTime[0]!.ours.median, 305_000);
      assert.equal(merged.settings["N (vaults)"], "100, 1000, 5000");
      assert.equal(
        merged.settings["measured in"],
        "100 and 100 + addresses: npm run bench (2026-11-27 05:29 UTC); " +
          "5000 and 1000 + addresses: npm run bench -- --only rate-limit --sizes 5000 (2026-11-27 07:30 UTC); " +
          "1000: c3 (2026-11-28 01:00 UTC)",
      );
      // The 429 of the kept 1,000-with-addresses run still counts.
      assert.match(merged.notes.join("\n"), /1 request of ours was refused with 429 in these runs/);
    });

    it("a run of the same sizes replaces the previous result whole", () => {
      assert.equal(mergeSizes(defaults, defaults, runs), defaults);
    });
  });
});
