// This package's tests (`npm test -w <package>`); `npx mocha <file>` runs one file alone.
const mochaConfig = require("../scripts/mocharc");

module.exports = mochaConfig({ spec: ["dist/test/**/*.test.js"], timeout: mochaConfig.UNIT_TIMEOUT });
