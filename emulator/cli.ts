#!/usr/bin/env node
/**
 * `custody-emulator`: runs the emulator until SIGINT or SIGTERM. Exit status: 0 after a clean stop,
 * 1 when it cannot start (state file, port, credentials file), 2 for a command-line mistake.
 *
 * The JSON line on stdout carries what a client needs to connect; the API user's private key only with
 * `--print-credentials` (stdout often ends up in CI logs). With `--credentials-file` every credential goes to
 * that file, mode 0600, and the line carries no token. A warning on stderr (from `startEmulator`) says when
 * the emulator listens on an address other machines can reach.
 */
import {
  type CliOutput,
  CONTROL_TOKEN_ENV,
  parseCliArgs,
  parseRotateTokenArgs,
  ROTATE_TOKEN_USAGE,
  type RotateTokenCommand,
  USAGE,
  UsageError,
} from "./cli-args";
import { EmulatorControlClient, EmulatorControlError } from "./control/client";
import { type RunningEmulator, startEmulator } from "./start-emulator";
import { StateFileError, writeFileAtomic } from "./state/persistence";

/** Writes every credential of `emulator` to `file`, readable by its owner only; rejects naming the file. */
async function writeCredentialsFile(file: string, emulator: RunningEmulator): Promise<void> {
  const credentials = {
    baseUrl: emulator.baseUrl,
    accessToken: emulator.accessToken,
    viewerAccessToken: emulator.viewerAccessToken,
    controlToken: emulator.controlToken,
    apiUserPrivateKeyPem: emulator.apiUserPrivateKeyPem,
    apiUserPublicKeyPem: emulator.apiUserPublicKeyPem,
    webhookPublicKeyPem: emulator.webhookPublicKeyPem,
  };
  try {
    // A new file (created 0600, then renamed over the old one), so an existing file's wider mode is not kept.
    await writeFileAtomic(file, `${JSON.stringify(credentials, null, 2)}\n`, `${process.pid}.credentials`);
  } catch (err) {
    throw new Error(
      `cannot write credentials file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/**
 * The JSON line on stdout. With a credentials file it leaves out every token (the control token reads all
 * state and rotates tokens; stdout often ends up in CI logs) and names the file instead.
 */
function stdoutLine(emulator: RunningEmulator, output: CliOutput): string {
  if (output.credentialsFile)
    return JSON.stringify({
      baseUrl: emulator.baseUrl,
      webhookPublicKeyPem: emulator.webhookPublicKeyPem,
      credentialsFile: output.credentialsFile,
    });
  return JSON.stringify({
    baseUrl: emulator.baseUrl,
    accessToken: emulator.accessToken,
    ...(output.printCredentials ? { apiUserPrivateKeyPem: emulator.apiUserPrivateKeyPem } : {}),
    webhookPublicKeyPem: emulator.webhookPublicKeyPem,
    controlToken: emulator.controlToken,
    viewerAccessToken: emulator.viewerAccessToken,
  });
}

/** The startup message on stderr: where the emulator listens and how to get the private key. */
function startupMessage(emulator: RunningEmulator, output: CliOutput): string {
  const lines = [`custody-emulator: listening on ${emulator.baseUrl}`];
  if (output.credentialsFile)
    lines.push(
      `custody-emulator: the tokens (access, viewer, control) and the API user's private key are written to ` +
        `${output.credentialsFile} (mode 0600), not printed`,
    );
  else if (!output.printCredentials)
    lines.push(
      "custody-emulator: the API user's private key is not printed; start with --print-credentials to add it " +
        "to the JSON line, or --credentials-file <file> to write it to a file only you can read",
    );
  return `${lines.join("\n")}\n`;
}

/** Prints a command-line mistake; the caller exits with status 2. */
function usageMistake(err: unknown, help: string): number {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`custody-emulator: ${err.message}\nRun '${help}' for the options.\n`);
  return 2;
}

/** `custody-emulator rotate-token`: rotates a running emulator's token through its control API. */
async function rotateToken(command: RotateTokenCommand): Promise<number> {
  const control = new EmulatorControlClient({ baseUrl: command.url, controlToken: command.controlToken });
  let token: string;
  try {
    token = await control.rotateToken(command.token);
  } catch (err) {
    const reason =
      err instanceof EmulatorControlError
        ? err.status === 401
          ? `the emulator at ${command.url} refused the control token; set ${CONTROL_TOKEN_ENV} to the controlToken it printed when it started`
          : `the emulator at ${command.url} answered HTTP ${err.status}: ${err.message}`
        : `cannot reach the emulator at ${command.url}: ${
            (err as { cause?: { code?: string }; code?: string }).cause?.code ??
            (err as { code?: string }).code ??
            (err as Error).message
          }`;
    process.stderr.write(`custody-emulator: ${reason}\n`);
    return 1;
  }
  process.stdout.write(`${token}\n`);
  process.stderr.write(
    `custody-emulator: rotated the ${command.token === "access" ? "API user's" : "viewer's"} token; the old one now answers 401\n`,
  );
  return 0;
}

async function main(): Promise<number | undefined> {
  const argv = process.argv.slice(2);
  if (argv[0] === "rotate-token") {
    let command: ReturnType<typeof parseRotateTokenArgs>;
    try {
      command = parseRotateTokenArgs(argv.slice(1), process.env);
    } catch (err) {
      return usageMistake(err, "custody-emulator rotate-token --help");
    }
    if (command.help) {
      process.stdout.write(`${ROTATE_TOKEN_USAGE}\n`);
      return 0;
    }
    return rotateToken(command);
  }
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (err) {
    return usageMistake(err, "custody-emulator --help");
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(parsed.options);
  } catch (err) {
    const message =
      err instanceof StateFileError
        ? err.message
        : `custody-emulator: cannot start: ${(err as Error).message}`;
    process.stderr.write(`${message}\n`);
    return 1;
  }
  if (parsed.credentialsFile) {
    try {
      await writeCredentialsFile(parsed.credentialsFile, emulator);
    } catch (err) {
      await emulator.close();
      process.stderr.write(`custody-emulator: ${(err as Error).message}\n`);
      return 1;
    }
  }
  process.stdout.write(`${stdoutLine(emulator, parsed)}\n`);
  process.stderr.write(startupMessage(emulator, parsed));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`custody-emulator: ${signal} again, exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    emulator.close().then(
      () => {
        process.stderr.write(`custody-emulator: stopped (${signal})\n`);
        process.exit(0);
      },
      (err: Error) => {
        process.stderr.write(`custody-emulator: error while stopping: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`custody-emulator: ${err.stack ?? err.message}\n`);
    process.exitCode = 1;
  },
);
