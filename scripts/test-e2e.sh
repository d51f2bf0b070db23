#!/usr/bin/env bash
# The end-to-end suites with the real engine (test/e2e), as `npm test` runs them on each leg: the release
# artifacts first, once, then the test files CUSTODY_TEST_JOBS at a time (mocha --parallel, default 2), the
# longest first (.mocharc.e2e.js). Every file shares the release artifacts and the installed project, which are
# made once for what they are made of (test/support/release.ts), so that files run side by side.
#   bash scripts/test-e2e.sh [mocha arguments]
# Needs the engine on PATH and PULUMI_CUSTODY_BIN (scripts/setup.sh exports both).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="${CUSTODY_TEST_JOBS:-2}"
bash scripts/release-artifacts.sh >/dev/null
parallel=()
[ "$jobs" -le 1 ] || parallel=(--parallel --jobs "$jobs")
exec npx mocha --config .mocharc.e2e.js --require scripts/mocha-file-times.js "${parallel[@]}" "$@"
