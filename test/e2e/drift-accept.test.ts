// `custody drift --accept` under the real engine against the emulator, with the delivered packages (installed
// from their release files; test/support/release.ts): a program declares vault a by a literal name, b by a name
// from the stack's config, c by a literal, d by a computed name. In the console, a and b are renamed and c is
// archived; the accept then exits 0, writes a's name into the program, b's into Pulumi.<stack>.yaml (through the
// real `pulumi config set`) and `archived: true` onto c, and changes no other file; `pulumi preview --refresh
// --expect-no-changes` passes, with the same vault ids. When d is renamed in the console, the accept exits 3 and
// names the program's file and line for d, writing nothing. In YAML, a vault then made in the console is
// declared by `--accept-new` (custody import's code, with the `import` option), and `up` takes it in unchanged.
//
// Four programs, each in a stack of its own, two at a time: JavaScript on the dynamic provider, and TypeScript,
// Python and YAML as `custody import` writes them (onto the plugin, then `pulumi import --file`), with b's and d's
// names then changed by hand to a config read and a computed value. The rewriting itself, form by form, is
// proven by the unit tests (cli/test/drift-accept*.test.ts); the check's reading of the engine's output by
// test/e2e/drift.test.ts.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import type { DriftReport } from "@pulumi-custody/cli";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import {
  apiVaultsNamed,
  configureForEmulator,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";
import {
  type InstalledProject,
  installedProject,
  installPluginFromArchive,
  userPath,
  virtualenvWithWheel,
} from "../support/release";

const execFileAsync = promisify(execFile);

const schema = JSON.parse(fs.readFileSync(repoPath("cli", "drift", "report.schema.json"), "utf8"));

