/**
 * What every subcommand of `custody` is: a name, a one-line summary, its usage, and a `run` that returns the
 * exit code. Bad arguments are a {@link UsageError} (exit 2, the usage printed); any other failure is reported
 * as one line, `custody <command>: <message>`, with no stack trace (exit 1).
 */

/** The streams and environment a command runs with (the process's, or a test's). */
export interface CommandIo {
  /** Where results go. */
  readonly stdout: NodeJS.WritableStream;
  /** Where progress and errors go. */
  readonly stderr: NodeJS.WritableStream;
  /** Read when a command takes its input from standard input. */
  readonly stdin: NodeJS.ReadableStream;
  /** The environment (settings such as `CUSTODY_BASE_URL` come from here). */
  readonly env: NodeJS.ProcessEnv;
  /** The working directory. */
  readonly cwd: string;
}

/** One subcommand of `custody`. */
export interface Command {
  /** `review`, `recover`, … */
  readonly name: string;
  /** One line for `custody --help`. */
  readonly summary: string;
  /** The usage lines, shown by `--help` and after a usage error. */
  readonly usage: string;
  /** Runs the command; resolves to the exit code. */
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}

/** Bad arguments: the message says which and why; the usage follows it. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** How a flag is given: alone (`--with-addresses`) or with a value (`--out FILE`, `--out=FILE`). */
export type FlagKind = "boolean" | "string" | "strings";

/** The flags a command accepts, by long name (without `--`); `aliases` maps short forms (`-s`) to them. */
export interface FlagSpec {
  /** Each flag and its kind. */
  readonly flags: Readonly<Record<string, FlagKind>>;
  /** Short forms, e.g. `{ s: "stack" }`. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** How many positional arguments the command takes at most. */
  readonly maxPositionals?: number;
}

/** Parsed arguments: flag values by long name, and the positional arguments. */
export interface ParsedArgs {
  /** `true` for a boolean flag that was given; the last value of a string flag; every value of a list flag. */
  readonly flags: Readonly<Record<string, string | boolean | string[]>>;
  /** Arguments that are not flags, in order (everything after `--` included). */
  readonly positionals: readonly string[];
  /** Whether `--help` or `-h` was given. */
  readonly help: boolean;
}

/** Parses `argv` by `spec`; an unknown flag, a missing value or too many arguments is a {@link UsageError}. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const raw = arg.startsWith("--") ? arg.slice(2, eq < 0 ? undefined : eq) : arg.slice(1);
    const name = arg.startsWith("--") ? raw : spec.aliases?.[raw];
    const kind = name === undefined ? undefined : spec.flags[name];
    if (name === undefined || kind === undefined) throw new UsageError(`unknown option ${arg}`);
    if (kind === "boolean") {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "") throw new UsageError(`option --${name} needs a value`);
    if (kind === "strings") flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else flags[name] = value;
  }
  const max = spec.maxPositionals ?? 0;
  if (positionals.length > max) {
    throw new UsageError(
      max === 0
        ? `unexpected argument ${JSON.stringify(positionals[0])}`
        : `too many arguments (at most ${max}): ${positionals.map((p) => JSON.stringify(p)).join(" ")}`,
    );
  }
  return { flags, positionals, help };
}

/** The text of a readable stream. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
