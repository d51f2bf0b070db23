/**
 * The product as users get it, for the end-to-end tests: the release artifacts (`scripts/release-artifacts.sh`:
 * each package's `npm pack`, the plugin archive, the SDKs generated from the plugin's schema) and projects
 * outside the repository that install them as users do, from those files.
 *
 * Both are made once for what they are made of, not once per process, so that the suites can run side by side
 * and a run pays for one release build and one `npm install`: the release script rebuilds only what changed
 * (and runs one at a time), and the installed project is kept under the hash of what it installs
 * ({@link installedProject}).
 *
 * @module
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { CustodyClient } from "@pulumi-custody/sdk";
import { pulumiCli, repoPath, runRepoScript } from "./pulumi-engine";

const execFileAsync = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The workspaces of the repository, by folder: the packages a release publishes to npm. */
export const WORKSPACES = ["sdk", "emulator", "provider", "policy", "plugin", "cli"] as const;

/** One of {@link WORKSPACES}. */
export type Workspace = (typeof WORKSPACES)[number];

/** What a release publishes, as files. */
export interface ReleaseArtifacts {
  /** The directory holding every artifact. */
  dir: string;
  /** The version of every package, the plugin and its SDKs. */
  version: string;
  /** The `npm pack` tarball of each package, by workspace folder. */
  npm: Record<Workspace, string>;
  /** The npm name of each package, by workspace folder. */
  names: Record<Workspace, string>;
  /** The plugin archive for this machine's platform (`pulumi plugin install --file`). */
  pluginArchive: string;
  /** The plugin's schema as `pulumi package get-schema` prints it. */
  schema: string;
  /** The compiled Node.js SDK, packed (`@pulumi-custody/custody`). */
  nodeSdk: string;
  /** The Python SDK's wheel (`pulumi_custody`). */
  wheel: string;
  /** The Python SDK's sdist. */
  sdist: string;
  /** The sha256 of every artifact, as `sha256sum` prints them. */
  checksums: string;
}

let artifacts: Promise<ReleaseArtifacts> | undefined;

/** The release artifacts, built once per process (the script itself skips what is up to date). */
export function releaseArtifacts(): Promise<ReleaseArtifacts> {
  artifacts ??= buildArtifacts();
  return artifacts;
}

