#!/usr/bin/env bash
# Writes what a release of pulumi-custody publishes, from the build, into one directory (default dist/release):
#
#   <scope>-<package>-<version>.tgz              `npm pack` of each package (sdk, emulator, provider, policy,
#                                                plugin, cli): what `npm install` gets from the registry
#   pulumi-resource-custody-v<version>-<os>-<arch>.tar.gz
#                                                the plugin archive that `pulumi plugin install resource custody
#                                                <version> --file <archive>` accepts, and that the engine downloads
#                                                from the schema's `pluginDownloadURL`: a launcher and the plugin
#                                                bundled into one file (it needs `node` on PATH, nothing else)
#   schema.json                                  the plugin's schema, as `pulumi package get-schema` prints it
#   pulumi-custody-custody-<version>.tgz         the Node.js SDK generated from the schema, compiled (npm pack)
#   pulumi_custody-<version>-py3-none-any.whl    the Python SDK generated from the schema: a wheel
#   pulumi_custody-<version>.tar.gz              and an sdist (both with the SDK's README and project URLs)
#   checksums.txt                                the sha256 of each file above, as `sha256sum` prints them
#
# The SDKs are generated with `pulumi package gen-sdk`, as users of a plugin generate them: the CLI hands the
# schema to each language host, which runs Pulumi's own code generator (scripts/install-pulumi.sh builds both).
# The Python packages are built with `python -m build` in the virtualenv of scripts/install-python-deps.sh.
#
# Needs `npm run build` first. Each artifact is rebuilt only when its inputs changed (a stamp of their hash),
# so a second run in the same checkout takes seconds. Progress goes to stderr; stdout gets the directory.
#   scripts/release-artifacts.sh [out dir]
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$REPO_ROOT/dist/release}" && cd "${1:-$REPO_ROOT/dist/release}" && pwd)"
cd "$REPO_ROOT"

log() { printf '[release-artifacts] %s\n' "$*" >&2; }
die() { printf '[release-artifacts] error: %s\n' "$*" >&2; exit 1; }

[ -f plugin/dist/cli.js ] || die "plugin/dist/cli.js is missing: run \`npm run build\` first"
# Every package, the lock file and the examples must say the one version of the root package.json.
node scripts/stamp-version.js --check || die "the version is not the same everywhere: run \`node scripts/stamp-version.js\`"
version="$(node -p 'require("./package.json").version')"
work="$OUT/.work"
mkdir -p "$work"
# One run at a time per output directory: test processes that run side by side all ask for the artifacts, and
# the first builds them while the others wait, then find them up to date.
exec 8>"$work/.lock"
flock 8

# Whether the stamp of an artifact matches the hash of its inputs; `stamp <name> <hash>` records it.
fresh() { [ "$(cat "$work/$1.stamp" 2>/dev/null)" = "$2" ] && [ -e "$OUT/$3" ]; }
stamp() { echo "$2" >"$work/$1.stamp"; }
tree_hash() { find "$@" -type f ! -name '*.tsbuildinfo' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1; }

# 1. The npm packages.
# The published ones: a private workspace (testing/, the tests' shared helpers) is never released.
for workspace in $(node -p 'require("./package.json").workspaces.filter((w) => !require(`./${w}/package.json`).private).join(" ")'); do
  tarball="$(node -p "const p = require('./$workspace/package.json'); p.name.replace(/^@/, '').replace('/', '-') + '-' + p.version + '.tgz'")"
  hash="$(tree_hash "$workspace/dist" "$workspace/package.json" "$workspace/README.md")"
  if ! fresh "npm-$workspace" "$hash" "$tarball"; then
    log "npm pack $workspace"
    npm pack --silent --pack-destination "$OUT" --workspace "$workspace" >/dev/null
    stamp "npm-$workspace" "$hash"
  fi
done

# 2. The plugin archive: the plugin and everything it requires in one file, but for `@pulumi/pulumi`'s program
#    SDK, which the plugin never loads (the data sources load it lazily, for programs only).
archive_name() { echo "pulumi-resource-custody-v$version-$1.tar.gz"; }
plugin_hash="$(tree_hash plugin/dist provider/dist sdk/dist plugin/package.json)"
if ! fresh plugin "$plugin_hash" "$(archive_name linux-amd64)"; then
  log "bundling the plugin (esbuild) into its archive"
  stage="$work/plugin"
  rm -rf "$stage" && mkdir -p "$stage"
  node - "$stage/pulumi-resource-custody.js" <<'EOF'
