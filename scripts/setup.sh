#!/usr/bin/env bash
# Shared set-up for the demo, the tests and the benchmarks: dependencies, build, Pulumi engine.
# Each step is skipped when it is already done, so only a fresh machine pays for it.
# Source it: `source scripts/setup.sh`; it exports PULUMI_CUSTODY_BIN (the engine's bin dir).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

step() { printf '\n==> %s\n' "$*"; }

# Install only when the lock file changed since the last install (or there is no node_modules).
# `npm install --no-save` rather than `npm ci`: npm records only this platform's optional packages (biome's
# native binaries) in the lock, and `npm ci` then refuses the lock as out of sync. --no-save installs the
# locked versions and leaves package-lock.json untouched.
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
stamp="node_modules/.pulumi-custody-lock-hash"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  step "Installing npm dependencies (npm install --no-save)"
  npm install --no-save --no-audit --no-fund
  echo "$lock_hash" > "$stamp"
else
  step "npm dependencies are up to date"
fi

step "Building TypeScript (npm run build)"
npm run --silent build

step "Making the Pulumi engine available (scripts/install-pulumi.sh)"
PULUMI_CUSTODY_BIN="$(bash scripts/install-pulumi.sh)"
export PULUMI_CUSTODY_BIN
export PATH="$PULUMI_CUSTODY_BIN:$PATH"
echo "pulumi $(pulumi version) at $PULUMI_CUSTODY_BIN"
