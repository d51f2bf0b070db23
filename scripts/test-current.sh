#!/usr/bin/env bash
# The second test leg: the newest releases users run (the newest Node LTS, the newest @pulumi/pulumi on the
# registry, the newest CLI that builds from the Go module proxy; scripts/current-versions.env), in a copy of this
# checkout so that the first leg's node_modules stay as locked. It runs the unit suites, and the end-to-end files
# that can break differently on these versions (test/e2e/legs.json; docs/testing.md says why each is there).
# scripts/test.sh runs it beside the pinned leg.
#
# Writes mocha's output to $1/current-unit.log and $1/current-e2e.log, and each step's time to $CUSTODY_TEST_STEPS;
# exits non-zero when a suite fails. Extra arguments go to the end-to-end run (e.g. one file).
#   bash scripts/test-current.sh <log dir> [mocha arguments]
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
logs="${1:?usage: test-current.sh <log dir> [mocha arguments]}"
shift
# shellcheck source=/dev/null
source "$REPO_ROOT/scripts/current-versions.env"
# shellcheck source=scripts/test-steps.sh
source "$REPO_ROOT/scripts/test-steps.sh"
started=$SECONDS

step "Node $NODE_CURRENT (scripts/install-node.sh)"
node_bin="$(bash "$REPO_ROOT/scripts/install-node.sh" "$NODE_CURRENT")"
# npm reads the machine's global npmrc from its Node's prefix (<prefix>/etc/npmrc), which the Node installed above
# does not have: npm would then lose the machine's settings, such as the certificate authority its registry mirror
# needs, and retry every registry request for a minute (the newest leg's documented-commands sessions took
# minutes longer than the pinned leg's). The machine's file stays the one npm reads.
if [ -z "${npm_config_globalconfig:-}" ] && globalconfig="$(npm config get globalconfig 2>/dev/null)" &&
  [ -f "$globalconfig" ]; then
  export npm_config_globalconfig="$globalconfig"
fi

step "Pulumi CLI $PULUMI_CLI_CURRENT (scripts/install-pulumi.sh)"
cli_bin="$(PULUMI_VERSION="$PULUMI_CLI_CURRENT" bash "$REPO_ROOT/scripts/install-pulumi.sh")"

work="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}/leg-current"
step "A copy of the checkout in $work, with @pulumi/pulumi $PULUMI_NPM_CURRENT"
mkdir -p "$work"
# Everything but the build output and the dependencies, which are kept between runs.
find "$work" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
tar -C "$REPO_ROOT" --exclude=./node_modules --exclude='./*/node_modules' --exclude=./dist --exclude='./*/dist' \
  --exclude=./.git --exclude=./.demo --exclude=./coverage -cf - . | tar -C "$work" -xf -
export PATH="$node_bin:$cli_bin:$PATH" PULUMI_CUSTODY_BIN="$cli_bin" CUSTODY_TEST_LEG=newest
# The programs the end-to-end tests install from the release files use the newest TypeScript too.
export CUSTODY_TEST_TYPESCRIPT="$TYPESCRIPT_CURRENT"
# Of the plugin's archives, this machine's only: the release test, which checks all six, runs on the pinned leg.
CUSTODY_RELEASE_PLATFORMS="$(host_platform)"
export CUSTODY_RELEASE_PLATFORMS
cd "$work"
stamp="node_modules/.pulumi-custody-current"
want="$(sha256sum package-lock.json | cut -d' ' -f1) $PULUMI_NPM_CURRENT"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  npm install --no-save --no-audit --no-fund
  npm install --no-save --no-audit --no-fund "@pulumi/pulumi@$PULUMI_NPM_CURRENT"
  echo "$want" >"$stamp"
fi
echo "node $(node --version), @pulumi/pulumi $(node -p 'require("@pulumi/pulumi/package.json").version'), pulumi $(pulumi version)"
npm run --silent build
record_step newest "set-up (Node, CLI, a copy of the checkout, npm install, build)" "$((SECONDS - started))"

status=0
unit_tests() { npx mocha 2>&1 | tee "$logs/current-unit.log"; }
timed newest "unit tests (mocha)" unit_tests || status=1
e2e_tests() { bash scripts/test-e2e.sh "$@" 2>&1 | tee "$logs/current-e2e.log"; }
timed newest "end-to-end tests, the files of test/e2e/legs.json (scripts/test-e2e.sh)" e2e_tests "$@" || status=1
exit "$status"
