/**
 * Which vaults `custody import` (and `custody import-file`) takes: by name prefix or pattern, vault type, UTXO
 * chain and state. Every flag is checked here, and a bad value is a usage error that names it.
 */
import { type ParsedArgs, UsageError } from "../command";
import { shownText, shownValue } from "../shown";

/** Every vault type, UTXO chain and state a filter may name (from the sdk, through the caller). */
export interface FilterVocabulary {
  /** Vault types (`VAULT_TYPES`). */
  readonly types: readonly string[];
  /** UTXO chain unique ids (`UTXO_CHAIN_IDS`). */
  readonly chains: readonly string[];
}

/** States a program can declare a vault in: an archived one is declared `archived: true`, and stays archived. */
export const IMPORTABLE_STATES = ["active", "pending", "archived"] as const;

/** The filter of an import. */
export interface ImportFilter {
  /** Names that start with this (exactly, case included). */
  readonly namePrefix?: string;
  /** Names this JavaScript regular expression matches (searched; anchor it with `^…$`). */
  readonly namePattern?: RegExp;
  /** Only these vault types. */
  readonly types?: readonly string[];
  /** Only UTXO vaults on these chains. */
  readonly chains?: readonly string[];
  /** Only vaults in these states (`active` by default). */
  readonly states: readonly string[];
  /** Only the vaults of a group of a split (split.ts: the record in a group's project). */
  readonly group?: { readonly describe: string; test(vault: FilterSubject): boolean };
}

/** The flags of a filter, for a command's flag spec. */
export const FILTER_FLAGS = {
  "name-prefix": "string",
  "name-pattern": "string",
  type: "strings",
  chain: "strings",
  state: "strings",
  "with-addresses": "boolean",
  "ignore-split": "boolean",
} as const;

/** The usage lines of the filter flags. */
export const FILTER_USAGE = [
  "  --name-prefix P       only vaults whose name starts with P",
  "  --name-pattern RE     only vaults whose name the regular expression RE matches (anchor with ^…$)",
  "  --type T              only vaults of type T (repeat, or a comma list: --type evm,utxo)",
  "  --chain C             only utxo vaults on chain C (repeat, or a comma list)",
  "  --state S             only vaults in state S: active (default), pending, archived; an archived vault",
  "                        is declared `archived: true` and stays archived",
  "  --with-addresses      also the addresses of the utxo vaults taken (and of those a stack manages)",
  "  --ignore-split        do not keep to the group that a custody-split.json in the project records",
];

/** The values of a list flag, each `--flag a,b` split at its commas. */
function listFlag(args: ParsedArgs, flag: string): string[] | undefined {
  const raw = args.flags[flag] as string[] | undefined;
  if (raw === undefined) return undefined;
  return raw.flatMap((value) => value.split(",").map((v) => v.trim()));
}

function checkedList(
  args: ParsedArgs,
  flag: string,
  allowed: readonly string[],
  what: string,
): string[] | undefined {
  const values = listFlag(args, flag);
  for (const value of values ?? []) {
    if (!allowed.includes(value))
      throw new UsageError(
        `--${flag} ${shownValue(value)} is not ${what} (one of ${allowed.map((a) => JSON.stringify(a)).join(", ")})`,
      );
  }
  return values && [...new Set(values)];
}

/** What is wrong with a pattern, without the pattern that the engine's message repeats (whole, unescaped). */
function regExpProblem(err: unknown, pattern: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const prefix = `Invalid regular expression: /${pattern}/u: `;
  if (message.startsWith(prefix)) return message.slice(prefix.length);
  return message.slice(message.lastIndexOf(": ") + 2);
}

/** The filter the flags ask for; a value outside the vocabulary, or a bad pattern, is a {@link UsageError}. */
export function filterFromArgs(args: ParsedArgs, vocabulary: FilterVocabulary): ImportFilter {
  const pattern = args.flags["name-pattern"] as string | undefined;
  let namePattern: RegExp | undefined;
  if (pattern !== undefined) {
    try {
      namePattern = new RegExp(pattern, "u");
    } catch (err) {
      throw new UsageError(
        `--name-pattern ${shownValue(pattern)} is not a regular expression: ${shownText(regExpProblem(err, pattern))}`,
      );
    }
  }
  return {
    namePrefix: args.flags["name-prefix"] as string | undefined,
    namePattern,
    types: checkedList(args, "type", vocabulary.types, "a vault type"),
    chains: checkedList(args, "chain", vocabulary.chains, "a UTXO chain"),
    states: checkedList(args, "state", IMPORTABLE_STATES, "a state a program can declare") ?? ["active"],
  };
}

/** What a vault is, for a filter: its name, type, UTXO chain (if any) and state. */
export interface FilterSubject {
  /** Display name. */
  readonly name: string;
  /** Vault type. */
  readonly type: string;
  /** UTXO chain unique id; `undefined` for other types. */
  readonly chain: string | undefined;
  /** State. */
  readonly state: string;
}

/** Whether a vault passes the filter. */
export function passesFilter(vault: FilterSubject, filter: ImportFilter): boolean {
  if (filter.namePrefix !== undefined && !vault.name.startsWith(filter.namePrefix)) return false;
  if (filter.namePattern && !filter.namePattern.test(vault.name)) return false;
  if (filter.types && !filter.types.includes(vault.type)) return false;
  if (filter.chains && (vault.chain === undefined || !filter.chains.includes(vault.chain))) return false;
  if (filter.group && !filter.group.test(vault)) return false;
  return filter.states.includes(vault.state);
}

/** The filter in words, for the report: `name starts with "ops-", type evm or utxo, state active`. */
export function describeFilter(filter: ImportFilter): string {
  const parts: string[] = [];
  // The values as the user gave them, but escaped and bounded: the report goes to a log.
  if (filter.namePrefix !== undefined) parts.push(`name starts with ${shownValue(filter.namePrefix)}`);
  if (filter.namePattern) parts.push(`name matches /${shownText(filter.namePattern.source)}/`);
  if (filter.types) parts.push(`type ${filter.types.join(" or ")}`);
  if (filter.chains) parts.push(`chain ${filter.chains.join(" or ")}`);
  parts.push(`state ${filter.states.join(" or ")}`);
  if (filter.group) parts.push(filter.group.describe);
  return parts.join(", ");
}
