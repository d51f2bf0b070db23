#!/usr/bin/env bash
# Runs the steps of the workflows in .github/workflows/ on this machine, against a local custody emulator
# and a throwaway file:// backend, and checks that each behaves as it must in CI:
#   1. deploy.yml  (a merge to main):  pulumi up
#   2. preview.yml (a pull request):   pulumi preview with the custody policy pack, read-only token, and the
#      review report; then a pull request that breaks a rule (a stricter policy config): the preview fails
#      naming the rule, and the report lists the violation
#   3. drift.yml   (nightly):          pulumi preview --refresh --run-program --expect-no-changes, read-only token
#   4. someone renames a vault in the console; the drift check must now fail
#   5. deploy.yml again repairs it, and the drift check passes
#   6. both tokens are rotated (a new repository secret); deploy and the drift check work with the new ones
# Needs Node.js >= 20.19 and the Pulumi CLI on PATH. Works in a copy of this example (after `npm ci`) and
# inside the pulumi-custody repository (after `npm run build`). Leaves nothing behind.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill -TERM "$emulator_pid" && wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n==> %s\n' "$*"; }

# Where the program, the emulator and the SDK come from.
repo="$(cd "$here/../.." && pwd)"
mkdir -p "$work/project"
if [ -f "$repo/package.json" ] && grep -q '"name": "pulumi-custody"' "$repo/package.json"; then
  # Inside the repository: the program precompiled by the root build (see examples/in-repo.sh).
  [ -f "$repo/dist/examples/gitops/index.js" ] || { echo "run 'npm run build' in $repo first" >&2; exit 1; }
  package="$repo"
  policy_pack="$repo/policy"
  {
    grep -vE '^(runtime|main):' "$here/Pulumi.yaml"
    printf 'runtime:\n  name: nodejs\n  options:\n    typescript: false\nmain: %s\n' "$repo/dist/examples/gitops/index.js"
  } > "$work/project/Pulumi.yaml"
  command -v pulumi >/dev/null 2>&1 || PATH="$(bash "$repo/scripts/install-pulumi.sh"):$PATH"
else
  # A copy of the example: its own node_modules, TypeScript run by ts-node.
  package="$here/node_modules/pulumi-custody"
  policy_pack="$package/policy"
  [ -d "$package" ] || { echo "run 'npm ci' in $here first" >&2; exit 1; }
  cp "$here/Pulumi.yaml" "$here/package.json" "$here/tsconfig.json" "$here/index.ts" "$work/project/"
  cp -r "$here/policy" "$work/project/"
  ln -s "$here/node_modules" "$work/project/node_modules"
fi
command -v pulumi >/dev/null 2>&1 || { echo "the Pulumi CLI is not on PATH" >&2; exit 1; }

step "Starting the custody emulator on 127.0.0.1"
node "$package/dist/emulator/cli.js" --host 127.0.0.1 --port 0 > "$work/emulator.json" 2> "$work/emulator.log" &
emulator_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/emulator.json" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; exit 1; }
  sleep 0.1
done
field() { node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]])' "$work/emulator.json" "$1"; }
base_url="$(field baseUrl)"
write_token="$(field accessToken)"
read_token="$(field viewerAccessToken)"
echo "emulator at $base_url"

# What the workflows take from the repository's secrets.
export PULUMI_BACKEND_URL="file://$work/state" PULUMI_HOME="$work/home"
export PULUMI_CONFIG_PASSPHRASE="local-only" PULUMI_SKIP_UPDATE_CHECK=true
export CUSTODY_BASE_URL="$base_url" CUSTODY_REQUESTS_PER_MINUTE=0
mkdir -p "$work/state"
stack=production
cd "$work/project"
pulumi stack init "$stack" --non-interactive >/dev/null
# The team's vault group (committed in Pulumi.production.yaml in a real repository): here the emulator's Default.
group_id="$(CONTROL="$(field controlToken)" node -e '
  fetch(`${process.env.CUSTODY_BASE_URL}/__emulator/state/vault-groups`, {
    headers: { "x-emulator-control-token": process.env.CONTROL },
  }).then((r) => r.json()).then((b) => process.stdout.write(b.items.find((g) => g.name === "Default").id));')"
