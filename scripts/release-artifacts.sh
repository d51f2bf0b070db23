#!/usr/bin/env bash
# Writes what a release of pulumi-custody publishes, from the build, into one directory (default dist/release):
#
#   <scope>-<package>-<version>.tgz              `npm pack` of each package (sdk, emulator, provider, policy,
#                                                plugin, cli): what `npm install` gets from the registry
#   pulumi-resource-custody-v<version>-<os>-<arch>.tar.gz
#                                                the plugin archive that `pulumi plugin install resource custody
#                                                <version> --file <archive>` accepts, and that the engine downloads
#                                                from the schema's `pluginDownloadURL`, for linux, darwin and windows,
#                                                amd64 and arm64: one executable that needs nothing else
#                                                (`pulumi-resource-custody`, `.exe` on windows), README.md, LICENSE
#   schema.json                                  the plugin's schema, as `pulumi package get-schema` prints it
#   pulumi-custody-custody-<version>.tgz         the Node.js SDK generated from the schema, compiled (npm pack)
#   pulumi_custody-<version>-py3-none-any.whl    the Python SDK generated from the schema: a wheel
#   pulumi_custody-<version>.tar.gz              and an sdist (both with the SDK's README and project URLs)
#   custody-go-sdk-v<version>.tar.gz             the Go SDK generated from the schema: the Go module that the
#                                                repository holds in sdk/go/custody (go.mod, go.sum, README.md),
#                                                which `go get` fetches from the tag sdk/go/custody/v<version>
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

# 2. The plugin archives: one executable per platform that needs nothing else, no Node.js. The plugin and
#    everything it requires are bundled into one file (esbuild), but for `@pulumi/pulumi`'s program SDK, which the
#    plugin never loads (the data sources load it lazily, for programs only); `bun build --compile` then joins that
#    file to the Bun runtime of each platform (the npm packages @oven/bun-<os>-<arch>, fetched once into the cache
#    and checked against the sha512 pinned below). The darwin executables get an ad-hoc signature
#    (scripts/macho-adhoc-sign.js; docs/build.md says why and what a macOS user sees).
archive_name() { echo "pulumi-resource-custody-v$version-$1.tar.gz"; }
BUN_VERSION=1.4.5
# Pulumi's <os>-<arch>, Bun's --compile target, the @oven/bun-* package of its runtime and that package's npm
# integrity. The x64 runtimes are Bun's "baseline" builds, which run on any x86-64 CPU (the others need AVX2).
BUN_TARGETS="
linux-amd64    bun-linux-x64-baseline    linux-x64-baseline    sha512-s8yMwYcFnnrA178gji0gZbkE2WVDej/Ti1x770oPfihxyRxSMNhGhiAQNXV53aDeraZxksdvKV/RAdQBCd0qPA==
linux-arm64    bun-linux-arm64           linux-aarch64         sha512-4BXmsSKnjOrlGWqZV4x/oWa7AVoR+B6lCXddMzOAXBIm3t50eslg9wb66gmtW1AamEQ1l1CDvmmruysEhqOWMg==
darwin-amd64   bun-darwin-x64-baseline   darwin-x64-baseline   sha512-zqfLA5A4B+hYMh5WYzYSot3uZ06FzhdP0OEwQisEzdirYtXGj5cQFlfy31BGfNsAsk1Gd/w/OxJ/jqqJ3cMclw==
darwin-arm64   bun-darwin-arm64          darwin-aarch64        sha512-4MIFXHmctH2EhAxLXm2/qxNtv17dFtLJylvaOCsrgq6KSqHTs6eW5YSrJjRbJxYUJaR901fsN8JfZOa+CsWpWQ==
windows-amd64  bun-windows-x64-baseline  windows-x64-baseline  sha512-/U3Dc74uGqE6EUqef7mPtg9KwJs7iJH4JHRMfIZIn18MrJh6Xz4gVvWDXRvzCL2j8wPlTnJVyrO4n7Qq4uM7TQ==
windows-arm64  bun-windows-arm64         windows-aarch64       sha512-MiPFZnBNDnBXgr1oONc5pizC4fOLjnIOfNkYdFEnWzLmoFTg86naZIG3SvS7d/GglpQSAnCKMAzSjI/TAckiRw==
"
# CUSTODY_RELEASE_PLATFORMS (e.g. "linux-amd64") builds only those archives: the newest test leg needs only this
# machine's, and a release always builds all six.
if [ -n "${CUSTODY_RELEASE_PLATFORMS:-}" ]; then
  BUN_TARGETS="$(awk -v keep=" $CUSTODY_RELEASE_PLATFORMS " 'NF && index(keep, " " $1 " ")' <<<"$BUN_TARGETS")"
  [ -n "$BUN_TARGETS" ] || die "CUSTODY_RELEASE_PLATFORMS=$CUSTODY_RELEASE_PLATFORMS names no platform of this script"
  # An earlier build's archives of the other platforms would be stale beside these: they go.
  for old in "$OUT"/pulumi-resource-custody-v*.tar.gz; do
    [ -e "$old" ] || continue
    platform="${old%.tar.gz}" && platform="${platform##*-v"$version"-}"
    awk -v p="$platform" '$1 == p { found = 1 } END { exit !found }' <<<"$BUN_TARGETS" || rm -f "$old"
  done
