/**
 * Runs the built CLI (`dist/emulator/cli.js`) as a child process for tests of the command line, signals
 * and persistence. Every process started here must be stopped by the test (`stop()` or `kill()`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";

/** `dist/emulator/cli.js`, next to the compiled tests. */
export const CLI_PATH = path.resolve(__dirname, "../../emulator/cli.js");

/** The line the CLI prints once listening. */
export interface CliInfo {
  baseUrl: string;
  accessToken: string;
  apiUserPrivateKeyPem: string;
  webhookPublicKeyPem: string;
  controlToken: string;
  viewerAccessToken: string;
}

/** A CLI process started by {@link startCli}; the test must stop or kill it. */
export interface CliProcess {
  child: ChildProcess;
  info: CliInfo;
  stderr(): string;
  /** SIGTERM and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL and wait until the process is gone. */
  kill(): Promise<void>;
}

/** Runs the CLI to completion (for runs that exit by themselves) and returns what it printed. */
export async function runCli(
  args: string[],
  timeoutMs = 10_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Starts the CLI on a free loopback port and resolves once it printed its JSON line. */
export async function startCli(args: string[], timeoutMs = 10_000): Promise<CliProcess> {
  const child = spawn(process.execPath, [CLI_PATH, "--host", "127.0.0.1", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, "exit");
  const info = await new Promise<CliInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`emulator did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(stdout.slice(0, nl)) as CliInfo);
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
