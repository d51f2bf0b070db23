# Sourced by scripts/test.sh and scripts/test-current.sh: each step's time goes to $CUSTODY_TEST_STEPS (a line
# "<leg>\t<step>\t<seconds>"), which scripts/test-budget.js turns into the closing table.

step() { printf '\n==> %s\n' "$*"; }

# record_step <leg> <step> <seconds>
record_step() { [ -z "${CUSTODY_TEST_STEPS:-}" ] || printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$CUSTODY_TEST_STEPS"; }

# timed <leg> <step> <command...>: runs the command under a heading, records its time, returns its status.
timed() {
  local leg="$1" name="$2" begun=$SECONDS code=0
  shift 2
  step "$name"
  "$@" || code=$?
  record_step "$leg" "$name" "$((SECONDS - begun))"
  return "$code"
}

# This machine's platform as the plugin's archives name it (linux-amd64, linux-arm64).
host_platform() { case "$(uname -m)" in aarch64 | arm64) echo linux-arm64 ;; *) echo linux-amd64 ;; esac; }
