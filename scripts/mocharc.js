const fs = require("node:fs");
const path = require("node:path");

/**
 * The one mocha configuration of every suite, so that `npx mocha <file>` runs that file alone.
 *
 * Mocha merges a config file's `spec` with the files of its command line, so a `.mocharc.json` with a spec list
 * ran the whole suite whatever file was named. Each `.mocharc.js` calls this with its suite's default files,
 * which apply only when the command line names none.
 *
 * The files of a suite run CUSTODY_TEST_JOBS at a time (default 2: this project's machines have two cores), each in
 * a process of its own (mocha --parallel); one file named alone runs in mocha's own process, where a debugger
 * finds it. CUSTODY_TEST_JOBS=1 runs every file in turn.
 *
 * Files run in the order given, those of `longestFirst` first: mocha hands the files to its workers in order, so
 * a long file handed out last would leave the other worker idle while it ends.
 *
 * @param {{ spec: string[], longestFirst?: string[], timeout: number | ((named: string[]) => number) }} suite -
 *   the suite's default files (each a file or `<folder>/**\/*.test.js`), the longest of them (by their time
 *   alone), and its per-test timeout (or a function of the files the command line names)
 */
module.exports = function mochaConfig(suite) {
  // A test file's name ends in `.test.js` (not `.mocharc.e2e.js`, the value of `--config`).
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith("-") && /\.test\.[cm]?js$/.test(arg));
  const jobs = Number(process.env.CUSTODY_TEST_JOBS ?? 2);
  return {
    spec: named.length > 0 ? [] : inOrder(suite.spec, suite.longestFirst ?? []),
    ...(named.length !== 1 && jobs > 1 ? { parallel: true, jobs } : {}),
    timeout: typeof suite.timeout === "function" ? suite.timeout(named) : suite.timeout,
    reporter: "spec",
    "enable-source-maps": true,
    exit: true,
  };
};

/** The suite's files, those of `longestFirst` (that exist) first, the others by path. */
function inOrder(spec, longestFirst) {
  const files = spec.flatMap((entry) => {
    const folder = /^(.*)\/\*\*\/\*\.test\.js$/.exec(entry)?.[1];
    return folder === undefined ? [entry] : testFilesUnder(folder);
  });
  return [
    ...longestFirst.filter((file) => files.includes(file)),
    ...files.filter((file) => !longestFirst.includes(file)),
  ];
}

function testFilesUnder(folder) {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true })
    .filter((name) => name.endsWith(".test.js"))
    .map((name) => path.join(folder, name))
    .sort();
}

/** The per-test timeout of the end-to-end suites, which run the real engine. */
module.exports.E2E_TIMEOUT = 300000;
/** The per-test timeout of the unit suites. */
module.exports.UNIT_TIMEOUT = 20000;
