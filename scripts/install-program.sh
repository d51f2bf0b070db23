#!/usr/bin/env bash
# Makes <dir> a project that holds pulumi-custody as a user's project does: the sdk and the provider packed
# (`npm pack`) from this checkout's build and installed from their tarballs, with the repository's
# @pulumi/pulumi version from the registry. A program run there loads the provider from node_modules, so
# Pulumi serializes its providers as `require("pulumi-custody/…")` (a workspace link would be serialized by
# value). Used by the demo and by examples/in-repo.sh; run `npm run build` first.
#   bash scripts/install-program.sh <dir>
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?usage: install-program.sh <dir>}"
mkdir -p "$dir/packages"
dir="$(cd "$dir" && pwd)"
rm -f "$dir"/packages/*.tgz
(cd "$REPO_ROOT" && npm pack --silent -w sdk -w provider --pack-destination "$dir/packages" >/dev/null)
DIR="$dir" PULUMI_SDK_VERSION="$(cd "$REPO_ROOT" && node -p 'require("@pulumi/pulumi/package.json").version')" node -e '
  const fs = require("node:fs"), path = require("node:path");
  const dir = process.env.DIR, packages = fs.readdirSync(path.join(dir, "packages"));
  const tarball = (prefix) => "file:packages/" + packages.find((f) => f.startsWith(prefix));
  const file = path.join(dir, "package.json");
  const manifest = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { name: path.basename(dir), private: true };
  manifest.dependencies = { ...manifest.dependencies,
    "@pulumi/pulumi": process.env.PULUMI_SDK_VERSION,
    "@pulumi-custody/sdk": tarball("pulumi-custody-sdk-"),
    "pulumi-custody": tarball("pulumi-custody-0"),
  };
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");'
# A tarball of the same name and version as the one installed before counts as installed already: npm keeps the
# old files (and the lockfile their checksum). What was installed from packages/ goes, so that a rebuilt checkout
# is what the program runs.
rm -rf "$dir/node_modules/pulumi-custody" "$dir/node_modules/@pulumi-custody" "$dir/package-lock.json"
(cd "$dir" && npm install --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null)
