#!/usr/bin/env node
// The version of a release is written once, as the root package.json's "version"; this script stamps it on
// everything that repeats it:
//
//   - each workspace's package.json "version", and its ranges on the other workspaces (exact: the packages are
//     released together), in every dependency section;
//   - package-lock.json's entries of the workspaces (what `npm install` would write);
//   - the examples: their package.json ranges on our packages (`^<version>`), the Python example's requirement
//     on `pulumi_custody` (`>=<version>,<next minor>`), and the YAML example's package declaration
//     (examples/yaml-vaults/sdks/custody.yaml: the plugin version and its download URL);
//   - the `pulumi plugin install resource custody <version> --file pulumi-resource-custody-v<version>-…` lines
//     of the READMEs and docs.
//
// The plugin's schema reads its version from plugin/package.json (plugin/schema.ts, PLUGIN_VERSION) and both
// SDKs claim the schema's version (`respectSchemaVersion`), so they follow from the stamp.
//
//   node scripts/stamp-version.js            stamp the root version everywhere
//   node scripts/stamp-version.js 0.3.0      set the root version to 0.3.0 first, then stamp
//   node scripts/stamp-version.js --check    change nothing; list what differs and exit 1 if anything does
//   --root DIR                               another checkout (default: this script's repository)

const fs = require("node:fs");
const path = require("node:path");

const args = process.argv.slice(2);
const check = args.includes("--check");
const rootAt = args.indexOf("--root");
const root = rootAt >= 0 ? path.resolve(args[rootAt + 1] ?? ".") : path.resolve(__dirname, "..");
const wanted = args.filter((a, i) => !a.startsWith("--") && (rootAt < 0 || i !== rootAt + 1))[0];

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
const differences = [];

/** Writes `text` to `file` (relative to the root) when it changed; in --check mode records the difference. */
function put(file, before, after) {
  if (before === after) return;
  differences.push(file);
  if (!check) fs.writeFileSync(path.join(root, file), after);
}
/** JSON as npm writes it: two spaces, a final newline. */
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

const rootManifest = readJson("package.json");
if (wanted !== undefined) {
  if (!SEMVER.test(wanted)) {
    console.error(`stamp-version: ${JSON.stringify(wanted)} is not a version (x.y.z or x.y.z-pre)`);
    process.exit(2);
  }
  put("package.json", json(rootManifest), json({ ...rootManifest, version: wanted }));
}
const version = check || wanted === undefined ? rootManifest.version : wanted;
if (!SEMVER.test(String(version))) {
  console.error(`stamp-version: package.json "version" ${JSON.stringify(version)} is not a version`);
  process.exit(2);
}
const [major, minor] = version.split(".").map(Number);

const workspaces = rootManifest.workspaces;
const ours = new Set(workspaces.map((w) => readJson(`${w}/package.json`).name));
const SECTIONS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

/** `manifest` with `range(version)` on each of our packages it depends on. */
function withRanges(manifest, range) {
  const out = { ...manifest };
  for (const section of SECTIONS) {
    if (!out[section]) continue;
    out[section] = { ...out[section] };
    for (const name of Object.keys(out[section])) if (ours.has(name)) out[section][name] = range(version);
  }
  return out;
}

for (const workspace of workspaces) {
  const file = `${workspace}/package.json`;
  const manifest = readJson(file);
  put(file, json(manifest), json(withRanges({ ...manifest, version }, (v) => v)));
}

const lock = readJson("package-lock.json");
const stampedLock = { ...lock, version, packages: { ...lock.packages } };
stampedLock.packages[""] = { ...lock.packages[""], version };
for (const workspace of workspaces)
  if (lock.packages[workspace])
    stampedLock.packages[workspace] = withRanges({ ...lock.packages[workspace], version }, (v) => v);
put("package-lock.json", json(lock), json(stampedLock));

const examples = path.join(root, "examples");
for (const example of fs.existsSync(examples) ? fs.readdirSync(examples) : []) {
  const file = `examples/${example}/package.json`;
  if (!fs.existsSync(path.join(root, file))) continue;
  const manifest = readJson(file);
  put(file, json(manifest), json(withRanges(manifest, (v) => `^${v}`)));
}

const requirements = "examples/python-quickstart/requirements.txt";
if (fs.existsSync(path.join(root, requirements))) {
  const text = fs.readFileSync(path.join(root, requirements), "utf8");
  const next = major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
  put(requirements, text, text.replace(/^pulumi_custody\b.*$/m, `pulumi_custody>=${version},<${next}`));
}

const declaration = "examples/yaml-vaults/sdks/custody.yaml";
if (fs.existsSync(path.join(root, declaration))) {
  const text = fs.readFileSync(path.join(root, declaration), "utf8");
  put(declaration, text, text.replace(/^version: .*$/m, `version: ${version}`));
}

// The install-from-file commands of the docs name the version twice.
const INSTALL =
  /pulumi plugin install resource custody v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)? --file pulumi-resource-custody-v\d+\.\d+\.\d+\S*?-(?=(?:linux|darwin|<os>)-)/g;
function* markdown(dir) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory() && !["node_modules", "dist", ".git"].includes(entry.name)) yield* markdown(rel);
    else if (entry.isFile() && entry.name.endsWith(".md")) yield rel;
  }
}
// and what the engine's missing-plugin error suggests, quoted: `… custody v<version> --server …`.
const SERVER = /(pulumi plugin install resource custody )v\d+\.\d+\.\d+\S*?(\s+--server)/g;
for (const dir of ["", "docs", "examples", ...workspaces])
  for (const file of fs.existsSync(path.join(root, dir)) ? markdown(dir) : []) {
    if (dir === "" && file.includes(path.sep)) continue;
    if (file === "CHANGELOG.md") continue; // the history names the versions it was written for
    const text = fs.readFileSync(path.join(root, file), "utf8");
    put(
      file,
      text,
      text
        .replace(
          INSTALL,
          `pulumi plugin install resource custody ${version} --file pulumi-resource-custody-v${version}-`,
        )
        .replace(SERVER, `$1v${version}$2`),
    );
  }

const unique = [...new Set(differences)];
if (check) {
  if (unique.length > 0) {
    console.error(`stamp-version: these files do not say version ${version}: ${unique.join(", ")}`);
    console.error("stamp-version: run `node scripts/stamp-version.js` and commit the result");
    process.exit(1);
  }
  console.error(`stamp-version: every file says version ${version}`);
} else {
  console.error(
    `stamp-version: ${version}${unique.length ? `, stamped ${unique.join(", ")}` : ", nothing to change"}`,
  );
}
