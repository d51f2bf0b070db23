// `custody import` and `custody import-file` as a user runs them (in process, against the emulator): bad
// arguments are usage errors that name the flag and the rule; the pace follows the quota the service announces;
// the dynamic-provider program and the file-only form are written without an engine. (The program the engine
// generates on the plugin path is tested end to end: test/e2e/onboarding.test.ts.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { declarableImportInputs } from "pulumi-custody/core";
import { parseArgs } from "../command";
import { runtimeOf } from "../import/command";
import { FILTER_FLAGS, filterFromArgs } from "../import/filter";
import { custody } from "./run-custody";

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
      [
        "an unknown language",
        ["--language", "java"],
        /--language "java" is not one of typescript, python, yaml, go/,
      ],
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
        // One line, and where the usage is.
        assert.equal(stderr.split("\n").length, 2, stderr);
        assert.match(stderr, /; see `custody import --help`\n$/);
        assert.deepEqual(fs.readdirSync(dir), [], "nothing written");
      });
    }

    it("--out and --import-file naming the same file", async () => {
      const { code, stderr } = await custody(
        ["import", "-l", "yaml", "--out", "x.json", "--import-file", "./x.json"],
        dir,
        env,
      );
      assert.equal(code, 2, stderr);
      assert.match(stderr, /^custody import: --out and --import-file name the same file/);
      assert.deepEqual(fs.readdirSync(dir), [], "nothing written");
    });
  });

  describe("files it would write: one line that says which and what to do (exit 1, no usage)", () => {
    /** The one line of a failure: `custody import: …`, no usage, no stack trace. */
    function assertOneLine(stderr: string, message: RegExp): void {
      assert.match(stderr, message);
      assert.equal(stderr.trim().split("\n").length, 1, stderr);
      assert.doesNotMatch(stderr, /usage:|ENOENT|EEXIST|EISDIR|\n\s+at /);
    }

    it("a program file that exists: named, not overwritten, nothing written", async () => {
      fs.writeFileSync(path.join(dir, "index.ts"), "// mine\n");
      const { code, stderr } = await custody(
        ["import", "-l", "typescript", "--provider", "dynamic"],
        dir,
        env,
      );
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody import: index\.ts \(the program\) exists: pass --force to overwrite it, or choose another file with --out/,
      );
      assert.equal(fs.readFileSync(path.join(dir, "index.ts"), "utf8"), "// mine\n");
      assert.deepEqual(fs.readdirSync(dir), ["index.ts"], "nothing written");
    });

    it("an import file that exists, and the program too: both named, both unchanged", async () => {
      fs.writeFileSync(path.join(dir, "custody-import.json"), "{}\n");
      fs.writeFileSync(path.join(dir, "Main.yaml"), "# mine\n");
      const { code, stderr } = await custody(["import", "-l", "yaml"], dir, env);
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody import: Main\.yaml \(the program\) and custody-import\.json \(the import file\) exist: pass --force to overwrite them, or choose other files with --out and --import-file/,
      );
      assert.equal(fs.readFileSync(path.join(dir, "custody-import.json"), "utf8"), "{}\n");
      assert.equal(fs.readFileSync(path.join(dir, "Main.yaml"), "utf8"), "# mine\n");
      assert.deepEqual(fs.readdirSync(dir).sort(), ["Main.yaml", "custody-import.json"]);
    });

    it("--force replaces a program file that exists", async () => {
      fs.writeFileSync(path.join(dir, "index.ts"), "// mine\n");
      const { code, stderr } = await custody(
        ["import", "-l", "typescript", "--provider", "dynamic", "--name-prefix", "cmd ", "--force"],
        dir,
        env,
      );
      assert.equal(code, 0, stderr);
      assert.match(fs.readFileSync(path.join(dir, "index.ts"), "utf8"), /adoptExisting: true/);
      assert.deepEqual(
        fs.readdirSync(dir).sort(),
        ["custody-policy.json", "index.ts"],
        "no temporary file left beside them",
      );
    });

    it("--out into a directory that does not exist: named, with what to do; nothing created", async () => {
      const { code, stderr } = await custody(
        ["import", "-l", "typescript", "--provider", "dynamic", "--out", "gen/index.ts"],
        dir,
        env,
      );
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody import: cannot write gen\/index\.ts \(the program\): the directory gen does not exist; create it, or choose another --out/,
      );
      assert.deepEqual(fs.readdirSync(dir), [], "nothing written, no directory made");
    });

    it("--import-file into a directory that does not exist: named before anything is read", async () => {
      const { code, stderr } = await custody(
        ["import", "-l", "yaml", "--import-file", "out/import.json"],
        dir,
        { PATH: "/nonexistent" },
      );
      // No settings either: the file is checked first, before the API is asked anything.
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody import: cannot write out\/import\.json \(the import file\): the directory out does not exist; create it, or choose another --import-file/,
      );
      assert.deepEqual(fs.readdirSync(dir), []);
    });

    it("--out that is a directory: said, with what to do", async () => {
      fs.mkdirSync(path.join(dir, "src"));
      const { code, stderr } = await custody(
        ["import", "-l", "typescript", "--provider", "dynamic", "--out", "src"],
        dir,
        env,
      );
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody import: cannot write src \(the program\): it is a directory; give --out/,
      );
    });

    it("--cwd that does not exist: named (not mistaken for a missing Pulumi CLI)", async () => {
      const { code, stderr } = await custody(
        ["import", "-l", "typescript", "--provider", "dynamic", "--cwd", "nowhere"],
        dir,
        env,
      );
      assert.equal(code, 1, stderr);
      assertOneLine(stderr, /^custody import: the project directory nowhere \(--cwd\) does not exist/);
      const file = await custody(["import-file", "--cwd", "nowhere"], dir, env);
      assert.equal(file.code, 1, file.stderr);
      assertOneLine(
        file.stderr,
        /^custody import-file: the project directory nowhere \(--cwd\) does not exist/,
      );
    });

    it("import-file --out into a directory that does not exist: named before anything is read", async () => {
      const { code, stderr } = await custody(["import-file", "--out", "gen/import.json"], dir, {
        PATH: "/nonexistent",
      });
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody import-file: cannot write gen\/import\.json \(the import file\): the directory gen does not exist; create it, or choose another --out/,
      );
      assert.deepEqual(fs.readdirSync(dir), []);
    });

    it("review --out into a directory that does not exist: one line, no ENOENT", async () => {
      const preview = path.join(dir, "preview.json");
      fs.writeFileSync(preview, JSON.stringify({ steps: [], diagnostics: [] }));
      const { code, stderr } = await custody(["review", "--out", "gen/review.md", preview], dir, env);
      assert.equal(code, 1, stderr);
      assertOneLine(
        stderr,
        /^custody review: cannot write gen\/review\.md \(the report\): the directory gen does not exist; create it, or choose another --out/,
      );
    });
  });

  it("the report shows no control character of a value it echoes", async () => {
    const esc = String.fromCharCode(0x1b);
    const csi = String.fromCharCode(0x9b);
    const { code, stderr } = await custody(
      ["import-file", "--name-prefix", `cmd${esc}[2J`, "--name-pattern", `^c${csi}m`],
      dir,
      env,
    );
    assert.equal(code, 0, stderr);
    assert.match(
      stderr,
      /^0 vaults to import \(name starts with "cmd\\x1b\[2J", name matches \/\^c\\x9bm\/, state active\)/m,
    );
    assert.doesNotMatch(stderr.replace(/\n/g, ""), /\p{Cc}/u);
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
      /new Vault\("cmd-evm", \{ name: "cmd evm", type: "evm", vaultGroupIds: \["[0-9a-f-]{36}"\], adoptExisting: true \}, \{ protect: true \}\);/,
    );
    assert.ok(!fs.existsSync(path.join(dir, "custody-import.json")), "no import file on the dynamic path");
  });

  describe("vault groups and the policy pack's allow-lists", () => {
    let treasury: string;
    let standby: string;
    before(async () => {
      const groups = await emulator.control.peek<{ id: string; name: string }>("vault-groups");
      const byName = (name: string) => groups.find((g) => g.name === name)!.id;
      treasury = byName("Treasury");
      standby = byName("Default");
      const client = new CustodyClient({
        baseUrl: emulator.baseUrl,
        accessToken: emulator.accessToken,
        requestsPerMinute: 0,
      });
      // In Treasury, then in Default too by an approved proposal; a third group only proposed (not approved).
      const two = await client.vaults.create({ name: "grp two", type: "evm", vault_group_id: treasury });
      await client.vaults.submitChangeProposal(two.id, { diff: { added_vault_group_ids: [standby] } });
      for (const p of await emulator.control.listProposals({ state: "pending" }))
        await emulator.control.approveProposal(p.id);
      const other = groups.find((g) => g.id !== treasury && g.id !== standby);
      if (other)
        await client.vaults.submitChangeProposal(two.id, { diff: { added_vault_group_ids: [other.id] } });
      await client.vaults.create({
        name: "grp one",
        type: "utxo",
        chain: "bitcoin_testnet",
        vault_group_id: treasury,
      });
      await client.close();
    });

    it("the dynamic program declares each vault's approved groups; the adopted names go on the allow-list", async () => {
      const { code, stdout, stderr } = await custody(
        ["import", "--provider", "dynamic", "-l", "typescript", "--name-prefix", "grp "],
        dir,
        env,
      );
      assert.equal(code, 0, stderr);
      const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
      const declared = (resource: string) =>
        new RegExp(`new Vault\\("${resource}", \\{[^}]*vaultGroupIds: (\\[[^\\]]*\\])`).exec(program)?.[1];
      assert.deepEqual(
        JSON.parse(declared("grp-two") ?? "null")?.sort(),
        [treasury, standby].sort(),
        program,
      );
      assert.deepEqual(JSON.parse(declared("grp-one") ?? "null"), [treasury], program);
      const config = JSON.parse(fs.readFileSync(path.join(dir, "custody-policy.json"), "utf8"));
      assert.deepEqual(config, {
        "custody-vault-adopt-allow-list": { allowedNames: ["grp two", "grp one"] },
      });
      assert.match(
        stdout,
        /^2 vault\(s\) declared `adoptExisting: true`: their names are on custody-vault-adopt-allow-list's allowedNames in custody-policy\.json \(2 added\)\.$/m,
      );
      assert.match(stdout, /--policy-pack-config custody-policy\.json$/m);
    });

    it("an existing policy config keeps what it has; the names are added once", async () => {
      const file = path.join(dir, "production.json");
      fs.writeFileSync(
        file,
        JSON.stringify({
          "custody-vault-protected": "advisory",
          "custody-vault-adopt-allow-list": "mandatory",
        }),
      );
      const argv = ["import", "--provider", "dynamic", "-l", "typescript", "--name-prefix", "grp "];
      const first = await custody([...argv, "--policy-config", "production.json"], dir, env);
      assert.equal(first.code, 0, first.stderr);
      const expected = {
        "custody-vault-protected": "advisory",
        "custody-vault-adopt-allow-list": {
          enforcementLevel: "mandatory",
          allowedNames: ["grp two", "grp one"],
        },
      };
      assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), expected);
      const again = await custody([...argv, "--force", "--policy-config", "production.json"], dir, env);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), expected);
      assert.match(again.stdout, /\(already there\)\.$/m);
    });

    it("a policy config that is not a JSON object stops the run before anything is read or written", async () => {
      fs.writeFileSync(path.join(dir, "custody-policy.json"), "{ not json");
      const before = (await emulator.control.listRequests()).length;
      const { code, stderr } = await custody(
        ["import", "--provider", "dynamic", "-l", "typescript", "--name-prefix", "grp "],
        dir,
        env,
      );
      assert.equal(code, 1);
      assert.equal(
        stderr,
        "custody import: custody-policy.json (the policy config) is not a JSON object of policy settings: fix it, or choose another --policy-config\n",
      );
      assert.equal((await emulator.control.listRequests()).length, before, "nothing read");
      assert.ok(!fs.existsSync(path.join(dir, "index.ts")));
    });
  });

  it("a program that cannot be generated: said in lines that are true (nothing written), with no form of the token", async () => {
    // A stand-in `pulumi` whose scratch import fails, echoing the token it ran with (base64'd and hex'd).
    const bin = fs.mkdtempSync(path.join(dir, "bin-"));
    fs.writeFileSync(
      path.join(bin, "pulumi"),
      [
        "#!/usr/bin/env node",
        'if (process.argv[2] !== "import") process.exit(0);',
        "const t = Buffer.from(process.env.CUSTODY_ACCESS_TOKEN);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the stand-in's script
        'process.stderr.write(`error: 401: Bearer ${t.toString("base64")} (${t.toString("hex")})\\n`);',
        "process.exit(1);",
      ].join("\n"),
      { mode: 0o755 },
    );
    const { code, stdout, stderr } = await custody(["import", "-l", "yaml", "--name-prefix", "cmd "], dir, {
      ...env,
      PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}`,
    });
    assert.equal(code, 1, stderr);
    const token = Buffer.from(emulator.accessToken);
    for (const form of [emulator.accessToken, token.toString("base64"), token.toString("hex")])
      assert.ok(!`${stdout}${stderr}`.includes(form.slice(0, 16)), `${form} in ${stderr}`);
    assert.match(stderr, /^custody import: the yaml program could not be generated; no file was written$/m);
    assert.match(stderr, /^custody import: `pulumi import` of the scratch stack failed:$/m);
    assert.match(stderr, /Bearer \[REDACTED\]/);
    assert.doesNotMatch(stdout, /^Wrote /m);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => !f.startsWith("bin-")),
      [],
      "nothing written",
    );
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
