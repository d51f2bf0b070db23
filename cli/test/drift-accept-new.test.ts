/**
 * `custody drift --accept --accept-new`: vaults made in the console that the stack's import selection takes are
 * declared with the code `custody import` writes. On the plugin path, the engine's generated code (samples of it
 * below, as `custody import` printed them) is appended with the `import` option of each vault's id; on the
 * dynamic provider the program adopts them (in process, against the emulator: no engine). The whole route, with
 * `pulumi up` importing the vault unchanged, runs in test/e2e/drift-accept.test.ts.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import { PassThrough } from "node:stream";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { parseArgs } from "../command";
import { appendGeneratedCode, checkSelection, newVaultDeclarations } from "../drift/accept/new-vaults";
import { readProject } from "../drift/accept/project";
import { pythonModels } from "../drift/accept/python";
import { projectWith } from "./accept-support";
import { custody } from "./run-custody";

const GROUP = "405a1a60-7075-4457-9d86-26046a4f1930";
const ID = "3f1c2b4a-0000-4000-8000-00000000e001";
const ids = new Map([["acc-e", ID]]);

const GENERATED_TS = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as custody from "@pulumi-custody/custody";',
  "",
  'const acc_e = new custody.Vault("acc-e", {',
  '    name: "acc e",',
  "    type: custody.VaultType.Evm,",
  `    vaultGroupIds: ["${GROUP}"],`,
  "}, {",
  "    protect: true,",
  "});",
  "",
].join("\n");

const GENERATED_PY = [
  "import pulumi",
  "import pulumi_custody as custody",
  "",
  'acc_e = custody.Vault("acc-e",',
  '    name="acc e",',
  "    type=custody.VaultType.EVM,",
  `    vault_group_ids=["${GROUP}"],`,
  "    opts = pulumi.ResourceOptions(protect=True))",
  "",
].join("\n");

const GENERATED_YAML = [
  "# The custody provider plugin: …",
  "resources:",
  "  acc-e:",
  "    type: custody:Vault",
  "    properties:",
  "      name: acc e",
  "      type: evm",
  "      vaultGroupIds:",
  `        - ${GROUP}`,
  "    options:",
  "      version: 0.2.0",
  "      protect: true",
  "",
].join("\n");

describe("custody drift --accept --accept-new", () => {
  const made: string[] = [];
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("on the plugin: the generated code, appended, with the import option", () => {
    it("TypeScript: after the program, its imports only when the file lacks them", () => {
      const program = [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as custody from "@pulumi-custody/custody";',
        "",
        'new custody.Vault("acc-a", { name: "acc a", type: custody.VaultType.Evm });',
        "",
      ].join("\n");
      const after = appendGeneratedCode("typescript", program, GENERATED_TS, ids, "/p/index.ts", process.env);
      assert.equal(
        after,
        [
          program,
          "// Made in the console, imported as they are (custody drift --accept-new).",
          'const acc_e = new custody.Vault("acc-e", {',
          '    name: "acc e",',
          "    type: custody.VaultType.Evm,",
          `    vaultGroupIds: ["${GROUP}"],`,
          "}, {",
          "    protect: true,",
          `    import: "${ID}",`,
          "});",
          "",
        ].join("\n"),
      );
      const bare = appendGeneratedCode(
        "typescript",
        "// empty\n",
        GENERATED_TS,
        ids,
        "/p/index.ts",
        process.env,
      );
      assert.match(
        bare,
        /^\/\/ empty\n\n\/\/ Made in the console.*\nimport \* as pulumi from "@pulumi\/pulumi";\nimport \* as custody from "@pulumi-custody\/custody";\nconst acc_e/m,
      );
    });

    it("Python: import_ in the resource options, and the program still parses", () => {
      const program =
        'import pulumi\nimport pulumi_custody as custody\n\ncustody.Vault("acc-a", name="acc a", type="evm")\n';
      const after = appendGeneratedCode("python", program, GENERATED_PY, ids, "/p/__main__.py", process.env);
      assert.match(
        after,
        /^ {4}opts = pulumi\.ResourceOptions\(protect=True, import_="3f1c2b4a-0000-4000-8000-00000000e001"\)\)$/m,
      );
      assert.ok(after.startsWith(program));
      assert.doesNotMatch(after.slice(program.length), /^import /m, "the file has the imports already");
      const [model] = pythonModels([{ file: "/p/__main__.py", text: after }], process.env);
      assert.deepEqual(model?.errors, []);
    });

    it("YAML: into the program's resources, at its indentation, with options.import", () => {
      const program = [
        "name: proj",
        "runtime: yaml",
        "resources:",
        "    acc-a:",
        "        type: custody:Vault",
        "        properties:",
        "            name: acc a",
        "            type: evm",
        "outputs:",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a program
        "    a: ${acc-a.id}",
        "",
      ].join("\n");
      const after = appendGeneratedCode("yaml", program, GENERATED_YAML, ids, "/p/Pulumi.yaml", process.env);
      assert.equal(
        after,
        program.replace(
          "outputs:",
          [
            "    acc-e:",
            "      type: custody:Vault",
            "      properties:",
            "        name: acc e",
            "        type: evm",
            "        vaultGroupIds:",
            `          - ${GROUP}`,
            "      options:",
            "        version: 0.2.0",
            "        protect: true",
            `        import: ${ID}`,
            "outputs:",
          ].join("\n"),
        ),
      );
    });
  });

  describe("on the dynamic provider, against the emulator", () => {
    let emulator: RunningEmulator;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      emulator = await startEmulator({ port: 0 });
      // No `pulumi` on this PATH: the stack is not read, the settings come from the environment.
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
      await client.vaults.create({ name: "ops new", type: "evm" });
      await client.vaults.create({ name: "other", type: "evm" });
      await client.close();
    });
    after(async () => emulator.close());

    it("the vaults the selection takes are appended, adopted by name; the others are not", async () => {
      const program =
        'const { Vault } = require("pulumi-custody");\nnew Vault("ops-old", { name: "ops old", type: "evm" });\n';
      const dir = projectWith({ "Pulumi.yaml": "name: proj\nruntime: nodejs\n", "index.js": program });
      made.push(dir);
      const args = parseArgs(["--name-prefix", "ops "], { flags: { "name-prefix": "string" } });
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const io = { stdout, stderr, stdin: new PassThrough(), env, cwd: dir };
      const project = readProject(dir);
      const added = await newVaultDeclarations(args, io, project, (file) => fs.readFileSync(file, "utf8"));
      assert.ok(added);
      assert.deepEqual(
        added.imported.map((v) => [v.resource, v.vaultName]),
        [["ops-new", "ops new"]],
      );
      assert.equal(added.file, project.files[0]);
      assert.match(
        added.after,
        /^new Vault\("ops-new", \{ name: "ops new", type: "evm", vaultGroupIds: \["[0-9a-f-]+"\], adoptExisting: true \}, \{ protect: true \}\);$/m,
      );
      assert.ok(added.after.startsWith(program));
      assert.doesNotMatch(added.after, /other/);
    });

    it("a selection is needed: a filter or a split record; --accept-new needs --accept", async () => {
      const dir = projectWith({ "Pulumi.yaml": "name: proj\nruntime: nodejs\n", "index.js": "" });
      made.push(dir);
      assert.throws(
        () => checkSelection(parseArgs([], { flags: {} }), dir),
        /--accept-new declares the vaults the stack's import selection takes: give it as for custody import/,
      );
      fs.writeFileSync(`${dir}/custody-split.json`, "{}");
      checkSelection(parseArgs([], { flags: {} }), dir);
      const alone = await custody(["drift", "--accept-new", "--name-prefix", "ops "], dir, env);
      assert.equal(alone.code, 2);
      assert.match(alone.stderr, /--accept-new goes with --accept/);
      const filterAlone = await custody(["drift", "--accept", "--name-prefix", "ops "], dir, env);
      assert.equal(filterAlone.code, 2);
      assert.match(filterAlone.stderr, /--name-prefix selects the vaults of --accept-new/);
    });
  });
});
