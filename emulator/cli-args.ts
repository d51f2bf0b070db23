/** Parses the `custody-emulator` command line into emulator options, with a clear message per bad flag. */
import { parseArgs } from "node:util";
import {
  checkPublicUrl,
  DEFAULT_HEADERS_TIMEOUT_MS,
  type EmulatorOptions,
  MAX_TIMEOUT_MS,
} from "./start-emulator";

/** Usage of `custody-emulator`. */
export const USAGE = `Usage: custody-emulator [options]
       custody-emulator rotate-token [--url <baseUrl>] [--token access|viewer]

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
  --rate-limit <n>         requests per window per token, 0 = unlimited (default 0)
  --rate-limit-window <s>  length of a rate-limit window in seconds, 1 to 86400 (default 60)
  --progression <mode>     transaction progression: immediate|manual|clock (default immediate)
  --data-seed <seed>       seed of new record ids (default custody-emulator)
  --access-token <token>   the API user's bearer token, instead of a generated one; with --state-file
                           it replaces the stored token (the old one answers 401) and keeps the state
  --viewer-access-token <token>
                           the same for the read-only viewer's token
  --allow-public-webhook-targets
                           let POST /webhooks/test send to public addresses too (default: loopback
                           only; any other target is refused with a 422 before anything is sent)
  --allow-private-webhook-targets
                           let POST /webhooks/test send to any address: public, link-local, private,
                           unspecified, multicast and every other special-purpose range
  --headers-timeout <ms>   time a client has to send a request's head; then 408 (default 10000)
  --request-timeout <ms>   time a client has to send a whole request (default 60000)
  --idle-timeout <ms>      time a kept-alive connection may stay idle between requests (default 30000)
  --print-credentials      add the API user's private key (apiUserPrivateKeyPem) to the JSON line
  --credentials-file <file>
                           write every credential, the private key included, to this JSON file
                           (mode 0600, replaced if it exists) before printing the JSON line, and leave
                           the tokens off stdout
  -h, --help               show this help

Once listening it prints one JSON line on stdout:
  {"baseUrl", "accessToken", "webhookPublicKeyPem", "controlToken", "viewerAccessToken"}
The control token reads and resets all state and rotates every token: keep it out of shared logs.
With --credentials-file the line is {"baseUrl", "webhookPublicKeyPem", "credentialsFile"}.
The API user's private key is printed only with --print-credentials, or written with --credentials-file.
A --host other than a loopback address exposes the API and the control API to the network (a warning
says so on stderr); on 0.0.0.0 or :: the JSON line's baseUrl is the loopback address.
SIGINT or SIGTERM stops it cleanly (the state file is written a last time).

'custody-emulator rotate-token --help' tells how to rotate a running emulator's token.`;

/** Usage of `custody-emulator rotate-token`. */
export const ROTATE_TOKEN_USAGE = `Usage: CUSTODY_EMULATOR_CONTROL_TOKEN=<controlToken> custody-emulator rotate-token [options]

Rotates a bearer token of a running emulator and prints the new one on stdout. The old token answers 401
from then on; every record is kept, and a state file holds the new token before this command returns.
The control token comes from the environment, so that it does not show in the process list.

Options:
  --url <baseUrl>          the emulator's base URL (default http://127.0.0.1:8787)
  --token <access|viewer>  which token: the API user's (default) or the read-only viewer's
  -h, --help               show this help`;

/** Environment variable that holds the control token for `custody-emulator rotate-token`. */
export const CONTROL_TOKEN_ENV = "CUSTODY_EMULATOR_CONTROL_TOKEN";

/** A command-line mistake; the CLI prints the message and exits with status 2. */
export class UsageError extends Error {}

function int(flag: string, value: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${flag} must be an integer, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A token given on the command line: it must fit `Authorization: Bearer <token>`. */
function bearerToken(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === "") throw new UsageError(`--${flag} must not be empty`);
  if (!/^[\x21-\x7e]{1,4096}$/.test(value))
    throw new UsageError(`--${flag} must be visible ASCII characters without spaces, at most 4096`);
  return value;
}

