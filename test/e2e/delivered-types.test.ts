// The packages as users install them, type-checked as users compile against them: in the project that installs
// every package from its release file (test/support/release.ts), every entry point of every package type-checks
// under the tsconfig `pulumi new typescript` writes, with each module resolution TypeScript offers, with
// `skipLibCheck: false`; and every code block of the docs written on the generated npm SDK type-checks where that
// SDK is installed. (The same project's programs run in test/e2e/delivered-packages.test.ts.)
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { templateTsconfig, writeProgramProject } from "../support/delivered-program";
import { codeBlocksOf, documents } from "../support/doc-blocks";
import { type InstalledProject, installedProject, programToolVersions } from "../support/release";

const execFileAsync = promisify(execFile);

describe("the packages' types as users compile against them (release files, a project outside the repository)", () => {
  let project: InstalledProject;
  let programDir: string;

  before(async function () {
    this.timeout(20 * 60_000);
    project = await installedProject();
    programDir = path.join(project.dir, "types");
    writeProgramProject(programDir, "installed-types");
  });

  for (const [moduleResolution, module] of [
    ["node", "commonjs"],
    ["node16", "node16"],
    ["nodenext", "nodenext"],
    ["bundler", "esnext"],
  ] as const) {
    it(`every entry point of every package type-checks with moduleResolution ${moduleResolution}`, async function () {
      this.timeout(5 * 60_000);
      const tsMajor = Number(programToolVersions().typescript.split(".")[0]);
      const tsc = path.join(project.nodeModules, "typescript", "bin", "tsc");
      const run = async (files: string[], compilerOptions: object) => {
        const file = path.join(programDir, `tsconfig.${moduleResolution}.json`);
        fs.writeFileSync(file, JSON.stringify({ ...templateTsconfig(files), compilerOptions }));
        return execFileAsync(process.execPath, [tsc, "-p", file, "--pretty", "false"], {
          cwd: programDir,
        }).then(
          () => "",
          (err: { stdout?: string }) => String(err.stdout),
        );
      };
      const options = {
        ...templateTsconfig([]).compilerOptions,
        module,
        moduleResolution,
        skipLibCheck: false,
        noEmit: true,
        // TypeScript 6 deprecates the classic resolution: the template's setting then needs
        // `ignoreDeprecations` (README.md, "Installing it in your project").
        ...(moduleResolution === "node" && tsMajor >= 6 ? { ignoreDeprecations: "6.0" } : {}),
      };
      if (moduleResolution === "node" && tsMajor >= 6) {
        const { ignoreDeprecations: _, ...without } = options;
        assert.match(await run(["entry-points.ts"], without), /ignoreDeprecations/);
      }
      assert.equal(await run(["entry-points.ts"], options), "");
      assert.equal(await run(["policy-entry-point.ts"], { ...options, skipLibCheck: true }), "");
    });
  }

  it("every code block of the docs on the generated npm SDK type-checks where that SDK is installed", async function () {
    this.timeout(5 * 60_000);
    const blocks = documents()
      .flatMap(codeBlocksOf)
      .filter((b) => b.generatedSdk);
    assert.ok(blocks.length > 0, "docs/provider.md shows the generated SDK");
    const dir = path.join(project.dir, "docs-blocks");
    const files: string[] = [];
    for (const block of blocks) {
      assert.match(block.language, /^(ts|typescript)$/, `${block.document}:${block.line}`);
      const file = path.join(dir, `${block.document.replace(/[^\w]+/g, "-")}-${block.line}.ts`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, block.code);
      files.push(file);
    }
    const config = path.join(dir, "tsconfig.json");
    const base = templateTsconfig(files);
    fs.writeFileSync(
      config,
      JSON.stringify({ ...base, compilerOptions: { ...base.compilerOptions, noEmit: true } }),
    );
    const tsc = path.join(project.nodeModules, "typescript", "bin", "tsc");
    const out = await execFileAsync(process.execPath, [tsc, "-p", config, "--pretty", "false"], {
      cwd: dir,
    }).then(
      () => "",
      (err: { stdout?: string }) => String(err.stdout),
    );
    assert.equal(out, "");
  });

  // The provider's own lifecycle (rename, drift and its repair, destroy) is test/e2e/lifecycle.test.ts's; here, what
  // only the packages as installed can break: a TypeScript program compiles and runs on them under the real CLI.
});
