/**
 * `custody drift --accept`: the program and the stack's config brought in line with the service, for each
 * language and each form a value is written in (a literal in place or bound once, a config read, `archived`,
 * a computed value), the hand edits with their file and line, the config through `pulumi config set` (a stand-in
 * here: accept-support.ts; the real CLI in test/e2e/drift-accept.test.ts), and the command's dry run and exit
 * codes. The accept is run with `dryRun` where only its plan is asserted, so that the files stay as written.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { acceptDrift } from "../drift/accept/accept";
import type { DriftReport } from "../drift/drift";
import {
  configStandIn,
  drifted,
  driftOf,
  field,
  filesOf,
  previewEvents,
  projectWith,
  vaultState,
} from "./accept-support";
import { runCustody } from "./fake-pulumi";

const schema = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "..", "drift", "report.schema.json"), "utf8"),
);
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const NODE_PROJECT = "name: proj\nruntime: nodejs\n";
const PYTHON_PROJECT = "name: proj\nruntime:\n  name: python\n";
const GROUP = "405a1a60-7075-4457-9d86-26046a4f1930";
const OTHER_GROUP = "7d1e9b0c-2f4a-4c3b-9e8d-1a2b3c4d5e6f";

/** The changed lines of a unified diff (`-…` and `+…`, without the file headers). */
function changedLines(diff: string): string[] {
  return diff.split("\n").filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) [ab]\//.test(l));
}

/** Runs an accept of `report` in `dir`, dry by default. */
function accept(
  dir: string,
  report: DriftReport,
  options: { dryRun?: boolean; env?: NodeJS.ProcessEnv } = {},
) {
  return acceptDrift(report, {
    projectDir: dir,
    stack: "dev",
    env: options.env ?? process.env,
    cwd: dir,
    dryRun: options.dryRun ?? true,
  });
}

