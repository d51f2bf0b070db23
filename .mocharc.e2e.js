// The end-to-end suites with the real engine (`npx mocha --config .mocharc.e2e.js`, or one file alone).
const mochaConfig = require("./scripts/mocharc");

module.exports = mochaConfig({ spec: ["dist/test/e2e/**/*.test.js"], timeout: mochaConfig.E2E_TIMEOUT });
