#!/usr/bin/env bash
# Generates the SDKs of the `custody` provider plugin from its schema, as users of the plugin do, with the
# Pulumi CLI:
#   dist/sdks/schema.json   the schema, as `pulumi package get-schema` prints it from the built plugin
#   dist/sdks/python        the Python package `pulumi_custody` (pip install dist/sdks/python)
#   dist/sdks/nodejs        the npm package `@pulumi-custody/custody` (TypeScript sources), compiled to
#                           dist/sdks/nodejs/bin with the repository's TypeScript
# `pulumi package gen-sdk` asks each language's host (GeneratePackage) to run the codegen of its Pulumi
# version; here those are engine/language-python and engine/language-nodejs (scripts/install-pulumi.sh).
# The package names, versions and Pulumi requirements come from the schema's `language` section
# (plugin/schema.ts). Needs `npm run build` first.
#
# Progress goes to stderr; the only line on stdout is the output directory.
#   scripts/gen-sdks.sh [out dir]        (default dist/sdks)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$REPO_ROOT/dist/sdks}"

log() { printf '[gen-sdks] %s\n' "$*" >&2; }
die() { printf '[gen-sdks] error: %s\n' "$*" >&2; exit 1; }

plugin_cli="$REPO_ROOT/dist/plugin/cli.js"
[ -f "$plugin_cli" ] || die "$plugin_cli is missing: run \`npm run build\` first"

# 1. The schema, from the built plugin through the CLI (which binds it with Pulumi's own binder).
if ! command -v pulumi >/dev/null 2>&1 || ! command -v pulumi-language-python >/dev/null 2>&1; then
  PATH="$(bash "$REPO_ROOT/scripts/install-pulumi.sh"):$PATH"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nexec node %q "$@"\n' "$plugin_cli" >"$tmp/pulumi-resource-custody"
chmod 0755 "$tmp/pulumi-resource-custody"
mkdir -p "$OUT"
cli() { (cd "$tmp" && PULUMI_HOME="$tmp/home" PULUMI_SKIP_UPDATE_CHECK=true pulumi "$@" --non-interactive); }
cli package get-schema "$tmp/pulumi-resource-custody" >"$tmp/schema.json"
mv "$tmp/schema.json" "$OUT/schema.json"

# 2. The SDKs: gen-sdk writes <out>/<language>; the old ones go first so no stale module survives.
for language in python nodejs; do
  rm -rf "${OUT:?}/$language"
  cli package gen-sdk "$OUT/schema.json" --language "$language" --out "$OUT" >&2
done
# The npm package is compiled as upstream's SDK builds do: tsc into bin/, where the package's own
# package.json must sit too (utilities.ts reads its version from `./package.json`).
(cd "$OUT/nodejs" && "$REPO_ROOT/node_modules/.bin/tsc" -p . >&2 && cp package.json bin/)
log "SDKs of $(node -p 'const s = require(process.argv[1]); `${s.name} ${s.version}`' "$OUT/schema.json") in $OUT"
echo "$OUT"
