#!/usr/bin/env node
// Finishes the build for the repository's own programs and tests:
//
// 1. Installs the provider package (`pulumi-custody`) into the repository's node_modules as `npm install` would
//    install it into a user's project, so that the repository's programs (the demo, the examples, the test and
//    benchmark fixtures) load it from node_modules exactly as users' programs do. This matters for the
//    serialized providers (provider/shims/index.ts): Pulumi writes a bare
//    `require("pulumi-custody/provider-runtime/vault")` into the state only for a module loaded from a
//    node_modules folder, and serializes anything else by value. npm's workspace link (a symlink) would not
//    do, because Node.js resolves it to the checkout; the files are hard links (copies across file systems), so
//    a rebuild that rewrites them in place is seen at once, and this script, run by every `npm run build`,
//    picks up the rest. The other packages stay linked: nothing of theirs is serialized.
// 2. Links each package's build output into the root `dist/` (`dist/sdk` → `sdk/dist`, …), beside the compiled
//    tests and benchmarks, so that their relative imports of a package's modules (`../../../sdk/redact`)
//    resolve to that package's build. `dist/provider` links to the installed copy of step 1: the other packages
//    reach the provider as `pulumi-custody`, and one process must hold one copy of its modules (their settings).
// 3. Writes `dist/package.json`, which closes the package scope of the compiled programs: without it they
//    would resolve `pulumi-custody` to the checkout by self-reference, not to node_modules.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

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
    else if (entry.isFile() && !entry.name.endsWith(".tsbuildinfo")) linkOrCopy(source, copy);
  }
}

const providerDir = path.join(root, "provider");
const manifest = JSON.parse(fs.readFileSync(path.join(providerDir, "package.json"), "utf8"));
const target = path.join(root, "node_modules", manifest.name);
fs.rmSync(target, { recursive: true, force: true });

// `--link`, before the compiler: npm's workspace link again, so that the packages that import `pulumi-custody`
// compile against the provider being built. A copy of an earlier build would lack the files and exports added
// since (a checkout copied without its build output, as scripts/test-current.sh makes, or a pull).
if (process.argv.includes("--link")) {
  fs.symlinkSync(path.join("..", "provider"), target, "dir");
  process.exit(0);
}
fs.mkdirSync(target, { recursive: true });
for (const entry of ["package.json", ...manifest.files.filter((f) => !f.startsWith("!"))]) {
  const source = path.join(providerDir, entry);
  if (!fs.existsSync(source))
    throw new Error(`provider/${entry} (package.json "files") is missing: build first`);
  const copy = path.join(target, entry);
  if (fs.statSync(source).isDirectory()) mirror(source, copy);
  else linkOrCopy(source, copy);
}

const dist = path.join(root, "dist");
fs.mkdirSync(dist, { recursive: true });
for (const workspace of workspaces) {
  const link = path.join(dist, workspace);
  fs.rmSync(link, { recursive: true, force: true });
  const built =
    workspace === "provider"
      ? path.join("..", "node_modules", manifest.name, "dist")
      : path.join("..", workspace, "dist");
  fs.symlinkSync(built, link);
}
fs.writeFileSync(
  path.join(dist, "package.json"),
  `${JSON.stringify({ private: true, description: "Build output of the repository's programs and tests; see scripts/install-self.js." }, null, 2)}\n`,
);
