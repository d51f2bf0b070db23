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
import { type CommandIo, type ParsedArgs, UsageError } from "../command";
import { importFileOf } from "../import-file/import-file";
import { checkOutputFile, fileExists, type OutputFile, writeOutputFile } from "../output-file";
import { shownPath, shownText, shownValue } from "../shown";
import { dynamicProgram } from "./dynamic-program";
import { generateProgram } from "./generate";
import { type Language, PROGRAM_FILE_OF, RUNTIME_OF } from "./languages";
import { type Plan, ProgressLine, planImport, selectionReport, settingsEnv } from "./plan";
import type { ImportProvider } from "./select";
import {
  type Partition,
  parseSplitBy,
  partitionSelection,
  SPLIT_RECORD,
  type SplitGroup,
  type SplitRule,
  splitRecordOf,
  splitRuleText,
} from "./split-groups";

export * from "./split-groups";

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
      program: file(PROGRAM_FILE_OF[options.language], "the program"),
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
      texts.set(
        f.program,
        dynamicProgram(selection, { protect: options.protect, language: options.language }),
      );
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
