#!/usr/bin/env node
// Writes dist/field-types.json (exported as `pulumi-custody/field-types.json`), read with the TypeScript checker
// from this package's sources (the types exist for the compiler only):
// - under `tables`, the type of every field of every field table (`const …Fields = { field: (record) => value }`),
//   from each reader's return type: the plugin's schema (@pulumi-custody/plugin, schema.ts) types function
//   results with them;
// - under `outputs`, the type of every property of the resource output interfaces (`VaultOutputs`,
//   `VaultAddressOutputs`): the schema types the resource outputs that are no inputs with them.
// An object with fixed fields is written as `{ type: "object", properties, required }`, which the schema turns
// into a named object type. What a Pulumi type cannot say (a union of kinds, an object with an index
// signature and fields) is `Any`.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

// This package's folder: the field tables and output interfaces are its runtime core's; only its sources are read.
const root = path.join(__dirname, "..");
const configPath = path.join(root, "tsconfig.json");
const config = ts.parseJsonConfigFileContent(
  ts.readConfigFile(configPath, ts.sys.readFile).config,
  ts.sys,
  path.dirname(configPath),
);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const ANY = { $ref: "pulumi.json#/Any" };

/** How deep objects nest before the rest is `Any` (a guard against recursive types). */
const MAX_OBJECT_DEPTH = 4;

/** The Pulumi type of a TypeScript type, `undefined` left out. */
function pulumiType(type, depth = 0) {
  const parts = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)),
  );
  const kinds = new Set(parts.map(kind));
  if (kinds.size === 1) {
    const [only] = kinds;
    if (only === "boolean" || only === "string" || only === "number") return { type: only };
    if (only === "array") {
      const items = parts.map((t) => JSON.stringify(pulumiType(checker.getTypeArguments(t)[0], depth)));
      return new Set(items).size === 1
        ? { type: "array", items: JSON.parse(items[0]) }
        : { type: "array", items: ANY };
    }
    if (only === "map") {
      const value = checker.getIndexInfoOfType(parts[0], ts.IndexKind.String).type;
      return { type: "object", additionalProperties: pulumiType(value, depth) };
    }
    if (only === "object" && parts.length === 1 && depth < MAX_OBJECT_DEPTH)
      return objectType(parts[0], depth + 1);
  }
  return ANY;
}

/** An object with fixed fields: each property's type, and the ones that are not optional. */
function objectType(type, depth) {
  const properties = {};
  const required = [];
  for (const property of type.getProperties()) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const propertyType = declaration
      ? checker.getTypeOfSymbolAtLocation(property, declaration)
      : checker.getDeclaredTypeOfSymbol(property);
    properties[property.name] = pulumiType(propertyType, depth);
    if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
  }
  return { type: "object", properties, required };
}

function kind(t) {
  if (t.flags & ts.TypeFlags.BooleanLike) return "boolean";
  if (t.flags & ts.TypeFlags.StringLike) return "string";
  if (t.flags & ts.TypeFlags.NumberLike) return "number";
  if (checker.isArrayType(t)) return "array";
  if (checker.getIndexInfoOfType(t, ts.IndexKind.String) && t.getProperties().length === 0) return "map";
  if (
    t.flags & ts.TypeFlags.Object &&
    t.getProperties().length > 0 &&
    t.getCallSignatures().length === 0 &&
    !checker.getIndexInfoOfType(t, ts.IndexKind.String)
  )
    return "object";
  return "other";
}

/** The resource output interfaces whose property types the schema needs. */
const OUTPUT_INTERFACES = ["VaultOutputs", "VaultAddressOutputs"];

const tables = {};
const outputs = {};
for (const file of program.getSourceFiles()) {
  const rel = path.relative(root, file.fileName);
  if (rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep).includes("node_modules")) continue;
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
    if (ts.isInterfaceDeclaration(node) && OUTPUT_INTERFACES.includes(node.name.text)) {
      const properties = {};
      for (const property of checker.getTypeAtLocation(node.name).getProperties())
        properties[property.name] = pulumiType(checker.getTypeOfSymbolAtLocation(property, node));
      outputs[node.name.text] = properties;
    }
    ts.forEachChild(node, visit);
  });
}
const out = path.join(root, "dist", "field-types.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
const missing = OUTPUT_INTERFACES.filter((name) => !outputs[name]);
if (missing.length > 0) throw new Error(`emit-field-types: no interface ${missing.join(", ")} in ${root}`);
fs.writeFileSync(out, `${JSON.stringify({ tables, outputs }, null, 2)}\n`);
console.log(
  `[emit-field-types] ${Object.keys(tables).length} field tables and ${Object.keys(outputs).length} output ` +
    `interfaces in ${path.relative(root, out)}`,
);
