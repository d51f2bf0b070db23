#!/usr/bin/env bash
# Brings the repository's generated files up to date with the release's schema, after a change of the schema:
#   - sdk/go/custody: the Go SDK (the module `go get` fetches from the tag sdk/go/custody/v<version>), from the
#     release's custody-go-sdk-v<version>.tar.gz;
#   - docs/api-docs: the registry's API docs (scripts/registry-docs.sh).
# test/e2e/generated-files.test.ts fails when either differs from what the release generates.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
release="$(bash scripts/release-artifacts.sh)"
version="$(node -p 'require("./package.json").version')"
rm -rf sdk/go/custody && mkdir -p sdk/go/custody
tar -xzf "$release/custody-go-sdk-v$version.tar.gz" -C sdk/go/custody
bash scripts/registry-docs.sh "$release/schema.json" docs/api-docs >/dev/null
git status --short -- sdk/go/custody docs/api-docs
