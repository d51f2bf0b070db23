/**
 * The real Pulumi engine for end-to-end tests.
 *
 * ```ts
 * const stack = await createLocalStack({ projectDir: repoPath("test/fixtures/engine-smoke"), stackName: "t" });
 * try {
 *   await stack.setConfig("custody:apiUrl", { value: url });
 *   const up = await stack.up();
 * } finally {
 *   await disposeLocalStack(stack);
 * }
 * ```
 *
 * The engine comes from `scripts/install-pulumi.sh` (built on first use, which takes minutes: call
 * {@link enginePaths} in a `before` hook with a long timeout). Every stack gets its own state
 * backend, `PULUMI_HOME` and work directory under one temp directory, so tests never touch
 * `~/.pulumi`, the network, or the repository.
 *
 * @module
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import {
  LocalWorkspace,
  type LocalWorkspaceOptions,
  type ProjectSettings,
  PulumiCommand,
  type PulumiFn,
  type Stack,
} from "@pulumi/pulumi/automation";

const execFileAsync = promisify(execFile);

/** Where the engine's executables are. */
export interface EnginePaths {
  /** Directory holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`. */
  binDir: string;
}

/**
 * A directory under `root` holding `pulumi-resource-custody`, a launcher of the built plugin
 * (`plugin/dist/cli.js`): put it on a stack's `PATH` and the engine finds the `custody` provider there, as it
 * finds the `bin` entry of an installed package.
 */
export async function pluginLauncherDir(root: string): Promise<string> {
  const cli = repoPath("plugin", "dist", "cli.js");
  await fs.promises.access(cli).catch(() => {
    throw new Error(`${cli} is missing: run \`npm run build\` first`);
  });
  const bin = path.join(root, "bin");
  await fs.promises.mkdir(bin, { recursive: true });
  await fs.promises.writeFile(
    path.join(bin, "pulumi-resource-custody"),
    `#!/bin/sh\nexec node ${JSON.stringify(cli)} "$@"\n`,
    { mode: 0o755 },
  );
  return bin;
}

/** Options of {@link createLocalStack}. */
export interface LocalStackOptions {
  /**
   * Directory with the project's `Pulumi.yaml`. The program runs from here (its `main`, or the
   * directory itself), so `@pulumi/pulumi` and relative imports resolve as usual; nothing is written
   * here. `Pulumi.<stack>.yaml` files found here are copied as the starting stack config.
   */
  projectDir: string;
  /** Name of the stack to create (a fresh backend, so the name never clashes). */
  stackName: string;
  /**
   * An inline program to run in the test process instead of the project's own. `projectDir` is then
   * only used for the project name (if it has a `Pulumi.yaml`) and as the directory the dynamic
   * providers start in, so it must resolve `@pulumi/pulumi`. Inline programs do not go through
   * `pulumi-language-nodejs`.
   */
  program?: PulumiFn;
  /** Extra environment for the CLI, and through it the program and the providers. Wins over the defaults. */
  envVars?: Record<string, string>;
  /** Use this engine bin directory instead of {@link enginePaths}; meant for testing the harness itself. */
  binDir?: string;
}

const TEMP_PREFIX = "pulumi-custody-e2e-";

/**
 * An absolute path inside the repository, e.g. `repoPath("test/fixtures/engine-smoke")`. Works both
 * from the sources and from the compiled `dist/` copy.
 */
export function repoPath(...segments: string[]): string {
  return path.join(repoRoot(), ...segments);
}

let engine: Promise<EnginePaths> | undefined;

/**
 * Finds the engine, building it if needed (once per process; the script caches across runs).
 *
 * Uses `$PULUMI_CUSTODY_BIN` when set (as `scripts/setup.sh` does); otherwise runs
 * `scripts/install-pulumi.sh`, whose progress is shown on this process's stderr.
 *
 * @throws if `$PULUMI_CUSTODY_BIN` lacks one of the executables, or the script fails.
 */
export function enginePaths(): Promise<EnginePaths> {
  engine ??= locateEngine();
  return engine;
}

/**
 * Creates a stack of the project in `projectDir` on a fresh local backend, run by the engine from
 * {@link enginePaths}. Release it with {@link disposeLocalStack}.
 */
