// The Node.js language host (language-hosts/nodejs) through the real CLI: policy packs (RunPlugin),
// required plugins from node_modules (GetRequiredPackages), `pulumi install` (InstallDependencies),
// nodeargs with quotes, and Ctrl-C (Cancel). Each project is written to a temp dir; the ones that run a
// program link the repository's node_modules for @pulumi/pulumi.
import * as assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { enginePaths, repoPath } from "../support/pulumi-engine";

/** @pulumi/policy's version for the policy-pack fixture; its @pulumi/pulumi range (^3.204.0) accepts both test legs. */
const POLICY_VERSION = "1.21.0";

interface CliResult {
  code: number | null;
  output: string;
}

let binDir: string;
let tempRoot: string;

/** Creates a project directory from `files` (relative path → content); `node_modules` may be linked to the repository's. */
function project(name: string, files: Record<string, string>, linkNodeModules = true): string {
  const dir = path.join(tempRoot, name);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  if (linkNodeModules) fs.symlinkSync(repoPath("node_modules"), path.join(dir, "node_modules"));
  return dir;
}

function pulumiYaml(name: string, options: Record<string, string | boolean> = {}): string {
  const lines = [`name: ${name}`, "runtime:", "  name: nodejs", "  options:", "    typescript: false"];
  for (const [k, v] of Object.entries(options))
    lines.push(`    ${k}: ${typeof v === "string" ? `'${v}'` : v}`);
  return `${lines.join("\n")}\nmain: index.js\n`;
}

function cliEnv(cwd: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const state = path.join(cwd, ".state");
  fs.mkdirSync(state, { recursive: true });
  return {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${state}`,
    PULUMI_HOME: path.join(cwd, ".pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [binDir, process.env.PATH].filter(Boolean).join(path.delimiter),
    ...extra,
  };
}

function startPulumi(cwd: string, args: string[], extra: Record<string, string> = {}): ChildProcess {
  return spawn(path.join(binDir, "pulumi"), [...args, "--non-interactive"], {
    cwd,
    env: cliEnv(cwd, extra),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function finish(child: ChildProcess): Promise<CliResult> {
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

function pulumi(cwd: string, args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return finish(startPulumi(cwd, args, extra));
}

async function initStack(cwd: string): Promise<void> {
  const init = await pulumi(cwd, ["stack", "init", "dev"]);
  assert.equal(init.code, 0, init.output);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(what: string, condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A directory holding a fake package-manager executable that records its arguments and creates node_modules. */
function fakeTool(name: string): { dir: string; record: string } {
  const dir = fs.mkdtempSync(path.join(tempRoot, `fake-${name}-`));
  const record = path.join(dir, "calls");
  fs.writeFileSync(
    path.join(dir, name),
    `#!/bin/sh\necho "$PWD $*" >> '${record}'\nmkdir -p node_modules\n`,
    { mode: 0o755 },
  );
  return { dir, record };
}

