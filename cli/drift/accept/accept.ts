/**
 * `custody drift --accept`: brings the program and the stack's config in line with the service, for each
 * drifted input of a custody resource that the drift check found (cli/drift/drift.ts):
 * - a literal in the program is rewritten in place (cli/drift/accept/edits.ts);
 * - a value the program reads from the stack's config is set there, by `pulumi config set`
 *   (cli/drift/accept/stack-config.ts), a secret kept secret;
 * - a vault archived in the console gets `archived: true`; one restored there loses it;
 * - anything else (a computed value, a secret written in the program, a value other places share, a resource
 *   the program does not declare by a literal name, a vault gone from the service) is left to a hand edit, which
 *   the result names with its file and line and the value to give it.
 *
 * Every edit is made on the text in memory and read back by the same parser before anything is written: a
 * rewritten file that does not parse, or does not read back as the service's value, stops the accept (exit 1)
 * and nothing is written. With `dryRun`, nothing is written either, and the diff says what would be.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { AllowListPolicy } from "../../import/policy-config";
import { writeOutputFile } from "../../output-file";
import type { DriftedField, DriftedResource, DriftReport } from "../drift";
import { CodeDeclarations, type Declaration, type DeclaredInput } from "./declarations";
import { unifiedDiff } from "./diff";
import { applyEdits, insertInput, removeInput, replaceLiteral, type TextEdit } from "./edits";
import { javascriptModel } from "./javascript";
import type { NewVaults } from "./new-vaults";
import { withAllowListed } from "./policy-file";
import { type ProgramProject, readProject, stackConfigFile } from "./project";
import { pythonModels } from "./python";
import type { AcceptedChange, AcceptHow, HandEdit, ImportedVault } from "./report";
import { type ConfigChange, stackConfigWith } from "./stack-config";
import { YamlDeclarations } from "./yaml-program";

/** A file an accept changes. */
export interface FileChange {
  /** Its absolute path. */
  readonly file: string;
  /** Its path relative to the working directory. */
  readonly shown: string;
  /** Its text before. */
  readonly before: string;
  /** Its text after. */
  readonly after: string;
}

/** What an accept did (or, with `dryRun`, would do). */
export interface AcceptResult {
  /** Whether nothing was written. */
  readonly dryRun: boolean;
  /** The exit status: 0 every drift accepted, 3 some left to a hand edit. */
  readonly exitCode: 0 | 3;
  /** The drifted inputs brought in line. */
  readonly accepted: AcceptedChange[];
  /** The drift left to a hand edit. */
  readonly handEdits: HandEdit[];
  /** Vaults made in the console that the program now declares. */
  readonly imported: ImportedVault[];
  /** The files changed. */
  readonly files: FileChange[];
  /** Their unified diff (`git apply` reads it). */
  readonly diff: string;
}

/** What an accept needs besides the report. */
export interface AcceptOptions {
  /** The project directory. */
  readonly projectDir: string;
  /** The stack, as given on the command line (its config file and `pulumi config set` use it). */
  readonly stack?: string;
  /** The environment of `pulumi` and `python3`. */
  readonly env: NodeJS.ProcessEnv;
  /** The working directory, which paths are shown relative to. */
  readonly cwd: string;
  /** Write nothing; only say what would change. */
  readonly dryRun: boolean;
  /**
   * The live value of a secret input (the check sees only a mask): read from the service by the caller;
   * `undefined` when it cannot be.
   */
  readonly liveSecret?: (resource: DriftedResource, field: string) => Promise<unknown>;
  /**
   * Declarations of vaults made in the console (`--accept-new`), given each program file's text as the accept
   * has made it so far.
   */
  /**
   * The stack's policy config file (`--policy-config`): the names of the vaults the accept declares `archived`
   * (or, new, `adoptExisting`) go on the policy pack's allow-lists there, in the same change.
   */
  readonly policyConfig?: string;
  readonly newDeclarations?: (
    project: ProgramProject,
    current: (file: string) => string,
  ) => Promise<NewVaults | undefined>;
}

