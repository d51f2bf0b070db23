/**
 * The part `custody import` and `custody import-file` share: which stacks to read (the one imported into and
 * any others named), the API settings (that stack's config, else the environment), a client paced by the
 * service's announced quota, the selection, and its report.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UTXO_CHAIN_IDS, VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import { type CustodySettings, connect, SETTINGS } from "pulumi-custody/core";
import type { CommandIo, ParsedArgs } from "../command";
import { escapeControls, shownPath, shownText, shownValue } from "../shown";
import { describeFilter, filterFromArgs, type ImportFilter } from "./filter";
import { type ImportProvider, type LeftOut, type Selection, selectForImport } from "./select";
import { withSplitGroup } from "./split-groups";
import {
  exportStack,
  holdingsOf,
  type PulumiRun,
  runPulumi,
  type StackHoldings,
  stackCustodyConfig,
} from "./stacks";

/** The flags of the stacks an import reads. */
export const STACK_FLAGS = {
  stack: "string",
  "exclude-stack": "strings",
  "include-managed": "boolean",
  cwd: "string",
} as const;

/** The usage lines of {@link STACK_FLAGS}. */
export const STACK_USAGE = [
  "  --stack, -s NAME      the stack to import into (default: the selected stack of the project in --cwd, if",
  "                        any): what it manages is left out, its names are not reused, its config gives the",
  "                        API settings",
  "  --exclude-stack NAME  also leave out what this stack manages (repeat; another project's: org/project/stack)",
  "  --include-managed     do not leave out what the stacks manage",
  "  --cwd, -C DIR         the project directory (default: the current directory)",
];

/**
 * The project directory (`--cwd`, relative to the working directory), which must exist: `pulumi` run in a
 * directory that does not would fail as if it were not installed. One line (exit 1) when it does not.
 */
export function projectDirOf(args: ParsedArgs, io: CommandIo): string {
  const dir = path.resolve(io.cwd, (args.flags.cwd as string | undefined) ?? ".");
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return dir;
  throw new Error(
    `the project directory ${shownPath(dir, io.cwd)} (--cwd) ${stat ? "is not a directory" : "does not exist"}: ` +
      "give --cwd the directory of the project's Pulumi.yaml",
  );
}

