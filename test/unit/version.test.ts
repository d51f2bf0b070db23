/**
 * The version is written once, as the root package.json's "version" (scripts/stamp-version.js stamps it on
 * the rest): every package, every range of a package on another, the lock file, the plugin's schema, the
 * SDKs' settings, and the examples say the same version. And the stamping script itself: it finds a file that
 * differs, and a new version stamped on a copy of the repository leaves nothing behind.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { packageSchema } from "@pulumi-custody/plugin";

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, "..", "..", "..");
const STAMP = path.join(root, "scripts", "stamp-version.js");

type Manifest = {
  name: string;
  version: string;
  workspaces?: string[];
  [section: string]: unknown;
};
const readJson = <T>(dir: string, file: string): T =>
  JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
const SECTIONS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

/** Every place of `dir` that names a version of ours other than `version`, as `file: what`. */
function versionsOtherThan(dir: string, version: string): string[] {
  const problems: string[] = [];
  const rootManifest = readJson<Manifest>(dir, "package.json");
  const workspaces = rootManifest.workspaces ?? [];
  const manifests = workspaces.map((w) => [w, readJson<Manifest>(dir, `${w}/package.json`)] as const);
  const ours = new Set(manifests.map(([, m]) => m.name));
  const ranges = (where: string, manifest: Record<string, unknown>, expected: string) => {
    for (const section of SECTIONS)
      for (const [name, range] of Object.entries((manifest[section] ?? {}) as Record<string, string>))
        if (ours.has(name) && range !== expected) problems.push(`${where}: ${section}.${name} is ${range}`);
  };
  if (rootManifest.version !== version) problems.push(`package.json: version ${rootManifest.version}`);
  for (const [workspace, manifest] of manifests) {
    if (manifest.version !== version) problems.push(`${workspace}/package.json: version ${manifest.version}`);
    ranges(`${workspace}/package.json`, manifest, version);
  }
  const lock = readJson<{ version: string; packages: Record<string, Record<string, unknown>> }>(
    dir,
    "package-lock.json",
  );
  if (lock.version !== version) problems.push(`package-lock.json: version ${lock.version}`);
  for (const key of ["", ...workspaces]) {
    const entry = lock.packages[key];
    if (!entry) continue;
    if (entry.version !== version)
      problems.push(`package-lock.json: packages["${key}"].version ${entry.version}`);
    ranges(`package-lock.json packages["${key}"]`, entry, version);
  }
  for (const example of fs.readdirSync(path.join(dir, "examples"))) {
    const file = path.join("examples", example, "package.json");
    if (fs.existsSync(path.join(dir, file))) ranges(file, readJson(dir, file), `^${version}`);
  }
  const requirement = /^pulumi_custody>=(\S+?),/m.exec(
    fs.readFileSync(path.join(dir, "examples/python-quickstart/requirements.txt"), "utf8"),
  )?.[1];
  if (requirement !== version) problems.push(`examples/python-quickstart/requirements.txt: >=${requirement}`);
  const declared = /^version: (\S+)$/m.exec(
    fs.readFileSync(path.join(dir, "examples/yaml-vaults/sdks/custody.yaml"), "utf8"),
  )?.[1];
  if (declared !== version) problems.push(`examples/yaml-vaults/sdks/custody.yaml: version ${declared}`);
  return problems;
}

/** A copy of what the stamping script reads and writes: manifests, lock, examples and Markdown. */
function copyOfTheRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-stamp-"));
  const skip = new Set(["node_modules", "dist", ".git"]);
  const filter = (source: string) => !skip.has(path.basename(source));
  for (const file of fs.readdirSync(root))
    if (file.endsWith(".md") || file === "package.json" || file === "package-lock.json")
      fs.copyFileSync(path.join(root, file), path.join(dir, file));
  fs.cpSync(path.join(root, "examples"), path.join(dir, "examples"), { recursive: true, filter });
  fs.cpSync(path.join(root, "docs"), path.join(dir, "docs"), { recursive: true, filter });
  for (const workspace of readJson<Manifest>(root, "package.json").workspaces ?? []) {
    fs.mkdirSync(path.join(dir, workspace));
    for (const file of fs.readdirSync(path.join(root, workspace)))
      if (file === "package.json" || file.endsWith(".md"))
        fs.copyFileSync(path.join(root, workspace, file), path.join(dir, workspace, file));
  }
  return dir;
}