export async function createLocalStack(options: LocalStackOptions): Promise<Stack> {
  const projectDir = path.resolve(options.projectDir);
  const binDir = path.resolve(options.binDir ?? (await enginePaths()).binDir);

  const root = await fs.promises.mkdtemp(path.join(os.tmpdir(), TEMP_PREFIX));
  const [workDir, stateDir, homeDir] = ["work", "state", "home"].map((d) => path.join(root, d));
  for (const dir of [workDir, stateDir, homeDir]) await fs.promises.mkdir(dir);

  const pulumiCommand = await PulumiCommand.get({ root: await commandRoot(binDir, root) });
  const projectSettings = await projectSettingsFor(projectDir, pulumiCommand);
  for (const file of await fs.promises.readdir(projectDir)) {
    if (/^Pulumi\..+\.ya?ml$/.test(file) && !/^Pulumi\.ya?ml$/.test(file)) {
      await fs.promises.copyFile(path.join(projectDir, file), path.join(workDir, file));
    }
  }

  const workspaceOptions: LocalWorkspaceOptions = {
    workDir,
    pulumiHome: homeDir,
    pulumiCommand,
    projectSettings,
    envVars: {
      PULUMI_BACKEND_URL: `file://${stateDir}`,
      PULUMI_HOME: homeDir,
      PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PATH: [binDir, process.env.PATH].filter(Boolean).join(path.delimiter),
      ...options.envVars,
    },
  };
  return options.program
    ? LocalWorkspace.createStack(
        { stackName: options.stackName, projectName: projectSettings.name, program: options.program },
        workspaceOptions,
      )
    : LocalWorkspace.createStack({ stackName: options.stackName, workDir }, workspaceOptions);
}

/**
 * Deletes everything {@link createLocalStack} created for `stack` (state, config, `PULUMI_HOME`).
 * Resources are not destroyed: dynamic resources that talk to a real service should be destroyed first.
 */
export async function disposeLocalStack(stack: Stack): Promise<void> {
  const root = path.dirname(stack.workspace.workDir);
  // Guard against deleting anything this module did not create.
  if (!path.basename(root).startsWith(TEMP_PREFIX)) {
    throw new Error(`not a stack made by createLocalStack: ${stack.workspace.workDir}`);
  }
  await fs.promises.rm(root, { recursive: true, force: true });
}

async function locateEngine(): Promise<EnginePaths> {
  const fromEnv = process.env.PULUMI_CUSTODY_BIN;
  if (fromEnv) {
    const binDir = path.resolve(fromEnv);
    for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
      try {
        await fs.promises.access(path.join(binDir, exe), fs.constants.X_OK);
      } catch {
        throw new Error(
          `PULUMI_CUSTODY_BIN=${fromEnv} has no executable ${exe}; unset it or run scripts/install-pulumi.sh`,
        );
      }
    }
    return { binDir };
  }

  const script = repoPath("scripts", "install-pulumi.sh");
  const binDir = await runRepoScript("install-pulumi.sh");
  if (!path.isAbsolute(binDir))
    throw new Error(`${script} printed no bin directory (last line: ${JSON.stringify(binDir)})`);
  return { binDir };
}

/**
 * Runs `scripts/<name>` with bash, its progress on this process's stderr; resolves to the last line it printed
 * on stdout (the scripts print their result there: a directory).
 */
export function runRepoScript(name: string): Promise<string> {
  const script = repoPath("scripts", name);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(out.trim().split("\n").pop() ?? "")
        : reject(new Error(`${script} exited with code ${code} (its output is above)`)),
    );
  });
}

/** `PulumiCommand.get({ root })` runs `<root>/bin/pulumi`; give it a root whose `bin` is `binDir`. */
async function commandRoot(binDir: string, tempRoot: string): Promise<string> {
  if (path.basename(binDir) === "bin") return path.dirname(binDir);
  const root = path.join(tempRoot, "cli");
  await fs.promises.mkdir(root);
  await fs.promises.symlink(binDir, path.join(root, "bin"));
  return root;
}

/**
 * The project's settings, with `main` made absolute: the stack's work directory is a temp dir (it
 * receives `Pulumi.<stack>.yaml`), while the program must still run from the project.
 */
async function projectSettingsFor(
  projectDir: string,
  pulumiCommand: PulumiCommand,
): Promise<ProjectSettings> {
  let settings: ProjectSettings;
  try {
    settings = await (await LocalWorkspace.create({ workDir: projectDir, pulumiCommand })).projectSettings();
  } catch (err) {
    if (!String(err).includes("failed to find project settings")) throw err;
    // Inline programs may do without a Pulumi.yaml.
    settings = { name: path.basename(projectDir).replace(/[^A-Za-z0-9_.-]/g, "-"), runtime: "nodejs" };
  }
  return { ...settings, main: path.resolve(projectDir, settings.main ?? ".") };
}

function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "scripts", "install-pulumi.sh"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no scripts/install-pulumi.sh above ${__dirname}`);
  }
}

/** How {@link pulumiCli} runs the CLI. */
export interface CliOptions {
  /** Directory to run in; the stack's work directory by default. */
  cwd?: string;
  /** Whether to add `--stack <name>` (true by default); commands without a stack (`pulumi install`) need false. */
  onStack?: boolean;
}

/**
 * Runs the Pulumi CLI as a user would, non-interactively, with the stack's CLI, `PULUMI_HOME` and environment.
 * Rejects when it exits non-zero; the error carries `stdout` and `stderr`.
 */
export async function pulumiCli(
  stack: Stack,
  args: string[],
  options: CliOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const ws = stack.workspace;
  const env = { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars };
  const stackArgs = options.onStack === false ? [] : ["--stack", stack.name];
  return execFileAsync(ws.pulumiCommand.command, [...args, ...stackArgs, "--non-interactive"], {
    cwd: options.cwd ?? ws.workDir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
}
