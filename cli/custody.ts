#!/usr/bin/env node
/**
 * `custody`: the command line of pulumi-custody's GitOps tools, one subcommand per job. Run `custody --help`
 * for the list and `custody <command> --help` for each one's usage.
 */
import { disconnect } from "pulumi-custody/core";
import { type Command, type CommandIo, nearest, UsageError } from "./command";
import { driftCommand } from "./drift/command";
import { importCommand } from "./import/command";
import { importFileCommand } from "./import-file/command";
import { recoverCommand } from "./recover/command";
import { reviewCommand } from "./review/command";
import { environmentSecrets, redactorOf } from "./secrets";
import { escapeControls } from "./shown";

/** Every subcommand, in the order `custody --help` lists them. */
export const COMMANDS: readonly Command[] = [
  reviewCommand,
  driftCommand,
  recoverCommand,
  importCommand,
  importFileCommand,
];

const USAGE = [
  "usage: custody <command> [options]",
  "",
  "commands:",
  ...COMMANDS.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`),
  "",
  "Run `custody <command> --help` for the options of one command.",
].join("\n");

/** Runs `custody` with `argv` (the arguments after `custody`); resolves to the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io[name === undefined ? "stderr" : "stdout"].write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    // Not shown: the first argument may be a value typed without its command. A near miss is named instead.
    const near = nearest(
      name,
      COMMANDS.map((c) => c.name),
    );
    const hint = near ? `did you mean \`${near}\`? ` : "";
    io.stderr.write(
      `custody: unknown command (the first argument, not shown): ${hint}\`custody --help\` lists the commands\n`,
    );
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    // The last guard: whatever a message took from the arguments (or from what `pulumi` printed), no control
    // character of it reaches the terminal or the log; a multi-line message keeps its lines.
    // Nor any form of a secret of the environment (cli/secrets.ts), which what `pulumi` printed may echo.
    const message = escapeControls(
      redactorOf(environmentSecrets(io.env))
        .text(err instanceof Error ? err.message : String(err))
        .replace(/\r\n/g, "\n"),
      "\n\t",
    );
    if (err instanceof UsageError) {
      // One line and where the usage is: the usage itself (40 lines) would bury the line that says what is wrong.
      io.stderr.write(`custody ${command.name}: ${message}; see \`custody ${command.name} --help\`\n`);
      return 2;
    }
    io.stderr.write(`custody ${command.name}: ${message}\n`);
    return 1;
  } finally {
    // No kept-alive connection of a command's client holds the process open.
    await disconnect();
  }
}

/** Runs `custody` with this process's arguments and streams, and sets its exit code (the `custody` bin). */
export function runFromProcess(): void {
  main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) runFromProcess();
