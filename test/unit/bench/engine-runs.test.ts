/**
 * The measured breakdown of the engine figures (bench/support/engine-runs.ts): the gap between ours and the
 * no-op floor split by process, and how much of it the extra CPU explains on the machine's cores.
 */
import { strict as assert } from "node:assert";
import { attributeGap, cpuBreakdownTable, type RoundTimes } from "../../../bench/support/engine-runs";

function times(up: number, cli: number, program: number, provider: number): RoundTimes {
  const roles = { "pulumi CLI": cli, program, provider, "language host": 10, other: 0 };
  const cpu = cli + program + provider + 10;
  return { up, refresh: up / 2, upCpu: cpu, refreshCpu: cpu / 2, upRoles: roles, refreshRoles: roles };
}

describe("bench: where the engine's time goes", () => {
  const noop = [times(10_000, 4_000, 2_000, 1_000)];

  it("names the process with the most extra CPU first, and the share of the gap that CPU explains", () => {
    // 4 s more wall time; 6 s more CPU (CLI +5 s, program +1 s): 3 s of wall time on 2 cores, 75% of the gap.
    const ours = [times(14_000, 9_000, 3_000, 1_000)];
    const text = attributeGap(ours, noop, 2, "up");
    assert.match(text, /\+4\.00 s of wall time/);
    assert.match(
      text,
      /\+6\.00 s of CPU over the floor's \(pulumi CLI \+5\.00 s, program \+1\.00 s, provider \+0 µs/,
    );
    assert.match(text, /at least 3\.00 s of wall time, 75% of the gap; the rest is time spent waiting/);
  });

  it("says all of the gap when the extra CPU covers it, and that there is none when ours is faster", () => {
    assert.match(attributeGap([times(11_000, 9_000, 3_000, 1_000)], noop, 2, "up"), /all of the gap\.$/);
    assert.match(
      attributeGap([times(9_000, 4_000, 2_000, 1_000)], noop, 2, "up"),
      /1\.00 s less wall time .* no gap/,
    );
  });

  it("tabulates wall time, CPU per process and the busy share for both operations", () => {
    const table = cpuBreakdownTable([times(14_000, 9_000, 3_000, 1_000)], noop, 2);
    const rows = table.split("\n");
    assert.equal(rows.length, 2 + 7);
    assert.equal(rows[2], "| wall time | 14.0 s | 10.0 s | +4.00 s | 7.00 s | 5.00 s | +2.00 s |");
    assert.match(table, /\| CPU, pulumi CLI \| 9\.00 s \| 4\.00 s \| \+5\.00 s \|/);
    // 13.01 s of CPU in 14 s on 2 cores.
    assert.match(rows.at(-1)!, /^\| CPU ÷ \(wall × 2 cores\) \| 46% \| 35% \|/);
  });
});
