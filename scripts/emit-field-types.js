#!/usr/bin/env node
// Writes dist/plugin/field-types.json: the Pulumi type of every field of every field table (`const …Fields =
// { field: (record) => value }` in provider/), read from each reader's return type with the TypeScript
// checker. A reader's type exists for the compiler only; the plugin's schema (plugin/schema.ts) reads this file
// to type function results. Types the schema cannot say (objects with fixed fields, unions of kinds) are `Any`.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.join(__dirname, "..");
const configPath = path.join(root, "tsconfig.json");
const config = ts.parseJsonConfigFileContent(
  ts.readConfigFile(configPath, ts.sys.readFile).config,
  ts.sys,
  root,
);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const ANY = { $ref: "pulumi.json#/Any" };

/** The Pulumi type of a TypeScript type, `undefined` left out. */
function pulumiType(type) {
  const parts = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)),
  );
  const kinds = new Set(parts.map(kind));
  if (kinds.size === 1) {
    const [only] = kinds;
    if (only === "boolean" || only === "string" || only === "number") return { type: only };
    if (only === "array") {
      const items = parts.map((t) => JSON.stringify(pulumiType(checker.getTypeArguments(t)[0])));
      return new Set(items).size === 1
        ? { type: "array", items: JSON.parse(items[0]) }
        : { type: "array", items: ANY };
    }
    if (only === "map") {
      const value = checker.getIndexInfoOfType(parts[0], ts.IndexKind.String).type;
      return { type: "object", additionalProperties: pulumiType(value) };
    }
  }
  return ANY;
}

function kind(t) {
  if (t.flags & ts.TypeFlags.BooleanLike) return "boolean";
  if (t.flags & ts.TypeFlags.StringLike) return "string";
  if (t.flags & ts.TypeFlags.NumberLike) return "number";
  if (checker.isArrayType(t)) return "array";
  if (checker.getIndexInfoOfType(t, ts.IndexKind.String) && t.getProperties().length === 0) return "map";
  return "other";
}

const tables = {};
for (const file of program.getSourceFiles()) {
  const rel = path.relative(root, file.fileName);
  if (!rel.startsWith("provider/")) continue;
  ts.forEachChild(file, function visit(node) {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      /Fields$/.test(node.name.text) &&
      node.initializer
    ) {
      const table = {};
      for (const property of checker.getTypeAtLocation(node.name).getProperties()) {
        const reader = checker.getTypeOfSymbolAtLocation(property, node);
        const [signature] = reader.getCallSignatures();
        if (signature) table[property.name] = pulumiType(checker.getReturnTypeOfSignature(signature));
      }
      tables[node.name.text] = table;
    }
    ts.forEachChild(node, visit);
  });
}
const out = path.join(root, "dist", "plugin", "field-types.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(tables, null, 2)}\n`);
console.log(`[emit-field-types] ${Object.keys(tables).length} field tables in ${path.relative(root, out)}`);
