#!/usr/bin/env bash
# Writes the registry's API docs of the plugin's schema (scripts/registry-docs: one page per resource and
# function, in TypeScript, Python, Go and YAML), from the schema the release holds:
#   scripts/registry-docs.sh [schema.json] [out dir]     (default: dist/release/schema.json, docs/api-docs)
# The generator is a Go program pinned like scripts/pulumi-cli (go.mod, go.sum); it is built once per version of
# its source into ${PULUMI_CUSTODY_CACHE:-~/.cache/pulumi-custody}/registry-docs-<hash>, with the flags of
# scripts/install-pulumi.sh, so that the Go build cache its builds filled serves pkg/v3's packages. Progress goes
# to stderr; stdout gets the out dir.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$REPO_ROOT/scripts/registry-docs"
schema="${1:-$REPO_ROOT/dist/release/schema.json}"
out="${2:-$REPO_ROOT/docs/api-docs}"
log() { printf '[registry-docs] %s\n' "$*" >&2; }
die() { printf '[registry-docs] error: %s\n' "$*" >&2; exit 1; }

[ -f "$schema" ] || die "$schema is missing: run \`bash scripts/release-artifacts.sh\` first (it writes the schema)"
hash="$(cd "$SRC" && sha256sum go.mod go.sum main.go | sha256sum | cut -c1-16)"
cache="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}/registry-docs-$hash"
bin="$cache/registry-docs"
if [ ! -x "$bin" ]; then
  command -v go >/dev/null 2>&1 || die "no Go toolchain to build scripts/registry-docs (Go >= 1.25)"
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  if [ ! -x "$bin" ]; then
    log "building scripts/registry-docs (once per version of its source)"
    (cd "$SRC" && CGO_ENABLED=0 GOSUMDB=off GOTOOLCHAIN=local GOFLAGS=-mod=readonly \
      go build -trimpath -tags osusergo,grpcnotrace -o "$bin.tmp" . >&2)
    mv "$bin.tmp" "$bin"
  fi
  exec 9>&-
fi
"$bin" "$schema" "$out"
log "wrote the API docs of $schema into $out"
echo "$out"