describe("custody drift --accept", () => {
  const made: string[] = [];
  const project = (files: Record<string, string>) => {
    const dir = projectWith(files);
    made.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("a JavaScript program: a literal, a config value, an archive, a computed name", () => {
    const program = [
      'const pulumi = require("@pulumi/pulumi");',
      'const { Vault } = require("pulumi-custody");',
      "",
      "const config = new pulumi.Config();",
      "// The treasury's vaults.",
      'new Vault("a", { name: "acc a", type: "evm" }); // named in the console too',
      'new Vault("b", { name: config.require("bName"), type: "evm" });',
      'new Vault("c", {',
      '  name: "acc c",',
      '  type: "evm",',
      "});",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
      'new Vault("d", { name: `acc d ${pulumi.getStack()}`, type: "evm" });',
      "",
    ].join("\n");
    const stackConfig = "config:\n  # b's name, per stack\n  proj:bName: acc b\n";

    it("writes a's name into the program, b's into Pulumi.dev.yaml and archived: true onto c; no other file", async () => {
      const dir = project({
        "Pulumi.yaml": NODE_PROJECT,
        "index.js": program,
        "Pulumi.dev.yaml": stackConfig,
        "other.js": "x",
      });
      const pulumi = configStandIn(dir);
      const before = filesOf(dir);
      const result = await accept(
        dir,
        driftOf([
          drifted("a", [field("name", "acc a", "renamed a")]),
          drifted("b", [field("name", "acc b", "renamed b")]),
          drifted("c", [field("state", "active", "archived")]),
        ]),
        { dryRun: false, env: pulumi.env },
      );
      assert.equal(result.exitCode, 0);
      assert.deepEqual(result.handEdits, []);
      const after = filesOf(dir);
      const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
      assert.deepEqual(changed.sort(), ["Pulumi.dev.yaml", "index.js"]);
      assert.equal(
        after["index.js"],
        program
          .replace('{ name: "acc a", type', '{ name: "renamed a", type')
          .replace('  type: "evm",\n});', '  type: "evm",\n  archived: true,\n});'),
      );
      assert.equal(after["Pulumi.dev.yaml"], "config:\n  # b's name, per stack\n  proj:bName: renamed b\n");
      const set = pulumi.calls().filter((c) => c.args[1] === "set");
      assert.equal(set.length, 1);
      assert.deepEqual(set[0]?.args.slice(0, 3), ["config", "set", "proj:bName"]);
      assert.ok(set[0]?.args.includes("--raw") && set[0].args.includes("--plaintext"));
      assert.deepEqual(set[0]?.args.slice(-3), ["--stack", "dev", "--non-interactive"]);
      assert.equal(set[0]?.input, "renamed b", "the value on standard input, exactly");
      assert.ok(!set[0]?.args.includes("renamed b"), "never on the command line");
      // Where each change was made.
      const by = new Map(result.accepted.map((c) => [c.resource, c]));
      assert.deepEqual(
        [by.get("a")?.how, by.get("a")?.file, by.get("a")?.line],
        ["rewritten", "index.js", 6],
      );
      assert.deepEqual(
        [
          by.get("b")?.how,
          by.get("b")?.file,
          by.get("b")?.configKey,
          by.get("b")?.declaredIn,
          by.get("b")?.line,
        ],
        ["config", "Pulumi.dev.yaml", "proj:bName", "index.js", 7],
      );
      assert.deepEqual(
        [by.get("c")?.how, by.get("c")?.field, by.get("c")?.value],
        ["added", "archived", true],
      );
    });

    it("a rename is a one-line diff", async () => {
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.js": program });
      const result = await accept(dir, driftOf([drifted("a", [field("name", "acc a", "renamed a")])]));
      assert.deepEqual(changedLines(result.diff), [
        '-new Vault("a", { name: "acc a", type: "evm" }); // named in the console too',
        '+new Vault("a", { name: "renamed a", type: "evm" }); // named in the console too',
      ]);
      assert.match(result.diff, /^--- a\/index\.js\n\+\+\+ b\/index\.js\n@@ -3,7 \+3,7 @@\n/);
      assert.equal(fs.readFileSync(path.join(dir, "index.js"), "utf8"), program, "a dry run writes nothing");
    });

    it("d's computed name: nothing written, exit 3, the program's file and line for d", async () => {
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.js": program });
      const result = await accept(dir, driftOf([drifted("d", [field("name", "acc d dev", "renamed d")])]), {
        dryRun: false,
      });
      assert.equal(result.exitCode, 3);
      assert.equal(result.diff, "");
      assert.deepEqual(result.handEdits, [
        {
          resource: "d",
          urn: "urn:pulumi:dev::proj::custody:index:Vault::d",
          field: "name",
          file: "index.js",
          line: 12,
          reason: "name is a template literal: change it so that it is the service's value",
          value: "renamed d",
          secret: false,
        },
      ]);
      assert.equal(fs.readFileSync(path.join(dir, "index.js"), "utf8"), program);
    });
  });

  describe("TypeScript as custody import writes it", () => {
    const program = [
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as custody from "@pulumi-custody/custody";',
      "",
      'const acc_a = new custody.Vault("acc-a", {',
      '    name: "acc a",',
      "    type: custody.VaultType.Evm,",
      `    vaultGroupIds: ["${GROUP}"],`,
      "}, {",
      "    protect: true,",
      "});",
      'const acc_arch = new custody.Vault("acc-arch", {',
      "    archived: true,",
      '    name: "acc arch",',
      "    type: custody.VaultType.Solana,",
      "}, {",
      "    protect: true,",
      "});",
      "",
    ].join("\n");

    it("a rename, a new vault group list, an archive, a restore: each in place, in the generated style", async () => {
      const dir = project({
        "Pulumi.yaml": "name: proj\nruntime: nodejs\nmain: index.ts\n",
        "index.ts": program,
      });
      const result = await accept(
        dir,
        driftOf([
          drifted("acc-a", [
            field("name", "acc a", "Treasury A"),
            field("vaultGroupIds", [GROUP], [GROUP, OTHER_GROUP]),
            field("state", "active", "archived"),
          ]),
          drifted("acc-arch", [field("archived", true, false)]),
        ]),
        { dryRun: false },
      );
      assert.equal(result.exitCode, 0, JSON.stringify(result.handEdits));
      assert.equal(
        fs.readFileSync(path.join(dir, "index.ts"), "utf8"),
        program
          .replace('name: "acc a"', 'name: "Treasury A"')
          .replace(
            `vaultGroupIds: ["${GROUP}"],`,
            `vaultGroupIds: ["${GROUP}", "${OTHER_GROUP}"],\n    archived: true,`,
          )
          .replace('    archived: true,\n    name: "acc arch"', '    name: "acc arch"'),
      );
    });

    it("follows the program's local modules, an aliased import and a variable bound once; a shared one is a hand edit", async () => {
      const dir = project({
        "Pulumi.yaml": NODE_PROJECT,
        "package.json": JSON.stringify({ main: "src/main.ts" }),
        "src/main.ts": 'import "./vaults";\n',
        "src/vaults.ts": [
          'import { Vault as CustodyVault } from "pulumi-custody";',
          'const treasuryName = "Treasury";',
          'const shared = "Shared";',
          "new CustodyVault('t', { name: treasuryName, type: 'evm' } as const);",
          "new CustodyVault('s1', { name: shared, type: 'evm' });",
          "new CustodyVault('s2', { name: shared, type: 'evm' });",
          "",
        ].join("\n"),
      });
      const result = await accept(
        dir,
        driftOf([
          drifted("t", [field("name", "Treasury", "Treasury's")]),
          drifted("s1", [field("name", "Shared", "One")]),
        ]),
      );
      assert.deepEqual(changedLines(result.diff), [
        '-const treasuryName = "Treasury";',
        '+const treasuryName = "Treasury\'s";',
      ]);
      assert.match(result.diff, /^--- a\/src\/vaults\.ts$/m);
      assert.deepEqual(
        result.handEdits.map((h) => [h.resource, h.file, h.line, h.reason]),
        [
          [
            "s1",
            "src/vaults.ts",
            5,
            "name is the variable shared, which 1 other place(s) also read: change it so that it is the service's value",
          ],
        ],
      );
    });
  });

  describe("Python", () => {
    const program = [
      "import pulumi",
      "import pulumi_custody as custody",
      "from pulumi_custody import Vault, VaultArgs",
      "",
      "config = pulumi.Config()",
      'acc_a = custody.Vault("acc-a",',
      '    name="acc a",',
      "    type=custody.VaultType.EVM,",
      `    vault_group_ids=["${GROUP}"],`,
      "    opts = pulumi.ResourceOptions(protect=True))",
      "Vault('b', name=config.require_secret('bName'), type='evm')",
      'Vault("c", args=VaultArgs(name="acc c", type="evm"))',
      'Vault("d", name=f"acc d {pulumi.get_stack()}", type="evm")',
      "",
    ].join("\n");

    it("keyword arguments, VaultArgs, a secret config value, an f-string", async () => {
      const dir = project({
        "Pulumi.yaml": PYTHON_PROJECT,
        "__main__.py": program,
        "Pulumi.dev.yaml": "config:\n  proj:bName:\n    secure: v1:b25l\n",
        "venv/pyvenv.cfg": "",
        "venv/lib/site.py": 'Vault("acc-a", name="a venv is not the program")\n',
      });
      const pulumi = configStandIn(dir);
      const result = await acceptDrift(
        driftOf([
          drifted("acc-a", [field("name", "acc a", "Treasury 'A'"), field("state", "active", "archived")]),
          drifted("b", [{ field: "name", declared: null, live: null, secret: true, certain: true }]),
          drifted("c", [field("name", "acc c", "renamed c")]),
          drifted("d", [field("name", "acc d dev", "renamed d")]),
        ]),
        {
          projectDir: dir,
          stack: "dev",
          env: pulumi.env,
          cwd: dir,
          dryRun: false,
          liveSecret: async (resource, name) =>
            resource.resource === "b" && name === "name" ? "the secret b" : undefined,
        },
      );
      assert.equal(result.exitCode, 3);
      assert.deepEqual(
        result.handEdits.map((h) => [h.resource, h.file, h.line]),
        [["d", "__main__.py", 13]],
      );
      assert.match(result.handEdits[0]?.reason ?? "", /^name is an f-string: /);
      assert.equal(
        fs.readFileSync(path.join(dir, "__main__.py"), "utf8"),
        program
          .replace('name="acc a",', "name=\"Treasury 'A'\",")
          .replace(
            `    vault_group_ids=["${GROUP}"],\n`,
            `    vault_group_ids=["${GROUP}"],\n    archived=True,\n`,
          )
          .replace('VaultArgs(name="acc c"', 'VaultArgs(name="renamed c"'),
      );
      const set = pulumi.calls().find((c) => c.args[1] === "set");
      assert.ok(set?.args.includes("--secret"), "the secret stays a secret");
      assert.equal(set?.input, "the secret b");
      const b = result.accepted.find((c) => c.resource === "b");
      assert.deepEqual([b?.how, b?.secret, b?.value], ["config", true, null], "its value is never reported");
      assert.match(fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8"), /secure: v1:/);
    });
  });

  describe("YAML", () => {
    const program = [
      "name: proj",
      "runtime: yaml",
      "config:",
      "  bName:",
      "    type: string",
      "variables:",
      "  dName:",
      "    fn::join: ['-', ['acc', 'd']]",
      "resources:",
      "  acc-a:",
      "    type: custody:Vault",
      "    properties:",
      "      name: acc a # as imported",
      "      type: evm",
      "      vaultGroupIds:",
      `        - ${GROUP}`,
      "    options:",
      "      protect: true",
      "  b:",
      "    type: custody:index:Vault",
      "    properties:",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
      "      name: ${bName}",
      "      type: evm",
      "  c:",
      "    type: custody:Vault",
      "    properties: { name: 'acc c', type: evm }",
      "  d:",
      "    type: custody:Vault",
      "    properties:",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
      "      name: ${dName}",
      "      type: evm",
      "",
    ].join("\n");

    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
    it("properties rewritten in their style, ${bName} set in the stack's config, fn:: left to a hand edit", async () => {
      const dir = project({ "Pulumi.yaml": program, "Pulumi.dev.yaml": "config:\n  proj:bName: acc b\n" });
      const pulumi = configStandIn(dir);
      const result = await accept(
        dir,
        driftOf([
          drifted("acc-a", [
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
            field("name", "acc a", "Ops: $1 ${x}"),
            field("vaultGroupIds", [GROUP], [OTHER_GROUP]),
          ]),
          drifted("b", [field("name", "acc b", "renamed b")]),
          drifted("c", [field("name", "acc c", "it's c"), field("state", "active", "archived")]),
          drifted("d", [field("name", "acc-d", "renamed d")]),
        ]),
        { dryRun: false, env: pulumi.env },
      );
      assert.equal(result.exitCode, 3);
      assert.deepEqual(
        result.handEdits.map((h) => [h.resource, h.file, h.line, h.reason]),
        [
          [
            "d",
            "Pulumi.yaml",
            8,
            "name is the result of fn::join: change it so that it is the service's value",
          ],
        ],
      );
      assert.equal(
        fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"),
        program
          .replace("name: acc a # as imported", () => 'name: "Ops: $$1 $${x}" # as imported')
          .replace(`        - ${GROUP}`, `        - ${OTHER_GROUP}`)
          .replace("{ name: 'acc c', type: evm }", "{ name: 'it''s c', type: evm, archived: true }"),
      );
      assert.equal(
        fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8"),
        "config:\n  proj:bName: renamed b\n",
      );
    });

    it("an archive on a block mapping: its own line, at the properties' indentation; a restore removes it", async () => {
      const dir = project({ "Pulumi.yaml": program });
      const archived = await accept(dir, driftOf([drifted("acc-a", [field("state", "active", "archived")])]));
      assert.deepEqual(changedLines(archived.diff), ["+      archived: true"]);
      assert.match(
        archived.diff,
        /^ {9}- 405a1a60-7075-4457-9d86-26046a4f1930\n\+ {6}archived: true\n {5}options:$/m,
      );
      const restoredDir = project({
        "Pulumi.yaml": program.replace(
          "      type: evm\n      vaultGroupIds",
          "      type: evm\n      archived: true # retired\n      vaultGroupIds",
        ),
      });
      const restored = await accept(
        restoredDir,
        driftOf([drifted("acc-a", [field("archived", true, false)])]),
      );
      assert.deepEqual(changedLines(restored.diff), ["-      archived: true # retired"]);
    });
  });

  describe("the policy config (--policy-config)", () => {
    const program =
      'const { Vault } = require("pulumi-custody");\nnew Vault("c", { name: "acc c", type: "evm" });\n';
    const archivedC = () =>
      driftOf([drifted("c", [field("state", "active", "archived")], { vaultName: "Treasury C (emptied)" })]);

    it("the name of a vault accepted as archived joins the archive allow-list, one line in the file's own layout", async () => {
      const policy = [
        "{",
        '  "custody-vault-allowed-types": { "allowedTypes": ["evm", "solana"] },',
        '  "custody-vault-archive-allow-list": {',
        '    "allowedNames": []',
        "  }",
        "}",
        "",
      ].join("\n");
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.js": program, "policy.json": policy });
      const result = await acceptDrift(archivedC(), {
        projectDir: dir,
        stack: "dev",
        env: process.env,
        cwd: dir,
        dryRun: false,
        policyConfig: path.join(dir, "policy.json"),
      });
      assert.equal(result.exitCode, 0);
      assert.equal(
        fs.readFileSync(path.join(dir, "policy.json"), "utf8"),
        policy.replace('"allowedNames": []', '"allowedNames": ["Treasury C (emptied)"]'),
      );
      const listed = project({
        "Pulumi.yaml": NODE_PROJECT,
        "index.js": program,
        "policy.json":
          '{\n  "custody-vault-archive-allow-list": {\n    "allowedNames": [\n      "Old"\n    ]\n  }\n}\n',
      });
      await acceptDrift(archivedC(), {
        projectDir: listed,
        stack: "dev",
        env: process.env,
        cwd: listed,
        dryRun: false,
        policyConfig: path.join(listed, "policy.json"),
      });
      assert.equal(
        fs.readFileSync(path.join(listed, "policy.json"), "utf8"),
        '{\n  "custody-vault-archive-allow-list": {\n    "allowedNames": [\n      "Old",\n      "Treasury C (emptied)"\n    ]\n  }\n}\n',
      );
    });

    it("a file without the list gets it, everything else kept; a name already there is not added twice", async () => {
      const dir = project({
        "Pulumi.yaml": NODE_PROJECT,
        "index.js": program,
        "policy.json": '{ "custody-vault-archive-allow-list": "advisory" }\n',
      });
      const run = () =>
        acceptDrift(archivedC(), {
          projectDir: dir,
          stack: "dev",
          env: process.env,
          cwd: dir,
          dryRun: true,
          policyConfig: path.join(dir, "policy.json"),
        });
      const result = await run();
      const after = result.files.find((f) => f.shown === "policy.json")?.after ?? "";
      assert.deepEqual(JSON.parse(after), {
        "custody-vault-archive-allow-list": {
          enforcementLevel: "advisory",
          allowedNames: ["Treasury C (emptied)"],
        },
      });
      fs.writeFileSync(path.join(dir, "policy.json"), after);
      assert.deepEqual(
        (await run()).files.map((f) => f.shown),
        ["index.js"],
        "the name is there already",
      );
    });
  });

  describe("what is left to a hand edit, and why", () => {
    it("a name built in code, a resource declared twice, a vault gone from the service, a secret in the source", async () => {
      const dir = project({
        "Pulumi.yaml": NODE_PROJECT,
        "index.js": [
          'const { Vault } = require("pulumi-custody");',
          'for (const n of ["x", "y"]) new Vault(n, { name: n, type: "evm" });',
          'if (process.env.A) new Vault("twice", { name: "one", type: "evm" });',
          'else new Vault("twice", { name: "two", type: "evm" });',
          'new Vault("gone", { name: "gone", type: "evm" });',
          'new Vault("hidden", { name: require("@pulumi/pulumi").secret("hidden"), type: "evm" });',
          "",
        ].join("\n"),
      });
      const result = await accept(
        dir,
        driftOf([
          drifted("x", [field("name", "x", "renamed x")]),
          drifted("twice", [field("name", "one", "three")]),
          drifted("gone", [], {
            operation: "create",
            note: "the vault no longer exists in the API; the next `pulumi up` creates it again",
          }),
          drifted("hidden", [{ field: "name", declared: null, live: null, secret: true, certain: true }]),
        ]),
      );
      assert.equal(result.exitCode, 3);
      assert.deepEqual(result.accepted, []);
      const reasons = new Map(result.handEdits.map((h) => [h.resource, h]));
      assert.equal(reasons.get("x")?.file, null);
      assert.match(reasons.get("x")?.reason ?? "", /does not declare it by the literal name "x"/);
      assert.match(reasons.get("twice")?.reason ?? "", /declares it 2 times \(index\.js:3, index\.js:4\)/);
      assert.deepEqual([reasons.get("gone")?.field, reasons.get("gone")?.line], [null, 5]);
      assert.match(reasons.get("gone")?.reason ?? "", /no longer exists in the service/);
      assert.deepEqual(
        [reasons.get("hidden")?.line, reasons.get("hidden")?.secret, reasons.get("hidden")?.value],
        [6, true, null],
      );
    });

    it("only a class of a custody package is a custody resource: another package's Vault of the same name is never edited", async () => {
      const program = [
        'import * as aws from "@pulumi/aws";',
        'import { Vault } from "pulumi-custody";',
        'import custodyPy = require("@pulumi-custody/custody");',
        'new aws.backup.Vault("a", { name: "backups" });',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
        'new Vault("a", { name: `ops ${1}`, type: "evm" });',
        'new custodyPy.Vault("b", { name: "b", type: custodyPy.VaultType.Evm });',
        "",
      ].join("\n");
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.ts": program });
      const result = await accept(
        dir,
        driftOf([drifted("a", [field("name", "ops 1", "renamed")]), drifted("b", [field("name", "b", "B")])]),
      );
      assert.deepEqual(
        result.handEdits.map((h) => [h.resource, h.line]),
        [["a", 5]],
        "the custody vault a: its template",
      );
      assert.deepEqual(changedLines(result.diff), [
        '-new custodyPy.Vault("b", { name: "b", type: custodyPy.VaultType.Evm });',
        '+new custodyPy.Vault("b", { name: "B", type: custodyPy.VaultType.Evm });',
      ]);
      const python = project({
        "Pulumi.yaml": PYTHON_PROJECT,
        "__main__.py":
          'import pulumi_aws as aws\nfrom pulumi_custody import Vault as CustodyVault\naws.backup.Vault("a", name="backups")\nCustodyVault("a", name="a", type="evm")\n',
      });
      const py = await accept(python, driftOf([drifted("a", [field("name", "a", "A")])]));
      assert.deepEqual(changedLines(py.diff), [
        '-CustodyVault("a", name="a", type="evm")',
        '+CustodyVault("a", name="A", type="evm")',
      ]);
    });

    it("a config key the program reads elsewhere too is not set: it would change more than the drift", async () => {
      const dir = project({
        "Pulumi.yaml": NODE_PROJECT,
        "index.js": [
          'const pulumi = require("@pulumi/pulumi");',
          'const { Vault } = require("pulumi-custody");',
          'new Vault("a", { name: new pulumi.Config().require("team"), type: "evm" });',
          'new Vault("b", { name: new pulumi.Config().require("team") + " 2", type: "evm" });',
          "",
        ].join("\n"),
      });
      const result = await accept(dir, driftOf([drifted("a", [field("name", "ops", "treasury")])]));
      assert.equal(result.exitCode, 3);
      assert.match(
        result.handEdits[0]?.reason ?? "",
        /comes from config proj:team, which the program reads 2 times/,
      );
    });

    it("a runtime it does not edit (Go): every drift is a hand edit, with the service's value", async () => {
      const dir = project({ "Pulumi.yaml": "name: proj\nruntime: go\n", "main.go": "package main\n" });
      const result = await accept(dir, driftOf([drifted("a", [field("name", "a", "b")])]));
      assert.equal(result.exitCode, 3);
      assert.match(result.handEdits[0]?.reason ?? "", /this project's runtime is go/);
      assert.equal(result.handEdits[0]?.value, "b");
    });
  });

  describe("the command", () => {
    const program = [
      'const pulumi = require("@pulumi/pulumi");',
      'const { Vault } = require("pulumi-custody");',
      'new Vault("a", { name: "acc a", type: "evm" });',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
      'new Vault("d", { name: `acc d ${pulumi.getStack()}`, type: "evm" });',
      "",
    ].join("\n");
    const events = (aLive: string, dLive = "acc d dev") =>
      previewEvents([
        {
          name: "a",
          before: vaultState("a-id", { name: "acc a", type: "evm" }),
          live: vaultState("a-id", { name: aLive, type: "evm" }),
          declared: { name: "acc a", type: "evm" },
        },
        {
          name: "d",
          before: vaultState("d-id", { name: "acc d dev", type: "evm" }),
          live: vaultState("d-id", { name: dLive, type: "evm" }),
          declared: { name: "acc d dev", type: "evm" },
        },
      ]);

    it("--dry-run prints the diff, writes nothing, exits 0; the JSON report has the accept", () => {
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.js": program });
      const pulumi = configStandIn(dir, events("renamed a"));
      const json = path.join(dir, "drift.json");
      const out = runCustody(["drift", "--accept", "--dry-run", "--json", json], {
        env: pulumi.env,
        cwd: dir,
      });
      assert.equal(out.status, 0, out.stderr);
      assert.equal(
        out.stdout,
        [
          "--- a/index.js",
          "+++ b/index.js",
          "@@ -1,4 +1,4 @@",
          ' const pulumi = require("@pulumi/pulumi");',
          ' const { Vault } = require("pulumi-custody");',
          '-new Vault("a", { name: "acc a", type: "evm" });',
          '+new Vault("a", { name: "renamed a", type: "evm" });',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
          ' new Vault("d", { name: `acc d ${pulumi.getStack()}`, type: "evm" });',
          "",
        ].join("\n"),
      );
      assert.equal(fs.readFileSync(path.join(dir, "index.js"), "utf8"), program);
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
      assert.ok(validate(report), JSON.stringify(validate.errors));
      assert.equal(report.status, "drift");
      assert.equal(report.exitCode, 3, "the check's verdict");
      assert.deepEqual(
        [report.accept?.dryRun, report.accept?.exitCode, report.accept?.files],
        [true, 0, ["index.js"]],
      );
      assert.match(out.stderr, /^custody drift: dry run: 1 change\(s\) would be written in index\.js$/m);
    });

    it("exit 0 once every drift is accepted, and the Markdown says what changed, with the diff", () => {
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.js": program });
      const pulumi = configStandIn(dir, events("renamed a"));
      const out = runCustody(["drift", "--accept"], { env: pulumi.env, cwd: dir });
      assert.equal(out.status, 0, out.stderr);
      assert.match(fs.readFileSync(path.join(dir, "index.js"), "utf8"), /name: "renamed a"/);
      assert.match(out.stdout, /^### Accepting the console's state$/m);
      assert.match(out.stdout, /^✅ \*\*Every drift accepted\*\*/m);
      assert.match(out.stdout, /^- `index\.js:3`: `a`, `name`: set to "renamed a"$/m);
      assert.match(out.stdout, /^```diff\n--- a\/index\.js\n/m);
    });

    it("exit 3 when drift needs a hand edit: its file and line on standard error and in the report", () => {
      const dir = project({ "Pulumi.yaml": NODE_PROJECT, "index.js": program });
      const pulumi = configStandIn(dir, events("acc a", "renamed d"));
      const markdown = path.join(dir, "drift.md");
      const out = runCustody(["drift", "--accept", "--markdown", markdown], { env: pulumi.env, cwd: dir });
      assert.equal(out.status, 3, out.stderr);
      assert.match(
        out.stderr,
        /^custody drift: {3}index\.js:4: d \(name\): name is a template literal: change it so that it is the service's value$/m,
      );
      assert.match(
        fs.readFileSync(markdown, "utf8"),
        /^- `index\.js:4`: `d`, `name`: name is a template literal: change it so that it is the service's value\. The service has "renamed d"\.$/m,
      );
      assert.equal(fs.readFileSync(path.join(dir, "index.js"), "utf8"), program);
    });

    it("exit 1, nothing written, when the config cannot be set; exit 0 on a clean stack; 2 for --dry-run alone", () => {
      const dir = project({
        "Pulumi.yaml": NODE_PROJECT,
        "index.js": program.replace(
          'new Vault("a", { name: "acc a"',
          'new Vault("a", { name: new pulumi.Config().require("aName")',
        ),
        "Pulumi.dev.yaml": "config:\n  proj:aName: acc a\n",
      });
      const before = filesOf(dir);
      const failing = configStandIn(dir, events("renamed a"), 0, "the secrets provider refused");
      const json = path.join(dir, "drift.json");
      const out = runCustody(["drift", "--accept", "--json", json], { env: failing.env, cwd: dir });
      assert.equal(out.status, 1, out.stderr);
      assert.match(
        out.stderr,
        /the accept could not run, nothing was written: `pulumi config set` failed: error: the secrets provider refused/,
      );
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
      assert.ok(validate(report), JSON.stringify(validate.errors));
      assert.equal(report.accept?.exitCode, 1);
      const after = filesOf(dir);
      delete after["drift.json"];
      assert.deepEqual(after, before);

      const clean = configStandIn(dir, events("acc a"));
      const ok = runCustody(["drift", "--accept"], { env: clean.env, cwd: dir });
      assert.equal(ok.status, 0, ok.stderr);
      assert.doesNotMatch(ok.stdout, /Accepting/);

      const usage = runCustody(["drift", "--dry-run"], { env: clean.env, cwd: dir });
      assert.equal(usage.status, 2);
      assert.match(usage.stderr, /--dry-run goes with --accept/);
    });
  });
});
