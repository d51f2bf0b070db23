#!/usr/bin/env node
/**
 * `custody-emulator`: runs the emulator until SIGINT or SIGTERM. Exit status: 0 after a clean stop,
 * 1 when it cannot start (state file, port, credentials file), 2 for a command-line mistake.
 *
 * The JSON line on stdout carries what a client needs to connect; the API user's private key only with
 * `--print-credentials` (stdout often ends up in CI logs), or in the `--credentials-file`, mode 0600.
 */
import { type CliOutput, parseCliArgs, USAGE, UsageError } from "./cli-args";
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

/** The startup message on stderr: where the emulator listens and how to get the private key. */
function startupMessage(emulator: RunningEmulator, output: CliOutput): string {
  const lines = [`custody-emulator: listening on ${emulator.baseUrl}`];
  if (output.credentialsFile)
    lines.push(
      `custody-emulator: credentials, the API user's private key included, written to ${output.credentialsFile} (mode 0600)`,
    );
  else if (!output.printCredentials)
    lines.push(
      "custody-emulator: the API user's private key is not printed; start with --print-credentials to add it " +
        "to the JSON line, or --credentials-file <file> to write it to a file only you can read",
    );
  return `${lines.join("\n")}\n`;
}

async function main(): Promise<number | undefined> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(
      `custody-emulator: ${err.message}\nRun 'custody-emulator --help' for the options.\n`,
    );
    return 2;
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
  process.stdout.write(
    `${JSON.stringify({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      ...(parsed.printCredentials ? { apiUserPrivateKeyPem: emulator.apiUserPrivateKeyPem } : {}),
      webhookPublicKeyPem: emulator.webhookPublicKeyPem,
      controlToken: emulator.controlToken,
      viewerAccessToken: emulator.viewerAccessToken,
    })}\n`,
  );
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
