#!/usr/bin/env bash
# Runs the steps of the workflows in .github/workflows/ on this machine, against a local custody emulator
# and a throwaway file:// backend, and checks that each behaves as it must in CI:
#   1. deploy.yml  (a merge to main):  pulumi up
#   2. preview.yml (a pull request):   custody review, which runs pulumi preview with the custody policy pack and
#      a read-only token; then a pull request that breaks a rule (a stricter policy config): the review fails
#      (exit 3) and its report lists the violation first
#   3. drift.yml   (nightly):          custody drift with a read-only token: no drift (exit 0), and the report
#      step (post-drift-report.sh) closes nothing; here `gh` is a stand-in that records what would be posted
#   4. someone renames a vault in the console; the drift check exits 3 and opens the drift issue
#   5. a wrong token: the check exits 1, "could not run", and files that under its own label, not as drift
#   6. deploy.yml again repairs the drift; the check exits 0 and closes the issues
#   7. both tokens are rotated (a new repository secret); deploy and the drift check work with the new ones
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
fail() { echo "run-local: $*" >&2; exit 1; }

# Where the program, the tools and the emulator come from.
repo="$(cd "$here/../.." && pwd)"
mkdir -p "$work/project"
if [ -f "$repo/scripts/install-pulumi.sh" ] && [ -f "$repo/cli/package.json" ]; then
  # Inside the repository: the program precompiled by the root build (see examples/in-repo.sh), and each
  # package's build.
  [ -f "$repo/dist/examples/gitops/index.js" ] || fail "run 'npm run build' in $repo first"
  emulator_cli="$repo/emulator/dist/cli.js"
  sdk="$repo/sdk/dist/index.js"
  custody=(node "$repo/cli/dist/custody.js")
  policy_pack="$repo/policy"
  {
    grep -vE '^(runtime|main):' "$here/Pulumi.yaml"
    printf 'runtime:\n  name: nodejs\n  options:\n    typescript: false\nmain: %s\n' "$repo/dist/examples/gitops/index.js"
  } > "$work/project/Pulumi.yaml"
  command -v pulumi >/dev/null 2>&1 || PATH="$(bash "$repo/scripts/install-pulumi.sh"):$PATH"
else
  # A copy of the example: its own node_modules, TypeScript run by ts-node.
  modules="$here/node_modules"
  [ -d "$modules/pulumi-custody" ] || fail "run 'npm ci' in $here first"
  emulator_cli="$modules/@pulumi-custody/emulator/dist/cli.js"
  sdk="$modules/@pulumi-custody/sdk"
  custody=("$modules/.bin/custody")
  policy_pack="$modules/@pulumi-custody/policy"
  cp "$here/Pulumi.yaml" "$here/package.json" "$here/tsconfig.json" "$here/index.ts" "$work/project/"
  cp -r "$here/policy" "$work/project/"
  ln -s "$modules" "$work/project/node_modules"
fi
command -v pulumi >/dev/null 2>&1 || fail "the Pulumi CLI is not on PATH"

# A stand-in for the GitHub CLI, for the report step of drift.yml: it keeps the issues in a file and prints
# what it would post.
mkdir -p "$work/bin" "$work/issues"
cat > "$work/bin/gh" <<'GH'
#!/usr/bin/env bash
# gh issue list --state open --label L --json number --jq …  |  gh issue create --title T --label L --body-file F
# gh issue comment N --body-file F  |  gh issue close N --comment C  |  gh label create …
set -euo pipefail
dir="$GH_STAND_IN_ISSUES"
arg() { local name="$1"; shift; while [ $# -gt 0 ]; do [ "$1" = "$name" ] && { echo "$2"; return; }; shift; done; }
case "$1 $2" in
  "label create") ;;
  "issue list") label="$(arg --label "$@")"; [ -f "$dir/open-$label" ] && cat "$dir/open-$label" || true ;;
  "issue create")
    label="$(arg --label "$@")"; number=$(( $(cat "$dir/count" 2>/dev/null || echo 0) + 1 ))
    echo "$number" > "$dir/count"; echo "$number" > "$dir/open-$label"; cp "$(arg --body-file "$@")" "$dir/issue-$number.md"
    echo "gh: opened issue #$number \"$(arg --title "$@")\" (label $label)" ;;
  "issue comment") cat "$(arg --body-file "$@")" >> "$dir/issue-$3.md"; echo "gh: commented on issue #$3" ;;
  "issue close") grep -lx "$3" "$dir"/open-* | xargs rm -f; echo "gh: closed issue #$3" ;;
  *) echo "gh stand-in: unexpected call: $*" >&2; exit 2 ;;
esac
GH
chmod +x "$work/bin/gh"
export GH_STAND_IN_ISSUES="$work/issues"

step "Starting the custody emulator on 127.0.0.1"
node "$emulator_cli" --host 127.0.0.1 --port 0 > "$work/emulator.json" 2> "$work/emulator.log" &
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