/** What is to become of an input. */
type Wanted = { readonly action: "set"; readonly value: unknown } | { readonly action: "remove" };

/** The input a drifted field is (`state` is the vault's, declared by `archived`). */
function inputOf(field: DriftedField): string {
  return field.field === "state" ? "archived" : field.field;
}

/** What the declaration must say so that the service's state is what it declares. */
function wantedOf(field: DriftedField, live: unknown): Wanted {
  if (field.field === "state")
    return live === "active" ? { action: "remove" } : { action: "set", value: true };
  if (field.field === "archived")
    return live === true ? { action: "set", value: true } : { action: "remove" };
  // A vault in no group: membership left alone (an empty list is not a declaration the provider accepts).
  if (field.field === "vaultGroupIds" && Array.isArray(live) && live.length === 0)
    return { action: "remove" };
  return { action: "set", value: live };
}

/** A note of the drift report as the hand edit it asks for. */
function noteReason(resource: DriftedResource): string {
  if (
    resource.operation === "create" &&
    resource.note?.startsWith("the ") &&
    resource.note.includes("no longer exists")
  )
    return "it no longer exists in the service: remove its declaration to accept that (the next `pulumi up` would create it again)";
  if (resource.operation === "delete")
    return "the stack has it but the program no longer declares it: this is a change of the program, not of the service; run `pulumi up` to apply it";
  if (resource.operation === "create")
    return "the program declares it but the stack does not have it yet: run `pulumi up` to create it";
  return resource.note ?? "its difference is not an input's";
}

/** The parsed program: its declarations, and how to read a file back after an edit. */
interface ProgramReader {
  find(resource: DriftedResource): Declaration[];
  configReads(key: string): number;
  /** `text` read as `file` would be (once, for every check of it): its declarations, its syntax errors. */
  reread(
    file: string,
    text: string,
  ): { find(resource: DriftedResource): Declaration[]; errors: readonly string[] };
  errors(file: string): readonly string[];
}

function programReader(project: ProgramProject, env: NodeJS.ProcessEnv): ProgramReader {
  const texts = project.files.map((file) => ({ file, text: fs.readFileSync(file, "utf8") }));
  if (project.language === "yaml") {
    const reader = new YamlDeclarations(texts, project.name);
    const errors = reader.errors();
    return {
      find: (r) => reader.find(r.resource, r.kind),
      configReads: (key) => reader.configReads(key),
      reread: (file, text) => {
        const again = new YamlDeclarations([{ file, text }], project.name);
        return { find: (r) => again.find(r.resource, r.kind), errors: again.errors().get(file) ?? [] };
      },
      errors: (file) => errors.get(file) ?? [],
    };
  }
  const parse = (files: readonly { file: string; text: string }[]) =>
    project.language === "python"
      ? pythonModels(files, env)
      : files.map((f) => javascriptModel(f.file, f.text));
  const models = parse(texts);
  const reader = new CodeDeclarations(models, project.name);
  return {
    find: (r) => reader.find(r.resource, r.kind),
    configReads: (key) => reader.configReads(key),
    reread: (file, text) => {
      const [model] = parse([{ file, text }]);
      if (!model) return { find: () => [], errors: ["not read"] };
      const again = new CodeDeclarations([model], project.name);
      return { find: (r) => again.find(r.resource, r.kind), errors: model.errors };
    },
    errors: (file) => models.find((m) => m.file === file)?.errors ?? [],
  };
}

/** How the value reads back from a declaration's input: for a check after an edit. */
function readsBack(input: DeclaredInput | undefined, wanted: Wanted): boolean {
  if (wanted.action === "remove")
    return input === undefined || (input.value.kind === "literal" && input.value.value === false);
  return (
    input?.value.kind === "literal" && JSON.stringify(input.value.value) === JSON.stringify(wanted.value)
  );
}

