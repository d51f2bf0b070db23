/**
 * `custody drift --accept --accept-new`: vaults made in the console that no stack manages but that the stack's
 * import selection takes (the project's split group, `custody-split.json`, or the filter given: `--name-prefix`,
 * `--name-pattern`, `--type`, `--chain`) are declared in the program, with the code `custody import` writes for
 * them (cli/import: the selection, the names, the code), appended to the program:
 * - on the plugin, the engine's generated code, each resource with the `import` option and the vault's id, so
 *   that the next `up` imports it unchanged (the engine ignores the option once the resource is in the state);
 * - on the dynamic provider, `custody import --provider dynamic`'s declarations, `adoptExisting: true`.
 * The appended code is read back by the program's parser, as every edit of an accept is.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isMap, parseDocument } from "yaml";
import { type CommandIo, type ParsedArgs, UsageError } from "../../command";
import { adoptedVaultInputs, dynamicProgram } from "../../import/dynamic-program";
import { generateProgram, type Language } from "../../import/generate";
import { planImport, settingsEnv } from "../../import/plan";
import { type AllowListPolicy, neededAllowLists } from "../../import/policy-config";
import type { ImportProvider, Selection } from "../../import/select";
import { SPLIT_RECORD } from "../../import/split";
import { importFileOf } from "../../import-file/import-file";
import { CodeDeclarations, type Declaration } from "./declarations";
import { applyEdits, insertInput, type TextEdit } from "./edits";
import { javascriptModel } from "./javascript";
import type { ProgramProject } from "./project";
import { pythonModels } from "./python";
import type { ImportedVault } from "./report";
import { lineOf } from "./source-model";
import { YamlDeclarations } from "./yaml-program";

/** The filter flags that make an import selection. */
export const SELECTION_FLAGS = ["name-prefix", "name-pattern", "type", "chain"] as const;

/** What {@link newVaultDeclarations} adds. */
export interface NewVaults {
  /** The program file the declarations go to. */
  readonly file: string;
  /** Its text after. */
  readonly after: string;
  /** The vaults declared. */
  readonly imported: ImportedVault[];
  /** The names the policy pack's allow-lists need for these declarations (`adoptExisting`, `archived`). */
  readonly allowLists: Partial<Record<AllowListPolicy, string[]>>;
}

/** Whether the arguments or the project give an import selection; a usage error says how to give one. */
export function checkSelection(args: ParsedArgs, projectDir: string): void {
  const filtered = SELECTION_FLAGS.some((flag) => args.flags[flag] !== undefined);
  const split = args.flags["ignore-split"] !== true && fs.existsSync(path.join(projectDir, SPLIT_RECORD));
  if (!filtered && !split)
    throw new UsageError(
      `--accept-new declares the vaults the stack's import selection takes: give it as for custody import (--name-prefix, --name-pattern, --type, --chain), or run it in a group's project of a split (${SPLIT_RECORD})`,
    );
}

/** The provider path of a program: the plugin's SDK or YAML/Python, else the dynamic provider. */
function providerOf(project: ProgramProject, texts: ReadonlyMap<string, string>): ImportProvider {
  if (project.language !== "javascript") return "plugin";
  return [...texts.values()].some((text) => text.includes("@pulumi-custody/custody")) ? "plugin" : "dynamic";
}

/** The language custody import writes a program of this project in. */
function importLanguage(project: ProgramProject): Language {
  if (project.language === "python") return "python";
  if (project.language === "yaml") return "yaml";
  return "typescript";
}

/** The lines of a generated program after its imports (and the comments before them). */
function declarationsOf(code: string): { imports: string[]; body: string } {
  const lines = code.split("\n");
  const imports: string[] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^(import |from \S+ import )/.test(line)) imports.push(line);
    else if (line.trim() !== "" && !line.startsWith("#") && !line.startsWith("//")) break;
  }
  return { imports, body: lines.slice(i).join("\n").replace(/\n*$/, "\n") };
}