async function buildArtifacts(): Promise<ReleaseArtifacts> {
  const dir = await runRepoScript("release-artifacts.sh");
  const manifest = (workspace: string) =>
    JSON.parse(fs.readFileSync(repoPath(workspace, "package.json"), "utf8")) as {
      name: string;
      version: string;
    };
  // The one version of a release (scripts/stamp-version.js stamps it on every package).
  const version = manifest(".").version;
  const npmTarballs = {} as Record<Workspace, string>;
  const names = {} as Record<Workspace, string>;
  for (const workspace of WORKSPACES) {
    const { name } = manifest(workspace);
    names[workspace] = name;
    npmTarballs[workspace] = path.join(dir, `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
  }
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  const release: ReleaseArtifacts = {
    dir,
    version,
    npm: npmTarballs,
    names,
    pluginArchive: path.join(dir, `pulumi-resource-custody-v${version}-${process.platform}-${arch}.tar.gz`),
    schema: path.join(dir, "schema.json"),
    nodeSdk: path.join(dir, `pulumi-custody-custody-${version}.tgz`),
    wheel: path.join(dir, `pulumi_custody-${version}-py3-none-any.whl`),
    sdist: path.join(dir, `pulumi_custody-${version}.tar.gz`),
    checksums: path.join(dir, "checksums.txt"),
  };
  for (const file of [
    ...Object.values(npmTarballs),
    release.pluginArchive,
    release.schema,
    release.nodeSdk,
    release.checksums,
  ])
    await fs.promises.access(file).catch(() => {
      throw new Error(`${file} is missing after scripts/release-artifacts.sh`);
    });
  return release;
}

/** The packages of this repository a package depends on, which npm cannot fetch (they are not published). */
const OWN_DEPENDENCIES: Record<Workspace, Workspace[]> = {
  sdk: [],
  emulator: ["sdk"],
  provider: ["sdk"],
  policy: ["provider", "sdk"],
  plugin: ["provider", "sdk"],
  cli: ["provider", "sdk"],
};

/** A project made by {@link installProject}. */
export interface InstalledProject {
  /** Its directory (outside the repository): programs made in it resolve the installed packages. */
  dir: string;
  /** The `node_modules` directory the packages are installed in (in `dir`, or in a folder above it). */
  nodeModules: string;
  /** What `npm install` printed. */
  installLog: string;
  /** The path of an installed bin (`node_modules/.bin/<name>`). */
  bin(name: string): string;
}

/** What {@link installProject} installs. */
export interface InstallOptions {
  /** The packages of this repository, from their tarballs (their own dependencies among them come along). */
  workspaces: readonly Workspace[];
  /** Further dependencies, name to npm spec (a version or a `file:` path). */
  dependencies?: Record<string, string>;
  /** The directory to make; a new temporary one by default. */
  dir?: string;
}

/**
 * A new npm project outside the repository with `workspaces` installed from their release tarballs, as `npm
 * install <file>` installs them: the registry supplies everything else.
 */
export async function installProject(options: InstallOptions): Promise<InstalledProject> {
  const release = await releaseArtifacts();
  const dir = options.dir ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-installed-")));
  made.add(dir);
  await fs.promises.mkdir(dir, { recursive: true });
  const wanted = new Set<Workspace>();
  for (const workspace of options.workspaces) {
    wanted.add(workspace);
    for (const dependency of OWN_DEPENDENCIES[workspace]) wanted.add(dependency);
  }
  const dependencies: Record<string, string> = { ...options.dependencies };
  for (const workspace of wanted) dependencies[release.names[workspace]] = `file:${release.npm[workspace]}`;
  await fs.promises.writeFile(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: path.basename(dir).toLowerCase(), private: true, dependencies }, null, 2)}\n`,
  );
  const install = await execFileAsync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
  return {
    dir,
    installLog: `${install.stdout}\n${install.stderr}`,
    nodeModules: path.join(dir, "node_modules"),
    bin: (name) => path.join(dir, "node_modules", ".bin", name),
  };
}

/** The exact versions of the Pulumi SDK and TypeScript that the tests' programs install. */
export function programToolVersions(): { pulumi: string; typescript: string; typesNode: string } {
  const version = (name: string) =>
    (
      JSON.parse(fs.readFileSync(repoPath("node_modules", name, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  return {
    pulumi: version("@pulumi/pulumi"),
    // The second leg sets the newest TypeScript that @pulumi/pulumi admits (scripts/current-versions.env).
    typescript: process.env.CUSTODY_TEST_TYPESCRIPT ?? version("typescript"),
    typesNode: "^20.19.0",
  };
}

let project: Promise<InstalledProject> | undefined;
/** Folders to delete when the process ends. */
const made = new Set<string>();
process.once("exit", () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The one project every end-to-end suite of the delivered product shares: every package of this repository
 * and the Node.js SDK of the plugin, installed from their release files, with `@pulumi/pulumi` and TypeScript
 * as a `pulumi new typescript` project has them. Programs of the suites live in folders inside it, so that
 * they resolve these packages as a user's program does.
 *
 * The install is made once for what it installs, not once per process: it is kept in the cache directory
 * under the hash of the release files, the tool versions and Node's version ({@link sharedInstall}), so that
 * the suites' processes, run side by side, and the next run share one `npm install`. Each process gets a
 * folder of its own in it (its `dir`, deleted when the process ends), so that what one suite writes there never
 * meets another's; Node.js and TypeScript find the install's `node_modules` in the folder above, as a program in
 * a subfolder of a user's project does. (A link to it would not do: the Pulumi SDK would then serialize a
 * provider as a path into the link instead of `require("pulumi-custody/…")`.)
 */
export function installedProject(): Promise<InstalledProject> {
  project ??= (async () => {
    const release = await releaseArtifacts();
    const tools = programToolVersions();
    const dependencies: Record<string, string> = {
      "@pulumi/pulumi": tools.pulumi,
      "@pulumi-custody/custody": `file:${release.nodeSdk}`,
      typescript: tools.typescript,
      "@types/node": tools.typesNode,
    };
    for (const workspace of WORKSPACES)
      dependencies[release.names[workspace]] = `file:${release.npm[workspace]}`;
    const root = await sharedInstall(
      {
        checksums: await fs.promises.readFile(release.checksums, "utf8"),
        dependencies,
        node: process.version,
      },
      dependencies,
    );
    const dir = await fs.promises.mkdtemp(path.join(root, `run-${process.pid}-`));
    made.add(dir);
    return {
      dir,
      installLog: await fs.promises.readFile(path.join(root, "install.log"), "utf8"),
      nodeModules: path.join(root, "node_modules"),
      bin: (name) => path.join(root, "node_modules", ".bin", name),
    };
  })();
  return project;
}

/**
 * Where {@link sharedInstall} keeps its projects: the temporary directory, not the engine's cache, whose path holds
 * "pulumi-custody". The Pulumi SDK finds an installed package's package.json at the first occurrence of the
 * package's name in its path (`getPackageDefinition` in `@pulumi/pulumi/runtime/closure/package.js`), so a
 * project under such a path serializes `require("pulumi-custody/dist/shims/vault.js")` instead of the
 * `provider-runtime` export these suites check for (provider/test/serialization.test.ts proves that case).
 */
function installCache(): string {
  return path.join(os.tmpdir(), "custody-installed-projects");
}

/** Installs kept after this long unused are deleted by the next one made. */
const INSTALL_KEPT_MS = 2 * 24 * 3600_000;

/**
 * A project with `dependencies` installed, kept in {@link installCache} under the hash of `inputs` (everything
 * the install depends on): made by the first process that asks, under a lock, and found by every later one.
 * Resolves to its directory.
 */
async function sharedInstall(inputs: unknown, dependencies: Record<string, string>): Promise<string> {
  const cache = installCache();
  await fs.promises.mkdir(cache, { recursive: true });
  const key = createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 16);
  const root = path.join(cache, key);
  const ready = () => fs.existsSync(path.join(root, "install.log"));
  if (!ready())
    await withLock(path.join(cache, `${key}.lock`), async () => {
      if (ready()) return;
      // Made beside its final place, then renamed: a process that finds the folder finds it whole.
      const building = `${root}.building-${process.pid}`;
      await fs.promises.rm(building, { recursive: true, force: true });
      await fs.promises.mkdir(building);
      await fs.promises.writeFile(
        path.join(building, "package.json"),
        `${JSON.stringify({ name: "custody-installed", private: true, dependencies }, null, 2)}\n`,
      );
      const install = await execFileAsync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline"], {
        cwd: building,
        maxBuffer: 16 * 1024 * 1024,
      });
      await fs.promises.writeFile(path.join(building, "install.log"), `${install.stdout}\n${install.stderr}`);
      await fs.promises.rename(building, root);
      await pruneInstalls(cache, key);
    });
  const now = new Date();
  await fs.promises.utimes(root, now, now);
  // Folders of processes that were killed before their exit handler ran.
  for (const entry of await fs.promises.readdir(root)) {
    const pid = /^run-(\d+)-/.exec(entry)?.[1];
    if (pid && !processAlive(Number(pid)))
      await fs.promises.rm(path.join(root, entry), { recursive: true, force: true });
  }
  return root;
}

/** Deletes the installs other than `keep` that nobody used for {@link INSTALL_KEPT_MS}. */
async function pruneInstalls(cache: string, keep: string): Promise<void> {
  for (const entry of await fs.promises.readdir(cache, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const dir = path.join(cache, entry.name);
    const stale = Date.now() - (await fs.promises.stat(dir)).mtimeMs > INSTALL_KEPT_MS;
    const orphan = /\.building-(\d+)$/.exec(entry.name);
    if (stale || (orphan && !processAlive(Number(orphan[1]))))
      await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `fn` holding the lock `lockDir` (a directory: `mkdir` is atomic); a lock whose process is gone is taken
 * over.
 */
async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await fs.promises.mkdir(lockDir);
      await fs.promises.writeFile(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(await fs.promises.readFile(path.join(lockDir, "pid"), "utf8").catch(() => "0"));
      if (holder > 0 && !processAlive(holder))
        await fs.promises.rm(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.promises.rm(lockDir, { recursive: true, force: true });
  }
}

/**
 * Installs the plugin from its release archive into the `PULUMI_HOME` of `stack`, as a user without network
 * access does (`pulumi plugin install resource custody <version> --file <archive>`); the engine then finds it
 * by the version the SDKs name.
 */
export async function installPluginFromArchive(stack: Stack): Promise<void> {
  const release = await releaseArtifacts();
  await pulumiCli(
    stack,
    ["plugin", "install", "resource", "custody", release.version, "--file", release.pluginArchive],
    { onStack: false },
  );
}

/** The pip `pulumi` of the engine's version (scripts/install-python-deps.sh pins the same). */
const PULUMI_PIP_VERSION = process.env.PULUMI_PIP_VERSION ?? "3.248.0";

/**
 * A new virtualenv in `dir` with the Python SDK's wheel installed by pip, as a user installs it
 * (`pip install pulumi_custody`); pip takes `pulumi` and the SDK's other dependencies from PyPI.
 */
export async function virtualenvWithWheel(dir: string): Promise<string> {
  const release = await releaseArtifacts();
  await execFileAsync(process.env.PYTHON ?? "python3", ["-m", "venv", dir]);
  await execFileAsync(
    path.join(dir, "bin", "python"),
    [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      release.wheel,
      `pulumi==${PULUMI_PIP_VERSION}`,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return dir;
}

/**
 * `PATH` for a stack of the delivered product: the engine's directory and the machine's `PATH`, without any
 * `node_modules/.bin` (npm puts this repository's bins there, the plugin's among them, and a user's machine has
 * none of them).
 */
export function userPath(engineBinDir: string): string {
  const machine = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !dir.split(path.sep).includes("node_modules"));
  return [engineBinDir, ...machine].join(path.delimiter);
}

/** An emulator started from an installed package's bin, and a client of it (this repository's sdk). */
export interface InstalledEmulator {
  /** Its API's base URL. */
  baseUrl: string;
  /** The seeded API user's access token. */
  accessToken: string;
  /** A client of its API. */
  client: CustodyClient;
  /** Stops the client and the emulator. */
  stop(): Promise<void>;
}

/** Starts `custody-emulator` from `project`'s node_modules on a free loopback port. */
export async function startInstalledEmulator(project: InstalledProject): Promise<InstalledEmulator> {
  const child: ChildProcess = spawn(project.bin("custody-emulator"), ["--host", "127.0.0.1", "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`custody-emulator exited with ${code}: ${err}`)));
  });
  const info = JSON.parse(line) as { baseUrl: string; accessToken: string };
  const client = new CustodyClient({
    baseUrl: info.baseUrl,
    accessToken: info.accessToken,
    requestsPerMinute: 0,
  });
  return {
    ...info,
    client,
    async stop() {
      await client.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
