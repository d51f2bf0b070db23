#!/usr/bin/env bash
# The Python side of the tests and of examples/python-quickstart: a virtualenv with the `pulumi` pip package at
# the engine's version and the generated SDK `pulumi_custody` (scripts/gen-sdks.sh), cached under
# $PULUMI_CUSTODY_CACHE. pip installs from the registry (PyPI) the first time; later runs only reinstall the SDK
# when it changed.
#
# Progress goes to stderr; the only line on stdout is the virtualenv's directory.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_ROOT="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}"
# The pip package `pulumi` of the same version as the CLI we build (engine/pulumi-cli).
PULUMI_PIP_VERSION="${PULUMI_PIP_VERSION:-3.248.0}"
PYTHON="${PYTHON:-python3}"

log() { printf '[install-python-deps] %s\n' "$*" >&2; }
die() { printf '[install-python-deps] error: %s\n' "$*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 || die "no $PYTHON on PATH: install Python >= 3.9 (or set PYTHON)"
py_version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || die "Python $py_version is too old: the SDK needs >= 3.9"

VENV="$CACHE_ROOT/python/venv-pulumi-$PULUMI_PIP_VERSION-py$py_version"
SDK_STAMP="$VENV/.pulumi-custody-sdk-sha256"
mkdir -p "$CACHE_ROOT/python"
# One install at a time per virtualenv: several test files may start together.
exec 9>"$VENV.lock"
flock 9

if [ ! -f "$VENV/.pulumi-$PULUMI_PIP_VERSION" ]; then
  log "creating $VENV with pulumi==$PULUMI_PIP_VERSION (pip, from the registry; once per machine)"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" >&2
  # setuptools and wheel build the generated SDK (its setup.py) without pip's build isolation, which would
  # fetch them again on every install.
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$PULUMI_PIP_VERSION" setuptools wheel >&2
  touch "$VENV/.pulumi-$PULUMI_PIP_VERSION"
fi

sdk="$(bash "$REPO_ROOT/scripts/gen-sdks.sh")/python"
sdk_hash="$(cd "$sdk" && find . -type f ! -path '*/build/*' ! -path '*.egg-info/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$SDK_STAMP" 2>/dev/null)" != "$sdk_hash" ]; then
  log "installing the generated SDK ($sdk) into $VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall \
    --no-deps "$sdk" >&2
  # Its dependencies other than pulumi (parver, semver), from the registry when missing.
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation "$sdk" >&2
  echo "$sdk_hash" >"$SDK_STAMP"
fi
"$VENV/bin/python" -c 'import pulumi, pulumi_custody' || die "the virtualenv $VENV cannot import pulumi and pulumi_custody"
log "pulumi $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("pulumi"))'), pulumi_custody $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("pulumi_custody"))') in $VENV"
echo "$VENV"