fi
RUNTIME_CACHE="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}/bun-v$BUN_VERSION"

# The path of the Bun runtime of @oven/bun-$1 (its bin/bun, or bin/bun.exe), fetched into the cache on first use.
bun_runtime() { # $1 = package suffix
  local dir="$RUNTIME_CACHE/$1" integrity tmp tarball got
  if [ ! -d "$dir" ]; then
    integrity="$(awk -v p="$1" '$3 == p { print $4 }' <<<"$BUN_TARGETS")"
    [ -n "$integrity" ] || die "no pinned integrity for @oven/bun-$1"
    mkdir -p "$RUNTIME_CACHE"
    tmp="$(mktemp -d "$RUNTIME_CACHE/.fetch-XXXXXX")"
    log "fetching the Bun runtime @oven/bun-$1@$BUN_VERSION (once per machine)"
    tarball="$(cd "$tmp" && npm pack --silent "@oven/bun-$1@$BUN_VERSION" | tail -1)"
    got="$(node -e 'const c = require("node:crypto"), fs = require("node:fs");
      process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"))' \
      "$tmp/$tarball")"
    [ "$got" = "$integrity" ] || { rm -rf "$tmp"; die "@oven/bun-$1@$BUN_VERSION is $got, not the pinned $integrity"; }
    tar -xzf "$tmp/$tarball" -C "$tmp" package/bin
    # Another run may have fetched it meanwhile: the first rename wins, and both are the same bytes.
    mv -T "$tmp/package/bin" "$dir" 2>/dev/null || true
    rm -rf "$tmp"
  fi
  if [ -e "$dir/bun.exe" ]; then echo "$dir/bun.exe"; else echo "$dir/bun"; fi
}

plugin_hash="$(echo "$(tree_hash plugin/dist provider/dist sdk/dist plugin/package.json) $BUN_TARGETS" \
  "$(sha256sum "$0" scripts/macho-adhoc-sign.js | cut -d' ' -f1 | tr '\n' ' ')" | sha256sum | cut -d' ' -f1)"
plugin_fresh=true
for platform in $(awk 'NF { print $1 }' <<<"$BUN_TARGETS"); do
  fresh plugin "$plugin_hash" "$(archive_name "$platform")" || plugin_fresh=false
done
stage="$work/plugin"
if [ "$plugin_fresh" != true ]; then
  log "bundling the plugin (esbuild)"
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
  # The Bun that compiles is this machine's own.
  case "$(uname -m)" in
    x86_64) host_runtime="$(bun_runtime linux-x64-baseline)" ;;
    aarch64 | arm64) host_runtime="$(bun_runtime linux-aarch64)" ;;
    *) die "no Bun runtime to compile the plugin with on $(uname -m)" ;;
  esac
  while read -r platform target package _; do
    [ -n "$platform" ] || continue
    runtime="$(bun_runtime "$package")"
    exe="pulumi-resource-custody"
    [ "${platform%%-*}" = windows ] && exe="$exe.exe"
    dir="$stage/$platform"
    mkdir -p "$dir"
    log "compiling the plugin for $platform (bun build --compile --target=$target)"
    # A compiled executable would read .env and bunfig.toml from the directory it runs in (a user's project):
    # the plugin's settings come from the engine and its own environment only, as under Node.js.
    (cd "$stage" && "$host_runtime" build --compile --target="$target" --compile-executable-path="$runtime" \
      --no-compile-autoload-dotenv --no-compile-autoload-bunfig \
      ./pulumi-resource-custody.js --outfile "$dir/$exe" >&2)
    if [ "${platform%%-*}" = darwin ]; then
      if [ "$platform" = darwin-arm64 ]; then
        # Bun signs its darwin-arm64 output itself. Our signer must write the same bytes, so that what it writes
        # for darwin-amd64 (which Bun leaves with the runtime's signature, broken by the join) is what Bun would.
        cp "$dir/$exe" "$stage/bun-signed"
        node scripts/macho-adhoc-sign.js "$stage/bun-signed" a.out
        cmp -s "$stage/bun-signed" "$dir/$exe" ||
          die "scripts/macho-adhoc-sign.js no longer writes the signature Bun $BUN_VERSION writes for darwin-arm64"
        rm "$stage/bun-signed"
      fi
      node scripts/macho-adhoc-sign.js "$dir/$exe" pulumi-resource-custody
    fi
    cp plugin/README.md LICENSE "$dir/"
    # gzip -1: the runtime compresses to nearly the same size at any level (+8 %), in a third of the time.
    tar -C "$dir" --owner=0 --group=0 --numeric-owner -cf - "$exe" README.md LICENSE | gzip -1 \
      >"$OUT/$(archive_name "$platform").tmp"
    mv "$OUT/$(archive_name "$platform").tmp" "$OUT/$(archive_name "$platform")"
  done <<<"$BUN_TARGETS"
  stamp plugin "$plugin_hash"
