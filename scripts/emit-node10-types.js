#!/usr/bin/env node
// Writes a second copy of the published declarations, for projects that resolve modules the classic way
// (`"moduleResolution": "node"`, the `pulumi new typescript` template). Under that resolution `zod` resolves
// to its CommonJS declarations, whose locale files use `export =` and fail to type-check without
// `esModuleInterop` unless `skipLibCheck` is on. The copy imports zod's ES-module declarations instead
// (`zod/v4/index.js`, which only the classic resolution may reach: it is not in zod's `exports`), and
// `typesVersions` in package.json sends only the classic resolution to it.
const fs = require("node:fs");
const path = require("node:path");

const dist = path.join(__dirname, "..", "dist");
const target = path.join(dist, "types-node10");
const published = ["sdk", "emulator", "provider", "policy"];
const zodSpecifier = /(from |import\()"zod"/g;

function* declarations(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* declarations(full);
    else if (entry.name.endsWith(".d.ts")) yield full;
  }
}

fs.rmSync(target, { recursive: true, force: true });
let count = 0;
for (const top of published) {
  for (const file of declarations(path.join(dist, top))) {
    const copy = path.join(target, path.relative(dist, file));
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.writeFileSync(copy, fs.readFileSync(file, "utf8").replace(zodSpecifier, '$1"zod/v4/index.js"'));
    count++;
  }
}
console.log(
  `declarations for moduleResolution node: ${count} files in ${path.relative(process.cwd(), target)}`,
);
