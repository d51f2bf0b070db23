// A release as the workflow makes it (.github/workflows/release.yml): the build step is
// scripts/release-artifacts.sh, whose artifacts the suites of the delivered product share (test/support/release.ts),
// so this suite checks what the workflow would publish, without a second build:
// - exactly the artifacts the docs name (plugin/README.md, the script's header), nothing missing, nothing more;
// - one version in every package, in the ranges between them, in the schema and in both SDKs;
// - checksums.txt as `sha256sum` prints it, verified by `sha256sum -c`, and failing on a changed file;
// - the Python SDK's wheel and sdist with a README and project URLs; both SDKs' READMEs say how to install the
//   plugin from a file when there is no network;
// - a plugin archive per platform (linux, darwin, windows × amd64, arm64), each with one executable of that
//   platform's format and CPU; the darwin ones with a valid ad-hoc signature; the linux one reads no bunfig.toml
//   from the directory it runs in.
import * as assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { executableKind, machoSignature } from "../support/executables";
import { repoPath } from "../support/pulumi-engine";
import { type ReleaseArtifacts, releaseArtifacts, WORKSPACES } from "../support/release";

const execFileAsync = promisify(execFile);

/** The platforms of the plugin archives, in Pulumi's `<os>-<arch>`. */
const PLATFORMS = [
  "linux-amd64",
  "linux-arm64",
  "darwin-amd64",
  "darwin-arm64",
  "windows-amd64",
  "windows-arm64",
] as const;

/** The executable a plugin archive holds on `platform`. */
const executableOf = (platform: string) =>
  platform.startsWith("windows-") ? "pulumi-resource-custody.exe" : "pulumi-resource-custody";