pulumi config set vaultGroupId "$group_id" --stack "$stack"
policy_config="$here/policy/$stack.json"

step "deploy.yml (merge to main): pulumi up"
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --yes --skip-preview --non-interactive

policy_preview() { # the policy preview of preview.yml; $1 = policy config file, the rest for pulumi
  local config="$1"
  shift
  CUSTODY_ACCESS_TOKEN="$read_token" pulumi preview --stack "$stack" --non-interactive \
    --policy-pack "$policy_pack" --policy-pack-config "$config" "$@"
}
review() { # the report step of preview.yml (the event stream carries the policy violations)
  PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true policy_preview "$1" --json > "$work/preview.jsonl" || true
  node "$package/dist/review/cli.js" "$work/preview.jsonl" | tee "$work/review.md"
}

step "preview.yml (pull request): pulumi preview --policy-pack, read-only token"
policy_preview "$policy_config" --diff

step "preview.yml (pull request): the review report of the preview (custody-review)"
review "$policy_config"
grep -qx "No vault or address changes." "$work/review.md" || { echo "the review of an unchanged stack must say so" >&2; exit 1; }
if grep -q "Policy violations" "$work/review.md"; then echo "the compliant stack must have no policy violation" >&2; exit 1; fi

step "preview.yml: a pull request that allows only EVM vaults; the policy check must fail, naming the rule"
echo '{ "custody-vault-allowed-types": { "allowedTypes": ["evm"] } }' > "$work/evm-only.json"
if policy_preview "$work/evm-only.json" > "$work/policy.txt" 2>&1; then
  cat "$work/policy.txt"
  echo "run-local: the policy preview passed although a vault breaks custody-vault-allowed-types" >&2
  exit 1
fi
grep -E "custody-vault-allowed-types" "$work/policy.txt"
review "$work/evm-only.json"
grep -q "mandatory\*\* \`custody-vault-allowed-types\`" "$work/review.md" || { echo "the report must list the violation" >&2; exit 1; }
echo "policy violation reported: the pull request's check would fail"

drift_check() { # the command of drift.yml
  CUSTODY_ACCESS_TOKEN="$read_token" pulumi preview --stack "$stack" --refresh --run-program --expect-no-changes "$@" --non-interactive
}

step "drift.yml (nightly): pulumi preview --refresh --run-program --expect-no-changes, read-only token"
drift_check

step "Someone renames the payments vault in the console"
vault_id="$(pulumi stack output vaultIds --stack "$stack" --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).payments)')"
SDK="$package/dist/sdk" TOKEN="$write_token" VAULT_ID="$vault_id" node -e '
  const { CustodyClient } = require(process.env.SDK);
  const client = new CustodyClient({ baseUrl: process.env.CUSTODY_BASE_URL, accessToken: process.env.TOKEN });
  client.vaults.rename(process.env.VAULT_ID, "renamed in the console")
    .then(() => console.log(`vault ${process.env.VAULT_ID} is now "renamed in the console"`))
    .catch((err) => { console.error(err.message); process.exit(1); })
    .finally(() => client.close());'

step "drift.yml (nightly): the drift check must fail now"
if drift_check --diff; then
  echo "run-local: the drift check passed although a vault was renamed out of band" >&2
  exit 1
fi
echo "drift detected: the nightly workflow would fail and notify"

step "deploy.yml again: pulumi up --refresh repairs the drift"
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --refresh --yes --skip-preview --non-interactive
drift_check

step "Both tokens are rotated: the old ones are refused from now on, the secrets hold the new ones"
rotate() { # $1 = access | viewer; prints the new token
  CONTROL="$(field controlToken)" WHICH="$1" node -e '
    fetch(`${process.env.CUSTODY_BASE_URL}/__emulator/tokens/rotate`, {
      method: "POST",
      headers: { "x-emulator-control-token": process.env.CONTROL, "content-type": "application/json" },
      body: JSON.stringify({ token: process.env.WHICH }),
    }).then((r) => r.json()).then((b) => process.stdout.write(b.accessToken));'
}
write_token="$(rotate access)"
read_token="$(rotate viewer)"
drift_check
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --refresh --yes --skip-preview --non-interactive
echo "token rotation: nothing to change in the state, the new secrets just work"

echo
echo "run-local: every workflow step behaved as in CI"
