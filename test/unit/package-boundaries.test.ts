/**
 * Each package depends on the others only through their public faces: its sources import another package by
 * its name and an entry point of that package's `exports` (never a relative path out of its own folder, never a
 * module behind another package's entry point), every package it imports is one of its `dependencies`, and the
 * resource type lists exist once (in the runtime core's resource descriptors).
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

describe("package boundaries", () => {
  for (const workspace of workspaces) {
    it(`${workspace}: imports other packages by name, through their public entry points only`, () => {
      const own = manifests.get(workspace)!;
      const declared = new Set([
        ...Object.keys(own.dependencies ?? {}),
        ...Object.keys(own.peerDependencies ?? {}),
      ]);
      const problems: string[] = [];
      for (const file of sources(path.join(root, workspace))) {
        const where = path.relative(root, file);
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
          const [scopeOrName, maybeName, ...rest] = spec.split("/");
          const name = scopeOrName!.startsWith("@") ? `${scopeOrName}/${maybeName}` : scopeOrName!;
          const subpath = scopeOrName!.startsWith("@") ? rest : [maybeName, ...rest].filter(Boolean);
          const other = byName.get(name);
          if (!other) continue;
          if (other.workspace === workspace) {
            problems.push(`${where}: "${spec}" imports its own package by name`);
            continue;
          }
          const entry = subpath.length === 0 ? "." : `./${subpath.join("/")}`;
          if (!(entry in other.manifest.exports) || STATE_ONLY.has(entry))
            problems.push(`${where}: "${spec}" is not a public entry point of ${name}`);
          if (!declared.has(name))
            problems.push(`${where}: imports ${name}, which package.json does not list`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }

  it("the plugin reaches the provider through pulumi-custody/core alone", () => {
    const seen = new Set<string>();
    for (const file of sources(path.join(root, "plugin")))
      for (const spec of specifiers(file)) if (spec.startsWith("pulumi-custody")) seen.add(spec);
    assert.deepEqual([...seen], ["pulumi-custody/core"]);
  });

  it("the resource type tokens are written once: in the core's resource descriptors", () => {
    const written: string[] = [];
    for (const workspace of workspaces)
      for (const file of sources(path.join(root, workspace))) {
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