/** What the command line asks for besides the emulator's options: where its credentials go. */
export interface CliOutput {
  /** `--print-credentials`: the JSON line carries `apiUserPrivateKeyPem`. */
  printCredentials: boolean;
  /** `--credentials-file`: every credential is written there, mode 0600, and the tokens are left off stdout. */
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
        "rate-limit-window": { type: "string" },
        progression: { type: "string" },
        "data-seed": { type: "string" },
        "access-token": { type: "string" },
        "viewer-access-token": { type: "string" },
        "allow-public-webhook-targets": { type: "boolean" },
        "allow-private-webhook-targets": { type: "boolean" },
        "headers-timeout": { type: "string" },
        "request-timeout": { type: "string" },
        "idle-timeout": { type: "string" },
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
  if (s("rate-limit-window") !== undefined)
    options.rateLimitWindowSeconds = int("rate-limit-window", s("rate-limit-window")!, 1, 86_400);
  if (s("progression") !== undefined) {
    const mode = s("progression");
    if (mode !== "immediate" && mode !== "manual" && mode !== "clock") {
      throw new UsageError(`--progression must be immediate, manual or clock, got '${mode}'`);
    }
    options.transactionProgression = mode;
  }
  if (s("data-seed") !== undefined) options.dataSeed = s("data-seed");
  if (values["allow-public-webhook-targets"] === true) options.allowPublicWebhookTargets = true;
  if (values["allow-private-webhook-targets"] === true) options.allowPrivateWebhookTargets = true;
  if (s("headers-timeout") !== undefined)
    options.headersTimeoutMs = int("headers-timeout", s("headers-timeout")!, 1, MAX_TIMEOUT_MS);
  if (s("request-timeout") !== undefined)
    options.requestTimeoutMs = int("request-timeout", s("request-timeout")!, 1, MAX_TIMEOUT_MS);
  if (s("idle-timeout") !== undefined)
    options.idleTimeoutMs = int("idle-timeout", s("idle-timeout")!, 1, MAX_TIMEOUT_MS);
  if (
    options.requestTimeoutMs !== undefined &&
    options.requestTimeoutMs < (options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS)
  ) {
    throw new UsageError(
      `--request-timeout must be at least --headers-timeout (${options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS}), got ${options.requestTimeoutMs}`,
    );
  }
  const accessToken = bearerToken("access-token", s("access-token"));
  const viewerAccessToken = bearerToken("viewer-access-token", s("viewer-access-token"));
  if (accessToken !== undefined && accessToken === viewerAccessToken)
    throw new UsageError("--access-token and --viewer-access-token must differ");
  if (accessToken !== undefined || viewerAccessToken !== undefined) {
    options.credentials = {
      ...(accessToken !== undefined ? { accessToken } : {}),
      ...(viewerAccessToken !== undefined ? { viewerAccessToken } : {}),
    };
  }
  const output: CliOutput = { printCredentials: values["print-credentials"] === true };
  if (s("credentials-file") !== undefined) {
    if (!s("credentials-file")) throw new UsageError("--credentials-file must not be empty");
    // The file holds the private key; printing it too would undo the point of the file.
    if (output.printCredentials)
      throw new UsageError(
        "--print-credentials and --credentials-file exclude each other: the credentials file holds the private key",
      );
    output.credentialsFile = s("credentials-file");
  }
  return { help: false, options, ...output };
}

/** What `custody-emulator rotate-token` is asked to do. */
export interface RotateTokenCommand {
  /** The emulator's base URL, without a trailing slash. */
  url: string;
  token: "access" | "viewer";
  controlToken: string;
}

/**
 * `{ help: true }` for --help, else the `rotate-token` command; the control token comes from `env`
 * ({@link CONTROL_TOKEN_ENV}). Throws `UsageError`.
 */
export function parseRotateTokenArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { help: true } | ({ help: false } & RotateTokenCommand) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: "string" },
        token: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return { help: true };
  const token = (values.token as string | undefined) ?? "access";
  if (token !== "access" && token !== "viewer")
    throw new UsageError(`--token must be 'access' or 'viewer', got '${token}'`);
  let url: string;
  try {
    url = checkPublicUrl((values.url as string | undefined) ?? "http://127.0.0.1:8787", "--url");
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const controlToken = env[CONTROL_TOKEN_ENV];
  if (!controlToken)
    throw new UsageError(`set ${CONTROL_TOKEN_ENV} to the controlToken the emulator printed when it started`);
  return { help: false, url, token, controlToken };
}
