/**
 * Each package depends on the others only through their public faces: its sources and its tests import another
 * package by its name and an entry point of that package's `exports` (never a relative path out of its own
 * folder, never a module behind another package's entry point), every package its sources import is one of its
 * `dependencies` (its tests may use its `devDependencies` too), the suites and programs outside the packages
 * (test/, bench/, examples/, index.ts) import them by name alone, and the resource type lists exist once (in the
 * runtime core's resource descriptors).
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..", "..");
const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  workspaces: string[];
};

interface Manifest {
  name: string;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifests = new Map<string, Manifest>(
  workspaces.map((w) => [w, JSON.parse(fs.readFileSync(path.join(root, w, "package.json"), "utf8"))]),
);
const byName = new Map([...manifests].map(([w, m]) => [m.name, { workspace: w, manifest: m }]));

/** Subpaths kept only as the names that state written by earlier releases requires: not for other packages. */
const STATE_ONLY = new Set([
  "./provider-runtime",
  "./provider-runtime/vault",
  "./provider-runtime/vault-address",
  // What Pulumi's serializer writes for a program in a folder whose path holds the package's name.
  "./dist/shims/vault.js",
  "./dist/shims/vault-address.js",
]);

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith(".ts")) yield full;
  }
}

/** The module specifiers of a source file's imports, exports and requires of fixed names (comments aside). */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)"([^"]+)"/g)].map(
    (m) => m[1] as string,
  );
}

/** What is wrong with importing `spec` from outside its own package, by name: `undefined` when nothing. */
function publicEntryProblem(spec: string, allowStateOnly = false): string | undefined {
  const [scopeOrName, maybeName, ...rest] = spec.split("/");
  const name = scopeOrName!.startsWith("@") ? `${scopeOrName}/${maybeName}` : scopeOrName!;
  const subpath = scopeOrName!.startsWith("@") ? rest : [maybeName, ...rest].filter(Boolean);
  const other = byName.get(name);
  if (!other) return undefined;
  const entry = subpath.length === 0 ? "." : `./${subpath.join("/")}`;
  if (!(entry in other.manifest.exports) || (STATE_ONLY.has(entry) && !allowStateOnly))
    return `"${spec}" is not a public entry point of ${name}`;
  return undefined;
}

/** The package a specifier names, when it is one of the workspaces. */
function workspacePackage(spec: string): string | undefined {
  const [scopeOrName, maybeName] = spec.split("/");
  const name = scopeOrName!.startsWith("@") ? `${scopeOrName}/${maybeName}` : scopeOrName!;
  return byName.has(name) ? name : undefined;
}

describe("package boundaries", () => {
  for (const workspace of workspaces) {
    it(`${workspace}: imports other packages by name, through their public entry points only`, () => {
      const own = manifests.get(workspace)!;
      const declared = new Set([
        ...Object.keys(own.dependencies ?? {}),
        ...Object.keys(own.peerDependencies ?? {}),
      ]);
      const declaredForTests = new Set([...declared, ...Object.keys(own.devDependencies ?? {})]);
      const problems: string[] = [];
      for (const file of sources(path.join(root, workspace))) {
        const where = path.relative(root, file);
        const isTest = where.split(path.sep)[1] === "test";
        for (const spec of specifiers(file)) {
          if (spec.startsWith(".")) {
            // A data file is read at run time, from the compiled module in `dist/` (`../package.json` there is
            // the package's own).
            const from = spec.endsWith(".json")
              ? path.join(
                  root,
                  workspace,
                  "dist",
                  path.relative(path.join(root, workspace), path.dirname(file)),
                )
              : path.dirname(file);
            const target = path.resolve(from, spec);
            if (!target.startsWith(path.join(root, workspace) + path.sep))
              problems.push(`${where}: "${spec}" leaves the package`);
            continue;
          }
          const name = workspacePackage(spec);
          if (name === undefined) continue;
          if (name === own.name) {
            // A test may load its package as installed (its public face); the sources never self-reference.
            if (!isTest) problems.push(`${where}: "${spec}" imports its own package by name`);
            continue;
          }
          const problem = publicEntryProblem(spec);
          if (problem) problems.push(`${where}: ${problem}`);
          if (!(isTest ? declaredForTests : declared).has(name))
            problems.push(`${where}: imports ${name}, which package.json does not list`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }

  it("the suites and programs outside the packages import them by name, through their public entry points", () => {
    const packageDirs = workspaces.map((w) => path.join(root, w) + path.sep);
    const files = [
      ...["test", "bench", "examples"].flatMap((dir) => [...sources(path.join(root, dir))]),
      path.join(root, "index.ts"),
    ];
    const problems: string[] = [];
    for (const file of files) {
      const where = path.relative(root, file);
      for (const spec of specifiers(file)) {
        if (spec.startsWith(".")) {
          const target = path.resolve(path.dirname(file), spec);
          if (packageDirs.some((dir) => target.startsWith(dir)))
            problems.push(`${where}: "${spec}" reaches into a package's sources`);
          continue;
        }
        // The suites check the names that users' state requires (and build some of them from a template).
        if (spec.includes("${")) continue;
        const problem = publicEntryProblem(spec, true);
        if (problem) problems.push(`${where}: ${problem}`);
      }
    }
    assert.ok(files.length > 50, `only ${files.length} files found`);
    assert.deepEqual(problems, []);
  });

  it("the plugin reaches the provider through pulumi-custody/core and its data sources alone", () => {
    const seen = new Set<string>();
    for (const file of sources(path.join(root, "plugin")))
      if (!path.relative(root, file).startsWith(`plugin${path.sep}test${path.sep}`))
        for (const spec of specifiers(file)) if (spec.startsWith("pulumi-custody")) seen.add(spec);
    assert.deepEqual([...seen].sort(), ["pulumi-custody/core", "pulumi-custody/data-sources"]);
  });

  it("the resource type tokens are written once: in the core's resource descriptors", () => {
    const written: string[] = [];
    for (const workspace of workspaces)
      for (const file of sources(path.join(root, workspace))) {
        // Tests assert the tokens; the packages' sources must derive them.
        if (path.relative(root, file).split(path.sep)[1] === "test") continue;
        const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
        if (
          /"custody:index:(Vault|VaultAddress)"|"pulumi-nodejs:dynamic\/custody:(Vault|VaultAddress)"/.test(
            text,
          )
        )
          written.push(path.relative(root, file));
      }
    assert.deepEqual(written, []);
  });
});
