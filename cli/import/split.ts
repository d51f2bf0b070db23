/**
 * `custody import --split-by KEY --into DIR`: onboarding into several stacks at once. The vaults an import
 * takes are split into groups by a key teams already use (vault type, UTXO chain, a name prefix or a part of
 * the name a pattern captures); each group gets a directory `DIR/<group>/` of its own: a project
 * (`Pulumi.yaml`), its program and its import file, and a record of the group (`custody-split.json`). Every
 * vault lands in exactly one group (those without a key in the group `other`), so the groups' imports can run
 * as parallel jobs; and a later `custody import` in a group's project takes by default only that group's
 * vaults, so that each stack leaves out what the others manage.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isModelledVault } from "@pulumi-custody/sdk/schema";
import { type CommandIo, type ParsedArgs, UsageError } from "../command";
import { importFileOf } from "../import-file/import-file";
import { checkOutputFile, fileExists, type OutputFile, writeOutputFile } from "../output-file";
import { shownPath, shownText, shownValue } from "../shown";
import { dynamicProgram } from "./dynamic-program";
import { type FilterSubject, type ImportFilter, passesFilter } from "./filter";
import { generateProgram, type Language, RUNTIME_OF } from "./generate";
import { GO_PROGRAM_FILE } from "./go-program";
import { type Plan, ProgressLine, planImport, selectionReport, settingsEnv } from "./plan";
import type { ImportProvider, PlannedAddress, PlannedVault, Selection } from "./select";

/** The flags of a split, for `custody import`'s flag spec. */
export const SPLIT_FLAGS = {
  "split-by": "string",
  into: "string",
  project: "string",
} as const;

/** The usage lines of {@link SPLIT_FLAGS}. */
export const SPLIT_USAGE = [
  "  --split-by KEY        split the vaults into groups, one project and stack each, by KEY: type, chain",
  "                        (utxo chain; other vaults by type), name-prefix:SEP (the name up to the first SEP)",
  "                        or name-pattern:RE (what RE's one capture group matches); vaults without a key",
  `                        go to the group "other". Needs --into`,
  "  --into DIR            with --split-by: write DIR/<group>/ per group (made if missing: Pulumi.yaml, the",
  "                        program, the import file, custody-split.json); DIR must exist",
  "  --project NAME        with --split-by: the groups' projects are NAME-<group> (default: the name of the",
  "                        project's Pulumi.yaml, else custody)",
];

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

/** What `custody import` decided before the split runs. */
export interface SplitOptions {
  /** The project directory. */
  readonly dir: string;
  /** The provider path. */
  readonly provider: ImportProvider;
  /** The programs' language. */
  readonly language: Language;
  /** Mark the imported resources `protect: true`. */
  readonly protect: boolean;
  /** Replace files that exist. */
  readonly force: boolean;
}

/** The program file of each language, in a group's directory. */
const PROGRAM_OF: Readonly<Record<Language, string>> = {
  typescript: "index.ts",
  python: "__main__.py",
  yaml: "Main.yaml",
  go: GO_PROGRAM_FILE,
};

/** The checks of the split's flags that need no API: the rule and the `--into` directory. */
export function splitTarget(
  args: ParsedArgs,
  io: CommandIo,
  dir: string,
): { rule: SplitRule; into: string; project: string } {
  const rule = parseSplitBy(args.flags["split-by"] as string);
  const intoFlag = args.flags.into as string | undefined;
  if (intoFlag === undefined)
    throw new UsageError("--split-by needs --into DIR, the directory of the groups");
  for (const flag of ["out", "import-file"])
    if (args.flags[flag] !== undefined)
      throw new UsageError(`--${flag} is not for --split-by: each group's files go to --into DIR/<group>/`);
  const into = path.resolve(io.cwd, intoFlag);
  const stat = fs.statSync(into, { throwIfNoEntry: false });
  if (!stat?.isDirectory())
    throw new Error(
      `the directory ${shownPath(into, io.cwd)} (--into) ${stat ? "is not a directory" : "does not exist"}: create it first (mkdir -p), or choose another --into`,
    );
  const projectFlag = args.flags.project as string | undefined;
  const project = projectFlag ?? projectNameIn(dir) ?? "custody";
  if (!/^[A-Za-z0-9_.-]{1,60}$/.test(project))
    throw new UsageError(
      `--project ${shownValue(project)} is not a project name (letters, digits, -, _ and ., at most 60)`,
    );
  return { rule, into, project };
}

