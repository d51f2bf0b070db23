#!/usr/bin/env node
/**
 * `custody-emulator`: runs the emulator until SIGINT or SIGTERM. Exit status: 0 after a clean stop,
 * 1 when it cannot start (state file, port), 2 for a command-line mistake.
 */
import { parseCliArgs, USAGE, UsageError } from "./cli-args";
import { startEmulator } from "./start-emulator";
import { StateFileError } from "./state/persistence";

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
  process.stdout.write(
    `${JSON.stringify({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      apiUserPrivateKeyPem: emulator.apiUserPrivateKeyPem,
      webhookPublicKeyPem: emulator.webhookPublicKeyPem,
      controlToken: emulator.controlToken,
      viewerAccessToken: emulator.viewerAccessToken,
    })}\n`,
  );
  process.stderr.write(`custody-emulator: listening on ${emulator.baseUrl}\n`);
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