/** The files of a directory and below (outside dependencies and caches), path → text. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!["node_modules", "venv", "__pycache__", ".pulumi"].includes(entry.name)) walk(full);
      } else if (entry.isFile()) out.set(full, fs.readFileSync(full, "utf8"));
    }
  };
  walk(dir);
  return out;
}

/** The lines `after` has that `before` has not, and the reverse (each line counted). */
function lineChanges(before: string, after: string): { removed: string[]; added: string[] } {
  const count = (text: string) => {
    const counts = new Map<string, number>();
    for (const line of text.split("\n")) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const a = count(before);
  const b = count(after);
  const minus = (x: Map<string, number>, y: Map<string, number>) =>
    [...x].flatMap(([line, n]) => Array<string>(Math.max(0, n - (y.get(line) ?? 0))).fill(line));
  return { removed: minus(a, b), added: minus(b, a) };
}

/** How a language's program declares the four vaults, and how each accepted change reads in it. */
interface Language {
  /** The stack's name, and the vaults' name prefix (`da-<name> a`). */
  readonly name: string;
  /** The program file, in the project directory. */
  readonly program: string;
  /** Writes the project (and for JavaScript the program) into `dir`. */
  project(dir: string): Promise<void>;
  /** For a program `custody import` writes: b's name from config `bName`, d's computed. */
  handEdits?(program: string, prefix: string): string;
  /** The line of a literal name, and of `archived: true`, as the program writes them. */
  nameLine(name: string): string;
  readonly archivedLine: string;
  /** What only the line of d's computed name holds. */
  computed(prefix: string): string;
}

describe("custody drift --accept: the console's change as a code change (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let project: InstalledProject;
  let engineBin: string;
  let tempRoot: string;
  let backendDir: string;
  const stacks: Stack[] = [];
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  /** Runs the installed `custody` in the stack's work directory, with the stack's environment; any exit code. */
  async function custody(
    stack: Stack,
    args: string[],
  ): Promise<{ status: number; stdout: string; stderr: string }> {
    const ws = stack.workspace;
    try {
      const { stdout, stderr } = await execFileAsync(project.bin("custody"), args, {
        cwd: ws.workDir,
        env: { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { status: 0, stdout, stderr };
    } catch (err) {
      const failed = err as { code?: unknown; stdout?: string; stderr?: string };
      if (typeof failed.code !== "number") throw err;
      return { status: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
    }
  }

  before(async function () {
    this.timeout(40 * 60_000);
    engineBin = (await enginePaths()).binDir;
    project = await installedProject();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "drift-accept-e2e-"));
    backendDir = path.join(tempRoot, "backend");
    await fs.promises.mkdir(backendDir);
    emulator = await startTestEmulator();
    // Two stacks at a time: each language's scenario runs beside another's.
    const started = limited(
      2,
      languages.map((lang) => () => scenario(lang)),
    );
    languages.forEach((lang, i) => {
      const run = started[i] as Promise<void>;
      // Awaited by its test; until then a failure is not an unhandled rejection.
      run.catch(() => undefined);
      runs.set(lang.name, run);
    });
  });

  after(async () => {
    for (const stack of stacks) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  const tsconfig = JSON.stringify({
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "node16",
      moduleResolution: "node16",
      esModuleInterop: true,
      skipLibCheck: true,
    },
    files: ["index.ts"],
  });

  const languages: Language[] = [
    {
      name: "js",
      program: "index.js",
      async project(dir) {
        await fs.promises.writeFile(path.join(dir, "Pulumi.yaml"), "name: accept-js\nruntime: nodejs\n");
        await fs.promises.writeFile(
          path.join(dir, "index.js"),
          [
            'const pulumi = require("@pulumi/pulumi");',
            'const { Vault } = require("pulumi-custody");',
            "",
            "const config = new pulumi.Config();",
            'const letter = "d";',
            'new Vault("a", { name: "da-js a", type: "evm" });',
            'new Vault("b", { name: config.require("bName"), type: "evm" });',
            'new Vault("c", {',
            '  name: "da-js c",',
            '  type: "evm",',
            "});",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the program
            'new Vault("d", { name: `da-js ${letter}`, type: "evm" });',
            "",
          ].join("\n"),
        );
      },
      nameLine: (name) => `new Vault("a", { name: "${name}", type: "evm" });`,
      archivedLine: "  archived: true,",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the program
      computed: () => "`da-js ${letter}`",
    },
    {
      name: "ts",
      program: "index.ts",
      async project(dir) {
        await fs.promises.writeFile(
          path.join(dir, "Pulumi.yaml"),
          "name: accept-ts\nruntime: nodejs\nmain: index.ts\n",
        );
        await fs.promises.writeFile(path.join(dir, "tsconfig.json"), tsconfig);
      },
      handEdits: (program, prefix) =>
        program
          .replace(`name: "${prefix} b",`, 'name: new pulumi.Config().require("bName"),')
          .replace(`name: "${prefix} d",`, () => `name: \`${prefix} \${"d"}\`,`),
      nameLine: (name) => `    name: "${name}",`,
      archivedLine: "    archived: true,",
      computed: (prefix) => `\`${prefix} \${"d"}\``,
    },
    {
      name: "py",
      program: "__main__.py",
      async project(dir) {
        const venv = await virtualenvWithWheel(path.join(dir, "venv"));
        await fs.promises.writeFile(
          path.join(dir, "Pulumi.yaml"),
          `name: accept-py\nruntime:\n  name: python\n  options:\n    virtualenv: ${JSON.stringify(venv)}\n`,
        );
      },
      handEdits: (program, prefix) =>
        program
          .replace(`name="${prefix} b",`, 'name=pulumi.Config().require("bName"),')
          .replace(`name="${prefix} d",`, `name=f"${prefix} {'d'}",`),
      nameLine: (name) => `    name="${name}",`,
      archivedLine: "    archived=True,",
      computed: (prefix) => `f"${prefix} {'d'}"`,
    },
    {
      name: "yaml",
      program: "Main.yaml",
      async project(dir) {
        await fs.promises.writeFile(path.join(dir, "Pulumi.yaml"), "name: accept-yaml\nruntime: yaml\n");
      },
      // The program declares the config it reads (the YAML host refuses an undeclared one).
      handEdits: (program, prefix) =>
        `config:\n  bName:\n    type: string\n${program}`
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the program
          .replace(`name: ${prefix} b\n`, "name: ${bName}\n")
          .replace(`name: ${prefix} d\n`, `name: { "fn::join": [" ", ["${prefix}", "d"]] }\n`),
      nameLine: (name) => `      name: ${name}`,
      archivedLine: "      archived: true",
      computed: () => "fn::join",
    },
  ];

  /** One language's scenario, from the program's first deployment to the computed name's hand edit. */
  async function scenario(lang: Language): Promise<void> {
    const prefix = `da-${lang.name}`;
    const dir = path.join(project.dir, `accept-${lang.name}`);
    await fs.promises.mkdir(dir, { recursive: true });
    await lang.project(dir);
    const stack = await createLocalStack({
      projectDir: dir,
      stackName: lang.name,
      envVars: { PATH: userPath(engineBin), PULUMI_BACKEND_URL: `file://${backendDir}` },
    });
    stacks.push(stack);
    await configureForEmulator(stack, emulator);
    const program = path.join(dir, lang.program);
    const type = lang.handEdits ? "custody:index:Vault" : "pulumi-nodejs:dynamic/custody:Vault";

    if (lang.handEdits) {
      // The vaults exist; custody import writes the program, pulumi import --file takes them into the stack.
      await installPluginFromArchive(stack);
      for (const letter of ["a", "b", "c", "d"])
        await emulator.client.vaults.create({ name: `${prefix} ${letter}`, type: "evm" });
      await custody(stack, [
        "import",
        "--language",
        { ts: "typescript", py: "python", yaml: "yaml" }[lang.name] as string,
        "--name-prefix",
        `${prefix} `,
        "--out",
        program,
        "--import-file",
        path.join(dir, "custody-import.json"),
        "--policy-config",
        path.join(dir, "custody-policy.json"),
      ]).then((out) => assert.equal(out.status, 0, out.stderr));
      await pulumiCli(stack, [
        "import",
        "--file",
        path.join(dir, "custody-import.json"),
        "--generate-code=false",
        "--yes",
      ]);
      const generated = await fs.promises.readFile(program, "utf8");
      const edited = lang.handEdits(generated, prefix);
      assert.notEqual(edited, generated);
      await fs.promises.writeFile(program, edited);
      await stack.setConfig("bName", { value: `${prefix} b` });
    } else {
      await stack.setConfig("bName", { value: `${prefix} b` });
      const up = await stack.up();
      assert.equal(up.summary.result, "succeeded");
    }
    const resourceNames = lang.handEdits
      ? { a: `${prefix}-a`, b: `${prefix}-b`, c: `${prefix}-c`, d: `${prefix}-d` }
      : { a: "a", b: "b", c: "c", d: "d" };
    const idsBefore = new Map(
      [...(await stateResources(stack, type))].map(([name, r]) => [name, String(r.id)]),
    );
    assert.deepEqual([...idsBefore.keys()].sort(), Object.values(resourceNames).sort());
    const id = (letter: keyof typeof resourceNames) => idsBefore.get(resourceNames[letter]) as string;

    // In the console: a and b renamed, c archived.
    await emulator.client.vaults.rename(id("a"), `${prefix} a renamed`);
    await emulator.client.vaults.rename(id("b"), `${prefix} b renamed`);
    await emulator.client.vaults.archive(id("c"));

    const configFile = path.join(stack.workspace.workDir, `Pulumi.${lang.name}.yaml`);
    const before = new Map([...filesOf(dir), ...filesOf(stack.workspace.workDir)]);
    const json = path.join(tempRoot, `accept-${lang.name}.json`);
    const accepted = await custody(stack, ["drift", "--accept", "--json", json, "--", "--run-program"]);
    assert.equal(accepted.status, 0, `${accepted.stderr}\n${accepted.stdout}`);
    const report = JSON.parse(await fs.promises.readFile(json, "utf8")) as DriftReport;
    assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
    assert.equal(report.accept?.exitCode, 0);
    assert.deepEqual(
      report.accept?.accepted.map((c) => `${c.resource} ${c.field} ${c.how}`).sort(),
      [
        `${resourceNames.a} name rewritten`,
        `${resourceNames.b} name config`,
        `${resourceNames.c} archived added`,
      ].sort(),
    );

    // a's name in the program, archived: true onto c; b's name in the stack's config; no other file.
    const after = new Map([...filesOf(dir), ...filesOf(stack.workspace.workDir)]);
    const changed = [...after.keys()].filter((file) => after.get(file) !== before.get(file));
    assert.deepEqual(changed.sort(), [configFile, program].sort());
    assert.deepEqual(lineChanges(before.get(program) ?? "", after.get(program) ?? ""), {
      removed: [lang.nameLine(`${prefix} a`)],
      added: [lang.nameLine(`${prefix} a renamed`), lang.archivedLine],
    });
    const config = parseYaml(after.get(configFile) ?? "") as { config: Record<string, unknown> };
    const beforeConfig = parseYaml(before.get(configFile) ?? "") as { config: Record<string, unknown> };
    assert.deepEqual(config.config, {
      ...beforeConfig.config,
      [`accept-${lang.name}:bName`]: `${prefix} b renamed`,
    });

    // The program now declares what the service has: no change, the same vaults.
    await stack.preview({ refresh: true, expectNoChanges: true });
    const idsAfter = new Map(
      [...(await stateResources(stack, type))].map(([name, r]) => [name, String(r.id)]),
    );
    assert.deepEqual(idsAfter, idsBefore);

    // d's name is computed: the accept writes nothing and names the line to change.
    await emulator.client.vaults.rename(id("d"), `${prefix} d renamed`);
    const computedBefore = new Map([...filesOf(dir), ...filesOf(stack.workspace.workDir)]);
    const left = await custody(stack, ["drift", "--accept", "--json", json, "--", "--run-program"]);
    assert.equal(left.status, 3, left.stderr);
    const dLine =
      (after.get(program) ?? "").split("\n").findIndex((line) => line.includes(lang.computed(prefix))) + 1;
    assert.ok(dLine > 0);
    const shownProgram = path.relative(stack.workspace.workDir, program);
    assert.match(
      left.stderr,
      new RegExp(
        `^custody drift: {3}${shownProgram.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${dLine}: ${resourceNames.d} \\(name\\): name is `,
        "m",
      ),
    );
    const leftReport = JSON.parse(await fs.promises.readFile(json, "utf8")) as DriftReport;
    assert.ok(validate(leftReport), JSON.stringify(validate.errors, null, 2));
    assert.deepEqual(
      leftReport.accept?.handEdits.map((h) => [h.resource, h.file, h.line, h.value]),
      [[resourceNames.d, shownProgram, dLine, `${prefix} d renamed`]],
    );
    const computedAfter = new Map([...filesOf(dir), ...filesOf(stack.workspace.workDir)]);
    assert.deepEqual(computedAfter, computedBefore, "nothing written");
    if (lang.name === "yaml") await acceptNew(stack, prefix, program, id("d"));
  }

  /**
   * `--accept-new` on the plugin path: a vault made in the console that the selection (`--name-prefix`) takes is
   * declared with custody import's code and the `import` option; `up` takes it in without changing it.
   */
  async function acceptNew(stack: Stack, prefix: string, program: string, dId: string): Promise<void> {
    await emulator.client.vaults.rename(dId, `${prefix} d`);
    const made = await emulator.client.vaults.create({ name: `${prefix} e`, type: "evm" });
    const before = await fs.promises.readFile(program, "utf8");
    const out = await custody(stack, [
      "drift",
      "--accept",
      "--accept-new",
      "--name-prefix",
      `${prefix} `,
      "--",
      "--run-program",
    ]);
    assert.equal(out.status, 0, `${out.stderr}\n${out.stdout}`);
    assert.match(out.stdout, /^✅ \*\*1 vault\(s\) made in the console now declared\*\*/m);
    const after = await fs.promises.readFile(program, "utf8");
    assert.ok(after.startsWith(before), "appended");
    const declared = parseYaml(after) as { resources: Record<string, { options?: Record<string, unknown> }> };
    assert.equal(declared.resources[`${prefix}-e`]?.options?.import, made.id);
    // The deploy of the merged change (`pulumi up --refresh`).
    const up = await stack.up({ refresh: true });
    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(
      up.summary.resourceChanges,
      { import: 1, same: 5 },
      "imported, nothing created or changed",
    );
    const state = await stateResources(stack, "custody:index:Vault");
    assert.equal(String(state.get(`${prefix}-e`)?.id), made.id);
    const named = await apiVaultsNamed(emulator.client, [`${prefix} e`]);
    assert.deepEqual(
      named.map((v) => v.id),
      [made.id],
      "the one vault, unchanged",
    );
    await stack.preview({ refresh: true, expectNoChanges: true });
  }

  /** Runs `tasks` at most `concurrency` at a time; each one's promise, at once. */
  function limited<T>(concurrency: number, tasks: (() => Promise<T>)[]): Promise<T>[] {
    let active = 0;
    const waiting: (() => void)[] = [];
    return tasks.map(async (task) => {
      if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      active++;
      try {
        return await task();
      } finally {
        active--;
        waiting.shift()?.();
      }
    });
  }

  /** Each language's scenario, started by the suite's set-up; each test waits for its own. */
  const runs = new Map<string, Promise<void>>();

  const titles: Record<string, string> = {
    js: "JavaScript on the dynamic provider",
    ts: "TypeScript as custody import writes it",
    py: "Python as custody import writes it",
    yaml: "YAML as custody import writes it",
  };
  for (const lang of languages)
    it(`${titles[lang.name]}: a, b, c accepted in place, no other file changed, no change after; d's computed name is a hand edit at its line`, async function () {
      this.timeout(60 * 60_000);
      await runs.get(lang.name);
    });
});
