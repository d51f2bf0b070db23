#!/usr/bin/env node
// Writes the validators of the sdk's schemas, compiled by ajv at build time (its standalone code), into
// dist/schema/validators/, one CommonJS module per schema of the endpoint table, so that no request ever waits
// for ajv to compile one (schema/compiled-validator.ts). The sdk's build runs it after tsc, on the compiled sdk
// (`npm run generate`). Generated code, never committed: the directory is rewritten whole on every build.
const fs = require("node:fs");
const path = require("node:path");

const sdk = path.join(__dirname, "..");
const { prebuiltSchemas, standaloneModule } = require(
  path.join(sdk, "dist", "schema", "compiled-validator.js"),
);
const out = path.join(sdk, "dist", "schema", "validators");

const started = process.hrtime.bigint();
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
let written = 0;
let bytes = 0;
const uncovered = [];
for (const [name, schema] of prebuiltSchemas()) {
  const code = standaloneModule(schema);
  if (code === undefined) {
    // Not an error: such a schema keeps using zod alone, as it would at run time.
    uncovered.push(name);
    continue;
  }
  fs.writeFileSync(path.join(out, `${name}.js`), code);
  written++;
  bytes += Buffer.byteLength(code);
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
console.log(
  `[build-validators] ${written} validators, ${(bytes / 1024).toFixed(0)} KiB, in ${ms.toFixed(0)} ms` +
    (uncovered.length > 0 ? `; zod alone for ${uncovered.join(", ")}` : ""),
);