review() { # the review step of preview.yml; $1 = policy config file; prints the report, returns the exit code
  local code=0
  CUSTODY_ACCESS_TOKEN="$read_token" "${custody[@]}" review --stack "$stack" --out "$work/review.md" -- \
    --policy-pack "$policy_pack" --policy-pack-config "$1" 2> "$work/review.log" || code=$?
  cat "$work/review.md"
  return "$code"
}

step "preview.yml (pull request): custody review runs pulumi preview with the policy pack, read-only token"
review "$policy_config" || { cat "$work/review.log" >&2; fail "the review of the unchanged, compliant stack must exit 0"; }
grep -qx "No vault or address changes." "$work/review.md" || fail "the review of an unchanged stack must say so"
grep -qE '^Policy pack `pulumi-custody@[^`]+` ran: no violations\.$' "$work/review.md" || fail "the review must name the pack that ran"

step "preview.yml: a pull request that allows only EVM vaults; the review must fail, listing the rule first"
echo '{ "custody-vault-allowed-types": { "allowedTypes": ["evm"] } }' > "$work/evm-only.json"
code=0
review "$work/evm-only.json" || code=$?
[ "$code" = 3 ] || fail "custody review exited $code, not 3, although a vault breaks custody-vault-allowed-types"
grep -q "mandatory\*\* \`custody-vault-allowed-types\`" "$work/review.md" || fail "the report must list the violation"
[ "$(grep -m1 '^### ' "$work/review.md")" = "### 🛑 This change cannot be applied" ] || fail "what stops the change comes first"
echo "policy violation reported: the pull request's check would fail"

drift_check() { # the steps of drift.yml: custody drift, then the report step; returns the exit code
  local code=0
  CUSTODY_ACCESS_TOKEN="${1:-$read_token}" "${custody[@]}" drift --stack "$stack" \
    --markdown "$work/drift.md" --json "$work/drift.json" -- --run-program || code=$?
  cat "$work/drift.md"
  PATH="$work/bin:$PATH" bash "$here/post-drift-report.sh" "$code" "$work/drift.md" "$stack"
  return "$code"
}
status_of_report() { node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).status)' "$work/drift.json"; }

step "drift.yml (nightly): custody drift, read-only token: no drift"
drift_check || fail "the drift check of a stack just deployed must exit 0"
[ "$(status_of_report)" = clean ] || fail "the JSON report must say clean"

step "Someone renames the payments vault in the console"
vault_id="$(pulumi stack output vaultIds --stack "$stack" --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).payments)')"
SDK="$sdk" TOKEN="$write_token" VAULT_ID="$vault_id" node -e '
  const { CustodyClient } = require(process.env.SDK);
  const client = new CustodyClient({ baseUrl: process.env.CUSTODY_BASE_URL, accessToken: process.env.TOKEN });
  client.vaults.rename(process.env.VAULT_ID, "renamed in the console")
    .then(() => console.log(`vault ${process.env.VAULT_ID} is now "renamed in the console"`))
    .catch((err) => { console.error(err.message); process.exit(1); })
    .finally(() => client.close());'

step "drift.yml (nightly): the drift check must exit 3 now, and open the drift issue"
code=0
drift_check || code=$?
[ "$code" = 3 ] || fail "custody drift exited $code, not 3, although a vault was renamed out of band"
[ "$(status_of_report)" = drift ] || fail "the JSON report must say drift"
grep -q "| \`name\` | \`\"Payments ($stack)\"\` | \`\"renamed in the console\"\` |" "$work/drift.md" \
  || fail "the report must show the field with its declared and live values"
[ -f "$work/issues/open-custody-drift" ] || fail "the report step must open the drift issue"
echo "drift detected: the nightly workflow would fail and open the issue"

step "drift.yml (nightly) with a wrong token: the check could not run (exit 1), which is not drift"
code=0
drift_check "not-a-valid-token" || code=$?
[ "$code" = 1 ] || fail "custody drift exited $code, not 1, with a wrong token"
[ "$(status_of_report)" = failed ] || fail "the JSON report must say failed"
[ -f "$work/issues/open-custody-drift-check-failed" ] || fail "a failed check gets an issue of its own"

step "deploy.yml again: pulumi up --refresh repairs the drift; the check exits 0 and closes the issues"
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --refresh --yes --skip-preview --non-interactive
drift_check || fail "the drift check after the repair must exit 0"
[ -z "$(ls "$work/issues" | grep '^open-' || true)" ] || fail "a clean check must close the open issues"

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
drift_check || fail "the drift check with the rotated read token must exit 0"
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --refresh --yes --skip-preview --non-interactive
echo "token rotation: nothing to change in the state, the new secrets just work"

echo
echo "run-local: every workflow step behaved as in CI"
