/**
 * The groups of a split (`custody import --split-by`): how vaults are split by a key, the folder of each group,
 * and the record a group's project keeps (`custody-split.json`), which a later `custody import` there reads to
 * take only that group's vaults. Apart from the split's run (./split.ts), which plans an import: planning reads
 * the record of the project it runs in (./plan.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isModelledVault } from "@pulumi-custody/sdk/schema";
import { type ParsedArgs, UsageError } from "../command";
import { shownPath, shownText, shownValue } from "../shown";
import { type FilterSubject, type ImportFilter, passesFilter } from "./filter";
import type { PlannedAddress, PlannedVault, Selection } from "./select";

/** The record of a group, in its project directory: what a later `custody import` there takes by default. */
export const SPLIT_RECORD = "custody-split.json";

/** The group of the vaults that have no key. */
export const OTHER_GROUP = "other";

/** The longest group folder (and stack) name. */
export const GROUP_NAME_MAX = 40;

/** How vaults are split. */
export type SplitRule =
  | { readonly by: "type" }
  | { readonly by: "chain" }
  | { readonly by: "name-prefix"; readonly separator: string }
  | { readonly by: "name-pattern"; readonly pattern: RegExp };

/** The rule of `--split-by`; a bad value is a {@link UsageError} naming the flag and the rule. */
export function parseSplitBy(value: string): SplitRule {
  if (value === "type" || value === "chain") return { by: value };
  const colon = value.indexOf(":");
  const kind = colon < 0 ? value : value.slice(0, colon);
  const arg = colon < 0 ? "" : value.slice(colon + 1);
  if (kind === "name-prefix") {
    if (arg === "")
      throw new UsageError(
        "--split-by name-prefix needs its separator: name-prefix:SEP (e.g. name-prefix:- for ops-…)",
      );
    return { by: "name-prefix", separator: arg };
  }
  if (kind === "name-pattern") {
    let pattern: RegExp;
    try {
      pattern = new RegExp(arg, "u");
    } catch {
      throw new UsageError(`--split-by name-pattern:${shownText(arg)} is not a regular expression`);
    }
    // The number of capture groups: an empty alternative always matches, with every group undefined.
    const groups = (new RegExp(`${arg}|`, "u").exec("") ?? []).length - 1;
    if (arg === "" || groups !== 1)
      throw new UsageError(
        `--split-by name-pattern:RE needs a regular expression with exactly one capture group (the key), e.g. name-pattern:^(\\w+)-; ${shownValue(arg)} has ${groups}`,
      );
    return { by: "name-pattern", pattern };
  }
  throw new UsageError(
    `--split-by ${shownValue(value)} is not one of type, chain, name-prefix:SEP, name-pattern:RE`,
  );
}

/** The rule as `--split-by` takes it. */
export function splitRuleText(rule: SplitRule): string {
  switch (rule.by) {
    case "type":
    case "chain":
      return rule.by;
    case "name-prefix":
      return `name-prefix:${rule.separator}`;
    case "name-pattern":
      return `name-pattern:${rule.pattern.source}`;
  }
}

/** A vault's key under the rule; `undefined` when it has none (it goes to the group `other`). */
export function splitKeyOf(vault: FilterSubject, rule: SplitRule): string | undefined {
  let key: string | undefined;
  switch (rule.by) {
    case "type":
      key = vault.type;
      break;
    case "chain":
      key = vault.chain ?? vault.type;
      break;
    case "name-prefix": {
      const at = vault.name.indexOf(rule.separator);
      key = at < 0 ? undefined : vault.name.slice(0, at);
      break;
    }
    case "name-pattern":
      key = rule.pattern.exec(vault.name)?.[1];
      break;
  }
  return key === undefined || key.trim() === "" ? undefined : key;
}

/**
 * The folder (and stack) name of each group key: lower-case letters, digits, `_` and `-`, at most
 * {@link GROUP_NAME_MAX} characters, `other` for the group without a key. Two keys that come out the same
 * (`Ops` and `ops`, or long keys cut alike) are told apart by `-2`, `-3`, … in the order of the keys, the group
 * `other` first, so no two groups share a folder.
 */
export function groupFolders(keys: readonly (string | undefined)[]): Map<string | undefined, string> {
  // \`sort\` never compares \`undefined\`: the group without a key is put first by hand.
  const distinct = new Set(keys);
  const ordered = [
    ...(distinct.has(undefined) ? [undefined] : []),
    ...[...distinct].filter((k): k is string => k !== undefined).sort(),
  ];
  const folders = new Map<string | undefined, string>();
  const used = new Set<string>();
  for (const key of ordered) {
    const base = key === undefined ? OTHER_GROUP : safeName(key);
    let folder = base;
    for (let n = 2; used.has(folder); n++) {
      const suffix = `-${n}`;
      folder = `${base.slice(0, GROUP_NAME_MAX - suffix.length).replace(/[-_]+$/, "")}${suffix}`;
    }
    used.add(folder);
    folders.set(key, folder);
  }
  return folders;
}

/** A key as a folder and stack name: `Ops EU` → `ops-eu`, `bitcoin_mainnet` as it is; `group` when nothing is left. */
function safeName(key: string): string {
  const slug = key
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, GROUP_NAME_MAX)
    .replace(/[-_]+$/, "");
  return slug === "" ? "group" : slug;
}

/** A vault as a filter sees it. */
export function subjectOf(vault: PlannedVault["vault"]): FilterSubject {
  return {
    name: vault.name,
    type: vault.type,
    chain: isModelledVault(vault) && vault.type === "utxo" ? vault.chain.unique_id : undefined,
    state: vault.state,
  };
}