const esbuild = require("esbuild");
const [outfile] = process.argv.slice(2);
const programSdkOnly = {
  name: "without-the-pulumi-program-sdk",
  setup(build) {
    build.onResolve({ filter: /^@pulumi\/pulumi$/ }, () => ({ path: "@pulumi/pulumi", namespace: "absent" }));
    build.onLoad({ filter: /.*/, namespace: "absent" }, () => ({
      contents: 'throw new Error("the custody plugin does not load the Pulumi program SDK (@pulumi/pulumi)");',
      loader: "js",
    }));
  },
};
esbuild
  .build({
    entryPoints: ["plugin/dist/cli.js"],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile,
    plugins: [programSdkOnly],
    // notify.ts looks for the program SDK's engine client only inside the dynamic provider's host.
    logOverride: { "require-resolve-not-external": "silent" },
    logLevel: "warning",
  })
  .catch(() => process.exit(1));
EOF
  printf '#!/bin/sh\n# The custody provider plugin (pulumi-resource-custody); it needs Node.js >= 20.19 on PATH.\nexec node "$(dirname "$0")/pulumi-resource-custody.js" "$@"\n' \
    >"$stage/pulumi-resource-custody"
  chmod 0755 "$stage/pulumi-resource-custody"
  cp plugin/README.md LICENSE "$stage/"
  # The same files for every platform: the plugin is JavaScript.
  for platform in linux-amd64 linux-arm64 darwin-amd64 darwin-arm64; do
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$OUT/$(archive_name "$platform")" \
      pulumi-resource-custody pulumi-resource-custody.js README.md LICENSE
  done
  stamp plugin "$plugin_hash"
fi

# 3. The schema and the SDKs, through the CLI and the language hosts.
if ! command -v pulumi >/dev/null 2>&1 || ! command -v pulumi-language-python >/dev/null 2>&1; then
  PATH="$(bash scripts/install-pulumi.sh):$PATH"
fi
sdk_hash="$(echo "$plugin_hash $(command -v pulumi) $(pulumi version) $(sha256sum "$0" | cut -d' ' -f1)" | sha256sum | cut -d' ' -f1)"
node_sdk="pulumi-custody-custody-$version.tgz"
wheel="pulumi_custody-$version-py3-none-any.whl"
if ! fresh sdks "$sdk_hash" "$wheel" || [ ! -e "$OUT/$node_sdk" ] || [ ! -e "$OUT/schema.json" ]; then
  gen="$work/sdks"
  rm -rf "$gen" && mkdir -p "$gen/bin" "$gen/home"
  tar -C "$gen/bin" -xzf "$OUT/$(archive_name linux-amd64)"
  cli() { (cd "$gen" && PULUMI_HOME="$gen/home" PULUMI_SKIP_UPDATE_CHECK=true pulumi "$@" --non-interactive); }
  log "the schema (pulumi package get-schema)"
  cli package get-schema "$gen/bin/pulumi-resource-custody" >"$gen/schema.json"
  for language in nodejs python; do
    log "the $language SDK (pulumi package gen-sdk)"
    cli package gen-sdk "$gen/schema.json" --language "$language" --out "$gen" >&2
  done
  # The Node.js SDK is compiled as upstream's SDKs are published: tsc into bin/, with the package's own
  # package.json beside it (utilities.ts reads its version from `./package.json`), packed from there.
  log "compiling and packing the Node.js SDK"
  (cd "$gen/nodejs" && "$REPO_ROOT/node_modules/.bin/tsc" -p . >&2 && cp package.json README.md bin/ 2>/dev/null || cp package.json bin/)
  cp LICENSE "$gen/nodejs/bin/"
  (cd "$gen/nodejs/bin" && npm pack --silent --pack-destination "$OUT" >/dev/null)
  log "building the Python wheel and sdist (python -m build)"
  venv="$(bash scripts/install-python-deps.sh)"
  cp LICENSE "$gen/python/"
  # The generator writes the README (the schema's `readme`) into the module only, and `[project.urls]` with
  # `Homepage` and `Repository` only: the README beside pyproject.toml is the package's description on PyPI,
  # and the documentation gets its link.
  cp "$gen/python/pulumi_custody/README.md" "$gen/python/README.md"
  docs_url="$(node -p 'require(process.argv[1]).repository + "/blob/main/docs/provider.md"' "$gen/schema.json")"
  grep -q '^ *Repository = ' "$gen/python/pyproject.toml" || die "the generated pyproject.toml has no [project.urls] Repository"
  sed -i "s|^\( *\)Repository = \(.*\)$|&\n\1Documentation = \"$docs_url\"|" "$gen/python/pyproject.toml"
  "$venv/bin/python" -m build --no-isolation --outdir "$OUT" "$gen/python" >&2
  cp "$gen/schema.json" "$OUT/schema.json"
  stamp sdks "$sdk_hash"
fi

# 4. The checksums of every artifact, as `sha256sum` prints them (`sha256sum -c checksums.txt` in the directory
#    verifies them): what the release publishes beside the archives.
(cd "$OUT" && find . -maxdepth 1 -type f ! -name checksums.txt ! -name '.*' -printf '%f\n' | LC_ALL=C sort \
  | xargs sha256sum >checksums.txt)
log "$(ls "$OUT" | grep -v '^\.' | wc -l) artifacts of $version in $OUT"
echo "$OUT"
