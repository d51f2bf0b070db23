/**
 * The public API of each entry point is deliberate: every name an entry point exports (values and types, as
 * the TypeScript compiler sees them) is listed in the "Public API" section of its README, and every name
 * listed there is exported. Adding an export without documenting it, or exporting an internal by accident
 * (`export *` of a module that gained a helper), fails here.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..", "..");

/** Entry points, their source, the README that lists their API, and names covered by a wildcard line. */
const ENTRY_POINTS = [
  { name: "pulumi-custody", source: "provider/index.ts", readme: "provider/README.md" },
  { name: "pulumi-custody/core", source: "provider/core/index.ts", readme: "provider/README.md" },
  {
    name: "pulumi-custody/data-sources",
    source: "provider/data-sources/index.ts",
    readme: "provider/README.md",
  },
  { name: "@pulumi-custody/emulator", source: "emulator/index.ts", readme: "emulator/README.md" },
  { name: "@pulumi-custody/policy", source: "policy/index.ts", readme: "policy/README.md" },
  // Every schema of sdk/schema is public under its own name (a zod schema and its type); the README says so
  // in one line instead of listing a few hundred names.
  {
    name: "@pulumi-custody/sdk",
    source: "sdk/index.ts",
    readme: "sdk/README.md",
    wildcard: "sdk/schema/index.ts",
  },
  { name: "@pulumi-custody/sdk/signing", source: "sdk/signing/index.ts", readme: "sdk/README.md" },
  { name: "@pulumi-custody/plugin", source: "plugin/index.ts", readme: "plugin/README.md" },
  { name: "@pulumi-custody/cli", source: "cli/index.ts", readme: "cli/README.md" },
] as const;

function exportedNames(program: ts.Program, file: string): Set<string> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(root, file));
  assert.ok(source, `${file} is part of the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  assert.ok(moduleSymbol, `${file} is a module`);
  return new Set(checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.name));
}

/**
 * The names listed under "## Public API: `<entry>`" (or "## Public API" when the README covers one entry):
 * the first backticked identifier of each list item.
 */
function listedNames(readme: string, entry: string): Set<string> {
  const text = fs.readFileSync(path.join(root, readme), "utf8");
  const headings = [`## Public API: \`${entry}\``, "## Public API"];
  const start = headings.map((h) => text.indexOf(`${h}\n`)).find((i) => i >= 0);
  assert.ok(start !== undefined, `${readme} has a "Public API" section for ${entry}`);
  const rest = text.slice(start + 1);
  const end = rest.search(/\n## /);
  const section = end >= 0 ? rest.slice(0, end) : rest;
  const names = new Set<string>();
  for (const match of section.matchAll(/^\s*[-*] `([A-Za-z_$][\w$]*)`/gm)) names.add(match[1] as string);
  return names;
}

describe("the public API of each entry point", function () {
  this.timeout(120_000);
  let program: ts.Program;

  before(() => {
    const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    program = ts.createProgram(
      ENTRY_POINTS.map((e) => path.join(root, e.source)),
      { ...parsed.options, noEmit: true },
    );
  });

  for (const entry of ENTRY_POINTS) {
    it(`${entry.name}: exports exactly what ${entry.readme} lists`, () => {
      const exported = exportedNames(program, entry.source);
      const covered = "wildcard" in entry ? exportedNames(program, entry.wildcard) : new Set<string>();
      const listed = listedNames(entry.readme, entry.name);
      const undocumented = [...exported].filter((n) => !listed.has(n) && !covered.has(n)).sort();
      const missing = [...listed].filter((n) => !exported.has(n)).sort();
      assert.deepEqual(
        { undocumented, missing },
        { undocumented: [], missing: [] },
        `${entry.name}: exported but not listed in ${entry.readme}: ${undocumented.join(", ") || "none"}; ` +
          `listed but not exported: ${missing.join(", ") || "none"}`,
      );
    });
  }
});
