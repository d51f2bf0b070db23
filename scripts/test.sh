#!/usr/bin/env bash
# The test command (README, CI): set-up, lint, unit tests, then end-to-end tests with the real engine, on two legs
# run side by side: the pinned one (Node 20, the pinned @pulumi/pulumi and CLI: everything) and the newest
# releases (scripts/test-current.sh: the unit suites and the end-to-end files that depend on versions;
# docs/testing.md says which and why).
#
# It ends with a table of each step's time (scripts/test-budget.js), and fails when the whole run, the demo of
# .ci/run included, passes its budget: 60 minutes, so that a suite that outgrows CI's 90 is caught while there is
# room. docs/testing.md keeps the measured times.
#
# Settings (environment):
#   CUSTODY_TEST_JOBS     end-to-end files run at once on each leg (mocha --parallel; default 2, 1 runs them in turn)
#   CUSTODY_TEST_LEGS     "both" (default), "pinned" or "newest"
set -euo pipefail
started=$SECONDS
started_at="$(date +%s)"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
export CUSTODY_TEST_STEPS="$logs/steps.tsv"
# shellcheck source=scripts/test-steps.sh
source "$REPO_ROOT/scripts/test-steps.sh"
# .ci/run's demo, before this command (its own set-up included).
[ -z "${CUSTODY_CI_STARTED:-}" ] || record_step ci "npm run demo (.ci/run)" "$((started_at - CUSTODY_CI_STARTED))"
record_step pinned "set-up (npm install, build, engine)" "$((SECONDS - started))"
legs="${CUSTODY_TEST_LEGS:-both}"

status=0
# The newest leg starts now, in the background: its set-up (Node, CLI, a copy of the checkout, npm install, build)
# and its suites run beside this leg's, on a machine whose two cores the end-to-end suites leave half idle
# (docs/testing.md). Its output is printed when it ends.
newest_pid=""
if [ "$legs" != pinned ]; then
  bash scripts/test-current.sh "$logs" >"$logs/newest.out" 2>&1 &
  newest_pid=$!
fi

if [ "$legs" != newest ]; then
  timed pinned "lint and format check (biome)" npx biome ci . || status=1
  timed pinned "TSDoc on every public symbol (typedoc)" npm run --silent docs:check || status=1
  unit_tests() { npx mocha 2>&1 | tee "$logs/unit.log"; }
  timed pinned "unit tests (mocha)" unit_tests || status=1

  go_tests() {
    local module log ok=0
    for module in language-hosts/*/; do
      log="$logs/go-$(basename "$module").golog"
      (cd "$module" && go test -count=1 -v ./...) >"$log" 2>&1 || ok=1
      grep -E "^(--- |ok|FAIL)" "$log" || true
    done
    return "$ok"
  }
  timed pinned "Go tests of the language hosts (go test)" go_tests || status=1

  # The Python programs of the e2e tests need pip's `pulumi` and the generated SDK (cached after the first run).
  python_deps() { bash scripts/install-python-deps.sh >/dev/null; }
  timed pinned "Python dependencies (scripts/install-python-deps.sh)" python_deps || status=1
  e2e_tests() { bash scripts/test-e2e.sh 2>&1 | tee "$logs/e2e.log"; }
  timed pinned "end-to-end tests, real engine (scripts/test-e2e.sh)" e2e_tests || status=1
fi

if [ -n "$newest_pid" ]; then
  step "The newest releases (scripts/test-current.sh), run beside the pinned leg"
  wait "$newest_pid" || status=1
  cat "$logs/newest.out"
fi

# One closing line for both suites, e.g. "tests: 212 passed, 0 failed".
# (grep finds no "failing" line on a green run; that must not end the script under pipefail.)
count() { { grep -hoE "^ +[0-9]+ $1" "$logs"/*.log 2>/dev/null || true; } | awk '{s+=$1} END {print s+0}'; }
passed="$(count passing)"
failed="$(count failing)"
echo
leg() { # $1 = passing|failing, then log names
  local what="$1" files=(); shift
  for f in "$@"; do [ -f "$logs/$f" ] && files+=("$logs/$f"); done
  [ "${#files[@]}" -gt 0 ] || { echo 0; return; }
  { grep -hoE "^ +[0-9]+ $what" "${files[@]}" 2>/dev/null || true; } | awk '{s+=$1} END {print s+0}'
}
echo "pinned leg: $(leg passing unit.log e2e.log) passed, $(leg failing unit.log e2e.log) failed"
echo "newest leg: $(leg passing current-unit.log current-e2e.log) passed, $(leg failing current-unit.log current-e2e.log) failed"
go_passed="$({ cat "$logs"/*.golog 2>/dev/null || true; } | grep -c "^--- PASS" || true)"
go_failed="$({ cat "$logs"/*.golog 2>/dev/null || true; } | grep -c "^--- FAIL" || true)"
echo "go tests: ${go_passed} passed, ${go_failed} failed"
echo "tests: ${passed} passed, ${failed} failed"

# The time of each step, and the budget of the whole run (the demo of .ci/run included, when it ran).
record_step total "npm test" "$((SECONDS - started))"
node scripts/test-budget.js "$CUSTODY_TEST_STEPS" || status=1
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] || [ "$go_failed" -ne 0 ]; then exit 1; fi