describe("Node.js language host (real Pulumi CLI)", function () {
  this.timeout(300_000);

  before(async function () {
    this.timeout(40 * 60_000);
    ({ binDir } = await enginePaths());
    tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-custody-langhost-"));
  });

  after(() => {
    if (tempRoot) fs.rmSync(tempRoot, { recursive: true, force: true });
  });

  describe("RunPlugin: pulumi preview --policy-pack", () => {
    let packDir: string;
    let programDir: string;

    before(async function () {
      // @pulumi/policy is not a dependency of the repository: install it for the pack from the registry
      // (npm's cache serves it offline once fetched), next to the @pulumi/pulumi version the tests run.
      this.timeout(10 * 60_000);
      const sdkVersion = JSON.parse(
        fs.readFileSync(repoPath("node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
      ).version;
      packDir = project(
        "policy-pack",
        {
          "PulumiPolicy.yaml": "runtime: nodejs\ndescription: Widgets must not be red.\n",
          "package.json": JSON.stringify({
            name: "langhost-pack",
            version: "0.0.1",
            main: "index.js",
            dependencies: { "@pulumi/policy": POLICY_VERSION, "@pulumi/pulumi": sdkVersion },
          }),
          "index.js": fs.readFileSync(
            repoPath("test", "fixtures", "language-host", "policy-pack.js"),
            "utf8",
          ),
        },
        false,
      );
      const install = await finish(
        spawn("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], {
          cwd: packDir,
          stdio: ["ignore", "pipe", "pipe"],
        }),
      );
      assert.equal(install.code, 0, install.output);

      programDir = project("policy-program", {
        "Pulumi.yaml": pulumiYaml("langhost-policy"),
        "index.js": fs.readFileSync(
          repoPath("test", "fixtures", "language-host", "widget-program.js"),
          "utf8",
        ),
      });
      await initStack(programDir);
    });

    it("a mandatory policy the program violates fails the preview and is named", async () => {
      const preview = await pulumi(programDir, ["preview", "--policy-pack", packDir], {
        WIDGET_COLOR: "red",
      });

      assert.notEqual(preview.code, 0, preview.output);
      assert.match(preview.output, /langhost-pack@v0\.0\.1/);
      assert.match(preview.output, /\[mandatory\]\s+no-red-widgets/);
      assert.match(preview.output, /widget "w1" is red/);
    });

    it("a compliant program passes the same pack", async () => {
      const preview = await pulumi(programDir, ["preview", "--policy-pack", packDir], {
        WIDGET_COLOR: "blue",
      });

      assert.equal(preview.code, 0, preview.output);
      assert.match(preview.output, /langhost-pack@v0\.0\.1/);
      assert.doesNotMatch(preview.output, /no-red-widgets/);
    });
  });

  it("GetRequiredPackages: a Pulumi package in node_modules is a required plugin (pulumi about)", async () => {
    const dir = project(
      "required-plugins",
      {
        "Pulumi.yaml": pulumiYaml("langhost-plugins"),
        "index.js": 'require("@pulumi/pulumi");\n',
        "node_modules/@x/fake/package.json": JSON.stringify({
          name: "@x/fake",
          version: "0.0.1",
          pulumi: { resource: true, name: "fake", version: "1.2.3" },
        }),
        // Not a Pulumi package: no plugin.
        "node_modules/left-pad/package.json": JSON.stringify({ name: "left-pad", version: "1.3.0" }),
      },
      false,
    );
    fs.symlinkSync(repoPath("node_modules", "@pulumi"), path.join(dir, "node_modules", "@pulumi"));
    await initStack(dir);

    const about = await pulumi(dir, ["about", "--json"]);

    assert.equal(about.code, 0, about.output);
    const plugins: Array<{ name: string; version?: string; kind: string }> = JSON.parse(about.output).plugins;
    assert.deepEqual(
      plugins.filter((p) => p.kind === "resource"),
      [{ name: "fake", version: "1.2.3", kind: "resource" }],
    );
  });

  describe("InstallDependencies: pulumi install", () => {
    const files = (options: Record<string, string> = {}) => ({
      "Pulumi.yaml": pulumiYaml("langhost-install", options),
      "index.js": "",
      "package.json": JSON.stringify({
        name: "langhost-install",
        private: true,
        dependencies: { "lh-dep": "file:./dep" },
      }),
      "dep/package.json": JSON.stringify({ name: "lh-dep", version: "1.0.0" }),
    });

    it("runs npm when there is no other lock file", async () => {
      const dir = project("install-npm", files(), false);

      const install = await pulumi(dir, ["install"]);

      assert.equal(install.code, 0, install.output);
      assert.match(install.output, /Finished installing dependencies/);
      assert.equal(
        JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "lh-dep", "package.json"), "utf8")).name,
        "lh-dep",
      );
    });

    for (const [tool, lockFile, args] of [
      ["yarn", "yarn.lock", "install"],
      ["pnpm", "pnpm-lock.yaml", "install --use-stderr"],
    ] as const) {
      it(`runs ${tool} when ${lockFile} is present`, async () => {
        const dir = project(`install-${tool}`, { ...files(), [lockFile]: "" }, false);
        const fake = fakeTool(tool);

        const install = await pulumi(dir, ["install"], {
          PATH: [binDir, fake.dir, process.env.PATH].join(path.delimiter),
        });

        assert.equal(install.code, 0, install.output);
        assert.equal(fs.readFileSync(fake.record, "utf8"), `${dir} ${args}\n`);
        assert.equal(fs.existsSync(path.join(dir, "node_modules", "lh-dep")), false, "npm must not have run");
      });
    }

    it("names the package manager of the packagemanager option when it is not installed", async () => {
      const dir = project("install-missing-pnpm", files({ packagemanager: "pnpm" }), false);
      // Only the engine and node on PATH, so no pnpm whatever the machine has.
      const nodeOnly = fs.mkdtempSync(path.join(tempRoot, "node-only-"));
      fs.symlinkSync(process.execPath, path.join(nodeOnly, "node"));

      const install = await pulumi(dir, ["install"], { PATH: [binDir, nodeOnly].join(path.delimiter) });

      assert.notEqual(install.code, 0, install.output);
      assert.match(install.output, /Could not find `pnpm` executable/);
    });
  });

  it("nodeargs with quotes reach Node as a shell would split them", async () => {
    const marker = path.join(tempRoot, "hook-ran");
    const dir = project("nodeargs", {
      "Pulumi.yaml": pulumiYaml("langhost-nodeargs", {
        nodeargs: '--max-old-space-size=512 --require "./hook dir/hook.js"',
      }),
      "index.js": 'require("@pulumi/pulumi");\n',
      "hook dir/hook.js":
        'require("node:fs").writeFileSync(process.env.HOOK_MARKER, String(process.execArgv.length));\n',
    });
    await initStack(dir);

    const preview = await pulumi(dir, ["preview"], { HOOK_MARKER: marker });

    assert.equal(preview.code, 0, preview.output);
    // The hook ran, from a path with a space, and Node saw exactly the 3 arguments.
    assert.equal(fs.readFileSync(marker, "utf8"), "3");
  });

  it("Ctrl-C on pulumi up stops the Node.js program", async () => {
    const pidFile = path.join(tempRoot, "program.pid");
    const cleanup = path.join(tempRoot, "program.cleanup");
    const dir = project("cancel", {
      "Pulumi.yaml": pulumiYaml("langhost-cancel"),
      "index.js": fs.readFileSync(
        repoPath("test", "fixtures", "language-host", "sleeping-program.js"),
        "utf8",
      ),
    });
    await initStack(dir);

    const up = startPulumi(dir, ["up", "--yes", "--skip-preview"], {
      PID_FILE: pidFile,
      CLEANUP_FILE: cleanup,
    });
    const result = finish(up);
    await waitFor("the program to start", () => fs.existsSync(pidFile), 60_000);
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    assert.ok(alive(pid));

    up.kill("SIGINT");
    const { code, output } = await result;

    assert.notEqual(code, 0, output);
    assert.match(output, /update canceled/);
    // The program was told (SIGINT) and ran its handler, and it is gone within the engine's grace period.
    await waitFor("the program to stop", () => !alive(pid), 10_000);
    assert.equal(fs.readFileSync(cleanup, "utf8"), "SIGINT");
  });
});
