#!/usr/bin/env bash
# The test command (README, CI): set-up, lint, unit tests, then end-to-end tests with the real engine, on
# Node 20 with the pinned @pulumi/pulumi and CLI, then again on the newest releases.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

step "Lint and format check (biome)"
npx biome ci .

step "TSDoc on every public symbol (typedoc validation)"
npm run --silent docs:check

status=0
pinned_start=$SECONDS
step "Unit tests (mocha)"
npx mocha 2>&1 | tee "$logs/unit.log" || status=1

step "Go tests of the language hosts and the code they share (go test)"
for module in language-hosts/*/; do
  log="$logs/go-$(basename "$module").golog"
  (cd "$module" && go test -count=1 -v ./...) > "$log" 2>&1 || status=1
  grep -E "^(--- |ok|FAIL)" "$log" || true
done

# The Python programs of the e2e tests need pip's `pulumi` and the generated SDK (cached after the first run).
step "Python dependencies (scripts/install-python-deps.sh)"
bash scripts/install-python-deps.sh >/dev/null || status=1

step "End-to-end tests with the real Pulumi engine (mocha)"
npx mocha --config .mocharc.e2e.js 2>&1 | tee "$logs/e2e.log" || status=1

pinned_duration=$((SECONDS - pinned_start))

# The same suites again on the newest Node, @pulumi/pulumi and CLI (scripts/current-versions.env).
newest_start=$SECONDS
step "Second leg: the newest releases (scripts/test-current.sh)"
bash scripts/test-current.sh "$logs" || status=1
newest_duration=$((SECONDS - newest_start))

# One closing line for both suites, e.g. "tests: 212 passed, 0 failed".
# (grep finds no "failing" line on a green run; that must not end the script under pipefail.)
count() { { grep -hoE "^ +[0-9]+ $1" "$logs"/*.log || true; } | awk '{s+=$1} END {print s+0}'; }
passed="$(count passing)"
failed="$(count failing)"
echo
leg() { # $1 = passing|failing, then log names
  local what="$1" files=(); shift
  for f in "$@"; do files+=("$logs/$f"); done
  { grep -hoE "^ +[0-9]+ $what" "${files[@]}" 2>/dev/null || true; } | awk '{s+=$1} END {print s+0}'
}
minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
echo "pinned leg: $(leg passing unit.log e2e.log) passed, $(leg failing unit.log e2e.log) failed, $(minutes "$pinned_duration")"
echo "newest leg: $(leg passing current-unit.log current-e2e.log) passed, $(leg failing current-unit.log current-e2e.log) failed, $(minutes "$newest_duration") (set-up included)"
go_passed="$(cat "$logs"/*.golog | grep -c "^--- PASS" || true)"
go_failed="$(cat "$logs"/*.golog | grep -c "^--- FAIL" || true)"
echo "go tests: ${go_passed} passed, ${go_failed} failed"
echo "tests: ${passed} passed, ${failed} failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then exit 1; fi
