// The unit suites of every package and of the repository (`npx mocha`); `npx mocha <file>` runs one file alone,
// an end-to-end file with the end-to-end timeout. The end-to-end suites: `npx mocha --config .mocharc.e2e.js`.
const mochaConfig = require("./scripts/mocharc");

module.exports = mochaConfig({
  spec: [
    "sdk/dist/test/**/*.test.js",
    "emulator/dist/test/**/*.test.js",
    "provider/dist/test/**/*.test.js",
    "policy/dist/test/**/*.test.js",
    "plugin/dist/test/**/*.test.js",
    "cli/dist/test/**/*.test.js",
    "dist/test/unit/**/*.test.js",
  ],
  timeout: (named) =>
    named.some((file) => file.includes("test/e2e/")) ? mochaConfig.E2E_TIMEOUT : mochaConfig.UNIT_TIMEOUT,
});
