/**
 * The custody emulator in its own process (`custody-emulator`, run from the emulator package's build), so that its CPU use never shares an
 * event loop with the client being measured. On 2 cores the client and the server then each have one.
 */
import { spawn } from "node:child_process";
import { EmulatorControlClient } from "@pulumi-custody/emulator";
import { trackChild } from "./children";
import { repoPath } from "./repo";

/** Options of {@link startEmulatorProcess}. */
export interface EmulatorProcessOptions {
  /** Injected latency per API request, in milliseconds. */
  latencyMs: number;
  /** Seed data set; default `default`. */
  seed?: "default" | "empty";
  /** Extra CLI arguments. */
  extraArgs?: string[];
}

/** A running emulator process. */
export interface EmulatorProcess {
  /** `http://127.0.0.1:<port>`, as the emulator prints it (endpoint paths add `/api/v1/...`). */
  baseUrl: string;
  /** Bearer token of the seeded API user. */
  accessToken: string;
  /** Everything the emulator printed on its JSON line (control token, keys, ...). */
  info: Record<string, unknown>;
  /** Its control API (reset, data sets, request log, latency). */
  control: EmulatorControlClient;
  /** Process id, for memory sampling. */
  pid: number;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s). */
  close: () => Promise<void>;
}

/** Starts the emulator CLI on a free loopback port and waits for its JSON line. */
export async function startEmulatorProcess(options: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const args = [
    repoPath("emulator", "dist", "cli.js"),
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--latency-ms",
    String(options.latencyMs),
    // The rate limit is off: the benchmarks measure our code, not the documented quota.
    "--rate-limit",
    "0",
    "--seed",
    options.seed ?? "default",
    ...(options.extraArgs ?? []),
  ];
  const child = trackChild(spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] }));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`emulator did not start within 20 s\n${stderr}`)),
      20_000,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with code ${code} before it was ready\n${stderr}`));
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout!.resume();
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(line) as Record<string, unknown>;
  } catch {
    child.kill("SIGKILL");
    throw new Error(`emulator printed something other than its JSON line: ${line}`);
  }
  const baseUrl = String(info.baseUrl);
  const accessToken = String(info.accessToken);
  return {
    baseUrl,
    accessToken,
    info,
    control: new EmulatorControlClient({ baseUrl, controlToken: String(info.controlToken) }),
    pid: child.pid!,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