/** Adds the `import` resource option to each resource of a generated program (resource name → id). */
function withImportOptions(
  language: "javascript" | "python",
  code: string,
  ids: ReadonlyMap<string, string>,
  file: string,
  env: NodeJS.ProcessEnv,
): string {
  const [model] =
    language === "python" ? pythonModels([{ file, text: code }], env) : [javascriptModel(file, code)];
  if (!model) throw new Error("the generated program could not be read");
  const edits: TextEdit[] = [];
  for (const call of model.calls) {
    const nameArg = call.args[0];
    if (nameArg?.kind !== "string") continue;
    const id = ids.get(nameArg.value);
    if (id === undefined) continue;
    const options = language === "python" ? call.keywords.find((k) => k.key === "opts")?.value : call.args[2];
    const container =
      options?.kind === "object"
        ? { items: options.properties.map((p) => p.span), open: options.open, close: options.close }
        : options?.kind === "call"
          ? { items: options.argSpans, open: options.open, close: options.close }
          : undefined;
    if (!container || container.items.length === 0)
      throw new Error(`the generated code of ${nameArg.value} has no resource options to add the import to`);
    const holder: Declaration = {
      file,
      text: code,
      language,
      resourceName: nameArg.value,
      kind: "Vault",
      line: lineOf(code, call.span.start),
      inputs: new Map(),
      container,
      opaque: undefined,
    };
    // Python's keyword is `import_` (`import` is a keyword of the language).
    const inserted = insertInput(holder, language === "python" ? "import_" : "import", id);
    if (!inserted) throw new Error(`the import option of ${nameArg.value} could not be added`);
    edits.push(...inserted);
  }
  return applyEdits(code, edits);
}

/** The program file's text with the generated YAML resources appended to its `resources:`. */
function appendYamlResources(text: string, generated: string, ids: ReadonlyMap<string, string>): string {
  const doc = parseDocument(generated);
  const resources = isMap(doc.contents) ? doc.contents.get("resources", true) : undefined;
  if (!isMap(resources)) throw new Error("the generated YAML program has no resources");
  for (const pair of resources.items) {
    const name = String((pair.key as { value?: unknown }).value);
    const id = ids.get(name);
    if (id !== undefined) doc.setIn(["resources", name, "options", "import"], id);
  }
  const block = doc
    .toString({ lineWidth: 0 })
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .join("\n");
  const program = parseDocument(text);
  const existing = isMap(program.contents) ? program.contents.get("resources", true) : undefined;
  if (!isMap(existing) || existing.flow) {
    if (existing !== undefined) throw new Error("the program's resources: is not a block mapping");
    return `${text.replace(/\n*$/, "\n")}resources:\n${block}\n`;
  }
  const first = existing.items[0]?.key as { range?: [number, number, number] } | undefined;
  const indent = first?.range ? first.range[0] - text.lastIndexOf("\n", first.range[0] - 1) - 1 : 2;
  const shifted = block
    .split("\n")
    .map((line) => (indent > 2 ? " ".repeat(indent - 2) + line : line))
    .join("\n");
  // After the mapping's last entry (its text ends with that entry's line break, if it has one).
  const at = existing.range?.[1] ?? text.length;
  const before = text.slice(0, at);
  return `${before}${before.endsWith("\n") ? "" : "\n"}${shifted}\n${text.slice(at)}`;
}

/**
 * `text` (a program file) with the resources of `code` (a program `custody import` generated) appended, each
 * with the `import` resource option of its id (resource name → vault id): after its imports, the ones the
 * file lacks; YAML resources into the file's `resources:`.
 */
export function appendGeneratedCode(
  language: Language,
  text: string,
  code: string,
  ids: ReadonlyMap<string, string>,
  file: string,
  env: NodeJS.ProcessEnv,
): string {
  if (language === "yaml") return appendYamlResources(text, code, ids);
  if (language === "go") throw new Error("--accept-new does not write Go programs");
  const withImports = withImportOptions(
    language === "python" ? "python" : "javascript",
    code,
    ids,
    file,
    env,
  );
  const { imports, body } = declarationsOf(withImports);
  const missing = imports.filter((line) => !text.includes(line));
  const comment = language === "python" ? "#" : "//";
  return `${text.replace(/\n*$/, "\n")}\n${comment} Made in the console, imported as they are (custody drift --accept-new).\n${missing.map((l) => `${l}\n`).join("")}${body}`;
}

