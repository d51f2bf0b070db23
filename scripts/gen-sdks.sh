#!/usr/bin/env bash
# Generates the SDKs of the `custody` provider plugin from its schema:
#   dist/sdks/schema.json   the schema, as `pulumi package get-schema` prints it from the built plugin
#   dist/sdks/python        the Python package `pulumi_custody` (pip install dist/sdks/python)
#   dist/sdks/nodejs        the npm package `@pulumi-custody/custody` (TypeScript sources), compiled to
#                           dist/sdks/nodejs/bin with the repository's TypeScript
# with custody-codegen (engine/codegen), built from Go modules and cached by source hash under
# $PULUMI_CUSTODY_CACHE like the engine (scripts/install-pulumi.sh). Needs `npm run build` first.
#
# Progress goes to stderr; the only line on stdout is the output directory.
#   scripts/gen-sdks.sh [out dir]        (default dist/sdks)
#   scripts/gen-sdks.sh --codegen-path   only builds custody-codegen (if needed) and prints its path
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_ROOT="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}"
CODEGEN_SRC="$REPO_ROOT/engine/codegen"
OUT="${1:-$REPO_ROOT/dist/sdks}"
codegen_only=false
[ "${1:-}" = "--codegen-path" ] && codegen_only=true

log() { printf '[gen-sdks] %s\n' "$*" >&2; }
die() { printf '[gen-sdks] error: %s\n' "$*" >&2; exit 1; }

# 1. custody-codegen, rebuilt whenever its source changes.
hash="$(cd "$CODEGEN_SRC" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
codegen_dir="$CACHE_ROOT/custody-codegen/$hash"
codegen="$codegen_dir/custody-codegen"
if [ ! -x "$codegen" ]; then
  command -v go >/dev/null 2>&1 || die "no Go toolchain to build custody-codegen (engine/codegen); install Go >= 1.25"
  mkdir -p "$codegen_dir"
  exec 9>"$codegen_dir/.lock"
  flock 9
  if [ ! -x "$codegen" ]; then
    log "building custody-codegen from engine/codegen (about a minute the first time)"
    # As for the CLI (scripts/install-pulumi.sh): the checksums are the committed go.sum.
    (cd "$CODEGEN_SRC" && GOTOOLCHAIN=local CGO_ENABLED=0 GOSUMDB=off GOFLAGS="${GOFLAGS:-} -mod=readonly" \
      go build -trimpath -o "$codegen.tmp" . >&2)
    mv "$codegen.tmp" "$codegen"
  fi
  exec 9>&-
fi
if $codegen_only; then echo "$codegen"; exit 0; fi

plugin_cli="$REPO_ROOT/dist/plugin/cli.js"
[ -f "$plugin_cli" ] || die "$plugin_cli is missing: run \`npm run build\` first"

# 2. The schema, from the built plugin through the CLI (which binds it with Pulumi's own binder).
if ! command -v pulumi >/dev/null 2>&1; then
  PATH="$(bash "$REPO_ROOT/scripts/install-pulumi.sh"):$PATH"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nexec node %q "$@"\n' "$plugin_cli" >"$tmp/pulumi-resource-custody"
chmod 0755 "$tmp/pulumi-resource-custody"
mkdir -p "$OUT"
(cd "$tmp" && PULUMI_HOME="$tmp/home" PULUMI_SKIP_UPDATE_CHECK=true \
  pulumi package get-schema "$tmp/pulumi-resource-custody" >"$tmp/schema.json")
mv "$tmp/schema.json" "$OUT/schema.json"

# 3. The SDKs.
for language in python nodejs; do
  "$codegen" -language "$language" -schema "$OUT/schema.json" -out "$OUT/$language"
done
# The npm package is compiled as upstream's SDK builds do: tsc into bin/, where the package's own
# package.json must sit too (utilities.ts reads its version from `./package.json`).
(cd "$OUT/nodejs" && "$REPO_ROOT/node_modules/.bin/tsc" -p . >&2 && cp package.json bin/)
log "SDKs of $(node -p 'const s = require(process.argv[1]); `${s.name} ${s.version}`' "$OUT/schema.json") in $OUT"
echo "$OUT"