/** One group of a split. */
export interface SplitGroup {
  /** Its key (`undefined`: the vaults without one). */
  readonly key: string | undefined;
  /** Its folder and stack name. */
  readonly folder: string;
  /** What its stack imports. */
  readonly selection: Selection;
}

/** What {@link partitionSelection} gives back. */
export interface Partition {
  /** The groups, by folder name. */
  readonly groups: readonly SplitGroup[];
  /** Addresses of vaults a stack manages already: they belong to that stack, not to a group. */
  readonly orphanAddresses: readonly PlannedAddress[];
}

/** Splits a selection into groups: each vault in exactly one, each address with its vault. */
export function partitionSelection(selection: Selection, rule: SplitRule): Partition {
  const keyOf = new Map(selection.vaults.map((p) => [p.vault.id, splitKeyOf(subjectOf(p.vault), rule)]));
  const folders = groupFolders([...keyOf.values()]);
  const groups = [...folders].map(([key, folder]) => {
    const vaults = selection.vaults.filter((p) => keyOf.get(p.vault.id) === key);
    const ids = new Set(vaults.map((p) => p.vault.id));
    const addresses = selection.addresses.filter((a) => a.vault !== undefined && ids.has(a.vault.vault.id));
    return {
      key,
      folder,
      selection: { vaults, addresses, managed: [], unrepresentable: [], outsideFilter: 0 },
    };
  });
  return {
    groups: groups.sort((a, b) => (a.folder < b.folder ? -1 : 1)),
    orphanAddresses: selection.addresses.filter((a) => a.vault === undefined),
  };
}

/** The record of a group (`custody-split.json`). */
export interface SplitRecord {
  /** The rule, as `--split-by` takes it. */
  readonly splitBy: string;
  /** The group's key; `null` for the group `other`. */
  readonly key: string | null;
  /** Every key of the split (the group `other` also takes a key none of them has). */
  readonly keys: readonly string[];
  /** The name, type and chain filter of the split (its states are the later run's). */
  readonly filter: {
    readonly namePrefix?: string;
    readonly namePattern?: string;
    readonly types?: readonly string[];
    readonly chains?: readonly string[];
  };
}

/** The record of `group` of a split of `partition` by `rule` under `filter`. */
export function splitRecordOf(
  rule: SplitRule,
  filter: ImportFilter,
  partition: Partition,
  group: SplitGroup,
): SplitRecord {
  return {
    splitBy: splitRuleText(rule),
    key: group.key ?? null,
    keys: partition.groups.flatMap((g) => (g.key === undefined ? [] : [g.key])),
    filter: {
      ...(filter.namePrefix !== undefined ? { namePrefix: filter.namePrefix } : {}),
      ...(filter.namePattern ? { namePattern: filter.namePattern.source } : {}),
      ...(filter.types ? { types: filter.types } : {}),
      ...(filter.chains ? { chains: filter.chains } : {}),
    },
  };
}

/**
 * Whether a vault belongs to the group a record names: it passes the split's filter and has the group's key;
 * for the group `other`, no key or one that no group of the split has (a key that appeared since), so that
 * every vault still belongs to exactly one group.
 */
export function inSplitGroup(record: SplitRecord, vault: FilterSubject): boolean {
  const filter: ImportFilter = {
    namePrefix: record.filter.namePrefix,
    namePattern:
      record.filter.namePattern !== undefined ? new RegExp(record.filter.namePattern, "u") : undefined,
    types: record.filter.types,
    chains: record.filter.chains,
    states: [vault.state],
  };
  if (!passesFilter(vault, filter)) return false;
  const key = splitKeyOf(vault, parseSplitBy(record.splitBy));
  if (record.key !== null) return key === record.key;
  return key === undefined || !record.keys.includes(key);
}

/** The record in `dir`, if any; a record that cannot be read is an error that names it and the way out. */
export function readSplitRecord(dir: string, cwd: string): SplitRecord | undefined {
  const file = path.join(dir, SPLIT_RECORD);
  if (!fs.existsSync(file)) return undefined;
  const bad = (why: string) =>
    new Error(
      `${shownPath(file, cwd)} (the record of this project's group) ${why}: write it again with custody import --split-by, or pass --ignore-split`,
    );
  let record: SplitRecord;
  try {
    record = JSON.parse(fs.readFileSync(file, "utf8")) as SplitRecord;
  } catch {
    throw bad("is not JSON");
  }
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");
  if (
    typeof record !== "object" ||
    record === null ||
    typeof record.splitBy !== "string" ||
    !(record.key === null || typeof record.key === "string") ||
    !strings(record.keys) ||
    typeof record.filter !== "object" ||
    record.filter === null
  )
    throw bad("does not have splitBy (a string), key (a string or null), keys (strings) and filter");
  try {
    parseSplitBy(record.splitBy);
    if (record.filter.namePattern !== undefined) new RegExp(record.filter.namePattern, "u");
  } catch (err) {
    throw bad(`has a rule that does not parse (${err instanceof Error ? err.message : String(err)})`);
  }
  return record;
}

/** The filter with the group of the record in `dir` (unless `--ignore-split`); the report names the group. */
export function withSplitGroup(
  filter: ImportFilter,
  args: ParsedArgs,
  dir: string,
  cwd: string,
): ImportFilter {
  if (args.flags["ignore-split"] === true) return filter;
  const record = readSplitRecord(dir, cwd);
  if (!record) return filter;
  return {
    ...filter,
    group: {
      describe: `group ${record.key === null ? OTHER_GROUP : shownValue(record.key)} of the split by ${shownText(record.splitBy)} (${SPLIT_RECORD})`,
      test: (vault) => inSplitGroup(record, vault),
    },
  };
}