/**
 * The program's text with the vaults the selection takes declared; `undefined` when it takes none. `current`
 * gives each program file's text as the accept has made it so far.
 */
export async function newVaultDeclarations(
  args: ParsedArgs,
  io: CommandIo,
  project: ProgramProject,
  current: (file: string) => string,
): Promise<NewVaults | undefined> {
  if (!project.language || project.files.length === 0)
    throw new Error(
      `--accept-new writes TypeScript, JavaScript, Python and YAML programs; this project's runtime is ${project.runtime || "not named"}`,
    );
  const texts = new Map(project.files.map((file) => [file, current(file)]));
  const provider = providerOf(project, texts);
  const plan = await planImport(args, io, "drift", provider);
  const selection: Selection = { ...plan.selection, addresses: [] };
  if (selection.vaults.length === 0) return undefined;
  const ids = new Map(selection.vaults.map((v) => [v.name, v.vault.id]));

  // The entry file (JavaScript, Python), or the YAML file that has the resources.
  const file =
    project.language === "yaml"
      ? ([...texts].find(([, text]) => /^resources:/m.test(text))?.[0] ??
        (project.files[project.files.length - 1] as string))
      : (project.files.find((f) => path.basename(f).startsWith("__main__")) ?? (project.files[0] as string));
  const text = texts.get(file) ?? "";
  let after: string;
  if (provider === "dynamic") {
    const { body } = declarationsOf(dynamicProgram(selection, { protect: true }));
    const hasVault = /\bnew Vault\(/.test(text);
    const esm = /^\s*import\s/m.test(text) || /\.(ts|mts)$/.test(file);
    const importLine = hasVault
      ? ""
      : esm
        ? 'import { Vault } from "pulumi-custody";\n'
        : 'const { Vault } = require("pulumi-custody");\n';
    after = `${text.replace(/\n*$/, "\n")}\n// Made in the console, taken over as they are (custody drift --accept-new).\n${importLine}${body}`;
  } else {
    const language = importLanguage(project);
    const code = await generateProgram({
      language,
      importText: `${JSON.stringify(importFileOf(selection), null, 2)}\n`,
      protect: true,
      env: { ...io.env, ...settingsEnv(plan.settings) },
    });
    after = appendGeneratedCode(language, text, code, ids, file, io.env);
  }

  // Read back: the file parses, and declares each new vault once.
  const reader =
    project.language === "yaml"
      ? new YamlDeclarations([{ file, text: after }], project.name)
      : new CodeDeclarations(
          project.language === "python"
            ? pythonModels([{ file, text: after }], io.env)
            : [javascriptModel(file, after)],
          project.name,
        );
  const errors =
    reader instanceof YamlDeclarations
      ? (reader.errors().get(file) ?? [])
      : project.language === "python"
        ? (pythonModels([{ file, text: after }], io.env)[0]?.errors ?? [])
        : javascriptModel(file, after).errors;
  if (errors.length > 0)
    throw new Error(`the new vaults' declarations would not parse (${errors[0]}); nothing was written`);
  for (const name of ids.keys())
    if (reader.find(name, "Vault").length !== 1)
      throw new Error(`the declaration of the new vault ${name} does not read back; nothing was written`);
  return {
    file,
    after,
    allowLists: neededAllowLists(
      selection.vaults.map((v) => (provider === "dynamic" ? adoptedVaultInputs(v) : v.inputs)),
    ),
    imported: selection.vaults.map((v) => ({
      resource: v.name,
      vaultId: v.vault.id,
      vaultName: v.vault.name,
      file,
    })),
  };
}
