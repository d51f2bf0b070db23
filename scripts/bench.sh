#!/usr/bin/env bash
# The benchmark command (`npm run bench`): set-up, the Prism reference server on first use, then the harness.
#   npm run bench                     every figure; rewrites BENCHMARKS.md
#   npm run bench -- --quick          smoke run with smaller N; leaves BENCHMARKS.md alone
#   npm run bench -- --only engine    one figure (engine, data-sources, sdk-overhead, emulator-throughput, sizes,
#                                     engine-scale, rate-limit, onboarding, scale-out)
# Raw results: bench/results/latest.json (git-ignored).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

# Figure 4 compares the emulator with Prism, a stateless OpenAPI mock server. Prism is not a dependency of the
# package: it is installed here, on first use, into a cache outside the repository, so tests and CI never pay
# for it. 5.14 is the last line that runs on Node 20.
PRISM_VERSION="5.14"
CACHE_ROOT="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}"
PRISM_DIR="$CACHE_ROOT/prism"

wants_figure_4() {
  local only="" arg prev=""
  for arg in "$@"; do
    case "$arg" in
      --render) return 1 ;;
      --only=*) only="$only,${arg#--only=}" ;;
    esac
    [ "$prev" = "--only" ] && only="$only,$arg"
    prev="$arg"
  done
  [ -z "$only" ] && return 0
  [[ ",$only," == *",4,"* || ",$only," == *",emulator-throughput,"* ]]
}

if wants_figure_4 "$@"; then
  if [ ! -x "$PRISM_DIR/node_modules/.bin/prism" ]; then
    step "Installing the Prism mock server @stoplight/prism-cli@$PRISM_VERSION into $PRISM_DIR (first use only)"
    mkdir -p "$PRISM_DIR"
    if ! npm install --prefix "$PRISM_DIR" --no-audit --no-fund --loglevel=error "@stoplight/prism-cli@$PRISM_VERSION" >&2; then
      echo "warning: could not install Prism; figure 4 will report the emulator without its reference" >&2
    fi
  else
    step "Prism mock server found in $PRISM_DIR"
  fi
  if [ -x "$PRISM_DIR/node_modules/.bin/prism" ]; then
    export CUSTODY_BENCH_PRISM="$PRISM_DIR/node_modules/.bin/prism"
  fi
fi

step "Running the benchmarks (node dist/bench/run.js $*)"
node dist/bench/run.js "$@"