/** Plans (and, unless `dryRun`, makes) the changes that accept the drift of `report`. */
export async function acceptDrift(report: DriftReport, options: AcceptOptions): Promise<AcceptResult> {
  const shown = (file: string) =>
    path.relative(options.cwd, file).split(path.sep).join("/") || path.basename(file);
  const accepted: AcceptedChange[] = [];
  const handEdits: HandEdit[] = [];
  const project = readProject(options.projectDir);
  const hand = (
    resource: DriftedResource,
    field: DriftedField | null,
    at: { file: string; line: number } | undefined,
    reason: string,
    value: unknown = null,
  ) =>
    handEdits.push({
      resource: resource.resource,
      urn: resource.urn,
      field: field ? inputOf(field) : null,
      file: at ? shown(at.file) : null,
      line: at?.line ?? null,
      reason,
      value: field?.secret ? null : value,
      secret: field?.secret ?? false,
    });

  if (!project.language) {
    for (const resource of report.drifted)
      for (const field of resource.fields.length > 0 ? resource.fields : [null])
        hand(
          resource,
          field,
          undefined,
          `custody drift --accept edits TypeScript, JavaScript, Python and YAML programs; this project's runtime is ${project.runtime || "not named"}: change the program by hand`,
          field?.live ?? null,
        );
    return finish([], options, accepted, handEdits, []);
  }

  const reader = programReader(project, options.env);
  const edits = new Map<
    string,
    {
      text: string;
      edits: TextEdit[];
      checks: { resource: DriftedResource; input: string; wanted: Wanted }[];
    }
  >();
  const configUses = new Map<
    string,
    {
      change: ConfigChange;
      uses: {
        resource: DriftedResource;
        field: DriftedField;
        at: { file: string; line: number };
        value: unknown;
      }[];
    }
  >();

  for (const resource of report.drifted) {
    const declarations = reader.find(resource);
    const [declaration] = declarations;
    const at = declaration ? { file: declaration.file, line: declaration.line } : undefined;
    if (resource.fields.length === 0) {
      hand(resource, null, at, noteReason(resource));
      continue;
    }
    if (declarations.length !== 1 || !declaration) {
      const reason =
        declarations.length === 0
          ? `the program does not declare it by the literal name ${JSON.stringify(resource.resource)} (a name built in code, a loop, a function): change its declaration by hand`
          : `the program declares it ${declarations.length} times (${declarations.map((d) => `${shown(d.file)}:${d.line}`).join(", ")}): change the one that runs by hand`;
      for (const field of resource.fields) hand(resource, field, at, reason, field.live);
      continue;
    }
    if (reader.errors(declaration.file).length > 0) {
      for (const field of resource.fields)
        hand(
          resource,
          field,
          at,
          `${shown(declaration.file)} does not parse (${reader.errors(declaration.file)[0]}): fix it first`,
          field.live,
        );
      continue;
    }
    for (const field of resource.fields) {
      const name = inputOf(field);
      const input = declaration.inputs.get(name);
      const site = input?.value;
      if (!field.certain) {
        hand(resource, field, at, `${name} is one of several secrets that may differ: compare them by hand`);
        continue;
      }
      if (field.secret && site?.kind !== "config") {
        // The accept never writes a secret into the program's source.
        hand(
          resource,
          field,
          site ? { file: declaration.file, line: site.line } : at,
          `${name} is a secret not read from the stack's config: set it by hand`,
        );
        continue;
      }
      let live = field.live;
      if (field.secret) {
        live = await options.liveSecret?.(resource, field.field);
        if (live === undefined || live === null) {
          hand(resource, field, at, `${name} is a secret whose value the check cannot see: set it by hand`);
          continue;
        }
      }
      const wanted = wantedOf(field, live);
      if (wanted.action === "set" && (wanted.value === null || wanted.value === undefined)) {
        hand(
          resource,
          field,
          site ? { file: declaration.file, line: site.line } : at,
          `the service's value of ${name} is not known to the check: change it by hand`,
        );
        continue;
      }
      const fileEdits = edits.get(declaration.file) ?? { text: declaration.text, edits: [], checks: [] };
      const record = (how: AcceptHow, line: number, value: unknown) =>
        accepted.push({
          resource: resource.resource,
          urn: resource.urn,
          field: name,
          how,
          file: shown(declaration.file),
          line,
          declaredIn: shown(declaration.file),
          configKey: null,
          value: field.secret ? null : value,
          secret: field.secret,
        });
      if (!input || !site) {
        if (wanted.action === "remove") continue;
        const inserted = insertInput(declaration, name, wanted.value);
        if (!inserted) {
          hand(
            resource,
            field,
            at,
            `${declaration.opaque ?? "its inputs are not an object literal"}: add ${name} by hand`,
            wanted.value,
          );
          continue;
        }
        fileEdits.edits.push(...inserted);
        fileEdits.checks.push({ resource, input: name, wanted });
        edits.set(declaration.file, fileEdits);
        record("added", declaration.line, wanted.value);
        continue;
      }
      const siteAt = { file: declaration.file, line: site.line };
      if (site.kind === "computed") {
        hand(
          resource,
          field,
          siteAt,
          `${name} is ${site.what}: change it so that it is ${wanted.action === "remove" ? "unset (or false)" : "the service's value"}`,
          wanted.action === "set" ? wanted.value : false,
        );
        continue;
      }
      if (site.kind === "config") {
        if (wanted.action === "remove" && name !== "archived") {
          hand(resource, field, siteAt, `${name} comes from config ${site.key}: unset it by hand`, null);
          continue;
        }
        const value = wanted.action === "set" ? wanted.value : false;
        const entry = configUses.get(site.key) ?? {
          change: { key: site.key, value, secret: site.secret || field.secret, type: site.type },
          uses: [],
        };
        entry.uses.push({ resource, field, at: siteAt, value });
        configUses.set(site.key, entry);
        continue;
      }
      // A literal.
      if (wanted.action === "remove") {
        if (site.inPlace) fileEdits.edits.push(...removeInput(declaration, input.item, input.span));
        else if (name === "archived")
          fileEdits.edits.push(replaceLiteral(declaration, site.span, site.expr, false));
        else {
          hand(resource, field, siteAt, `${name} is a variable's value: remove it by hand`, null);
          continue;
        }
        fileEdits.checks.push({ resource, input: name, wanted });
        edits.set(declaration.file, fileEdits);
        if (site.inPlace) record("removed", site.line, null);
        else record("rewritten", site.line, false);
        continue;
      }
      fileEdits.edits.push(replaceLiteral(declaration, site.span, site.expr, wanted.value));
      fileEdits.checks.push({ resource, input: name, wanted });
      edits.set(declaration.file, fileEdits);
      record("rewritten", site.line, wanted.value);
    }
  }

  // A config value read elsewhere too, or wanted two ways, is left to a hand edit: setting it would change more.
  const configChanges: ConfigChange[] = [];
  for (const [key, entry] of configUses) {
    const values = new Set(entry.uses.map((u) => JSON.stringify(u.value)));
    const reads = reader.configReads(key);
    const shared = reads > entry.uses.length || values.size > 1;
    for (const use of entry.uses) {
      if (shared) {
        hand(
          use.resource,
          use.field,
          use.at,
          values.size > 1
            ? `${inputOf(use.field)} comes from config ${key}, which other drifted inputs want set to another value: change the program by hand`
            : `${inputOf(use.field)} comes from config ${key}, which the program reads ${reads} times: set it by hand if every use should change`,
          use.value,
        );
        continue;
      }
      accepted.push({
        resource: use.resource.resource,
        urn: use.resource.urn,
        field: inputOf(use.field),
        how: "config",
        file: "",
        line: use.at.line,
        declaredIn: shown(use.at.file),
        configKey: key,
        value: entry.change.secret ? null : use.value,
        secret: entry.change.secret,
      });
    }
    if (!shared) configChanges.push(entry.change);
  }

  const files: FileChange[] = [];
  for (const [file, planned] of edits) {
    const after = applyEdits(planned.text, planned.edits);
    // Read back: the file still parses, and each edited input now declares the service's value.
    const again = reader.reread(file, after);
    for (const check of planned.checks) {
      const declarations = again.find(check.resource);
      const [declaration] = declarations;
      if (again.errors.length > 0 || declarations.length !== 1 || !declaration)
        throw new Error(
          `the change to ${shown(file)} would not read back (${again.errors[0] ?? "the declaration is lost"}); nothing was written`,
        );
      if (!readsBack(declaration.inputs.get(check.input), check.wanted))
        throw new Error(
          `the change to ${shown(file)} does not read back as ${check.input} of ${check.resource.resource}; nothing was written`,
        );
    }
    files.push({ file, shown: shown(file), before: planned.text, after });
  }
  let imported: ImportedVault[] = [];
  const current = (file: string) =>
    files.find((f) => f.file === file)?.after ?? (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  const allowLists: Partial<Record<AllowListPolicy, string[]>> = {};
  if (options.newDeclarations) {
    const added = await options.newDeclarations(project, current);
    if (added) {
      imported = added.imported.map((v) => ({ ...v, file: shown(v.file) }));
      Object.assign(allowLists, added.allowLists);
      const index = files.findIndex((f) => f.file === added.file);
      if (index >= 0) files[index] = { ...(files[index] as FileChange), after: added.after };
      else
        files.push({
          file: added.file,
          shown: shown(added.file),
          before: current(added.file),
          after: added.after,
        });
    }
  }
  if (options.policyConfig) {
    // A vault now declared archived: its name on the archive allow-list (a secret name is not written).
    const names = new Map(report.drifted.map((r) => [r.urn, r.vaultName]));
    const archived = accepted
      .filter((c) => c.field === "archived" && c.value === true)
      .flatMap((c) => names.get(c.urn) ?? []);
    if (archived.length > 0)
      allowLists["custody-vault-archive-allow-list"] = [
        ...(allowLists["custody-vault-archive-allow-list"] ?? []),
        ...archived,
      ];
    if (Object.keys(allowLists).length > 0) {
      const file = options.policyConfig;
      const before = current(file);
      const after = withAllowListed(before, allowLists);
      if (after !== before) files.push({ file, shown: shown(file), before, after });
    }
  }
  if (configChanges.length > 0) {
    const stack = options.stack ?? report.stack ?? undefined;
    if (!stack) throw new Error("the stack is not known, so its config file is not either: pass --stack");
    const file = stackConfigFile(project, stack);
    const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    const after = await stackConfigWith(file, configChanges, {
      cwd: project.dir,
      env: options.env,
      stack: options.stack,
    });
    files.push({ file, shown: shown(file), before, after });
    for (const [index, change] of accepted.entries())
      if (change.how === "config" && change.file === "") accepted[index] = { ...change, file: shown(file) };
  }
  return finish(files, options, accepted, handEdits, imported);
}

function finish(
  files: FileChange[],
  options: AcceptOptions,
  accepted: AcceptedChange[],
  handEdits: HandEdit[],
  imported: ImportedVault[],
): AcceptResult {
  const changed = files.filter((f) => f.before !== f.after);
  if (!options.dryRun)
    for (const change of changed)
      writeOutputFile(
        { file: change.file, what: "a file the accept changes", flag: "--accept", cwd: options.cwd },
        change.after,
        { overwrite: true },
      );
  return {
    dryRun: options.dryRun,
    exitCode: handEdits.length > 0 ? 3 : 0,
    accepted,
    handEdits,
    imported,
    files: changed,
    diff: changed.map((f) => unifiedDiff(f.shown, f.before, f.after)).join(""),
  };
}