fi

# 3. The schema and the SDKs, through the CLI and the language hosts.
if ! command -v pulumi >/dev/null 2>&1 || ! command -v pulumi-language-python >/dev/null 2>&1 ||
  ! command -v pulumi-language-go >/dev/null 2>&1; then
  PATH="$(bash scripts/install-pulumi.sh):$PATH"
fi
sdk_hash="$(echo "$plugin_hash $(command -v pulumi) $(pulumi version) $(sha256sum "$0" | cut -d' ' -f1)" | sha256sum | cut -d' ' -f1)"
node_sdk="pulumi-custody-custody-$version.tgz"
wheel="pulumi_custody-$version-py3-none-any.whl"
go_sdk="custody-go-sdk-v$version.tar.gz"
if ! fresh sdks "$sdk_hash" "$wheel" || [ ! -e "$OUT/$node_sdk" ] || [ ! -e "$OUT/schema.json" ] ||
  [ ! -e "$OUT/$go_sdk" ]; then
  gen="$work/sdks"
  rm -rf "$gen" && mkdir -p "$gen/bin" "$gen/home"
  case "$(uname -m)" in aarch64 | arm64) host_platform=linux-arm64 ;; *) host_platform=linux-amd64 ;; esac
  tar -C "$gen/bin" -xzf "$OUT/$(archive_name "$host_platform")"
  cli() { (cd "$gen" && PULUMI_HOME="$gen/home" PULUMI_SKIP_UPDATE_CHECK=true pulumi "$@" --non-interactive); }
  log "the schema (pulumi package get-schema)"
  cli package get-schema "$gen/bin/pulumi-resource-custody" >"$gen/schema.json"
  for language in nodejs python go; do
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
  # The Go SDK is a Go module of its own, as `go get` fetches it from the repository's tag
  # sdk/go/custody/v<version> (plugin/README.md): the generator writes the package; its go.mod requires the Pulumi
  # SDK it was generated for, and `go mod tidy` completes it and writes go.sum (from the Go module proxy).
  log "the Go SDK's module (go.mod, go mod tidy)"
  go_dir="$gen/go/custody"
  node -e '
    const schema = require(process.argv[1]);
    const { PULUMI_SDK_FLOOR } = require("./plugin/dist/schema");
    const { sdkReadme } = require("./plugin/dist/sdk-readme");
    const fs = require("node:fs");
    const dir = process.argv[2];
    fs.writeFileSync(`${dir}/go.mod`,
      `module ${schema.language.go.importBasePath}\n\ngo 1.21\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${PULUMI_SDK_FLOOR}\n`);
    fs.writeFileSync(`${dir}/README.md`, sdkReadme("go", { version: schema.version, repository: schema.repository }));
  ' "$gen/schema.json" "$go_dir"
  cp LICENSE "$go_dir/"
  (cd "$go_dir" && GOFLAGS=-mod=mod GOSUMDB=off GOTOOLCHAIN=local go mod tidy >&2)
  tar -C "$go_dir" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -czf "$OUT/$go_sdk" .
  cp "$gen/schema.json" "$OUT/schema.json"
  stamp sdks "$sdk_hash"
fi

# 4. The checksums of every artifact, as `sha256sum` prints them (`sha256sum -c checksums.txt` in the directory
#    verifies them): what the release publishes beside the archives.
(cd "$OUT" && find . -maxdepth 1 -type f ! -name checksums.txt ! -name '.*' -printf '%f\n' | LC_ALL=C sort \
  | xargs sha256sum >checksums.txt)
log "$(ls "$OUT" | grep -v '^\.' | wc -l) artifacts of $version in $OUT"
echo "$OUT"
