/**
 * The build is plain (docs/build.md): `tsc -b` and one generation step, no step that links or copies a package
 * into node_modules, no root `dist/` of links into the packages, and every generator writes into its own
 * package's output.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..", "..");
const manifest = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8")) as {
    name: string;
    workspaces?: string[];
    scripts?: Record<string, string>;
  };

function* symlinksUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    // npm's own links in a project installed under dist/ (the benchmarks' programs) are not the build's.
    if (entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) yield full;
    else if (entry.isDirectory()) yield* symlinksUnder(full);
  }
}

describe("the build", () => {
  const { workspaces = [], scripts = {} } = manifest(".");

  it("npm run build is tsc -b and one generation step", () => {
    assert.equal(scripts.build, "tsc -b && npm run --silent generate --workspaces --if-present");
  });

  it("each package builds alone the same way, and its generation step runs only its own scripts", () => {
    for (const workspace of workspaces) {
      const own = manifest(workspace).scripts ?? {};
      if (own.generate === undefined) continue;
      assert.equal(own.build, "tsc -b && npm run --silent generate", workspace);
      // Each command of the step is a script of the package itself, or the one shared by every package.
      for (const command of own.generate.split("&&").map((c) => c.trim())) {
        const script = /^node (\S+)$/.exec(command)?.[1];
        assert.ok(script, `${workspace}: "${command}" runs a node script`);
        assert.ok(
          !script.startsWith("..") || script === "../scripts/emit-node10-types.js",
          `${workspace}: "${command}" runs another package's script`,
        );
      }
    }
  });

  it("no root dist/ of links: the compiled suites hold no symlink", () => {
    assert.ok(fs.existsSync(path.join(root, "dist", "test")), "the root build wrote dist/test");
    assert.deepEqual([...symlinksUnder(path.join(root, "dist"))], []);
  });

  it("node_modules holds npm's own workspace links, not copies made by the build", () => {
    for (const workspace of workspaces) {
      const installed = path.join(root, "node_modules", manifest(workspace).name);
      assert.ok(fs.lstatSync(installed).isSymbolicLink(), `${installed} is a link`);
      assert.equal(fs.realpathSync(installed), fs.realpathSync(path.join(root, workspace)));
    }
  });
});

describe("scripts/install-program.sh", () => {
  it("installs what the checkout's build is now, also over an earlier install of the same version", function () {
    // One install of @pulumi/pulumi (from npm's cache once fetched), then a second of the two packed packages.
    this.timeout(600_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-install-program-"));
    try {
      const install = () =>
        execFileSync("bash", [path.join(root, "scripts", "install-program.sh"), dir], { stdio: "pipe" });
      install();
      // An install of an earlier build: its files differ from what the checkout packs now.
      const installed = path.join(dir, "node_modules", "@pulumi-custody", "sdk", "package.json");
      const built = fs.readFileSync(path.join(root, "sdk", "package.json"), "utf8");
      assert.equal(fs.readFileSync(installed, "utf8"), built);
      fs.writeFileSync(installed, built.replace('"name"', '"earlierBuild": true, "name"'));
      install();
      assert.equal(fs.readFileSync(installed, "utf8"), built, "the earlier build's files are replaced");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
