/**
 * What every subcommand of `custody` is: a name, a one-line summary, its usage, and a `run` that returns the
 * exit code. Bad arguments are a {@link UsageError} (exit 2): one line, `custody <command>: <message>; see
 * \`custody <command> --help\``; any other failure is reported as one line, `custody <command>: <message>`,
 * with no stack trace (exit 1).
 */
import { shownText } from "./shown";

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
  /** The usage lines, shown by `--help` (a usage error points to it). */
  readonly usage: string;
  /** Runs the command; resolves to the exit code. */
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}

/** Bad arguments: the message says which and why, in one line that points to `--help`. */
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

/** Option names that look like a credential: the hint says where a token goes instead. */
const SECRET_NAME = /token|secret|password|passphrase|api-?key|credential/i;

/**
 * How a refused option is named: `--name` only, cut at `=` (what follows may be a value, a token typed into
 * the wrong flag), escaped and bounded; a short option by its letter alone, since `-tVALUE` joins the value.
 */
function refusedOption(arg: string): string {
  if (arg.startsWith("--")) {
    const eq = arg.indexOf("=");
    return `--${shownText(arg.slice(2, eq < 0 ? undefined : eq))}`;
  }
  const [letter = ""] = arg.slice(1);
  return `-${shownText(letter)}${arg.length > 2 ? "…" : ""}`;
}

/** What follows `unknown option X`: where a token goes, the flag it may have meant, or how options are written. */
function unknownOptionHint(arg: string, spec: FlagSpec): string {
  const name = arg.startsWith("--") ? arg.slice(2).split("=")[0]! : "";
  if (SECRET_NAME.test(name))
    return (
      ": a token is never taken from the command line (other users of the machine, and CI logs, see it); " +
      "set CUSTODY_ACCESS_TOKEN, or the stack's custody:accessToken with `pulumi config set --secret`"
    );
  if (!arg.startsWith("--") && arg.length > 2)
    return ": a short option is one letter on its own, its value the next argument (-s NAME); long options start with --";
  const near = name === "" ? undefined : nearest(name, Object.keys(spec.flags));
  return near ? `: did you mean --${near}?` : "";
}

/** The candidate nearest to `word` (at most two edits away), to suggest for a typo; `undefined` if none. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const distance = editDistance(candidate, word);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** The Levenshtein distance of two short strings (`Infinity` when far apart in length), for {@link nearest}. */
function editDistance(a: string, b: string): number {
  // Anything far longer than a name is no typo of one (and is not worth the quadratic table).
  if (Math.abs(a.length - b.length) > 2 || a.length > 64 || b.length > 64) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * Parses `argv` by `spec`; an unknown flag, a missing value or too many arguments is a {@link UsageError}.
 * A refused argument is named (the option's name, the argument's position), never shown: it may be a value,
 * such as a token typed into the wrong flag, and the message goes to a log.
 */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  // Where each positional argument stood in argv (1-based), to name a refused one without showing it.
  const positions: number[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      positions.push(...argv.slice(i + 1).map((_, k) => i + 2 + k));
      break;
    }
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      positions.push(i + 1);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, eq < 0 ? undefined : eq) : spec.aliases?.[arg.slice(1)];
    const kind = name === undefined ? undefined : spec.flags[name];
    if (name === undefined || kind === undefined)
      throw new UsageError(`unknown option ${refusedOption(arg)}${unknownOptionHint(arg, spec)}`);
    if (kind === "boolean") {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const next = argv[i + 1];
    // `--out --access-token=…` lacks the value of --out: taking the next option as it would write a file
    // named after a token, and print that name.
    if (eq < 0 && next?.startsWith("--"))
      throw new UsageError(
        `option --${name} needs a value, and the next argument is an option (a value that starts with -- is ` +
          `written --${name}=VALUE)`,
      );
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "") throw new UsageError(`option --${name} needs a value`);
    if (kind === "strings") flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else flags[name] = value;
  }
  const max = spec.maxPositionals ?? 0;
  if (positionals.length > max) {
    const where = positions[max]!;
    // The argument is named by its position only: it may be a value given without its flag.
    throw new UsageError(
      max === 0
        ? `unexpected argument ${where} (counted after the command; not shown, as it may be a secret): ` +
            "this command takes options only"
        : `too many arguments: at most ${max}, and argument ${where} (counted after the command; not shown, ` +
            "as it may be a secret) is one too many",
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
