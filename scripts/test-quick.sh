#!/usr/bin/env bash
# `npm run test:quick`: the inner loop, in a few minutes on 2 cores: lint, every package's unit tests, and one
# end-to-end smoke on each provider path (a vault created and renamed in place: through the dynamic resources, from
# the packages as installed, and through the plugin), with the real engine. `npm test` is the whole proof.
set -euo pipefail
started=$SECONDS
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# shellcheck source=scripts/test-steps.sh
source "$REPO_ROOT/scripts/test-steps.sh"
# The smoke needs this machine's plugin archive only (the release test, which checks all six, is npm test's).
CUSTODY_RELEASE_PLATFORMS="$(host_platform)"
export CUSTODY_RELEASE_PLATFORMS
status=0
step "Lint and format check (biome)"
npx biome ci . || status=1
step "Unit tests (mocha)"
npx mocha || status=1
step "End-to-end smoke on each provider path (real engine)"
bash scripts/test-e2e.sh dist/test/e2e/lifecycle.test.js dist/test/e2e/native-plugin.test.js \
  --grep "up creates every vault and address|a rename in code is an in-place update|up creates vaults and an address through the plugin|renaming in the program updates the vault in place" ||
  status=1
echo "test:quick: $((SECONDS - started)) s"
exit "$status"
