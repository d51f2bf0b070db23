// The packages as users get them: each package's release tarball (scripts/release-artifacts.sh) installed into
// new projects outside the repository, with npm, as `npm install <package>` would install it from the registry.
//
// - Each package installs alone, without an engine warning, with only what its own users need, at the size
//   the README reports; its bins run.
// - Every link of every shipped README resolves inside its package, or is an absolute link to a file of this
//   repository.
// - One project with every package (test/support/release.ts, shared with the other suites of the delivered
//   product): a TypeScript program on the provider and the emulator from their packages runs up with the real
//   CLI, and a bundled program runs too; the policy pack runs from its package, and `custody review` from the
//   command line's package lists its violation. That every entry point type-checks under each module resolution
//   is test/e2e/delivered-types.test.ts's, which runs beside this file.
import * as assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { build } from "esbuild";
import { templateTsconfig, writeProgramProject } from "../support/delivered-program";
import { apiVaultsNamed, pulumiCli, resourceName } from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";
import {
  type InstalledEmulator,
  type InstalledProject,
  installedProject,
  installProject,
  type ReleaseArtifacts,
  releaseArtifacts,
  startInstalledEmulator,
  userPath,
  WORKSPACES,
  type Workspace,
} from "../support/release";

const execFileAsync = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The repository as package.json names it; absolute links of the READMEs point into it. */
const REPOSITORY = "https://github.com/pulumi-custody/pulumi-custody";

/** Packages each package must not bring along: the other products' heavy dependencies. */
const FORBIDDEN: Record<Workspace, string[]> = {
  sdk: ["@pulumi/pulumi", "@pulumi/policy", "fastify", "light-my-request"],
  emulator: ["@pulumi/pulumi", "@pulumi/policy"],
  provider: ["@pulumi/policy", "fastify", "light-my-request"],
  policy: ["fastify", "light-my-request"],
  plugin: ["@pulumi/policy", "fastify", "light-my-request"],
  cli: ["@pulumi/policy", "fastify", "light-my-request"],
};

/** Every package name of an `npm ls --json --all` tree. */
function namesIn(tree: { dependencies?: Record<string, unknown> }): Set<string> {
  const names = new Set<string>();
  const walk = (node: { dependencies?: Record<string, unknown> }) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      names.add(name);
      walk(child as { dependencies?: Record<string, unknown> });
    }
  };
  walk(tree);
  return names;
}

/** Bytes under `dir`, as `du` counts apparent sizes. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

/** The installed sizes the README's table reports, in MB, by package name. */
function readmeSizes(): Map<string, number> {
  const readme = fs.readFileSync(repoPath("README.md"), "utf8");
  const sizes = new Map<string, number>();
  for (const match of readme.matchAll(/^\| `([@\w/-]+)`[^|\n]*\|[^|\n]*\| ([\d.]+) MB \|/gm))
    sizes.set(match[1] as string, Number(match[2]));
  return sizes;
}

