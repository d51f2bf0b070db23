/**
 * Runs the emulator's built command line (`custody-emulator`) as a child process for tests of the command line, signals
 * and persistence. Every process started here must be stopped by the test (`stop()` or `kill()`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";

/** The emulator package's command line (`dist/cli.js`, which its `custody-emulator` bin runs). */
export const CLI_PATH = path.join(
  path.dirname(require.resolve("@pulumi-custody/emulator/package.json")),
  "dist",
  "cli.js",
);

/** The line the CLI prints once listening, by default (the private key is printed only on request). */
export interface CliLine {
  baseUrl: string;
  accessToken: string;
  webhookPublicKeyPem: string;
  controlToken: string;
  viewerAccessToken: string;
}

/** The line the CLI prints with `--print-credentials`: the default line and the API user's private key. */
export interface CliInfo extends CliLine {
  apiUserPrivateKeyPem: string;
}

/** How {@link startCli} starts the CLI. */
export interface StartCliOptions {
  /** Pass `--print-credentials`, so the line carries the private key tests sign with; default true. */
  printCredentials?: boolean;
  /** How long to wait for the line; default 10 s. */
  timeoutMs?: number;
}

/** A CLI process started by {@link startCli}; the test must stop or kill it. */
export interface CliProcess<Info extends CliLine = CliInfo> {
  child: ChildProcess;
  info: Info;
  stderr(): string;
  /** SIGTERM and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL and wait until the process is gone. */
  kill(): Promise<void>;
}

/**
 * Runs the CLI to completion (for runs that exit by themselves) and returns what it printed; `env` is added
 * to this process's environment.
 */
export async function runCli(
  args: string[],
  timeoutMs = 10_000,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * Starts the CLI on a free loopback port and resolves once it printed its JSON line; with
 * `--print-credentials` unless `printCredentials: false`.
 */
export async function startCli(
  args: string[],
  options?: StartCliOptions & { printCredentials?: true },
): Promise<CliProcess<CliInfo>>;
export async function startCli(
  args: string[],
  options: StartCliOptions & { printCredentials: false },
): Promise<CliProcess<CliLine>>;
export async function startCli(
  args: string[],
  { printCredentials = true, timeoutMs = 10_000 }: StartCliOptions = {},
): Promise<CliProcess<CliLine>> {
  const flags = ["--host", "127.0.0.1", "--port", "0", ...(printCredentials ? ["--print-credentials"] : [])];
  const child = spawn(process.execPath, [CLI_PATH, ...flags, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, "exit");
  const info = await new Promise<CliLine>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`emulator did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(stdout.slice(0, nl)) as CliLine);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code} before listening: ${stderr}`));
    });
  });
  return {
    child,
    info,
    stderr: () => stderr,
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
