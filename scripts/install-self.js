#!/usr/bin/env node
// Installs the built package into this repository's own node_modules, as `npm install` would install it
// into a user's project, so that the repository's programs (the demo, the examples, the test and benchmark
// fixtures) load `pulumi-custody` from node_modules exactly as users' programs do.
//
// This matters for the serialized providers (provider/shims/index.ts): Pulumi writes a bare
// `require("pulumi-custody/provider-runtime/vault")` into the state only for a module loaded from a
// node_modules folder, and serializes anything else by value. A symlink would not do, because Node.js
// resolves it to the checkout; the files are hard links (copies across file systems), so a rebuild that
// rewrites them in place is seen at once, and this script, run by every `npm run build`, picks up the rest.
//
// `dist/package.json` closes the package scope of the compiled programs: without it they would resolve
// `pulumi-custody` to the checkout by self-reference, not to node_modules.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const target = path.join(root, "node_modules", manifest.name);

fs.writeFileSync(
  path.join(root, "dist", "package.json"),
  `${JSON.stringify({ private: true, description: `Build output of ${manifest.name}; see scripts/install-self.js.` }, null, 2)}\n`,
);

function linkOrCopy(from, to) {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    if (err.code !== "EXDEV" && err.code !== "EPERM") throw err;
    fs.copyFileSync(from, to);
  }
}

function mirror(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const copy = path.join(to, entry.name);
    if (entry.isDirectory()) mirror(source, copy);
    else if (entry.isFile()) linkOrCopy(source, copy);
  }
}

fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
fs.copyFileSync(path.join(root, "package.json"), path.join(target, "package.json"));
// What `npm pack` would ship: the `files` entries (package.json is copied above).
for (const entry of manifest.files) {
  const source = path.join(root, entry);
  if (!fs.existsSync(source)) throw new Error(`${entry} (package.json "files") is missing: build first`);
  const copy = path.join(target, entry);
  if (fs.statSync(source).isDirectory()) mirror(source, copy);
  else {
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    linkOrCopy(source, copy);
  }
}
