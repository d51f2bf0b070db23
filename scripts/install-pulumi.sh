#!/usr/bin/env bash
# Makes the real Pulumi engine (CLI + Node.js language host + dynamic-provider plugin) available
# at the version pinned in package.json, and prints the directory that holds the binaries.
#
# Order of preference:
#   1. a `pulumi` already on PATH that reports the pinned version (plus a pulumi-language-nodejs beside it);
#   2. a cached build under $PULUMI_CUSTODY_CACHE (default ~/.cache/pulumi-custody);
#   3. a fresh build from Go modules, then cached:
#        - the CLI from scripts/pulumi-cli (github.com/pulumi/pulumi/pkg/v3, checksums in its go.sum), built once;
#        - our language host from language-hosts/nodejs, rebuilt whenever its source changes;
#        - our Python language host from language-hosts/python (for the tests of Python programs), likewise;
#        - our Go language host from language-hosts/go (Go programs, and `pulumi package gen-sdk --language go`),
#          likewise;
#        - the upstream YAML language host, pulumi-language-yaml, from language-hosts/yaml (the module
#          github.com/pulumi/pulumi-yaml at the version pinned there, checksums in its go.sum), for Pulumi YAML
#          programs. It is a binary of its own with its own github.com/pulumi/pulumi/pkg/v3, so one build serves
#          every CLI version: it is built once into $PULUMI_CUSTODY_CACHE/pulumi-language-yaml-v<version> and
#          copied beside each CLI.
#
# Progress goes to stderr; the only line on stdout is the bin directory, so callers can do
#   PULUMI_BIN=$(scripts/install-pulumi.sh)
set -euo pipefail

PULUMI_VERSION="${PULUMI_VERSION:-3.248.0}"
CACHE_ROOT="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}"
VERSION_DIR="$CACHE_ROOT/pulumi-v$PULUMI_VERSION"
BIN_DIR="$VERSION_DIR/bin"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST_SRC="$REPO_ROOT/language-hosts/nodejs"
CLI_SRC="$REPO_ROOT/scripts/pulumi-cli"
# Records which source the cached language host was built from.
HOST_STAMP="$BIN_DIR/.pulumi-language-nodejs.source-sha256"
PY_HOST_SRC="$REPO_ROOT/language-hosts/python"
PY_HOST_STAMP="$BIN_DIR/.pulumi-language-python.source-sha256"
GO_HOST_SRC="$REPO_ROOT/language-hosts/go"
GO_HOST_STAMP="$BIN_DIR/.pulumi-language-go.source-sha256"
YAML_HOST_SRC="$REPO_ROOT/language-hosts/yaml"
YAML_VERSION="$(sed -nE 's/^require github\.com\/pulumi\/pulumi-yaml v([0-9.]+)$/\1/p' "$YAML_HOST_SRC/go.mod")"
YAML_CACHE="$CACHE_ROOT/pulumi-language-yaml-v$YAML_VERSION"
YAML_STAMP_NAME=".pulumi-language-yaml.source-sha256"

log() { printf '[install-pulumi] %s\n' "$*" >&2; }
die() { printf '[install-pulumi] error: %s\n' "$*" >&2; exit 1; }

reports_pinned_version() { # $1 = path to a pulumi binary
  local v
  v="$("$1" version 2>/dev/null || true)"
  [ "${v#v}" = "$PULUMI_VERSION" ]
}

