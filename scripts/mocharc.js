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
 * @param {{ spec: string[], timeout: number | ((named: string[]) => number) }} suite - the suite's default
 *   files, and its per-test timeout (or a function of the files the command line names)
 */
module.exports = function mochaConfig(suite) {
  // A test file's name ends in `.test.js` (not `.mocharc.e2e.js`, the value of `--config`).
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith("-") && /\.test\.[cm]?js$/.test(arg));
  const jobs = Number(process.env.CUSTODY_TEST_JOBS ?? 2);
  return {
    spec: named.length > 0 ? [] : suite.spec,
    ...(named.length !== 1 && jobs > 1 ? { parallel: true, jobs } : {}),
    timeout: typeof suite.timeout === "function" ? suite.timeout(named) : suite.timeout,
    reporter: "spec",
    "enable-source-maps": true,
    exit: true,
  };
};

/** The per-test timeout of the end-to-end suites, which run the real engine. */
module.exports.E2E_TIMEOUT = 300000;
/** The per-test timeout of the unit suites. */
module.exports.UNIT_TIMEOUT = 20000;
