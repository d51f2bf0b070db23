/**
 * No import circles between the repository's files: every file of every package, the test helpers' package
 * (`testing/`), the test suites and their support code (the root `test/` and each package's `test/`), the
 * benchmarks, the scripts and the examples. An import is any `import`, `export … from`,
 * `import type`, `import()` or `require()` of a fixed name (a type-only import counts: it ties the two files as
 * much for a reader and for the next change); an import of a workspace package by name counts as an import of
 * the source file behind that entry point of its `exports`. A circle is reported with the files on it, each
 * followed by the one it imports.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..", "..");

/** Folders that hold no source of the repository's own (built or installed files, and the test suites). */
const SKIPPED = new Set(["node_modules", "dist", ".git", ".work"]);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|js|cjs|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
  }
}

/** A workspace package: its folder and the `exports` of its manifest (subpath → file in its `dist`). */
interface Workspace {
  dir: string;
  exports: Record<string, unknown>;
}

/** The workspace packages, by name. */
function workspacesByName(): Map<string, Workspace> {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    workspaces: string[];
  };
  const out = new Map<string, Workspace>();
  for (const workspace of manifest.workspaces) {
    const dir = path.join(root, workspace);
    const own = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    out.set(own.name, { dir, exports: own.exports ?? {} });
  }
  return out;
}

/** The file a compiled module of a package's `dist` is built from (`dist/core/index.js` → `core/index.ts`). */
function sourceOfCompiled(dir: string, target: string): string | undefined {
  const relative = target.replace(/^\.\//, "").replace(/^dist\//, "");
  for (const candidate of [relative.replace(/\.js$/, ".ts"), relative]) {
    const full = path.join(dir, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return full;
  }
  return undefined;
}

/** The source file an import names, or `undefined` for a module outside the repository (or a data file). */
function resolveImport(
  from: string,
  spec: string,
  workspaces: ReadonlyMap<string, Workspace>,
  exists: (file: string) => boolean,
): string | undefined {
  if (spec.startsWith(".")) {
    const base = path.resolve(path.dirname(from), spec);
    const stem = base.replace(/\.(js|cjs|mjs)$/, "");
    const candidates = [
      `${stem}.ts`,
      `${base}`,
      `${stem}.js`,
      path.join(base, "index.ts"),
      path.join(base, "index.js"),
    ];
    return candidates.find((file) => /\.(ts|js|cjs|mjs)$/.test(file) && exists(file));
  }
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  const workspace = workspaces.get(name);
  if (!workspace) return undefined;
  const subpath = spec.slice(name.length);
  const entry = workspace.exports[`.${subpath}`];
  const target =
    typeof entry === "string"
      ? entry
      : entry !== null && typeof entry === "object"
        ? (entry as { default?: unknown }).default
        : undefined;
  return typeof target === "string" ? sourceOfCompiled(workspace.dir, target) : undefined;
}

/** The files each file imports, as far as they are source files of the repository. */
function importGraph(
  files: ReadonlyMap<string, string>,
  workspaces: ReadonlyMap<string, Workspace>,
): Map<string, Set<string>> {
  const exists = (file: string) => files.has(file);
  const graph = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    const targets = new Set<string>();
    // The compiler's own scanner: imports in comments and strings (a program a command writes) are not imports.
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveImport(file, fileName, workspaces, exists);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every circle of the graph: each strongly connected set of two or more files, or a file that imports itself. */
function importCircles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm, with an explicit stack of frames: the graph has thousands of files.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: { file: string; targets: Iterator<string> }[] = [];
    const open = (file: string) => {
      index.set(file, next);
      low.set(file, next);
      next++;
      stack.push(file);
      onStack.add(file);
      frames.push({ file, targets: (graph.get(file) ?? new Set<string>()).values() });
    };
    open(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const step = frame.targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) open(target);
        else if (onStack.has(target)) low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      const selfImport = component.length === 1 && graph.get(frame.file)?.has(frame.file) === true;
      if (component.length > 1 || selfImport) circles.push(component.sort());
    }
  }
  return circles;
}

/** A circle as a test failure reads it: each file, then what it imports of the others. */
function describeCircle(circle: readonly string[], graph: ReadonlyMap<string, ReadonlySet<string>>): string {
  const members = new Set(circle);
  return circle
    .map((file) => {
      const targets = [...(graph.get(file) ?? [])].filter((t) => members.has(t));
      return `${path.relative(root, file)} -> ${targets.map((t) => path.relative(root, t)).join(", ")}`;
    })
    .join("; ");
}

describe("import circles", () => {
  it("finds a circle through two files and one through a file's own import, and none in a chain", () => {
    const at = (name: string) => path.join(root, "scratch", name);
    const files = new Map([
      [at("a.ts"), 'import { b } from "./b";\nexport const a = 1;\n'],
      [at("b.ts"), 'import type { a } from "./a.js";\nexport const b = 2;\n'],
      [at("c.ts"), 'export * from "./c";\n// import { a } from "./a";\n'],
      [at("d.ts"), 'const program = `import { a } from "./a"`;\nimport { e } from "./e";\n'],
      [at("e.ts"), "export const e = 3;\n"],
    ]);
    const graph = importGraph(files, new Map());
    assert.deepEqual(importCircles(graph), [[at("a.ts"), at("b.ts")], [at("c.ts")]]);
    // Neither a comment nor a string that reads like an import is one.
    assert.deepEqual([...graph.get(at("d.ts"))!], [at("e.ts")]);
  });

  it("follows a workspace package's name to the source behind its entry point", () => {
    const workspaces = workspacesByName();
    const from = path.join(root, "plugin", "schema.ts");
    assert.equal(
      resolveImport(from, "pulumi-custody/core", workspaces, fs.existsSync),
      path.join(root, "provider", "core", "index.ts"),
    );
    assert.equal(
      resolveImport(from, "@pulumi-custody/sdk/schema", workspaces, fs.existsSync),
      path.join(root, "sdk", "schema", "index.ts"),
    );
    assert.equal(resolveImport(from, "zod", workspaces, fs.existsSync), undefined);
  });

  it("the repository's source files import each other without a circle", () => {
    const files = new Map<string, string>();
    for (const file of sourceFiles(root)) files.set(file, fs.readFileSync(file, "utf8"));
    assert.ok(files.size > 250, `only ${files.size} source files found`);
    const graph = importGraph(files, workspacesByName());
    const circles = importCircles(graph).map((circle) => describeCircle(circle, graph));
    assert.deepEqual(circles, []);
  });
});