describe("the version, written once (package.json) and stamped everywhere", () => {
  const version = readJson<Manifest>(root, "package.json").version;

  it("the root package.json has a version", () => {
    assert.match(version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  });

  it("every package, every range between them, the lock file and the examples say it", () => {
    assert.deepEqual(versionsOtherThan(root, version), []);
  });

  it("the plugin's schema says it, and both SDKs take the schema's version", () => {
    const schema = packageSchema() as {
      version: string;
      language: Record<string, { respectSchemaVersion?: boolean }>;
    };
    assert.equal(schema.version, version);
    assert.equal(schema.language.nodejs?.respectSchemaVersion, true);
    assert.equal(schema.language.python?.respectSchemaVersion, true);
  });

  it("the YAML example's package declaration names the schema's download URL", () => {
    const text = fs.readFileSync(path.join(root, "examples/yaml-vaults/sdks/custody.yaml"), "utf8");
    const { pluginDownloadURL } = packageSchema() as { pluginDownloadURL: string };
    assert.equal(/^downloadUrl: (\S+)$/m.exec(text)?.[1], pluginDownloadURL);
  });

  it("custody import's YAML programs name the schema's download URL (cli/import/plugin-source.ts)", () => {
    const source = fs.readFileSync(path.join(root, "cli", "import", "plugin-source.ts"), "utf8");
    const { pluginDownloadURL } = packageSchema() as { pluginDownloadURL: string };
    assert.equal(/PLUGIN_DOWNLOAD_URL = "([^"]+)"/.exec(source)?.[1], pluginDownloadURL);
  });

  it("`stamp-version.js --check` passes on the repository", async () => {
    const { stderr } = await execFileAsync(process.execPath, [STAMP, "--check"]);
    assert.match(stderr, new RegExp(`every file says version ${version.replace(/\./g, "\\.")}`));
  });

  describe("on a copy of the repository", () => {
    let copy: string;
    beforeEach(() => {
      copy = copyOfTheRepository();
    });
    afterEach(() => fs.rmSync(copy, { recursive: true, force: true }));

    it("`--check` fails and names a file that says another version", async () => {
      const file = path.join(copy, "cli", "package.json");
      const manifest = readJson<Manifest>(copy, "cli/package.json");
      fs.writeFileSync(file, `${JSON.stringify({ ...manifest, version: "9.9.9" }, null, 2)}\n`);

      const failed = await execFileAsync(process.execPath, [STAMP, "--check", "--root", copy]).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );

      assert.equal(failed?.code, 1);
      assert.match(failed.stderr, /do not say version .*: cli\/package\.json/);
    });

    it("stamping a new version leaves no file with the old one, and `--check` then passes", async () => {
      await execFileAsync(process.execPath, [STAMP, "7.8.9-rc.1", "--root", copy]);

      assert.deepEqual(versionsOtherThan(copy, "7.8.9-rc.1"), []);
      const readme = fs.readFileSync(path.join(copy, "plugin", "README.md"), "utf8");
      assert.match(
        readme,
        /pulumi plugin install resource custody 7\.8\.9-rc\.1 --file pulumi-resource-custody-v7\.8\.9-rc\.1-linux-amd64\.tar\.gz/,
      );
      assert.match(readme, /pulumi plugin install resource custody v7\.8\.9-rc\.1 --server github:/);
      assert.match(
        fs.readFileSync(path.join(copy, "examples/python-quickstart/requirements.txt"), "utf8"),
        /^pulumi_custody>=7\.8\.9-rc\.1,<8\.0\.0$/m,
      );
      await execFileAsync(process.execPath, [STAMP, "--check", "--root", copy]);
    });
  });
});
