// Every code block of the docs is code that works: README.md, docs/*.md and the README of every package
// (sdk/, emulator/, provider/, policy/, plugin/, cli/).
//
// - TypeScript (`ts`): type-checked against the built packages (as `node_modules` holds them) under the
//   tsconfig `pulumi new typescript` writes (test/support/pulumi-new-typescript.ts), each block a module of its
//   own; then run, each in its own process: a Pulumi program with Pulumi's mocks in place of the engine
//   (test/support/docs-blocks-runner.ts), anything else with plain `node`, both with `CUSTODY_BASE_URL` and
//   `CUSTODY_ACCESS_TOKEN` naming an emulator. A block that cannot run on its own is marked on the line
//   before it and type-checked only: `<!-- doc-test: compile-only: <why> -->`, or `<!-- doc-test: policy-pack
//   -->` for the index.ts of a policy pack (it runs only inside `pulumi preview --policy-pack`), which is
//   type-checked with `skipLibCheck`, as docs/policy.md says its tsconfig needs.
// - JavaScript (`js`): syntax-checked (`node --check`), then run like TypeScript.
// - Python (`python`, `py`): byte-compiled (`python3 -m py_compile`).
// - Go (`go`): parsed (`gofmt -e`); a program on the generated Go SDK is compiled by the Go end-to-end suite.
// - YAML (`yaml`, `yml`): parsed; one shaped like `Pulumi.yaml` (a `name` and a `runtime`) is validated against
//   the schema the Pulumi CLI checks project files with (test/fixtures/pulumi-project).
// - JSON (`json`): parsed.
// - Not checked: shell commands (`sh`, `bash`, `shell`, `console`), which need a machine, a stack and a
//   service, and sample output (`text`). Every other block must name one of these languages.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import Ajv2020 from "ajv/dist/2020";
import * as ts from "typescript";
import { type CodeBlock, codeBlocksOf, documents } from "../../support/doc-blocks";
import { repoPath } from "../../support/pulumi-engine";
import { pulumiNewTypescriptOptions } from "../../support/pulumi-new-typescript";

const execFileAsync = promisify(execFile);

const TYPESCRIPT = ["ts", "typescript"];
const JAVASCRIPT = ["js", "javascript"];
const PYTHON = ["python", "py"];
const GO = ["go"];
const YAML = ["yaml", "yml"];
const JSON_BLOCK = ["json"];
/** Shell commands and sample output: not checked (see the top of this file). */
const NOT_CHECKED = ["sh", "bash", "shell", "console", "text"];

// A block on an SDK generated from the plugin's schema (`<!-- doc-test: generated-sdk -->`) needs that SDK
// installed: the delivered-packages end-to-end suite type-checks it in the project where it is.
const blocks = documents()
  .flatMap(codeBlocksOf)
  .filter((b) => !b.generatedSdk);
const of = (languages: string[]) => blocks.filter((b) => languages.includes(b.language));
const where = (block: CodeBlock) => `${block.document}:${block.line}`;

/** Where a block's files are written: a folder of its own inside the repository's build output. */
function blockDir(block: CodeBlock): string {
  const slug = `${block.document.replace(/[^\w]+/g, "-")}-${block.line}`;
  return repoPath("dist", "test", "docs-blocks", slug);
}

/** A Pulumi program: it imports Pulumi's SDK or this project's resources. */
function isPulumiProgram(code: string): boolean {
  return /from "(@pulumi\/pulumi|pulumi-custody)"/.test(code);
}

