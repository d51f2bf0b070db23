#!/usr/bin/env bash
# Runs the steps of the workflows in .github/workflows/ on this machine, against a local custody emulator
# and a throwaway file:// backend, and checks that each behaves as it must in CI:
#   1. deploy.yml  (a merge to main):  pulumi up
#   2. preview.yml (a pull request):   custody review, which runs pulumi preview with the custody policy pack and
#      a read-only token; then a pull request that breaks a rule (a stricter policy config): the review fails
#      (exit 3) and its report lists the violation first
#   3. drift.yml   (nightly):          custody drift --accept with a read-only token: no drift (exit 0), and the
#      report steps (post-drift-report.sh, open-accept-pr.sh) post nothing; here `gh` is a stand-in that records
#      what would be posted, and the repository's remote a local one
#   4. someone renames a vault in the console; the drift check exits 3 and opens the drift issue; the name is a
#      template, so the accept writes nothing and names the line to change: no pull request
#   5. a wrong token: the check exits 1, "could not run", and files that under its own label, not as drift
#   6. deploy.yml again repairs (reverts) the drift; the check exits 0 and closes the issues
#   7. accept: the team archives an emptied vault in the console; the nightly job opens a pull request that
#      declares it archived (and allow-lists it for the policy pack); its review passes, the reviewer merges, the
#      deploy changes nothing and the vault keeps its id; the check exits 0 and closes the issue
#   8. revert: someone archives a vault by mistake; the pull request is opened, the reviewer closes it and runs
#      the deploy, which restores the vault (same id); the check exits 0
#   9. both tokens are rotated (a new repository secret); deploy and the drift check work with the new ones
# Needs Node.js >= 20.19, git, and the Pulumi CLI on PATH. Works in a copy of this example (after `npm ci`) and
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
  # A copy of the compiled program, which the accept edits as it would the repository's index.ts.
  cp "$repo/dist/examples/gitops/index.js" "$work/project/index.js"
  cp "$here/package.json" "$work/project/"
  ln -s "$repo/node_modules" "$work/project/node_modules"
  {
    grep -vE '^(runtime|main):' "$here/Pulumi.yaml"
    printf 'runtime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n'
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
  ln -s "$modules" "$work/project/node_modules"
fi
cp -r "$here/policy" "$work/project/"
command -v pulumi >/dev/null 2>&1 || fail "the Pulumi CLI is not on PATH"
command -v git >/dev/null 2>&1 || fail "git is not on PATH"

# A stand-in for the GitHub CLI, for the report step of drift.yml: it keeps the issues in a file and prints
# what it would post.
mkdir -p "$work/bin" "$work/issues"
cat > "$work/bin/gh" <<'GH'
#!/usr/bin/env bash
# gh issue list --state open --label L --json number --jq …  |  gh issue create --title T --label L --body-file F
# gh issue comment N --body-file F  |  gh issue close N --comment C  |  gh label create …
# gh pr list --head B --state open --json number --jq …  |  gh pr create --head B … --title T --body-file F
# gh pr edit N --body-file F  |  gh pr close N --comment C  |  gh pr merge N
set -euo pipefail
dir="$GH_STAND_IN_ISSUES"
arg() { local name="$1"; shift; while [ $# -gt 0 ]; do [ "$1" = "$name" ] && { echo "$2"; return; }; shift; done; }
case "$1 $2" in
  "label create") ;;
  "pr list") branch="$(arg --head "$@")"; [ -f "$dir/open-pr-${branch//\//-}" ] && cat "$dir/open-pr-${branch//\//-}" || true ;;
  "pr create")
    branch="$(arg --head "$@")"; number=$(( $(cat "$dir/count" 2>/dev/null || echo 0) + 1 ))
    echo "$number" > "$dir/count"; echo "$number" > "$dir/open-pr-${branch//\//-}"; cp "$(arg --body-file "$@")" "$dir/pr-$number.md"
    echo "gh: opened pull request #$number \"$(arg --title "$@")\" ($branch)" ;;
  "pr edit") cp "$(arg --body-file "$@")" "$dir/pr-$3.md"; echo "gh: updated pull request #$3" ;;
  "pr close"|"pr merge") grep -lx "$3" "$dir"/open-pr-* | xargs rm -f; echo "gh: ${2}d pull request #$3" ;;
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

