#!/usr/bin/env node
// The closing table of `npm test`: each step's time, by leg, the slowest end-to-end files, and the whole run
// against its budget. Exits 1 when the run took longer than the budget, so that CI fails while there is still
// room under its own limit (90 minutes) for the suite that outgrew it.
//
//   node scripts/test-budget.js <steps.tsv>
//
// <steps.tsv> has a line "<leg>\t<step>\t<seconds>" per step (scripts/test-steps.sh), and "<leg>:file\t<file>\t
// <seconds>" per end-to-end file (scripts/mocha-file-times.js). The leg "ci" is .ci/run's demo; "total" is the
// whole `npm test`. The whole run is the demo plus `npm test`.
//
// CUSTODY_TEST_BUDGET_SECONDS sets the budget (default 3600).
const fs = require("node:fs");

const BUDGET_SECONDS = Number(process.env.CUSTODY_TEST_BUDGET_SECONDS ?? 3600);
/** How many of the slowest end-to-end files the table lists, per leg. */
const SLOWEST_FILES = 5;

const file = process.argv[2];
if (!file) {
  console.error("usage: test-budget.js <steps.tsv>");
  process.exit(2);
}
const rows = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const [leg, name, seconds] = line.split("\t");
    return { leg, name, seconds: Number(seconds) };
  })
  .filter((row) => Number.isFinite(row.seconds));

const clock = (seconds) =>
  `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, "0")}s`;
const lines = [];
const width = Math.max(40, ...rows.filter((r) => !r.leg.endsWith(":file")).map((r) => r.name.length + 2));
const line = (name, seconds) => lines.push(`  ${name.padEnd(width)} ${clock(seconds).padStart(8)}`);

const legs = [...new Set(rows.map((r) => r.leg))].filter((leg) => !leg.endsWith(":file") && leg !== "total");
for (const leg of legs) {
  lines.push(leg === "ci" ? ".ci/run" : `${leg} leg`);
  for (const row of rows.filter((r) => r.leg === leg)) line(row.name, row.seconds);
  const files = rows
    .filter((r) => r.leg === `${leg}:file`)
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES);
  if (files.length > 0) {
    lines.push(`  the slowest end-to-end files of the ${leg} leg:`);
    for (const row of files) line(`  ${row.name}`, row.seconds);
  }
}
const demo = rows.filter((r) => r.leg === "ci").reduce((sum, r) => sum + r.seconds, 0);
const npmTest = rows.find((r) => r.leg === "total")?.seconds ?? 0;
const whole = demo + npmTest;
lines.push("");
line(demo > 0 ? "the whole run (.ci/run: the demo and npm test)" : "the whole run (npm test)", whole);
line("budget", BUDGET_SECONDS);

console.log(`\nTime of each step (legs run side by side, so their steps overlap)\n${lines.join("\n")}`);
if (whole > BUDGET_SECONDS) {
  console.error(
    `\nerror: the run took ${clock(whole)}, over its budget of ${clock(BUDGET_SECONDS)}: make a suite cheaper, ` +
      "or move a scenario that another suite already proves (docs/testing.md), before CI's own limit is reached",
  );
  process.exit(1);
}
