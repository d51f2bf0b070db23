/**
 * The project an accept edits, from its `Pulumi.yaml`: its name (the namespace of its own config), its runtime
 * (the language of its program), the program's files, and the stack's config file.
 *
 * - Node.js (`runtime: nodejs`): the entry is `main` when it names a file, else, in `main`'s directory (the
 *   project's by default), the `main` of its package.json, `index.ts` or `index.js`; the program is the entry and
 *   the local modules it imports.
 * - Python: every `.py` file of `main`'s directory (the project's by default) and below, outside virtualenvs.
 * - YAML: `Pulumi.yaml` itself and `Main.yaml` in `main`'s directory.
 * - The stack's config: `Pulumi.<stack>.yaml` in `stackConfigDir` (the project's directory by default), the
 *   stack named by the last part of its name (`org/project/dev` → `dev`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isMap, parseDocument } from "yaml";
import type { ProgramLanguage } from "./declarations";
import { javascriptProgramFiles } from "./javascript";
import { pythonProgramFiles } from "./python";

/** A project, as an accept reads it. */
export interface ProgramProject {
  /** The directory of its `Pulumi.yaml`. */
  readonly dir: string;
  /** Its `Pulumi.yaml` (or `Pulumi.yml`). */
  readonly projectFile: string;
  /** Its name. */
  readonly name: string;
  /** Its runtime (`nodejs`, `python`, `yaml`, `go`, …). */
  readonly runtime: string;
  /** The language an accept edits it in; `undefined` for a runtime it does not edit. */
  readonly language: ProgramLanguage | undefined;
  /** The program's files. */
  readonly files: readonly string[];
  /** The directory of the stacks' config files. */
  readonly stackConfigDir: string;
}

/** Reads the project in `dir`; throws one line when there is none or it cannot be read. */
export function readProject(dir: string): ProgramProject {
  const projectFile = ["Pulumi.yaml", "Pulumi.yml"]
    .map((f) => path.join(dir, f))
    .find((f) => fs.existsSync(f));
  if (!projectFile) throw new Error(`there is no Pulumi.yaml in ${dir}: give --cwd the project's directory`);
  const doc = parseDocument(fs.readFileSync(projectFile, "utf8"));
  if (doc.errors.length > 0 || !isMap(doc.contents))
    throw new Error(
      `${path.basename(projectFile)} is not a YAML mapping: ${doc.errors[0]?.message.split("\n")[0] ?? ""}`,
    );
  const project = doc.toJS() as Record<string, unknown>;
  const name = typeof project.name === "string" ? project.name : path.basename(dir);
  const runtimeField = project.runtime;
  const runtime =
    typeof runtimeField === "string"
      ? runtimeField
      : typeof (runtimeField as { name?: unknown } | undefined)?.name === "string"
        ? String((runtimeField as { name: string }).name)
        : "";
  const main = typeof project.main === "string" ? path.resolve(dir, project.main) : undefined;
  const mainIsFile = main !== undefined && fs.statSync(main, { throwIfNoEntry: false })?.isFile() === true;
  const programDir = main && !mainIsFile ? main : dir;
  const stackConfigDir =
    typeof project.stackConfigDir === "string" ? path.resolve(dir, project.stackConfigDir) : dir;
  const base = { dir, projectFile, name, runtime, stackConfigDir };
  switch (runtime) {
    case "nodejs": {
      const entry = mainIsFile ? main : nodeEntry(programDir);
      return { ...base, language: "javascript", files: entry ? javascriptProgramFiles(entry) : [] };
    }
    case "python":
      return {
        ...base,
        language: "python",
        files: pythonProgramFiles(mainIsFile ? path.dirname(main) : programDir),
      };
    case "yaml": {
      const files = [projectFile];
      const mainYaml = path.join(programDir, "Main.yaml");
      if (fs.existsSync(mainYaml)) files.push(mainYaml);
      return { ...base, language: "yaml", files };
    }
    default:
      return { ...base, language: undefined, files: [] };
  }
}

/** The entry file of a Node.js program in `dir`. */
function nodeEntry(dir: string): string | undefined {
  const manifest = path.join(dir, "package.json");
  if (fs.existsSync(manifest)) {
    try {
      const main = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { main?: unknown }).main;
      if (typeof main === "string") {
        const file = path.resolve(dir, main);
        const candidates = [
          file,
          `${file}.ts`,
          `${file}.js`,
          path.join(file, "index.ts"),
          path.join(file, "index.js"),
        ];
        const found = candidates.find((c) => fs.statSync(c, { throwIfNoEntry: false })?.isFile());
        if (found) return found;
      }
    } catch {
      // A package.json that is not JSON names no entry; the defaults below apply.
    }
  }
  return ["index.ts", "index.js", "index.mjs", "index.cjs"]
    .map((f) => path.join(dir, f))
    .find((f) => fs.existsSync(f));
}

/** The config file of `stack` in the project (`Pulumi.<stack>.yaml`). */
export function stackConfigFile(project: ProgramProject, stack: string): string {
  const short = stack.slice(stack.lastIndexOf("/") + 1);
  const yaml = path.join(project.stackConfigDir, `Pulumi.${short}.yaml`);
  const yml = path.join(project.stackConfigDir, `Pulumi.${short}.yml`);
  return !fs.existsSync(yaml) && fs.existsSync(yml) ? yml : yaml;
}
