#!/usr/bin/env bash
# The main job: the root Pulumi program against the embedded custody emulator, with the real engine.
#   1. set-up (npm install, build, engine; the program's packages from their tarballs)   2. start the emulator
#   3. pulumi up   4. outputs
#   5. drift: an out-of-band rename, caught by `preview --refresh --expect-no-changes`
#   6. repair with `up --refresh`      7. stop the emulator cleanly
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

DEMO_DIR="$REPO_ROOT/.demo"
rm -rf "$DEMO_DIR" Pulumi.demo.yaml && mkdir -p "$DEMO_DIR/state" "$DEMO_DIR/home" "$DEMO_DIR/program"
export PULUMI_BACKEND_URL="file://$DEMO_DIR/state"
export PULUMI_HOME="$DEMO_DIR/home"
export PULUMI_CONFIG_PASSPHRASE="demo-only-passphrase"
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_CREDENTIAL_STORE=plaintext

# The program runs from its own project, with pulumi-custody installed from its packed tarball as `npm install`
# installs it for a user: the serialized providers in the state are then `require("pulumi-custody/…")`, as in a
# user's stack (a workspace link would be serialized by value).
step "Installing the program's packages from their packed tarballs (scripts/install-program.sh)"
bash scripts/install-program.sh "$DEMO_DIR/program"
sed -e 's|^main: .*|main: index.js|' Pulumi.yaml > "$DEMO_DIR/program/Pulumi.yaml"
cp dist/index.js "$DEMO_DIR/program/index.js"

step "Starting the custody emulator on 127.0.0.1"
# The workspace's bin itself, as `npx custody-emulator` finds it: through npx, the TERM that stops the emulator
# would reach only npm, which exits without passing it on, and the emulator would be left running.
"$REPO_ROOT/node_modules/.bin/custody-emulator" --host 127.0.0.1 --port 0 \
  --state-file "$DEMO_DIR/emulator-state.json" > "$DEMO_DIR/emulator.out" 2> "$DEMO_DIR/emulator.err" &
EMULATOR_PID=$!
stop_emulator() {
  if kill -0 "$EMULATOR_PID" 2>/dev/null; then
    kill -TERM "$EMULATOR_PID" && wait "$EMULATOR_PID" 2>/dev/null || true
  fi
}
trap stop_emulator EXIT
# Up to 60 s for its first line: a loaded machine starts Node slowly; an emulator that exits fails at once.
for _ in $(seq 1 600); do
  [ -s "$DEMO_DIR/emulator.out" ] && break
  kill -0 "$EMULATOR_PID" 2>/dev/null || { cat "$DEMO_DIR/emulator.err" >&2; exit 1; }
  sleep 0.1
done
[ -s "$DEMO_DIR/emulator.out" ] || { echo "error: the emulator printed nothing in 60 s ($DEMO_DIR/emulator.err)" >&2; exit 1; }
emulator_field() { node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]); process.stdout.write(String(o[process.argv[2]]))' "$DEMO_DIR/emulator.out" "$1"; }
BASE_URL="$(emulator_field baseUrl)"
ACCESS_TOKEN="$(emulator_field accessToken)"
echo "emulator listening at $BASE_URL (pid $EMULATOR_PID)"

step "Creating stack 'demo' with a local file:// backend"
cd "$DEMO_DIR/program"
pulumi stack init demo --non-interactive >/dev/null
pulumi config set custody:baseUrl "$BASE_URL"
pulumi config set --secret custody:accessToken "$ACCESS_TOKEN"
# The emulator has no rate limit by default; don't throttle the demo client below it.
pulumi config set custody:requestsPerMinute 0

step "pulumi up: vaults, UTXO addresses and the lookups that feed them"
pulumi up --yes --non-interactive --skip-preview

# A user's state holds a bare require of the installed package, never the provider's code (0.1.0 state too).
if ! pulumi stack export | grep -q 'require(\\"pulumi-custody/provider-runtime/vault\\")'; then
  echo "error: the state's serialized provider does not require pulumi-custody/provider-runtime/vault" >&2
  exit 1
fi

step "Stack outputs"
pulumi stack output --json

step "Drift: renaming the treasury vault behind Pulumi's back"
TREASURY_ID="$(pulumi stack output treasuryVaultId)"
BASE_URL="$BASE_URL" ACCESS_TOKEN="$ACCESS_TOKEN" VAULT_ID="$TREASURY_ID" node -e '
  const { CustodyClient } = require("@pulumi-custody/sdk");
  const client = new CustodyClient({ baseUrl: process.env.BASE_URL, accessToken: process.env.ACCESS_TOKEN });
  client.vaults.rename(process.env.VAULT_ID, "renamed-out-of-band")
    .then(() => console.log(`renamed vault ${process.env.VAULT_ID} to "renamed-out-of-band"`))
    .catch((e) => { console.error(e.message); process.exit(1); });'

step "Drift check: pulumi preview --refresh --expect-no-changes (must report the rename)"
if pulumi preview --refresh --expect-no-changes --diff --non-interactive; then
  echo "error: the drift check passed, but the vault was renamed out of band" >&2
  exit 1
fi
echo "drift detected, as expected"

step "Repairing the drift: pulumi up --refresh"
pulumi up --refresh --yes --non-interactive --skip-preview

step "Checking that the stack converged: pulumi preview --refresh --expect-no-changes"
pulumi preview --refresh --expect-no-changes --non-interactive
echo "no drift left"

step "Stopping the emulator"
stop_emulator
trap - EXIT
# The demo leaves nothing running behind it: no process still holds its emulator's state file.
if left="$(pgrep -af -- "$DEMO_DIR/emulator-state.json")"; then
  echo "error: the emulator is still running after the demo stopped it:" >&2
  echo "$left" >&2
  exit 1
fi
echo "done. State: $DEMO_DIR/state; emulator state: $DEMO_DIR/emulator-state.json"
