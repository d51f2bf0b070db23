#!/usr/bin/env bash
# Runs one of the examples inside this repository, where it cannot `npm install pulumi-custody`.
#
#   npm run build
#   bash examples/in-repo.sh quickstart stack init dev
#   bash examples/in-repo.sh quickstart config set custody:baseUrl http://127.0.0.1:8787
#   bash examples/in-repo.sh quickstart up
#
# An example's own Pulumi.yaml is for a copy of it: TypeScript run by ts-node, `pulumi-custody` from its
# node_modules. Here the root build compiles examples/<name>/index.ts to dist/examples/<name>/index.js. This
# script writes the same project, pointed at that compiled program, to dist/examples/<name>/Pulumi.yaml, installs
# pulumi-custody there from its packed tarball as a user's project holds it (scripts/install-program.sh, on first
# use), and runs `pulumi` there with your arguments (stack config files land there too). The Pulumi CLI comes
# from PATH or scripts/install-pulumi.sh.
set -euo pipefail

name="${1:-}"
if [ -z "$name" ] || [ ! -f "$(dirname "${BASH_SOURCE[0]}")/$name/Pulumi.yaml" ]; then
  echo "usage: bash examples/in-repo.sh <example> <pulumi arguments...>" >&2
  echo "examples: $(cd "$(dirname "${BASH_SOURCE[0]}")" && ls -d */ | tr -d / | tr '\n' ' ')" >&2
  exit 2
fi
shift

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo/dist/examples/$name"
if [ ! -f "$out/index.js" ]; then
  echo "$out/index.js is missing: run 'npm run build' in $repo first" >&2
  exit 1
fi

# The example's project (name, description), with precompiled JavaScript instead of ts-node.
{
  grep -vE '^(runtime|main):' "$repo/examples/$name/Pulumi.yaml"
  printf 'runtime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n'
} > "$out/Pulumi.yaml"

[ -d "$out/node_modules/pulumi-custody" ] || bash "$repo/scripts/install-program.sh" "$out" >&2

if ! command -v pulumi >/dev/null 2>&1; then
  PATH="$(bash "$repo/scripts/install-pulumi.sh"):$PATH"
fi
exec pulumi --cwd "$out" "$@"
