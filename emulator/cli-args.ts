/** Parses the `custody-emulator` command line into emulator options, with a clear message per bad flag. */
import { parseArgs } from "node:util";
import { checkPublicUrl, type EmulatorOptions } from "./start-emulator";

export const USAGE = `Usage: custody-emulator [options]

A local, stateful custody API v0.2.0 server for tests and demos.

Options:
  --host <host>            interface to listen on (default 127.0.0.1)
  --port <port>            port, 0 for any free port (default 8787)
  --public-url <url>       base of the links it hands out (an export's download_url), when clients
                           reach it at another address (default: the address it listens on)
  --state-file <file>      persist state to this JSON file and load it on start
  --state-write-delay <ms> wait for changes no request waits for, before writing them (default 50);
                           an acknowledged write is always on disk before its answer
  --seed <default|empty>   seed data of a fresh state (default default)
  --latency-ms <ms>        latency added to every /api/v1 response (default 0)
  --fault-rate <p>         probability in [0,1] of a random fault per request (default 0)
  --fault-seed <seed>      seed of the fault sequence (default 0)
  --rate-limit <n>         requests per 60 s per token, 0 = unlimited (default 0)
  --progression <mode>     transaction progression: immediate|manual|clock (default immediate)
  --data-seed <seed>       seed of new record ids (default custody-emulator)
  --print-credentials      add the API user's private key (apiUserPrivateKeyPem) to the JSON line
  --credentials-file <file>
                           write every credential, the private key included, to this JSON file
                           (mode 0600, replaced if it exists) before printing the JSON line
  -h, --help               show this help

Once listening it prints one JSON line on stdout:
  {"baseUrl", "accessToken", "webhookPublicKeyPem", "controlToken", "viewerAccessToken"}
The API user's private key is printed only with --print-credentials, or written with --credentials-file.
SIGINT or SIGTERM stops it cleanly (the state file is written a last time).`;

/** A command-line mistake; the CLI prints the message and exits with status 2. */
export class UsageError extends Error {}

function int(flag: string, value: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${flag} must be an integer, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** What the command line asks for besides the emulator's options: where its credentials go. */
export interface CliOutput {
  /** `--print-credentials`: the JSON line carries `apiUserPrivateKeyPem`. */
  printCredentials: boolean;
  /** `--credentials-file`: every credential is written there, mode 0600. */
  credentialsFile?: string;
}

/** `{ help: true }` for --help, else the options. Throws `UsageError`. */
export function parseCliArgs(
  argv: string[],
): { help: true } | ({ help: false; options: EmulatorOptions } & CliOutput) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "public-url": { type: "string" },
        "state-file": { type: "string" },
        "state-write-delay": { type: "string" },
        seed: { type: "string" },
        "latency-ms": { type: "string" },
        "fault-rate": { type: "string" },
        "fault-seed": { type: "string" },
        "rate-limit": { type: "string" },
        progression: { type: "string" },
        "data-seed": { type: "string" },
        "print-credentials": { type: "boolean" },
        "credentials-file": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return { help: true };
  const options: EmulatorOptions = { host: "127.0.0.1", port: 8787 };
  const s = (k: string) => values[k] as string | undefined;
  if (s("host") !== undefined) {
    if (!s("host")) throw new UsageError("--host must not be empty");
    options.host = s("host");
  }
  if (s("port") !== undefined) options.port = int("port", s("port")!, 0, 65535);
  if (s("public-url") !== undefined) {
    try {
      options.publicUrl = checkPublicUrl(s("public-url")!, "--public-url");
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (s("state-file") !== undefined) {
    if (!s("state-file")) throw new UsageError("--state-file must not be empty");
    options.stateFile = s("state-file");
  }
  if (s("state-write-delay") !== undefined) {
    options.persistDebounceMs = int("state-write-delay", s("state-write-delay")!, 0, 3_600_000);
  }
  if (s("seed") !== undefined) {
    if (s("seed") !== "default" && s("seed") !== "empty") {
      throw new UsageError(`--seed must be 'default' or 'empty', got '${s("seed")}'`);
    }
    options.seed = s("seed") as "default" | "empty";
  }
  if (s("latency-ms") !== undefined) options.latencyMs = int("latency-ms", s("latency-ms")!, 0, 600_000);
  if (s("fault-rate") !== undefined) {
    const p = Number(s("fault-rate"));
    if (!/^\d*\.?\d+$/.test(s("fault-rate")!) || !(p >= 0 && p <= 1)) {
      throw new UsageError(`--fault-rate must be a number between 0 and 1, got '${s("fault-rate")}'`);
    }
    options.faultRate = p;
  }
  if (s("fault-seed") !== undefined) options.faultSeed = s("fault-seed");
  if (s("rate-limit") !== undefined)
    options.rateLimit = int("rate-limit", s("rate-limit")!, 0, 1_000_000_000);
  if (s("progression") !== undefined) {
    const mode = s("progression");
    if (mode !== "immediate" && mode !== "manual" && mode !== "clock") {
      throw new UsageError(`--progression must be immediate, manual or clock, got '${mode}'`);
    }
    options.transactionProgression = mode;
  }
  if (s("data-seed") !== undefined) options.dataSeed = s("data-seed");
  const output: CliOutput = { printCredentials: values["print-credentials"] === true };
  if (s("credentials-file") !== undefined) {
    if (!s("credentials-file")) throw new UsageError("--credentials-file must not be empty");
    output.credentialsFile = s("credentials-file");
  }
  return { help: false, options, ...output };
}
