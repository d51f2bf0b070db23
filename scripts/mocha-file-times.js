// A mocha root-hook plugin of the end-to-end suites: each test file's time, hooks included, as a line
// "<leg>:file\t<file>\t<seconds>" in $CUSTODY_TEST_STEPS, for the closing table of `npm test`
// (scripts/test-budget.js). The leg is $CUSTODY_TEST_LEG ("pinned" unless set).
//
// Root hooks run once per file when mocha runs files in parallel (each file is a run of its own in a worker), and
// once for the whole run otherwise; then the line names every file of the run.
const fs = require("node:fs");
const path = require("node:path");

let begun = 0;

exports.mochaHooks = {
  beforeAll() {
    begun = Date.now();
  },
  afterAll() {
    const steps = process.env.CUSTODY_TEST_STEPS;
    if (!steps) return;
    const files = [...new Set(this.test.parent.suites.map((suite) => suite.file).filter(Boolean))];
    const name = files.length === 1 ? path.basename(files[0]) : `${files.length} files`;
    const leg = process.env.CUSTODY_TEST_LEG ?? "pinned";
    fs.appendFileSync(steps, `${leg}:file\t${name}\t${Math.round((Date.now() - begun) / 1000)}\n`);
  },
};
