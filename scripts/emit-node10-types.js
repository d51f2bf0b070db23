#!/usr/bin/env node
// Writes a second copy of each package's declarations, for projects that resolve modules the classic way
// (`"moduleResolution": "node"`, the `pulumi new typescript` template). Under that resolution `zod` resolves
// to its CommonJS declarations, whose locale files use `export =` and fail to type-check without
// `esModuleInterop` unless `skipLibCheck` is on. The copy imports zod's ES-module declarations instead
// (`zod/v4/index.js`, which only the classic resolution may reach: it is not in zod's `exports`), and each
// package's `typesVersions` sends only the classic resolution to it (that resolution ignores `exports`, so it
// also needs `typesVersions` to find a subpath such as `pulumi-custody/core`). A package's `typesVersions` must
// cover every entry of its `exports` that has types; this script refuses a package.json where one is missing.
const fs = require("node:fs");
const path = require("node:path");

// Run by each package's own build (`npm run generate` in its folder), for that package: the working directory,
// or the folder given as the argument.
const dir = path.resolve(process.argv[2] ?? ".");
const zodSpecifier = /(from |import\()"zod"/g;

function* declarations(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // The copy itself, and the compiled tests (dist/test), which the package does not ship.
      if (entry.name !== "types-node10" && entry.name !== "test") yield* declarations(full);
    } else if (entry.name.endsWith(".d.ts")) yield full;
  }
}

/** The `typesVersions` a package needs for its `exports` (see above). */
function expectedTypesVersions(manifest) {
  const map = {};
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const types = typeof target === "object" ? target.types : undefined;
    if (!types) continue;
    const copy = types.replace(/^\.\/dist\//, "dist/types-node10/");
    // The main entry is found through `types`; classic resolution then looks that path up here.
    map[subpath === "." ? manifest.types : subpath.replace(/^\.\//, "")] = [copy];
  }
  return { "*": map };
}

let count = 0;
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
const expected = expectedTypesVersions(manifest);
if (JSON.stringify(manifest.typesVersions) !== JSON.stringify(expected)) {
  console.error(`${manifest.name}: package.json "typesVersions" must be ${JSON.stringify(expected)}`);
  process.exit(1);
}
const dist = path.join(dir, "dist");
const target = path.join(dist, "types-node10");
fs.rmSync(target, { recursive: true, force: true });
for (const file of declarations(dist)) {
  const copy = path.join(target, path.relative(dist, file));
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.writeFileSync(copy, fs.readFileSync(file, "utf8").replace(zodSpecifier, '$1"zod/v4/index.js"'));
  count++;
}
console.log(
  `[emit-node10-types] ${manifest.name}: ${count} declarations for moduleResolution node in dist/types-node10`,
);