/** A file inside a .tgz or .tar.gz. */
async function fromTar(archive: string, member: string): Promise<string> {
  const { stdout } = await execFileAsync("tar", ["-xzOf", archive, member], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** A file inside a wheel (a zip), read by Python's zipfile. */
async function fromWheel(wheel: string, member: string): Promise<string> {
  const { stdout } = await execFileAsync(
    process.env.PYTHON ?? "python3",
    [
      "-c",
      "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
      wheel,
      member,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** The header fields of core metadata (METADATA, PKG-INFO), and its body (the long description). */
function coreMetadata(text: string): { fields: [string, string][]; body: string } {
  const end = text.indexOf("\n\n");
  const head = end < 0 ? text : text.slice(0, end);
  const fields = head.split("\n").map((line) => {
    const colon = line.indexOf(": ");
    return [line.slice(0, colon), line.slice(colon + 2)] as [string, string];
  });
  return { fields, body: end < 0 ? "" : text.slice(end + 2) };
}

/** The Python packages' metadata must carry a README and the project's links. */
function assertPythonMetadata(text: string, where: string, release: ReleaseArtifacts, repository: string) {
  const { fields, body } = coreMetadata(text);
  const field = (name: string) => fields.filter(([key]) => key === name).map(([, value]) => value);
  assert.deepEqual(field("Version"), [release.version], `${where}: Version`);
  assert.deepEqual(
    field("Project-URL").sort(),
    [
      `Documentation, ${repository}/blob/main/docs/provider.md`,
      `Homepage, ${repository}`,
      `Repository, ${repository}`,
    ],
    `${where}: Project-URL`,
  );
  assert.deepEqual(field("Description-Content-Type"), ["text/markdown"], where);
  assert.doesNotMatch(body, /Development Version/, `${where}: the generator's placeholder description`);
  assert.match(body, /^# `pulumi_custody`: the Python SDK/m, `${where}: the README is the description`);
  assertSaysInstallFromFile(body, release.version, where);
}

/** The offline install of the plugin, with this version. */
function assertSaysInstallFromFile(text: string, version: string, where: string) {
  const v = version.replace(/\./g, "\\.");
  assert.match(
    text,
    new RegExp(
      `pulumi plugin install resource custody ${v} --file pulumi-resource-custody-v${v}-linux-amd64\\.tar\\.gz`,
    ),
    `${where}: how to install the plugin from a file`,
  );
}

/** One member of a .tar.gz, as bytes. */
async function extracted(archive: string, member: string): Promise<Buffer> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-archive-"));
  try {
    await execFileAsync("tar", ["-xzf", archive, "-C", dir, member]);
    return await fs.promises.readFile(path.join(dir, member));
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Starts `exe` in `cwd` with no arguments, and resolves to the first line it prints; then stops it. */
function firstLine(exe: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, [], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        child.kill("SIGKILL");
        resolve(out.slice(0, out.indexOf("\n")));
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${exe} exited with ${code} before a line: ${err}`)));
  });
}

describe("a release, as .github/workflows/release.yml builds it (scripts/release-artifacts.sh)", () => {
  let release: ReleaseArtifacts;
  const repository = "https://github.com/pulumi-custody/pulumi-custody";

  before(async function () {
    this.timeout(30 * 60_000);
    release = await releaseArtifacts();
  });

  it("the workflow's build step runs the script these artifacts come from", () => {
    const workflow = fs.readFileSync(repoPath(".github", "workflows", "release.yml"), "utf8");
    assert.match(workflow, /^\s*bash scripts\/release-artifacts\.sh dist\/release$/m);
  });

  it("holds exactly the artifacts the docs name: the six packages, the plugin archives, the schema, the three SDKs, the checksums", () => {
    const v = release.version;
    const expected = [
      ...WORKSPACES.map((w) => path.basename(release.npm[w])),
      ...PLATFORMS.map((platform) => `pulumi-resource-custody-v${v}-${platform}.tar.gz`),
      "schema.json",
      `pulumi-custody-custody-${v}.tgz`,
      `pulumi_custody-${v}-py3-none-any.whl`,
      `pulumi_custody-${v}.tar.gz`,
      `custody-go-sdk-v${v}.tar.gz`,
      "checksums.txt",
    ].sort();
    const present = fs.readdirSync(release.dir).filter((f) => !f.startsWith("."));

    assert.deepEqual(present.sort(), expected);
    // What the docs name, in their words.
    const pluginReadme = fs.readFileSync(repoPath("plugin", "README.md"), "utf8");
    for (const named of [
      "pulumi-resource-custody-v<version>-<os>-<arch>.tar.gz",
      "`@pulumi-custody/custody`",
      "`pulumi_custody`",
      "`custody-go-sdk-v<version>.tar.gz`",
    ])
      assert.ok(pluginReadme.includes(named), `plugin/README.md names ${named}`);
    assert.match(pluginReadme, /`checksums\.txt`/);
    assert.equal(WORKSPACES.length, 6);
  });

  it("each plugin archive holds one executable of its platform's format and CPU, README.md and LICENSE", async function () {
    this.timeout(10 * 60_000);
    for (const platform of PLATFORMS) {
      const archive = path.join(
        release.dir,
        `pulumi-resource-custody-v${release.version}-${platform}.tar.gz`,
      );
      const { stdout } = await execFileAsync("tar", ["-tzvf", archive]);
      const members = stdout
        .trim()
        .split("\n")
        .map((line) => ({ mode: line.split(/\s+/)[0], name: line.split(/\s+/).pop() }));
      const exe = executableOf(platform);
      assert.deepEqual(members.map((m) => m.name).sort(), ["LICENSE", "README.md", exe].sort(), platform);
      assert.match(
        members.find((m) => m.name === exe)?.mode ?? "",
        /^-rwxr-xr-x$/,
        `${platform}: ${exe} runs`,
      );
      const image = await extracted(archive, exe);
      const [os, arch] = platform.split("-");
      assert.deepEqual(executableKind(image), { os, arch }, `${platform}: ${exe}'s header`);
    }
  });

  it("the darwin executables carry an ad-hoc signature that matches every page (macOS runs no arm64 code without one)", async function () {
    this.timeout(5 * 60_000);
    for (const platform of ["darwin-amd64", "darwin-arm64"]) {
      const archive = path.join(
        release.dir,
        `pulumi-resource-custody-v${release.version}-${platform}.tar.gz`,
      );
      const signature = machoSignature(await extracted(archive, "pulumi-resource-custody"));

      assert.ok(signature, `${platform}: signed`);
      assert.equal(signature.identifier, "pulumi-resource-custody", platform);
      assert.ok(signature.adhoc, `${platform}: ad hoc (flags ${signature.flags.toString(16)})`);
      assert.equal(signature.otherBlobs, 0, `${platform}: no certificate, requirements or entitlements`);
      assert.ok(
        signature.pages > 0 && signature.coversAllCode,
        `${platform}: the hashes cover the whole code`,
      );
      assert.equal(signature.mismatchedPages, 0, `${platform}: ${signature.mismatchedPages} pages differ`);
    }
  });

  it("the linux executable reads no bunfig.toml from the directory it runs in (a user's project)", async function () {
    this.timeout(2 * 60_000);
    const platform = process.arch === "arm64" ? "linux-arm64" : "linux-amd64";
    const archive = path.join(release.dir, `pulumi-resource-custody-v${release.version}-${platform}.tar.gz`);
    const project = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-bunfig-"));
    try {
      const exe = path.join(project, "pulumi-resource-custody");
      await fs.promises.writeFile(exe, await extracted(archive, "pulumi-resource-custody"), { mode: 0o755 });
      // Either file, if read, runs the preload script, which leaves a marker.
      await fs.promises.writeFile(
        path.join(project, "preload.js"),
        'require("fs").writeFileSync("read", "");\n',
      );
      await fs.promises.writeFile(path.join(project, "bunfig.toml"), 'preload = ["./preload.js"]\n');
      await fs.promises.writeFile(path.join(project, ".env"), "NODE_OPTIONS=--require ./preload.js\n");

      const port = await firstLine(exe, project);

      assert.match(port, /^\d+$/, "it serves, and prints its port");
      assert.ok(!fs.existsSync(path.join(project, "read")), "the preload script ran: the settings were read");
    } finally {
      await fs.promises.rm(project, { recursive: true, force: true });
    }
  });

  it("says one version everywhere: each package and its ranges on the others, the schema, the SDKs", async () => {
    const v = release.version;
    assert.equal(JSON.parse(fs.readFileSync(repoPath("package.json"), "utf8")).version, v);
    const names = new Set(Object.values(release.names));
    for (const workspace of WORKSPACES) {
      const manifest = JSON.parse(await fromTar(release.npm[workspace], "package/package.json"));
      assert.equal(manifest.version, v, `${manifest.name}`);
      for (const section of ["dependencies", "peerDependencies", "optionalDependencies"])
        for (const [name, range] of Object.entries((manifest[section] ?? {}) as Record<string, string>))
          if (names.has(name)) assert.equal(range, v, `${manifest.name} ${section}.${name}`);
    }
    const schema = JSON.parse(fs.readFileSync(release.schema, "utf8"));
    assert.equal(schema.version, v, "schema.json (from the plugin of the archive)");
    const nodeSdk = JSON.parse(await fromTar(release.nodeSdk, "package/package.json"));
    assert.equal(nodeSdk.version, v, "@pulumi-custody/custody");
    assert.equal(nodeSdk.pulumi?.version, v, "the plugin version the Node.js SDK names");
    assert.equal(nodeSdk.pulumi?.server, schema.pluginDownloadURL);
    const wheelPlugin = JSON.parse(await fromWheel(release.wheel, "pulumi_custody/pulumi-plugin.json"));
    assert.equal(wheelPlugin.version, v, "the plugin version the Python SDK names");
    assert.equal(wheelPlugin.server, schema.pluginDownloadURL);
    const goPlugin = JSON.parse(
      await fromTar(path.join(release.dir, `custody-go-sdk-v${v}.tar.gz`), "./pulumi-plugin.json"),
    );
    assert.equal(goPlugin.version, v, "the plugin version the Go SDK names");
    assert.equal(goPlugin.server, schema.pluginDownloadURL);
    const wheelMeta = await fromWheel(release.wheel, `pulumi_custody-${v}.dist-info/METADATA`);
    assert.match(wheelMeta, new RegExp(`^Version: ${v.replace(/\./g, "\\.")}$`, "m"));
    const sdistMeta = await fromTar(release.sdist, `pulumi_custody-${v}/PKG-INFO`);
    assert.match(sdistMeta, new RegExp(`^Version: ${v.replace(/\./g, "\\.")}$`, "m"));
  });

  it("checksums.txt lists every other artifact once, as `sha256sum` prints it, and `sha256sum -c` verifies it", async () => {
    const lines = fs.readFileSync(release.checksums, "utf8").trimEnd().split("\n");
    const listed = lines.map((line) => {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      assert.ok(match, `a sha256sum line: ${line}`);
      return match[2] as string;
    });
    const others = fs.readdirSync(release.dir).filter((f) => !f.startsWith(".") && f !== "checksums.txt");
    assert.deepEqual([...listed].sort(), others.sort());

    const { stdout } = await execFileAsync("sha256sum", ["-c", "checksums.txt"], { cwd: release.dir });
    assert.equal(
      stdout
        .trim()
        .split("\n")
        .filter((l) => / OK$/.test(l)).length,
      others.length,
    );

    // The check is not vacuous: a changed file fails it.
    const copy = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-checksums-"));
    try {
      for (const file of ["checksums.txt", "schema.json"])
        await fs.promises.copyFile(path.join(release.dir, file), path.join(copy, file));
      await fs.promises.appendFile(path.join(copy, "schema.json"), " ");
      const failed = await execFileAsync("sha256sum", ["-c", "--ignore-missing", "checksums.txt"], {
        cwd: copy,
      }).then(
        () => "",
        (err: { stdout: string }) => err.stdout,
      );
      assert.match(failed, /^schema\.json: FAILED$/m);
    } finally {
      await fs.promises.rm(copy, { recursive: true, force: true });
    }
  });

  it("the Python wheel ships a README and the project's links (METADATA)", async () => {
    const metadata = await fromWheel(release.wheel, `pulumi_custody-${release.version}.dist-info/METADATA`);
    assertPythonMetadata(metadata, "wheel METADATA", release, repository);
  });

  it("the Python sdist ships the README, pyproject.toml and the same metadata (PKG-INFO)", async () => {
    const root = `pulumi_custody-${release.version}`;
    const { stdout } = await execFileAsync("tar", ["-tzf", release.sdist]);
    const members = stdout.trim().split("\n");
    for (const file of ["README.md", "pyproject.toml", "LICENSE", "PKG-INFO"])
      assert.ok(members.includes(`${root}/${file}`), `the sdist has ${file}`);
    assertPythonMetadata(
      await fromTar(release.sdist, `${root}/PKG-INFO`),
      "sdist PKG-INFO",
      release,
      repository,
    );
    assert.match(await fromTar(release.sdist, `${root}/README.md`), /^# `pulumi_custody`: the Python SDK/m);
  });

  it("the Node.js SDK's README says how to install the plugin from a file, without network", async () => {
    const readme = await fromTar(release.nodeSdk, "package/README.md");
    assert.match(readme, /^# `@pulumi-custody\/custody`: the Node\.js SDK/m);
    assert.match(readme, /no resource plugin\s+'pulumi-resource-custody' found/);
    assertSaysInstallFromFile(readme, release.version, "@pulumi-custody/custody README.md");
  });
});
