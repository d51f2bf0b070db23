// The end-to-end suites with the real engine (`bash scripts/test-e2e.sh`, or `npx mocha <one file>`).
//
// The files run the longest first, so that files run side by side (mocha --parallel) end together.
// On the newest leg (CUSTODY_TEST_LEG=newest, scripts/test-current.sh) only the files that can break differently
// with other versions of Node.js, @pulumi/pulumi, TypeScript or the CLI run; docs/testing.md says why each is there
// and where each other one's scenarios are proven.
const fs = require("node:fs");
const path = require("node:path");
const mochaConfig = require("./scripts/mocharc");

const DIR = "dist/test/e2e";
/** The longest files, by their time on the pinned leg (docs/testing.md); the others follow by name. */
const LONGEST_FIRST = [
  "documented-commands.test.js",
  "delivered-packages.test.js",
  "bad-inputs.test.js",
  "delivered-types.test.js",
  "review.test.js",
  "messages.test.js",
  "python-path.test.js",
  "drift.test.js",
];
/** The files of the newest leg. */
const NEWEST_LEG = Object.keys(require("./test/e2e/legs.json").newest);

const all = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((name) => name.endsWith(".test.js")) : [];
const leg = process.env.CUSTODY_TEST_LEG === "newest" ? all.filter((name) => NEWEST_LEG.includes(name)) : all;

module.exports = mochaConfig({
  spec: leg.sort().map((name) => path.join(DIR, name)),
  longestFirst: LONGEST_FIRST.map((name) => path.join(DIR, name)),
  timeout: mochaConfig.E2E_TIMEOUT,
});
