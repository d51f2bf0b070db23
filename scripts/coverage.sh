#!/usr/bin/env bash
# `npm run coverage`: the line and branch coverage of the product code (the published packages: sdk, emulator,
# provider, policy, plugin, cli) over the unit and end-to-end suites of the pinned leg, measured by V8 itself
# (NODE_V8_COVERAGE, inherited by every process the tests start: the engine's language hosts, the dynamic
# providers, the plugin, the command line) and reported on the TypeScript sources by c8.
#
# Writes coverage/coverage-summary.json (c8's json-summary) and prints the totals; docs/testing.md records them.
# Exits non-zero when a suite fails: a coverage figure of a failing run is not a figure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

out="$REPO_ROOT/coverage"
raw="$out/raw"
kept="$out/product"
rm -rf "$out" && mkdir -p "$raw" "$kept"

# Each process writes about 8 MB; the compactor keeps only the product code's scripts as the run goes.
fifo="$out/.compactor"
mkfifo "$fifo"
env -u NODE_V8_COVERAGE node scripts/coverage-compact.js "$raw" "$kept" --watch <"$fifo" &
compactor=$!
exec 3>"$fifo"

status=0
export NODE_V8_COVERAGE="$raw"
step "Unit tests, with coverage"
npx mocha || status=1
bash scripts/install-python-deps.sh >/dev/null || status=1
step "End-to-end tests, with coverage"
bash scripts/test-e2e.sh || status=1
unset NODE_V8_COVERAGE

exec 3>&-
wait "$compactor"
rm -f "$fifo"

step "Coverage of the product code (c8)"
include=()
for workspace in sdk emulator provider policy plugin cli; do include+=(--include "$workspace/dist/**"); done
npx c8 report --temp-directory "$kept" --reports-dir "$out" --reporter text-summary --reporter json-summary \
  --all --src . "${include[@]}" --exclude '*/dist/test/**' --exclude '*/dist/types-node10/**' \
  --exclude '*/dist/scripts/**' --exclude '**/*.d.ts'
exit "$status"