describe("the code blocks of the docs", () => {
  before(() => fs.rmSync(repoPath("dist", "test", "docs-blocks"), { recursive: true, force: true }));

  it("every block names a language this suite checks or excludes", () => {
    const known = [...TYPESCRIPT, ...JAVASCRIPT, ...PYTHON, ...GO, ...YAML, ...JSON_BLOCK, ...NOT_CHECKED];
    const unknown = blocks
      .filter((b) => !known.includes(b.language))
      .map((b) => `${where(b)} "${b.language}"`);
    assert.deepEqual(unknown, [], "label each block with its language (```ts, ```sh, ```text, …)");
  });

  it("there are TypeScript blocks to check (the suite reads the documents it should)", () => {
    assert.ok(of(TYPESCRIPT).length >= 5, `${of(TYPESCRIPT).length} TypeScript blocks`);
  });

  describe("TypeScript, under the `pulumi new typescript` tsconfig", () => {
    const diagnostics = new Map<CodeBlock, string>();
    before(function () {
      this.timeout(120_000);
      const files = new Map<string, CodeBlock>();
      for (const block of of(TYPESCRIPT)) {
        const dir = blockDir(block);
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, "index.ts");
        fs.writeFileSync(file, block.code);
        fs.writeFileSync(
          path.join(dir, "index.js"),
          ts.transpileModule(block.code, {
            compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
          }).outputText,
        );
        files.set(path.resolve(file), block);
      }
      const major = Number(ts.versionMajorMinor.split(".")[0]);
      const { options, errors } = ts.convertCompilerOptionsFromJson(
        pulumiNewTypescriptOptions(major),
        repoPath(),
      );
      assert.deepEqual(errors, []);
      const host: ts.FormatDiagnosticsHost = {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => repoPath(),
        getNewLine: () => "\n",
      };
      // Programs first, policy packs apart: their tsconfig adds skipLibCheck.
      for (const policyPacks of [false, true]) {
        const roots = [...files].filter(([, block]) => (block.policyPack === true) === policyPacks);
        if (roots.length === 0) continue;
        const program = ts.createProgram(
          roots.map(([file]) => file),
          { ...options, noEmit: true, ...(policyPacks ? { skipLibCheck: true } : {}) },
        );
        for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
          const file = diagnostic.file ? path.resolve(diagnostic.file.fileName) : undefined;
          // A diagnostic in a package's declarations counts against every block of the program.
          const owners = file && files.has(file) ? [files.get(file) as CodeBlock] : roots.map(([, b]) => b);
          for (const owner of owners) {
            diagnostics.set(
              owner,
              `${diagnostics.get(owner) ?? ""}${ts.formatDiagnostics([diagnostic], host)}`,
            );
          }
        }
      }
    });

    for (const block of of(TYPESCRIPT)) {
      it(`${where(block)} type-checks`, () => {
        assert.equal(diagnostics.get(block) ?? "", "", `${where(block)}:\n${block.code}`);
      });
    }
  });

  describe("TypeScript and JavaScript, run (each in its own process, against an emulator)", () => {
    let emulator: RunningEmulator;
    before(async () => {
      emulator = await startEmulator({ port: 0 });
      for (const block of of(JAVASCRIPT)) {
        const dir = blockDir(block);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, "index.js"), block.code);
      }
    });
    after(async () => emulator?.close());

    for (const block of of(JAVASCRIPT)) {
      it(`${where(block)} is valid JavaScript`, async () => {
        await execFileAsync(process.execPath, ["--check", path.join(blockDir(block), "index.js")]);
      });
    }

    for (const block of [...of(TYPESCRIPT), ...of(JAVASCRIPT)]) {
      if (block.compileOnly) continue;
      it(`${where(block)} runs`, async function () {
        this.timeout(120_000);
        const program = path.join(blockDir(block), "index.js");
        const args = isPulumiProgram(block.code)
          ? [repoPath("dist", "test", "support", "docs-blocks-runner.js"), program]
          : [program];
        const run = await execFileAsync(process.execPath, args, {
          cwd: blockDir(block),
          env: {
            ...process.env,
            CUSTODY_BASE_URL: emulator.baseUrl,
            CUSTODY_ACCESS_TOKEN: emulator.accessToken,
            CUSTODY_REQUESTS_PER_MINUTE: "0",
          },
          timeout: 90_000,
        }).catch((err: { code?: number; stdout?: string; stderr?: string }) => err);
        assert.ok(
          !("code" in run) || run.code === undefined || run.code === 0,
          `${where(block)} exited with ${String((run as { code?: unknown }).code)}:\n${run.stderr}\n${block.code}`,
        );
      });
    }
  });

  describe("Python, byte-compiled", () => {
    for (const block of of(PYTHON)) {
      it(`${where(block)} compiles`, async () => {
        const dir = blockDir(block);
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, "block.py");
        fs.writeFileSync(file, block.code);
        await execFileAsync("python3", ["-m", "py_compile", file]);
      });
    }
  });

  describe("Go, parsed", () => {
    for (const block of of(GO)) {
      it(`${where(block)} is Go source`, async () => {
        const dir = blockDir(block);
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, "block.go");
        fs.writeFileSync(file, block.code);
        // gofmt -e reports every syntax error and fails on any.
        await execFileAsync("gofmt", ["-e", "-l", file]);
      });
    }
  });

  describe("YAML and JSON, parsed; Pulumi.yaml validated", () => {
    // js-yaml is what @pulumi/pulumi itself reads YAML with; it comes with it.
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    const yaml = require(require.resolve("js-yaml", { paths: [pulumiDir] })) as {
      load(text: string): unknown;
    };
    const projectSchema = JSON.parse(
      fs.readFileSync(repoPath("test", "fixtures", "pulumi-project", "project.json"), "utf8"),
    );
    const validateProject = new Ajv2020({ strict: false, allErrors: true }).compile(projectSchema);

    it("the project schema accepts this repository's own Pulumi.yaml files and refuses a broken one", () => {
      for (const file of ["Pulumi.yaml", "test/fixtures/custody-stack/Pulumi.yaml"]) {
        const project = yaml.load(fs.readFileSync(repoPath(file), "utf8"));
        assert.ok(validateProject(project), `${file}: ${JSON.stringify(validateProject.errors)}`);
      }
      assert.equal(validateProject({ runtime: "nodejs" }), false, "a project without a name");
      assert.equal(validateProject({ name: "x", runtime: 3 }), false, "a runtime that is a number");
    });

    for (const block of of(YAML)) {
      it(`${where(block)} parses${/^(name|runtime):/m.test(block.code) ? " and is a valid Pulumi.yaml" : ""}`, () => {
        const value = yaml.load(block.code) as Record<string, unknown> | null;
        if (value && typeof value === "object" && "name" in value && "runtime" in value) {
          assert.ok(validateProject(value), `${where(block)}: ${JSON.stringify(validateProject.errors)}`);
        }
      });
    }

    for (const block of of(JSON_BLOCK)) {
      it(`${where(block)} parses`, () => {
        JSON.parse(block.code);
      });
    }
  });
});
