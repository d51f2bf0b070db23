#!/usr/bin/env bash
# The Python tool chain of the release and the tests: a virtualenv with the `pulumi` pip package at the
# engine's version, and `build`, `setuptools` and `wheel`, which build the generated SDK's wheel and sdist
# (scripts/release-artifacts.sh), cached under $PULUMI_CUSTODY_CACHE. pip installs from the registry (PyPI)
# the first time only. The tests install the SDK's wheel into fresh virtualenvs of their own, as users do.
#
# Progress goes to stderr; the only line on stdout is the virtualenv's directory.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_ROOT="${PULUMI_CUSTODY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-custody}"
# The pip package `pulumi` of the same version as the CLI we build (scripts/pulumi-cli).
PULUMI_PIP_VERSION="${PULUMI_PIP_VERSION:-3.248.0}"
PYTHON="${PYTHON:-python3}"

log() { printf '[install-python-deps] %s\n' "$*" >&2; }
die() { printf '[install-python-deps] error: %s\n' "$*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 || die "no $PYTHON on PATH: install Python >= 3.9 (or set PYTHON)"
py_version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || die "Python $py_version is too old: the SDK needs >= 3.9"

VENV="$CACHE_ROOT/python/venv-pulumi-$PULUMI_PIP_VERSION-py$py_version"
READY="$VENV/.pulumi-$PULUMI_PIP_VERSION-build"
mkdir -p "$CACHE_ROOT/python"
# One install at a time per virtualenv: several test files may start together.
exec 9>"$VENV.lock"
flock 9

if [ ! -f "$READY" ]; then
  log "creating $VENV with pulumi==$PULUMI_PIP_VERSION (pip, from the registry; once per machine)"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" >&2
  # build, setuptools and wheel build the generated SDK without build isolation, which would fetch them again
  # on every build.
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$PULUMI_PIP_VERSION" \
    build setuptools wheel >&2
  touch "$READY"
fi

"$VENV/bin/python" -c 'import pulumi, build' || die "the virtualenv $VENV cannot import pulumi and build"
log "pulumi $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("pulumi"))') in $VENV"
echo "$VENV"
