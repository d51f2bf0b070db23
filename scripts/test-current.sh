#!/usr/bin/env bash
# The second test leg: the unit and end-to-end suites on the newest releases users run (the newest Node LTS, the newest
# @pulumi/pulumi on the registry, the newest CLI that builds from the Go module proxy; scripts/current-versions.env),
# in a copy of this checkout so that the first leg's node_modules stay as locked.
# Writes mocha's output to $1/current-unit.log and $1/current-e2e.log; exits non-zero when a suite fails.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
logs="${1:?usage: test-current.sh <log dir>}"
# shellcheck source=/dev/null
source "$REPO_ROOT/scripts/current-versions.env"
step() { printf '\n==> %s\n' "$*"; }

step "Node $NODE_CURRENT (scripts/install-node.sh)"
node_bin="$(bash "$REPO_ROOT/scripts/install-node.sh" "$NODE_CURRENT")"

step "Pulumi CLI $PULUMI_CLI_CURRENT (scripts/install-pulumi.sh)"
cli_bin="$(PULUMI_VERSION="$PULUMI_CLI_CURRENT" bash "$REPO_ROOT/scripts/install-pulumi.sh")"

work="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}/leg-current"
step "A copy of the checkout in $work, with @pulumi/pulumi $PULUMI_NPM_CURRENT"
mkdir -p "$work"
# Everything but the build output and the dependencies, which are kept between runs.
find "$work" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
tar -C "$REPO_ROOT" --exclude=./node_modules --exclude='./*/node_modules' --exclude=./dist --exclude='./*/dist' --exclude=./.git -cf - . | tar -C "$work" -xf -
export PATH="$node_bin:$cli_bin:$PATH" PULUMI_CUSTODY_BIN="$cli_bin"
# The programs the end-to-end tests install from the release files use the newest TypeScript too.
export CUSTODY_TEST_TYPESCRIPT="$TYPESCRIPT_CURRENT"
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

status=0
step "Unit tests on the newest releases (mocha)"
npx mocha 2>&1 | tee "$logs/current-unit.log" || status=1
step "End-to-end tests on the newest releases (mocha)"
npx mocha --config .mocharc.e2e.js 2>&1 | tee "$logs/current-e2e.log" || status=1
exit "$status"