/** The `name:` of the Pulumi.yaml in `dir`, if any. */
function projectNameIn(dir: string): string | undefined {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!file) return undefined;
  return /^name:[ \t]*["']?([A-Za-z0-9_.-]+)/m.exec(fs.readFileSync(file, "utf8"))?.[1];
}

/**
 * `custody import` with `--split-by`: checks the flags and `--into`, reads the organization, and writes every
 * group's directory. `undefined` without `--split-by` (then `--into` and `--project` are refused).
 */
export function splitImport(
  args: ParsedArgs,
  io: CommandIo,
  options: SplitOptions,
): Promise<number> | undefined {
  if (args.flags["split-by"] === undefined) {
    for (const flag of ["into", "project"])
      if (args.flags[flag] !== undefined) throw new UsageError(`--${flag} is for --split-by`);
    return undefined;
  }
  // Before the API is read (minutes for a large organization).
  splitTarget(args, io, options.dir);
  return (async () => {
    const plan = await planImport(args, io, "import", options.provider);
    io.stdout.write(selectionReport(plan));
    return runSplitImport(args, io, options, plan);
  })();
}

/** Runs the split once the selection is made: writes every group's directory, and prints what to run. */
export async function runSplitImport(
  args: ParsedArgs,
  io: CommandIo,
  options: SplitOptions,
  plan: Plan,
): Promise<number> {
  const { rule, into, project } = splitTarget(args, io, options.dir);
  const partition = partitionSelection(plan.selection, rule);
  if (partition.groups.length === 0) {
    io.stdout.write("Nothing to import: no group written.\n");
    return 0;
  }
  const files = partition.groups.map((group) => {
    const groupDir = path.join(into, group.folder);
    const file = (name: string, what: string): OutputFile => ({
      file: path.join(groupDir, name),
      what: `${what} of the group ${group.folder}`,
      flag: "--into",
      cwd: io.cwd,
    });
    return {
      group,
      groupDir,
      projectFile: file("Pulumi.yaml", "the project"),
      program: file(PROGRAM_OF[options.language], "the program"),
      importFile: options.provider === "plugin" ? file("custody-import.json", "the import file") : undefined,
      record: file(SPLIT_RECORD, "the record"),
    };
  });
  // Before the programs are generated: what would be lost, or cannot be written.
  const all = files.flatMap((f) => [
    f.projectFile,
    f.program,
    ...(f.importFile ? [f.importFile] : []),
    f.record,
  ]);
  for (const f of files)
    if (fs.statSync(f.groupDir, { throwIfNoEntry: false })?.isDirectory() === false)
      throw new Error(`${shownPath(f.groupDir, io.cwd)} is not a directory: choose another --into`);
  const existing = options.force ? [] : all.filter((o) => fileExists(o.file));
  if (existing.length > 0)
    throw new Error(
      `${existing.map((o) => shownPath(o.file, io.cwd)).join(", ")} exist${existing.length === 1 ? "s" : ""}: pass --force to overwrite, or choose another --into; nothing was written`,
    );

  const texts = new Map<OutputFile, string>();
  const progress = new ProgressLine(io.stderr, "custody import: ");
  for (const f of files) {
    const { selection } = f.group;
    texts.set(
      f.projectFile,
      [
        `name: ${project}-${f.group.folder}`,
        `runtime: ${RUNTIME_OF[options.language]}`,
        // Quoted: a pattern's `: ` or ` #` would end a plain YAML scalar (a JSON string is a YAML one).
        `description: ${JSON.stringify(`custody vaults of the group ${f.group.folder} (split by ${splitRuleText(rule)})`)}`,
        "",
      ].join("\n"),
    );
    texts.set(f.record, `${JSON.stringify(splitRecordOf(rule, plan.filter, partition, f.group), null, 2)}\n`);
    if (options.provider === "dynamic") {
      texts.set(f.program, dynamicProgram(selection, { protect: options.protect }));
      continue;
    }
    const importText = `${JSON.stringify(importFileOf(selection), null, 2)}\n`;
    texts.set(f.importFile as OutputFile, importText);
    const total = selection.vaults.length + selection.addresses.length;
    progress.update(
      `generating the ${options.language} program of ${f.group.folder}: 0 of ${total} resources`,
    );
    texts.set(
      f.program,
      await generateProgram({
        language: options.language,
        importText,
        protect: options.protect,
        env: { ...io.env, ...settingsEnv(plan.settings) },
        onProgress: (done) =>
          progress.update(
            `generating the ${options.language} program of ${f.group.folder}: ${done} of ${total} resources`,
          ),
      }),
    );
    progress.done(`generated the ${options.language} program of ${f.group.folder} from ${total} resources`);
  }
  // Every file once every program exists: a failed generation writes nothing.
  for (const f of files) fs.mkdirSync(f.groupDir, { recursive: true });
  for (const [output, text] of texts) {
    checkOutputFile(output);
    writeOutputFile(output, text, { overwrite: options.force });
  }
  io.stdout.write(
    splitReport(partition, files, { ...options, cwd: io.cwd, baseUrl: plan.settings.baseUrl, rule }),
  );
  return 0;
}

