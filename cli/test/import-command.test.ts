// `custody import` and `custody import-file` as a user runs them (in process, against the emulator): bad
// arguments are usage errors that name the flag and the rule; the pace follows the quota the service announces;
// the dynamic-provider program and the file-only form are written without an engine. (The program the engine
// generates on the plugin path is tested end to end: test/e2e/onboarding.test.ts.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { declarableImportInputs } from "pulumi-custody/core";
import { parseArgs } from "../command";
import { main } from "../custody";
import { runtimeOf } from "../import/command";
import { FILTER_FLAGS, filterFromArgs } from "../import/filter";

/** Runs `custody <argv>` in `cwd` with `env`; its exit code and what it wrote. */
async function custody(argv: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const code = await main(argv, { stdout, stderr, stdin: new PassThrough(), env, cwd });
  return { code, stdout: out, stderr: err };
}

describe("custody import: the command", () => {
  let emulator: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 120 });
    // No `pulumi` on this PATH: unit tests run no engine (a project's stack is then simply not read).
    env = {
      PATH: "/nonexistent",
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_ACCESS_TOKEN: emulator.accessToken,
    };
    const client = new CustodyClient({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: 0,
    });
    await client.vaults.create({ name: "cmd evm", type: "evm" });
    await client.vaults.create({ name: "cmd btc", type: "utxo", chain: "bitcoin_testnet" });
    await client.close();
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-import-cmd-"));
  });
  afterEach(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  describe("usage errors name the flag and the rule (exit 2)", () => {
    const cases: [string, string[], RegExp][] = [
      ["an unknown language", ["--language", "go"], /--language "go" is not one of typescript, python, yaml/],
      ["no language and no Pulumi.yaml", [], /--language is needed: there is no Pulumi.yaml in /],
      [
        "an unknown vault type",
        ["-l", "yaml", "--type", "evm,bitcoin"],
        /--type "bitcoin" is not a vault type/,
      ],
      ["an unknown chain", ["-l", "yaml", "--chain", "litecoin"], /--chain "litecoin" is not a UTXO chain/],
      [
        "a state no program declares",
        ["-l", "yaml", "--state", "deleted"],
        /--state "deleted" is not a state a program can declare/,
      ],
      [
        "a pattern that does not compile",
        ["-l", "yaml", "--name-pattern", "("],
        /--name-pattern "\(" is not a regular expression/,
      ],
      [
        "the dynamic provider in Python",
        ["-l", "python", "--provider", "dynamic"],
        /--provider dynamic writes TypeScript/,
      ],
    ];
    for (const [title, argv, message] of cases) {
      it(title, async () => {
        const { code, stderr } = await custody(["import", ...argv], dir, env);
        assert.equal(code, 2, stderr);
        assert.match(stderr, message);
        assert.match(stderr, /usage: custody import/);
        assert.deepEqual(fs.readdirSync(dir), [], "nothing written");
      });
    }

    it("a program file that exists is not overwritten without --force", async () => {
      fs.writeFileSync(path.join(dir, "index.ts"), "// mine\n");
      const { code, stderr } = await custody(
        ["import", "-l", "typescript", "--provider", "dynamic"],
        dir,
        env,
      );
      assert.equal(code, 2);
      assert.match(stderr, /index\.ts exists: pass --force to overwrite it/);
      assert.equal(fs.readFileSync(path.join(dir, "index.ts"), "utf8"), "// mine\n");
    });
  });

  it("a missing setting is one line naming it (exit 1), with no token anywhere", async () => {
    const { code, stderr } = await custody(["import", "-l", "yaml"], dir, { PATH: "/nonexistent" });
    assert.equal(code, 1);
    assert.match(stderr, /^custody import: Missing setting custody:baseUrl: set it with/);
    assert.equal(stderr.trim().split("\n").length, 1);
  });

  it("the language comes from the project's runtime; the client keeps within the service's announced quota", async () => {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime:\n  name: nodejs\n");
    const { code, stdout, stderr } = await custody(
      ["import", "--provider", "dynamic", "--name-prefix", "cmd "],
      dir,
      env,
    );
    assert.equal(code, 0, stderr);
    // The emulator allows 120 requests per 60 s and announces it: the sdk's limiter keeps the import within it.
    assert.ok(!(await emulator.control.listRequests()).some((r) => r.status === 429), "no request got a 429");
    // No stack can be read in the project (no CLI here): said, not fatal.
    assert.match(
      stderr,
      /no stack of the project in .* could be read \(`pulumi` was not found on PATH: install the Pulumi CLI\): nothing is left out as managed/,
    );
    assert.match(stdout, /^2 vaults to import \(name starts with "cmd ", state active\)\.$/m);
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    assert.match(
      program,
      /new Vault\("cmd-evm", \{ name: "cmd evm", type: "evm", adoptExisting: true \}, \{ protect: true \}\);/,
    );
    assert.ok(!fs.existsSync(path.join(dir, "custody-import.json")), "no import file on the dynamic path");
  });

  it("import-file writes the file alone, with the same filter; the report goes to stderr", async () => {
    const { code, stdout, stderr } = await custody(
      ["import-file", "--name-prefix", "cmd ", "--type", "utxo"],
      dir,
      env,
    );
    assert.equal(code, 0, stderr);
    const file = JSON.parse(stdout) as { resources: { type: string; name: string }[] };
    assert.deepEqual(
      file.resources.map((r) => `${r.type} ${r.name}`),
      ["custody:index:Vault cmd-btc"],
    );
    assert.match(stderr, /^1 vaults to import \(name starts with "cmd ", type utxo, state active\)\.$/m);
  });

  it("nothing to import: said, and no file written", async () => {
    const { code, stdout } = await custody(
      ["import", "-l", "yaml", "--name-prefix", "no such vault"],
      dir,
      env,
    );
    assert.equal(code, 0);
    assert.match(stdout, /Nothing to import: no file written\./);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it("custody --help lists import and import-file", async () => {
    const { code, stdout } = await custody(["--help"], dir, env);
    assert.equal(code, 0);
    assert.match(stdout, /^ {2}import {7}write the program/m);
    assert.match(stdout, /^ {2}import-file {2}the `pulumi import --file` file alone/m);
  });
});

describe("custody import: filters and declarable inputs", () => {
  it("list flags take repeats and comma lists, without duplicates; the state defaults to active", () => {
    const args = parseArgs(["--type", "evm,utxo", "--type", "evm", "--chain", "bitcoin_mainnet"], {
      flags: FILTER_FLAGS,
    });
    const filter = filterFromArgs(args, { types: ["evm", "utxo"], chains: ["bitcoin_mainnet"] });
    assert.deepEqual(filter.types, ["evm", "utxo"]);
    assert.deepEqual(filter.chains, ["bitcoin_mainnet"]);
    assert.deepEqual(filter.states, ["active"]);
  });

  it("the runtime of a Pulumi.yaml, inline or as a block", () => {
    assert.equal(runtimeOf("name: p\nruntime: yaml\n"), "yaml");
    assert.equal(
      runtimeOf("name: p\nruntime:\n  options:\n    virtualenv: venv\n  name: python\n"),
      "python",
    );
    assert.equal(runtimeOf('runtime: "nodejs"\n'), "nodejs");
    assert.equal(runtimeOf("name: p\n"), undefined);
  });

  it("an address of a type the API cannot create is declared without addressType (unset never differs)", () => {
    const vaultId = "5d9fe94b-05b5-47e3-9145-86c0d657387e";
    assert.deepEqual(declarableImportInputs("VaultAddress", { vaultId, name: "Old", addressType: "p2sh" }), {
      vaultId,
      name: "Old",
    });
    assert.deepEqual(
      declarableImportInputs("VaultAddress", { vaultId, name: "New", addressType: "taproot" }),
      {
        vaultId,
        name: "New",
        addressType: "taproot",
      },
    );
    assert.deepEqual(declarableImportInputs("Vault", { name: "S", type: "safe" }), {
      name: "S",
      type: "safe",
      adoptExisting: true,
    });
  });
});