/** A progress line on stderr: rewritten in place on a terminal, otherwise a line at most every 2 s. */
export class ProgressLine {
  readonly #stream: NodeJS.WritableStream & { isTTY?: boolean };
  readonly #prefix: string;
  #last = 0;
  #shown = "";
  constructor(stream: NodeJS.WritableStream, prefix: string) {
    this.#stream = stream;
    this.#prefix = prefix;
  }
  /** Shows `message` (throttled off a terminal). */
  update(message: string): void {
    this.#shown = message;
    if (this.#stream.isTTY) {
      this.#stream.write(`\r${this.#prefix}${message}\x1b[K`);
      return;
    }
    const now = Date.now();
    if (now - this.#last < 2000) return;
    this.#last = now;
    this.#stream.write(`${this.#prefix}${message}\n`);
  }
  /** Ends the line with the last message (which a throttle may have held back). */
  done(message = this.#shown): void {
    if (this.#stream.isTTY) this.#stream.write(`\r${this.#prefix}${message}\x1b[K\n`);
    else if (message) this.#stream.write(`${this.#prefix}${message}\n`);
    this.#last = 0;
  }
}

/** What {@link planImport} gives back. */
export interface Plan {
  /** What to import and what is left out. */
  readonly selection: Selection;
  /** The filter. */
  readonly filter: ImportFilter;
  /** The stack imported into, if one was read. */
  readonly target?: StackHoldings;
  /** The API settings. */
  readonly settings: CustodySettings;
  /** How `pulumi` runs in the project. */
  readonly run: PulumiRun;
}

/** Reads the stacks, connects, and selects; progress goes to stderr. */
export async function planImport(
  args: ParsedArgs,
  io: CommandIo,
  command: string,
  provider: ImportProvider = "plugin",
): Promise<Plan> {
  const cwd = projectDirOf(args, io);
  // In a group's project of a split, only that group (split-groups.ts).
  const filter = withSplitGroup(
    filterFromArgs(args, { types: VAULT_TYPES, chains: UTXO_CHAIN_IDS }),
    args,
    cwd,
    io.cwd,
  );
  const run: PulumiRun = { cwd, env: io.env };
  const stackName = args.flags.stack as string | undefined;
  const excluded = (args.flags["exclude-stack"] as string[] | undefined) ?? [];
  const includeManaged = args.flags["include-managed"] === true;
  const note = (message: string) => io.stderr.write(`custody ${command}: ${message}\n`);

  let target: StackHoldings | undefined;
  let config: Record<string, unknown> = {};
  const inProject =
    fs.existsSync(path.join(cwd, "Pulumi.yaml")) || fs.existsSync(path.join(cwd, "Pulumi.yml"));
  if (stackName !== undefined || inProject) {
    try {
      const name = stackName ?? (await runPulumi(["stack", "--show-name"], run)).trim();
      const [deployment, custodyConfig] = await Promise.all([
        exportStack(name, run),
        stackCustodyConfig(name, run),
      ]);
      target = holdingsOf(name, deployment);
      config = custodyConfig;
    } catch (err) {
      // Without --stack, a project with no stack selected (or no CLI) simply has nothing to leave out.
      if (stackName !== undefined) throw err;
      const why = String(err instanceof Error ? err.message : err)
        .trim()
        .split("\n")
        .pop();
      note(
        `no stack of the project in ${shownPath(cwd, io.cwd)} could be read (${escapeControls(why ?? "")}): nothing is left out as managed, and the ` +
          "settings come from the environment",
      );
    }
  }
  const others = await Promise.all(
    excluded.map(async (other) => holdingsOf(other, await exportStack(other, run))),
  );

  // The settings of the stack's config, else the environment: the same door as the provider's. The client
  // follows the quota the service announces (`x-ratelimit-*`), as the provider that `pulumi import` runs does.
  const { client, settings } = await connect({ config: (key: string) => config[key], env: io.env });
  const progress = new ProgressLine(io.stderr, `custody ${command}: `);
  try {
    const selection = await selectForImport(client, {
      filter,
      managedBy: includeManaged ? [] : [...(target ? [target] : []), ...others],
      takenNames: target?.names,
      withAddresses: args.flags["with-addresses"] === true,
      provider,
      onProgress: (message) => progress.update(message),
    });
    progress.done();
    return { selection, filter, target, settings, run };
  } catch (err) {
    progress.done();
    throw err;
  }
}

/** The environment variables that give the provider these settings (for a `pulumi` it runs). */
export function settingsEnv(settings: Plan["settings"]): Record<string, string> {
  const env: Record<string, string> = {
    [SETTINGS.baseUrl.envVar]: settings.baseUrl,
    [SETTINGS.accessToken.envVar]: settings.accessToken,
  };
  if (settings.maxRetries !== undefined) env[SETTINGS.maxRetries.envVar] = String(settings.maxRetries);
  if (settings.requestsPerMinute !== undefined)
    env[SETTINGS.requestsPerMinute.envVar] = String(settings.requestsPerMinute);
  return env;
}

/** The longest reason of a line of the report. */
const REASON_MAX = 300;

/**
 * One line of what an import leaves out: the name the service holds (which may be anything: a right-to-left
 * override, a zero-width joiner, 10 MB of text) and the reason, shown by the one rule (escaped, cut).
 */
function leftOutLine(item: LeftOut): string {
  const what = item.kind === "Vault" ? "vault" : "address";
  return `  ${what} ${shownValue(item.displayName)} (${shownText(item.id)}): ${shownText(item.reason, REASON_MAX)}`;
}

/** The report of a selection: what is taken, what is left out and why. */
export function selectionReport(plan: Plan): string {
  const { selection } = plan;
  const lines = [
    `${selection.vaults.length} vaults${selection.addresses.length > 0 ? ` and ${selection.addresses.length} addresses` : ""} to import (${describeFilter(plan.filter)}).`,
  ];
  const archived = selection.vaults.filter((p) => p.vault.state === "archived");
  if (archived.length > 0)
    lines.push(
      `${archived.length} of them archived: the program declares them \`archived: true\`, so they stay archived.`,
    );
  if (selection.managed.length > 0)
    lines.push("Left out, already managed by a stack:", ...selection.managed.map(leftOutLine));
  if (selection.unrepresentable.length > 0)
    lines.push(
      "Left out, a program cannot declare them as they are:",
      ...selection.unrepresentable.map(leftOutLine),
    );
  if (selection.outsideFilter > 0)
    lines.push(`${selection.outsideFilter} other vaults of the organization are outside the filter.`);
  return `${lines.join("\n")}\n`;
}