# Hash of every file of the language host, by path relative to its directory, so the cache follows
# source edits but not the checkout location.
# A host is rebuilt when its own source or the code both hosts share (language-hosts/hostkit) changes.
host_source_hash() { # $1 = source dir (default: the Node.js host)
  (cd "$REPO_ROOT/language-hosts" && find "$(basename "${1:-$HOST_SRC}")" hostkit -type f -print0 | LC_ALL=C sort -z |
    xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# The dynamic-provider plugin is a 4-line shell script shipped at the root of the @pulumi/pulumi
# npm package; take it from node_modules, or from the registry tarball on a machine without one.
install_provider_plugin() { # $1 = bin dir
  local target="$1/pulumi-resource-pulumi-nodejs" src="$REPO_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  [ -x "$target" ] && return 0
  if [ ! -f "$src" ]; then
    local tmp; tmp="$(mktemp -d)"
    log "fetching pulumi-resource-pulumi-nodejs from @pulumi/pulumi@$PULUMI_VERSION"
    (cd "$tmp" && npm pack --silent "@pulumi/pulumi@$PULUMI_VERSION" >/dev/null && tar -xzf ./*.tgz package/pulumi-resource-pulumi-nodejs)
    src="$tmp/package/pulumi-resource-pulumi-nodejs"
  fi
  cp "$src" "$target.tmp" && chmod 0755 "$target.tmp" && mv "$target.tmp" "$target"
}

cli_ready() { [ -x "$BIN_DIR/pulumi" ] && reports_pinned_version "$BIN_DIR/pulumi"; }
host_ready() { [ -x "$BIN_DIR/pulumi-language-nodejs" ] && [ "$(cat "$HOST_STAMP" 2>/dev/null)" = "$(host_source_hash)" ]; }
py_host_ready() { [ -x "$BIN_DIR/pulumi-language-python-exec" ] && [ "$(cat "$PY_HOST_STAMP" 2>/dev/null)" = "$(host_source_hash "$PY_HOST_SRC")" ]; }
# The YAML host follows its pinned module (go.mod, go.sum, tools.go), not language-hosts/hostkit: it is upstream's.
yaml_source_hash() { (cd "$YAML_HOST_SRC" && sha256sum go.mod go.sum tools.go | sha256sum | cut -d' ' -f1); }
yaml_built() { # $1 = dir holding a pulumi-language-yaml and its stamp
  [ -x "$1/pulumi-language-yaml" ] && [ "$(cat "$1/$YAML_STAMP_NAME" 2>/dev/null)" = "$(yaml_source_hash)" ]
}
go_host_ready() { [ -x "$BIN_DIR/pulumi-language-go" ] && [ "$(cat "$GO_HOST_STAMP" 2>/dev/null)" = "$(host_source_hash "$GO_HOST_SRC")" ]; }
yaml_host_ready() { yaml_built "$BIN_DIR"; }
cache_ready() {
  cli_ready && host_ready && py_host_ready && go_host_ready && yaml_host_ready && [ -x "$BIN_DIR/pulumi-resource-pulumi-nodejs" ]
}

# 1. A matching pulumi on PATH. Our own cache dir is often on PATH too (scripts/setup.sh); it is
#    left to step 2, which also checks that its language host matches the source.
if on_path="$(command -v pulumi 2>/dev/null)" && reports_pinned_version "$on_path"; then
  dir="$(dirname "$(readlink -f "$on_path")")"
  if [ "$dir" != "$(readlink -f "$BIN_DIR" 2>/dev/null)" ] && [ -x "$dir/pulumi-language-nodejs" ]; then
    [ -x "$dir/pulumi-resource-pulumi-nodejs" ] || install_provider_plugin "$dir" || true
    if [ -x "$dir/pulumi-resource-pulumi-nodejs" ]; then log "using pulumi v$PULUMI_VERSION on PATH ($dir)"; echo "$dir"; exit 0; fi
  fi
fi

# 2. The cache.
if cache_ready; then
  log "using cached pulumi v$PULUMI_VERSION ($BIN_DIR)"
  echo "$BIN_DIR"; exit 0
fi

# 3. Build from Go modules.
command -v go >/dev/null 2>&1 || die "no 'pulumi' v$PULUMI_VERSION with pulumi-language-nodejs on PATH, no up-to-date build in
$BIN_DIR, and no Go toolchain to build one.
Install Go >= 1.25 (https://go.dev/dl) or put pulumi v$PULUMI_VERSION and pulumi-language-nodejs on PATH, then run again."

mkdir -p "$BIN_DIR"
# One build at a time per cache: the demo and the tests may start together.
exec 9>"$VERSION_DIR/.lock"
flock 9
if cache_ready; then echo "$BIN_DIR"; exit 0; fi

# The Go checksum database is not reachable from build machines that only see the module proxy.
# Integrity comes from the go.sum files committed in scripts/pulumi-cli and language-hosts/, which
# -mod=readonly enforces.
export GOTOOLCHAIN=local CGO_ENABLED=0 GOSUMDB=off GOFLAGS="${GOFLAGS:-} -mod=readonly"
LDF="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"
build() { # $1 = output name, $2 = module dir, $3 = package
  (cd "$2" && go build -trimpath -tags osusergo,grpcnotrace -ldflags "$LDF" -o "$BIN_DIR/$1.tmp" "$3" >&2)
  mv "$BIN_DIR/$1.tmp" "$BIN_DIR/$1"
}
started=$SECONDS
step() { log "[$((SECONDS - started))s] $*"; }

if ! cli_ready; then
  cli_src="$CLI_SRC"
  if ! grep -q "github.com/pulumi/pulumi/pkg/v3 v$PULUMI_VERSION\$" "$CLI_SRC/go.mod"; then
    # Another version than the one pinned in scripts/pulumi-cli: resolve it in a scratch copy (no pinned checksums).
    cli_src="$VERSION_DIR/pulumi-cli"
    step "resolving github.com/pulumi/pulumi/pkg/v3 v$PULUMI_VERSION in $cli_src"
    rm -rf "$cli_src" && mkdir -p "$cli_src" && cp "$CLI_SRC/go.mod" "$CLI_SRC/go.sum" "$CLI_SRC/tools.go" "$cli_src/"
    (cd "$cli_src" && GOFLAGS=-mod=mod go get "github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION" \
      "github.com/pulumi/pulumi/sdk/v3@v$PULUMI_VERSION" >&2 && GOFLAGS=-mod=mod go mod tidy >&2)
    # A release may pin a dependency at a commit the module proxy does not serve (v3.274.1: gocloud.dev);
    # such a module is moved to its newest served release.
    for _ in 1 2 3 4 5; do
      if out="$(cd "$cli_src" && go mod download 2>&1)"; then break; fi
      mod="$(grep -oE '^go: [^@ ]+@[^:]+: reading [^ ]+: (403|404|410)' <<<"$out" | head -1 | sed -E 's/^go: ([^@]+)@.*/\1/')"
      [ -n "$mod" ] || die "go mod download failed for v$PULUMI_VERSION:
$out"
      step "the module proxy does not serve the $mod version that v$PULUMI_VERSION pins; using its newest release"
      (cd "$cli_src" && GOFLAGS=-mod=mod go get "$mod@latest" >&2 && GOFLAGS=-mod=mod go mod tidy >&2)
    done
  fi
  log "building pulumi v$PULUMI_VERSION into $BIN_DIR"
  log "this happens once per machine and takes a few minutes (about 4 on 2 cores); later runs use the cache"
  step "downloading Go modules for the CLI (go mod download)"
  (cd "$cli_src" && go mod download >&2)
  step "compiling pulumi (the long step)"
  build pulumi "$cli_src" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  reports_pinned_version "$BIN_DIR/pulumi" || die "built pulumi does not report v$PULUMI_VERSION"
fi

if ! host_ready; then
  hash="$(host_source_hash)"
  step "compiling pulumi-language-nodejs from language-hosts/nodejs"
  build pulumi-language-nodejs "$HOST_SRC" .
  echo "$hash" >"$HOST_STAMP"
fi

if ! py_host_ready; then
  hash="$(host_source_hash "$PY_HOST_SRC")"
  step "compiling pulumi-language-python from language-hosts/python"
  build pulumi-language-python "$PY_HOST_SRC" .
  # Its executor script ships in the sdk/v3 Go module (python/cmd), next to the host as upstream installs it.
  sdk_dir="$(cd "$PY_HOST_SRC" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
  install -m 0755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$BIN_DIR/pulumi-language-python-exec"
  echo "$hash" >"$PY_HOST_STAMP"
fi

if ! go_host_ready; then
  hash="$(host_source_hash "$GO_HOST_SRC")"
  step "compiling pulumi-language-go from language-hosts/go"
  build pulumi-language-go "$GO_HOST_SRC" .
  echo "$hash" >"$GO_HOST_STAMP"
fi

if ! yaml_host_ready; then
  [ -n "$YAML_VERSION" ] || die "language-hosts/yaml/go.mod names no github.com/pulumi/pulumi-yaml version"
  if ! yaml_built "$YAML_CACHE"; then
    mkdir -p "$YAML_CACHE"
    # Another CLI version's run may be building it: one build per cache.
    exec 8>"$YAML_CACHE/.lock"
    flock 8
    if ! yaml_built "$YAML_CACHE"; then
      hash="$(yaml_source_hash)"
      step "compiling pulumi-language-yaml v$YAML_VERSION from language-hosts/yaml (once per machine, about 2 minutes)"
      (cd "$YAML_HOST_SRC" && go mod download >&2 && go build -trimpath -tags osusergo,grpcnotrace \
        -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION" \
        -o "$YAML_CACHE/pulumi-language-yaml.tmp" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml >&2)
      mv "$YAML_CACHE/pulumi-language-yaml.tmp" "$YAML_CACHE/pulumi-language-yaml"
      echo "$hash" >"$YAML_CACHE/$YAML_STAMP_NAME"
    fi
    exec 8>&-
  fi
  install -m 0755 "$YAML_CACHE/pulumi-language-yaml" "$BIN_DIR/pulumi-language-yaml"
  cp "$YAML_CACHE/$YAML_STAMP_NAME" "$BIN_DIR/$YAML_STAMP_NAME"
fi

install_provider_plugin "$BIN_DIR"
step "done: $("$BIN_DIR/pulumi" version) in $BIN_DIR"
echo "$BIN_DIR"