/** The links of a Markdown text, with their line. */
function markdownLinks(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let inFence = false;
  text.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) return;
    const code = line.replace(/`[^`]*`/g, "");
    for (const match of code.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      links.push({ target: match[1] as string, line: index + 1 });
  });
  return links;
}

describe("the packages as users install them (release files, projects outside the repository)", () => {
  let release: ReleaseArtifacts;

  before(async function () {
    this.timeout(30 * 60_000);
    await enginePaths();
    release = await releaseArtifacts();
  });

  describe("each package installs alone", () => {
    const measured = new Map<string, number>();

    for (const workspace of WORKSPACES) {
      it(`${workspace}: installs without an engine warning, with only what its users need`, async function () {
        this.timeout(10 * 60_000);
        const project = await installProject({ workspaces: [workspace] });
        try {
          assert.doesNotMatch(project.installLog, /EBADENGINE|npm (warn|WARN) deprecated/);
          const { stdout } = await execFileAsync(npm, ["ls", "--omit=dev", "--all", "--json"], {
            cwd: project.dir,
            maxBuffer: 64 * 1024 * 1024,
          });
          const installed = namesIn(JSON.parse(stdout));
          assert.ok(installed.has(release.names[workspace]), `${release.names[workspace]} is installed`);
          const unwanted = FORBIDDEN[workspace].filter((name) => installed.has(name));
          assert.deepEqual(unwanted, [], `${release.names[workspace]} brings ${unwanted.join(", ")}`);
          const bytes = treeBytes(project.nodeModules);
          measured.set(release.names[workspace], bytes);
          console.log(`      ${release.names[workspace]} installs ${(bytes / 1e6).toFixed(1)} MB`);
          for (const file of ["README.md", "LICENSE", "package.json"]) {
            const shipped = path.join(project.nodeModules, release.names[workspace], file);
            assert.ok(fs.existsSync(shipped), `${release.names[workspace]} ships ${file}`);
          }
          const manifest = JSON.parse(
            fs.readFileSync(path.join(project.nodeModules, release.names[workspace], "package.json"), "utf8"),
          );
          assert.equal(manifest.repository?.url, `git+${REPOSITORY}.git`);
          assert.equal(manifest.repository?.directory, workspace);
          assert.equal(manifest.license, "Apache-2.0");
        } finally {
          fs.rmSync(project.dir, { recursive: true, force: true });
        }
      });
    }

    it("the README reports each package's installed size (within 25% of what was measured)", () => {
      assert.equal(measured.size, WORKSPACES.length, "every package was installed and measured above");
      const reported = readmeSizes();
      const lines: string[] = [];
      for (const [name, bytes] of measured) {
        const mb = bytes / 1e6;
        lines.push(`${name}: ${mb.toFixed(1)} MB`);
        const listed = reported.get(name);
        assert.ok(
          listed !== undefined,
          `README.md lists no installed size for ${name} (measured ${mb.toFixed(1)} MB)`,
        );
        assert.ok(
          Math.abs(listed - mb) <= 0.25 * mb,
          `README.md says ${name} installs ${listed} MB; measured ${mb.toFixed(1)} MB`,
        );
      }
      console.log(`      installed sizes: ${lines.join(", ")}`);
    });
  });

  it("every link of every shipped README resolves in its package, or is a link to a file of the repository", async () => {
    const problems: string[] = [];
    for (const workspace of WORKSPACES) {
      const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "custody-readme-"));
      try {
        await execFileAsync("tar", ["-xzf", release.npm[workspace], "-C", unpacked]);
        const root = path.join(unpacked, "package");
        const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
        for (const url of [manifest.homepage, manifest.bugs?.url])
          if (typeof url !== "string" || !url.startsWith(REPOSITORY))
            problems.push(`${workspace}/package.json: ${url} is not a page of ${REPOSITORY}`);
        const readmes = fs.readdirSync(root).filter((f) => f.toLowerCase().endsWith(".md"));
        for (const readme of readmes) {
          for (const { target, line } of markdownLinks(fs.readFileSync(path.join(root, readme), "utf8"))) {
            const where = `${release.names[workspace]}/${readme}:${line}: ${target}`;
            if (target.startsWith("#")) continue;
            if (
              target.startsWith(`${REPOSITORY}/blob/main/`) ||
              target.startsWith(`${REPOSITORY}/tree/main/`)
            ) {
              const file = target.replace(/^.*?\/(blob|tree)\/main\//, "").replace(/#.*$/, "");
              if (!fs.existsSync(repoPath(file))) problems.push(`${where}: no such file in the repository`);
            } else if (/^[a-z]+:/.test(target)) {
              // Another site (the Pulumi docs, a GitHub issue): not this package's to resolve.
            } else if (!fs.existsSync(path.join(root, target.replace(/#.*$/, "")))) {
              problems.push(`${where}: not in the package`);
            }
          }
        }
      } finally {
        fs.rmSync(unpacked, { recursive: true, force: true });
      }
    }
    assert.deepEqual(problems, []);
  });

  describe("a TypeScript program on the provider and the emulator, from their packages", () => {
    let project: InstalledProject;
    let emulator: InstalledEmulator;
    let programDir: string;
    let stack: Stack | undefined;

    before(async function () {
      this.timeout(20 * 60_000);
      project = await installedProject();
      emulator = await startInstalledEmulator(project);
      programDir = path.join(project.dir, "vaults");
      writeProgramProject(programDir, "installed-vaults");
    });

    after(async () => {
      if (stack) await disposeLocalStack(stack);
      await emulator?.stop();
    });

    it("a TypeScript program runs up with the real CLI; each serialized provider is a bare require of the package", async function () {
      this.timeout(15 * 60_000);
      stack = await createLocalStack({
        projectDir: programDir,
        stackName: "installed",
        envVars: { PATH: userPath((await enginePaths()).binDir) },
      });
      await stack.setAllConfig({
        "custody:baseUrl": { value: emulator.baseUrl },
        "custody:accessToken": { value: emulator.accessToken, secret: true },
        coldName: { value: "delivered Cold" },
      });
      const up = await pulumiCli(stack, ["up", "--yes", "--skip-preview"]);
      assert.match(up.stdout, /\+ 4 created|4 created/);
      const [vault] = await apiVaultsNamed(emulator.client, ["delivered Cold"]);
      assert.ok(vault, "the vault exists in the emulator");
      const outputs = JSON.parse((await pulumiCli(stack, ["stack", "output", "--json"])).stdout);
      assert.equal(outputs.coldId, vault.id);
      assert.match(String(outputs.depositAddress), /^tb1/);
      assert.ok(outputs.chains > 0);

      // Installed from its tarball, each resource's serialized provider is a bare require of the package's
      // provider module, a few hundred bytes (what `pulumi stack export` shows a user).
      const exported = JSON.parse((await pulumiCli(stack, ["stack", "export"])).stdout);
      for (const resource of exported.deployment.resources) {
        const text = resource.inputs?.__provider;
        if (typeof text !== "string") continue;
        const kind = resource.type.endsWith(":VaultAddress") ? "vault-address" : "vault";
        assert.ok(text.includes(`require("pulumi-custody/provider-runtime/${kind}")`), text);
        assert.ok(
          Buffer.byteLength(text) < 400,
          `${resourceName(resource.urn)}: ${Buffer.byteLength(text)} bytes`,
        );
      }

      await pulumiCli(stack, ["preview", "--refresh", "--expect-no-changes"]);
    });

    it("a program bundled with esbuild (the packages bundled in) runs up, preview --refresh and destroy", async function () {
      this.timeout(15 * 60_000);
      const bundleDir = path.join(project.dir, "bundled");
      fs.mkdirSync(bundleDir, { recursive: true });
      // Only @pulumi/pulumi stays external: the engine needs the program's own copy of it.
      await build({
        entryPoints: [path.join(programDir, "index.ts")],
        bundle: true,
        platform: "node",
        format: "cjs",
        external: ["@pulumi/pulumi"],
        outfile: path.join(bundleDir, "index.js"),
        absWorkingDir: project.dir,
        logLevel: "silent",
      });
      fs.writeFileSync(
        path.join(bundleDir, "Pulumi.yaml"),
        "name: bundled-app\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n",
      );
      const source = fs.readFileSync(path.join(bundleDir, "index.js"), "utf8");
      assert.match(source, /function loadCustodyRuntime/, "the package is bundled in");
      const bundled = await createLocalStack({
        projectDir: bundleDir,
        stackName: "bundled",
        envVars: { PATH: userPath((await enginePaths()).binDir) },
      });
      try {
        await bundled.setAllConfig({
          "custody:baseUrl": { value: emulator.baseUrl },
          "custody:accessToken": { value: emulator.accessToken, secret: true },
          coldName: { value: "delivered bundled" },
        });
        const up = await bundled.up();
        assert.deepEqual(up.summary.resourceChanges, { create: 4 });
        await bundled.preview({ refresh: true, expectNoChanges: true });
        assert.equal((await bundled.destroy()).summary.result, "succeeded");
      } finally {
        await disposeLocalStack(bundled);
      }
    });

    it("the policy pack runs from its package, and `custody review` lists its violation", async function () {
      this.timeout(15 * 60_000);
      const policyDir = path.join(project.dir, "policy-check");
      fs.mkdirSync(policyDir, { recursive: true });
      fs.writeFileSync(path.join(policyDir, "Pulumi.yaml"), "name: policy-check\nruntime: nodejs\n");
      fs.writeFileSync(path.join(policyDir, "tsconfig.json"), JSON.stringify(templateTsconfig(["index.ts"])));
      // A vault without `protect`: the pack's mandatory `custody-vault-protected` refuses it.
      fs.writeFileSync(
        path.join(policyDir, "index.ts"),
        'import { Vault } from "pulumi-custody";\nnew Vault("treasury", { name: "delivered Treasury", type: "evm" });\n',
      );
      const pack = path.join(project.nodeModules, "@pulumi-custody", "policy");
      const checked = await createLocalStack({
        projectDir: policyDir,
        stackName: "policy",
        envVars: { PATH: userPath((await enginePaths()).binDir) },
      });
      try {
        await checked.setAllConfig({
          "custody:baseUrl": { value: emulator.baseUrl },
          "custody:accessToken": { value: emulator.accessToken, secret: true },
        });
        const failed = await pulumiCli(checked, ["preview", "--policy-pack", pack]).then(
          () => undefined,
          (err: { stdout?: string; stderr?: string }) => `${err.stdout}\n${err.stderr}`,
        );
        assert.ok(failed, "the preview must fail on the mandatory policy");
        assert.match(failed, /custody-vault-protected/);
        assert.match(failed, /Vault resource treasury is not protected/);

        checked.workspace.envVars.PULUMI_ENABLE_STREAMING_JSON_PREVIEW = "true";
        const stream = await pulumiCli(checked, ["preview", "--json", "--policy-pack", pack]).then(
          (r) => r.stdout,
          (err: { stdout?: string }) => String(err.stdout),
        );
        const report = await new Promise<string>((resolve, reject) => {
          const child = spawn(project.bin("custody"), ["review"], { stdio: ["pipe", "pipe", "inherit"] });
          let out = "";
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString();
          });
          child.on("error", reject);
          child.on("close", () => resolve(out));
          child.stdin.end(stream);
        });
        assert.match(report, /custody-vault-protected/, report);
        assert.match(report, /delivered Treasury/);
      } finally {
        await disposeLocalStack(checked);
      }
    });
  });
});

describe("the provider plugin missing from a machine", () => {
  it("a program on its SDK stops with one error that names the plugin, its version and where it is released", async function () {
    this.timeout(10 * 60_000);
    const project = await installedProject();
    const release = await releaseArtifacts();
    const dir = fs.mkdtempSync(path.join(project.dir, "no-plugin-"));
    await fs.promises.cp(repoPath("test", "fixtures", "sdk-nodejs"), dir, { recursive: true });
    // No plugin on PATH or in PULUMI_HOME, and no download (as on a machine without network access).
    const stack = await createLocalStack({
      projectDir: dir,
      stackName: "no-plugin",
      envVars: { PATH: userPath((await enginePaths()).binDir) },
    });
    try {
      await stack.setConfig("vaults", { value: JSON.stringify({ a: { name: "no plugin", type: "evm" } }) });
      const failed = await pulumiCli(stack, ["preview"]).then(
        () => "",
        (err: { stdout?: string; stderr?: string }) => `${err.stdout}\n${err.stderr}`,
      );
      const errors = failed.split("\n").filter((line) => /^\s+error: /.test(line));
      assert.equal(errors.length, 1, failed);
      assert.match(errors[0]!, /no resource plugin 'pulumi-resource-custody' found/);
      assert.match(errors[0]!, new RegExp(`at version v${release.version.replace(/\./g, "\\.")}`));
      assert.match(errors[0]!, /from github:\/\/api\.github\.com\/pulumi-custody\/pulumi-custody/);
    } finally {
      await disposeLocalStack(stack);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
