#!/usr/bin/env node
// Keeps, of the V8 coverage that every Node.js process of a test run writes (NODE_V8_COVERAGE), only the product
// code's scripts, each under its path in this checkout, so that `c8 report` maps it to the TypeScript sources.
//
// Why it exists: every process writes a file of about 8 MB (the Pulumi SDK alone is most of it), and an end-to-end
// run starts thousands of processes (the engine's language hosts, dynamic providers and plugins); and most of the
// product code runs there from a package installed from its release tarball (`node_modules/pulumi-custody/dist/…`
// in a project outside the checkout), not from the checkout. A script of an installed package is the same file
// as `<workspace>/dist/…` here (the tarball is packed from that build), so its offsets hold; a script whose
// text differs from the checkout's is dropped, not guessed at.
//
//   node scripts/coverage-compact.js <raw dir> <out dir>            once
//   node scripts/coverage-compact.js <raw dir> <out dir> --watch    until stdin closes, then once more
//
// A raw file is moved out only once it parses (V8 writes it when its process exits).
const fs = require("node:fs");
const path = require("node:path");
const { fileURLToPath, pathToFileURL } = require("node:url");

const REPO = path.resolve(__dirname, "..");
const [rawDir, outDir] = process.argv.slice(2);
const watch = process.argv.includes("--watch");
if (!rawDir || !outDir) {
  console.error("usage: coverage-compact.js <raw dir> <out dir> [--watch]");
  process.exit(2);
}

/** The published workspaces, by npm name: the product code. */
const PACKAGES = new Map(
  JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"))
    .workspaces.map((folder) => [
      folder,
      JSON.parse(fs.readFileSync(path.join(REPO, folder, "package.json"), "utf8")),
    ])
    .filter(([, manifest]) => !manifest.private)
    .map(([folder, manifest]) => [manifest.name, folder]),
);
const FOLDERS = new Set(PACKAGES.values());

/** Whether a checkout file's text equals an installed copy's, by path (read once each). */
const sameText = new Map();
function sameAsCheckout(installed, checkout) {
  const key = `${installed}\0${checkout}`;
  if (!sameText.has(key)) {
    let same = false;
    try {
      same = fs.readFileSync(installed).equals(fs.readFileSync(checkout));
    } catch {}
    sameText.set(key, same);
  }
  return sameText.get(key);
}

/** The checkout path of a product script, or undefined for anything else (tests, dependencies, Node itself). */
function productPath(url) {
  if (!url.startsWith("file://")) return undefined;
  const file = fileURLToPath(url);
  const relative = path.relative(REPO, file);
  if (!relative.startsWith("..")) {
    const [folder, dist, next] = relative.split(path.sep);
    return FOLDERS.has(folder) && dist === "dist" && next !== "test" ? file : undefined;
  }
  // An installed package: …/node_modules/<name>/dist/… (a scope is two segments).
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const scoped = parts[at + 1]?.startsWith("@");
  const name = scoped ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  const rest = parts.slice(at + (scoped ? 3 : 2));
  const folder = PACKAGES.get(name);
  if (!folder || rest[0] !== "dist" || rest[1] === "test") return undefined;
  const checkout = path.join(REPO, folder, ...rest);
  return sameAsCheckout(file, checkout) ? checkout : undefined;
}

let kept = 0;
let dropped = 0;
function compactOnce() {
  let names;
  try {
    names = fs.readdirSync(rawDir).filter((name) => name.endsWith(".json"));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(rawDir, name);
    let raw;
    try {
      raw = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      continue; // still being written
    }
    const result = [];
    for (const script of raw.result ?? []) {
      const checkout = productPath(script.url);
      if (checkout) result.push({ ...script, url: pathToFileURL(checkout).href });
    }
    if (result.length > 0) {
      fs.writeFileSync(path.join(outDir, name), JSON.stringify({ result }));
      kept++;
    } else dropped++;
    fs.rmSync(file);
  }
}

fs.mkdirSync(outDir, { recursive: true });
if (watch) {
  const timer = setInterval(compactOnce, 2000);
  process.stdin.resume();
  process.stdin.on("end", () => {
    clearInterval(timer);
    compactOnce();
    console.error(`[coverage] ${kept} processes ran product code, ${dropped} did not`);
  });
} else {
  compactOnce();
  console.error(`[coverage] ${kept} processes ran product code, ${dropped} did not`);
}
