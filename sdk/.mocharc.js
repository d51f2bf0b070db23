// This package's tests (`npm test -w <package>`); `npx mocha <file>` runs one file alone.
const mochaConfig = require("../scripts/mocharc");

module.exports = mochaConfig({
  spec: ["dist/test/**/*.test.js"],
  // Their times alone: about 20, 14 and 17 s (shared-quota waits on a window of the emulator's real clock).
  longestFirst: [
    "dist/test/vendor-leniency.test.js",
    "dist/test/shared-quota.test.js",
    "dist/test/compiled-validator.test.js",
  ],
  timeout: mochaConfig.UNIT_TIMEOUT,
});
