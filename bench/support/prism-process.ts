/**
 * Prism (`@stoplight/prism-cli`), a stateless OpenAPI mock server, as the reference for the emulator's
 * throughput. `scripts/bench.sh` installs it into a cache outside the repository and passes its path in
 * `CUSTODY_BENCH_PRISM`.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { trackChild } from "./children";
import { freePort } from "./free-port";

/** A running Prism mock server. */
export interface PrismProcess {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Process id. */
  pid: number;
  /** Stops it and removes its temporary files. */
  close: () => Promise<void>;
}

/** The Prism executable from `CUSTODY_BENCH_PRISM`, or undefined with the reason. */
export function prismExecutable(): { path?: string; reason?: string } {
  const exe = process.env.CUSTODY_BENCH_PRISM;
  if (!exe) return { reason: "CUSTODY_BENCH_PRISM is not set (scripts/bench.sh installs Prism and sets it)" };
  if (!fs.existsSync(exe)) return { reason: `CUSTODY_BENCH_PRISM=${exe} does not exist` };
  return { path: exe };
}

/**
 * Starts `prism mock` on `document` (an OpenAPI document, as JSON text) on a free loopback port, in static mode
 * with logging off (`-v silent`): the reference gets its best settings. With `-v warn` Prism prints every
 * violation its own schema-generated example has (e.g. `"string"` for a UUID pattern), dozens per request, and
 * serves 15-20 requests/s instead of 400-600; `--multiprocess` is slower still on 2 cores.
 * Rejects with Prism's own output if it exits or does not answer within 60 s.
 */
export async function startPrism(exe: string, document: string): Promise<PrismProcess> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "pulumi-custody-prism-"));
  const file = path.join(dir, "openapi.json");
  await fs.promises.writeFile(file, document);
  const port = await freePort();
  const child = trackChild(
    spawn(exe, ["mock", "-h", "127.0.0.1", "-p", String(port), "-v", "silent", file], {
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  const cleanup = async () => {
    await stop(child);
    await fs.promises.rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilListening(
      origin,
      () => child.exitCode !== null || child.signalCode !== null,
      () => output,
    );
  } catch (err) {
    await cleanup();
    throw err;
  }
  return { origin, pid: child.pid!, close: cleanup };
}

async function waitUntilListening(
  origin: string,
  exited: () => boolean,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`prism exited before listening:\n${output()}`);
    try {
      await fetch(origin, { signal: AbortSignal.timeout(1000) });
      return; // Any HTTP answer (even a 404) means it listens.
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`prism did not answer on ${origin} within 60 s:\n${output()}`);
}

function stop(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
