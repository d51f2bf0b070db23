/**
 * The test run's own machinery: one file runs alone (scripts/mocharc.js), the closing table and its budget
 * (scripts/test-budget.js), and the map of what is proven where (docs/testing.md), kept in step with the legs the
 * end-to-end files run on (test/e2e/legs.json, .mocharc.e2e.js).
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, "..", "..", "..");

/** The mocha configuration `config` gives for the command line `args` (as mocha loads it: once per process). */
function mochaConfig(
  config: string,
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd = root,
): { spec: string[]; parallel?: boolean; jobs?: number; timeout: number } {
  const script = `process.argv = ["node", "mocha", ...${JSON.stringify(args)}];
    process.stdout.write(JSON.stringify(require(${JSON.stringify(path.join(root, config))})));`;
  const out = execFileSync(process.execPath, ["-e", script], {
    cwd,
    env: { ...process.env, CUSTODY_TEST_LEG: undefined, CUSTODY_TEST_JOBS: undefined, ...env },
  });
  return JSON.parse(out.toString());
}

/** Runs scripts/test-budget.js on `rows` (leg, step, seconds); its exit code and output. */
async function budget(rows: [string, string, number][], env: Record<string, string> = {}) {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "test-budget-"));
  try {
    const file = path.join(dir, "steps.tsv");
    await fs.promises.writeFile(file, rows.map((row) => `${row.join("\t")}\n`).join(""));
    return await execFileAsync(process.execPath, [path.join(root, "scripts", "test-budget.js"), file], {
      env: { ...process.env, ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({
        code: err.code,
        stdout: err.stdout,
        stderr: err.stderr,
      }),
    );
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

describe("the test run's machinery", () => {
  describe("one test file runs alone (scripts/mocharc.js)", () => {
    it("a file named on the command line is the only spec, in mocha's own process", () => {
      const config = mochaConfig(".mocharc.js", ["dist/test/unit/version.test.js"]);
      assert.deepEqual(config.spec, []);
      assert.equal(config.parallel, undefined);
      assert.equal(config.timeout, 20000);
    });

    it("an end-to-end file named alone gets the end-to-end timeout", () => {
      assert.equal(mochaConfig(".mocharc.js", ["dist/test/e2e/drift.test.js"]).timeout, 300000);
    });

    it("with no file named, the suite's files, two at a time, or in turn with CUSTODY_TEST_JOBS=1", () => {
      const whole = mochaConfig(".mocharc.js", []);
      assert.ok(whole.spec.includes("sdk/dist/test/pagination.test.js"), JSON.stringify(whole.spec));
      assert.ok(
        whole.spec.includes("dist/test/unit/test-infrastructure.test.js"),
        JSON.stringify(whole.spec),
      );
      assert.equal(new Set(whole.spec).size, whole.spec.length, "each file once");
      assert.equal(whole.parallel, true);
      assert.equal(whole.jobs, 2);
      assert.equal(mochaConfig(".mocharc.js", [], { CUSTODY_TEST_JOBS: "1" }).parallel, undefined);
    });

    it("the longest files are handed out first, each file once", () => {
      const sdk = mochaConfig("sdk/.mocharc.js", [], {}, path.join(root, "sdk"));
      assert.equal(sdk.spec[0], "dist/test/vendor-leniency.test.js");
      assert.ok(sdk.spec.includes("dist/test/pagination.test.js"));
      assert.equal(new Set(sdk.spec).size, sdk.spec.length, "each file once");
      const e2e = mochaConfig(".mocharc.e2e.js", []);
      assert.equal(e2e.spec[0], "dist/test/e2e/documented-commands.test.js");
      assert.equal(new Set(e2e.spec).size, e2e.spec.length, "each file once");
    });

    it("the value of --config is not taken for a test file", () => {
      assert.ok(mochaConfig(".mocharc.e2e.js", ["--config", ".mocharc.e2e.js"]).spec.length > 0);
    });
  });

  describe("the closing table and its budget (scripts/test-budget.js)", () => {
    const rows: [string, string, number][] = [
      ["ci", "npm run demo (.ci/run)", 120],
      ["pinned", "unit tests (mocha)", 300],
      ["pinned:file", "lifecycle.test.js", 200],
      ["newest", "unit tests (mocha)", 310],
      ["total", "npm test", 1800],
    ];

    it("lists each step by leg, the slowest files, and the whole run with the demo", async () => {
      const { code, stdout } = await budget(rows);
      assert.equal(code, 0);
      assert.match(stdout, /^pinned leg$/m);
      assert.match(stdout, /^ {2}unit tests \(mocha\) +5m00s$/m);
      assert.match(stdout, /^ {4}lifecycle\.test\.js +3m20s$/m);
      assert.match(stdout, /^newest leg$/m);
      assert.match(stdout, /the whole run \(\.ci\/run: the demo and npm test\) +32m00s$/m);
      assert.match(stdout, /^ {2}budget +60m00s$/m);
    });

    it("fails, with the table, when the whole run passes the budget", async () => {
      const { code, stdout, stderr } = await budget(rows, { CUSTODY_TEST_BUDGET_SECONDS: "1800" });
      assert.equal(code, 1);
      assert.match(stdout, /^ {2}unit tests \(mocha\) +5m00s$/m);
      assert.match(stderr, /the run took 32m00s, over its budget of 30m00s/);
    });
  });

  describe("the map of what is proven where (docs/testing.md)", () => {
    const map = fs.readFileSync(path.join(root, "docs", "testing.md"), "utf8");
    const e2eFiles = fs.readdirSync(path.join(root, "test", "e2e")).filter((f) => f.endsWith(".test.ts"));
    const legs = JSON.parse(fs.readFileSync(path.join(root, "test", "e2e", "legs.json"), "utf8")) as {
      newest: Record<string, string>;
    };

    it("names every end-to-end file", () => {
      const missing = e2eFiles.filter((file) => !map.includes(`test/e2e/${file}`));
      assert.deepEqual(missing, [], "end-to-end files docs/testing.md does not place");
    });

    it("the newest leg's files exist, each with what in it depends on a version", () => {
      for (const [file, why] of Object.entries(legs.newest)) {
        assert.ok(e2eFiles.includes(file.replace(/\.js$/, ".ts")), `${file} is not an end-to-end file`);
        assert.match(why, /^[^\n]{30,}$/, `${file}: say what depends on a version, in one line`);
      }
    });

    it("the newest leg runs exactly those files, and the pinned leg every file", () => {
      const dist = path.join(root, "dist", "test", "e2e");
      const built = fs.readdirSync(dist).filter((f) => f.endsWith(".test.js"));
      const newest = mochaConfig(".mocharc.e2e.js", [], { CUSTODY_TEST_LEG: "newest" }).spec;
      assert.deepEqual(newest.map((spec) => path.basename(spec)).sort(), Object.keys(legs.newest).sort());
      const pinned = mochaConfig(".mocharc.e2e.js", []).spec;
      assert.deepEqual(pinned.map((spec) => path.basename(spec)).sort(), built.sort());
    });
  });
});