# The repository: the project on its main branch, and a remote to push the accepting branch to.
export GIT_AUTHOR_NAME=run-local GIT_AUTHOR_EMAIL=run-local@example.invalid
export GIT_COMMITTER_NAME=run-local GIT_COMMITTER_EMAIL=run-local@example.invalid
git init --quiet --bare "$work/origin.git"
git -C "$work/project" init --quiet -b main
printf 'node_modules\n' > "$work/project/.gitignore"

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
policy_config="policy/$stack.json"
git add -A && git commit --quiet -m "The vaults of the $stack stack"
git remote add origin "$work/origin.git" && git push --quiet origin main

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

drift_check() { # the steps of drift.yml: custody drift --accept, the issue, the pull request; returns the check's verdict
  local code=0
  CUSTODY_ACCESS_TOKEN="${1:-$read_token}" "${custody[@]}" drift --stack "$stack" --accept \
    --policy-config "$policy_config" --markdown "$work/drift.md" --json "$work/drift.json" -- --run-program \
    2> "$work/drift.log" || code=$?
  cat "$work/drift.md" "$work/drift.log"
  local check
  check="$(report_field exitCode)"
  PATH="$work/bin:$PATH" bash "$here/post-drift-report.sh" "$check" "$work/drift.md" "$stack"
  PATH="$work/bin:$PATH" bash "$here/open-accept-pr.sh" "$work/drift.json" "$work/drift.md" "$stack"
  [ "$check" = 1 ] || [ "$code" = "$(report_field accept.exitCode "$check")" ] || fail "custody drift exited $code, not as its report says"
  return "$check"
}
report_field() { # $1 = a field of the JSON report (a.b for nested); $2 = what to print when it is absent
  node -e '
    let v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const k of process.argv[2].split(".")) v = v == null ? undefined : v[k];
    process.stdout.write(String(v ?? process.argv[3] ?? ""));' "$work/drift.json" "$1" "${2:-}"
}
status_of_report() { report_field status; }
open_pr() { cat "$work/issues/open-pr-custody-drift-$stack" 2>/dev/null || true; }
vault_id_of() { pulumi stack output vaultIds --stack "$stack" --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8"))[process.argv[1]])' "$1"; }
console() { # $1 = rename|archive, $2 = vault id, $3 = new name: a change in the console, as a user with write access makes it
  SDK="$sdk" TOKEN="$write_token" ACTION="$1" VAULT_ID="$2" NAME="${3:-}" node -e '
    const { CustodyClient } = require(process.env.SDK);
    const client = new CustodyClient({ baseUrl: process.env.CUSTODY_BASE_URL, accessToken: process.env.TOKEN });
    const done = process.env.ACTION === "rename"
      ? client.vaults.rename(process.env.VAULT_ID, process.env.NAME)
      : client.vaults.archive(process.env.VAULT_ID);
    done.then(() => console.log(`vault ${process.env.VAULT_ID}: ${process.env.ACTION}d in the console`))
      .catch((err) => { console.error(err.message); process.exit(1); })
      .finally(() => client.close());'
}

step "drift.yml (nightly): custody drift --accept, read-only token: no drift"
drift_check || fail "the drift check of a stack just deployed must exit 0"
[ "$(status_of_report)" = clean ] || fail "the JSON report must say clean"
[ -z "$(open_pr)" ] || fail "no drift, no pull request"

step "Someone renames the payments vault in the console"
console rename "$(vault_id_of payments)" "renamed in the console"

step "drift.yml (nightly): the drift check must exit 3 now, and open the drift issue; the name is a template: a hand edit"
code=0
drift_check || code=$?
[ "$code" = 3 ] || fail "custody drift exited $code, not 3, although a vault was renamed out of band"
[ "$(status_of_report)" = drift ] || fail "the JSON report must say drift"
grep -q "| \`name\` | \`\"Payments ($stack)\"\` | \`\"renamed in the console\"\` |" "$work/drift.md" \
  || fail "the report must show the field with its declared and live values"
[ -f "$work/issues/open-custody-drift" ] || fail "the report step must open the drift issue"
grep -qE '^custody drift:   index\.(ts|js):[0-9]+: payments \(name\): name is a template literal' "$work/drift.log" \
  || fail "the accept must name the line of the template to change"
[ "$(report_field accept.files)" = "" ] && [ -z "$(open_pr)" ] || fail "a hand edit only: nothing written, no pull request"
git diff --quiet || fail "the accept must leave the program as it is"
echo "drift detected: the nightly workflow would fail and open the issue; the line to change is named"

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

step "Accept: the payouts vault was emptied, and the team archives it in the console"
payouts_id="$(vault_id_of payouts)"
console archive "$payouts_id"

step "drift.yml (nightly): exit 3, the issue, and a pull request that declares the vault archived"
code=0
drift_check || code=$?
[ "$code" = 3 ] || fail "custody drift's check exited $code, not 3, for a vault archived in the console"
[ "$(report_field accept.exitCode)" = 0 ] || fail "the accept must take the archive in"
[ -f "$work/issues/open-custody-drift" ] || fail "the issue keeps the drift report"
pr="$(open_pr)"
[ -n "$pr" ] || fail "the nightly job must open the pull request"
grep -q "^+.*archived: true" "$work/issues/pr-$pr.md" || fail "the pull request's body must hold the diff"
grep -q "Payouts ($stack)" "$work/issues/pr-$pr.md" || fail "the pull request's body must hold the drift report"
git diff --quiet main "custody-drift/$stack" -- "$policy_config" \
  && fail "the pull request must allow-list the archived vault for the policy pack"
git diff --quiet || fail "the workspace is back on main, unchanged"

step "preview.yml on the pull request: its review passes the policy pack, and shows the archive"
git switch --quiet "custody-drift/$stack"
review "$policy_config" || { cat "$work/review.log" >&2; fail "the review of the accepting change must exit 0"; }
grep -q "Archive" "$work/review.md" || fail "the review must show the archive"

step "The reviewer merges it: deploy.yml changes nothing, and the vault keeps its id"
git switch --quiet main && git merge --quiet --ff-only "custody-drift/$stack"
PATH="$work/bin:$PATH" gh pr merge "$pr"
CUSTODY_ACCESS_TOKEN="$read_token" pulumi preview --stack "$stack" --refresh --expect-no-changes --non-interactive --run-program >/dev/null \
  || fail "once merged, the program declares what the service has"
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --refresh --yes --skip-preview --non-interactive
[ "$(vault_id_of payouts)" = "$payouts_id" ] || fail "the accepted vault keeps its id"
drift_check || fail "the drift check after the merge must exit 0"
[ ! -f "$work/issues/open-custody-drift" ] || fail "a clean check closes the issue"
echo "accepted: the console's archive is now the program's"

step "Revert: someone archives the payments vault by mistake; the nightly job opens the pull request"
payments_id="$(vault_id_of payments)"
console archive "$payments_id"
code=0
drift_check || code=$?
[ "$code" = 3 ] || fail "custody drift's check exited $code, not 3, for a vault archived in the console"
pr="$(open_pr)"
[ -n "$pr" ] || fail "the nightly job must open the pull request"

step "The reviewer closes it and runs deploy.yml: the vault is restored, with its id"
PATH="$work/bin:$PATH" gh pr close "$pr" --comment "archived by mistake: reverting"
git branch --quiet -D "custody-drift/$stack"
CUSTODY_ACCESS_TOKEN="$write_token" pulumi up --stack "$stack" --refresh --yes --skip-preview --non-interactive
[ "$(vault_id_of payments)" = "$payments_id" ] || fail "the restored vault keeps its id"
drift_check || fail "the drift check after the revert must exit 0"
[ -z "$(ls "$work/issues" | grep '^open-' || true)" ] || fail "a clean check closes the issue"
echo "reverted: the program's state is the service's again"

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