/** The report of a split: each group, its directory and the commands of its job. */
function splitReport(
  partition: Partition,
  files: readonly { group: SplitGroup; groupDir: string }[],
  options: SplitOptions & { cwd: string; baseUrl: string; rule: SplitRule },
): string {
  let url = options.baseUrl;
  try {
    // Never a user or password a URL might carry.
    const parsed = new URL(options.baseUrl);
    parsed.username = "";
    parsed.password = "";
    url = parsed.toString().replace(/\/$/, "");
  } catch {}
  const lines = [
    `Split by ${shownText(splitRuleText(options.rule))} into ${partition.groups.length} groups; every vault taken is in exactly one:`,
  ];
  for (const { group, groupDir } of files) {
    const { vaults, addresses } = group.selection;
    const key = group.key === undefined ? "vaults without a key" : `key ${shownValue(group.key)}`;
    lines.push(
      `  ${group.folder}: ${vaults.length} vaults${addresses.length > 0 ? ` and ${addresses.length} addresses` : ""} (${key}) in ${shownPath(groupDir, options.cwd, Number.POSITIVE_INFINITY)}`,
    );
  }
  if (partition.orphanAddresses.length > 0)
    lines.push(
      "Left out, addresses of vaults a stack manages already (import them in that stack's project):",
      ...partition.orphanAddresses.map(
        (a) => `  address ${JSON.stringify(a.address.name)} (${a.address.id}) of vault ${a.address.vault.id}`,
      ),
    );
  lines.push(
    "",
    "Next, one job per group; the jobs are independent and can run in parallel (they share the API user and",
    "its quota). In each group's directory (review the program first):",
  );
  for (const { group, groupDir } of files) {
    const total = group.selection.vaults.length + group.selection.addresses.length;
    const run =
      options.provider === "dynamic"
        ? ["pulumi up --yes"]
        : [
            `${total >= 200 ? "PULUMI_SKIP_CHECKPOINTS=true " : ""}pulumi import --file custody-import.json --generate-code=false${options.protect ? "" : " --protect=false"} --yes`,
          ];
    lines.push(
      `  # ${group.folder}`,
      `  cd ${shownPath(groupDir, options.cwd, Number.POSITIVE_INFINITY)}`,
      `  pulumi stack init ${group.folder}`,
      `  pulumi config set custody:baseUrl ${url}`,
      `  pulumi config set --secret custody:accessToken "$CUSTODY_ACCESS_TOKEN"`,
      ...run.map((r) => `  ${r}`),
      "  pulumi preview --expect-no-changes",
    );
  }
  lines.push(
    "",
    `A later \`custody import\` in a group's directory takes only that group's vaults (${SPLIT_RECORD}).`,
  );
  if (options.provider === "dynamic")
    lines.push("Each program is TypeScript on the npm package pulumi-custody: add it to each project first.");
  return `${lines.join("\n")}\n`;
}
