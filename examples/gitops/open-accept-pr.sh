#!/usr/bin/env bash
# Opens the pull request that accepts the console's state, with git and the `gh` CLI (GH_TOKEN in the
# environment), after `custody drift --accept`:
#   bash open-accept-pr.sh <drift.json> <drift.md> <stack>
#   - drift, and the accept changed files (the JSON report's accept.files): they are committed on the branch
#     custody-drift/<stack>, pushed, and a pull request is opened (or its body replaced) whose body is the
#     Markdown report: the drift, what was accepted, what needs a hand edit, and the diff. Merging it accepts the
#     console's state (the deploy then changes nothing); closing it and running the deploy reverts it.
#   - no drift: an open accept pull request no longer applies and is closed.
#   - anything else (drift that only a hand edit can accept, a check that could not run): nothing.
# drift.yml runs it after `custody drift --accept`; run-local.sh runs it with a stand-in `gh` and a local remote.
set -euo pipefail

json="$1"
report="$2"
stack="$3"
branch="custody-drift/$stack"

# The check's verdict, and the files the accept changed (paths relative to where it ran: here).
status="$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).status))' "$json")"
files=()
while IFS= read -r file; do
  [ -n "$file" ] && files+=("$file")
done < <(node -e '
  const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const accept = report.accept;
  if (accept && accept.exitCode !== 1 && !accept.dryRun) for (const file of accept.files) console.log(file);
' "$json")

open_pr() { # prints the number of the open accept pull request, if any
  gh pr list --head "$branch" --state open --json number --jq '.[0].number // empty'
}

number="$(open_pr)"
if [ "${#files[@]}" -eq 0 ]; then
  if [ "$status" = clean ] && [ -n "$number" ]; then
    gh pr close "$number" --comment "The nightly check finds no drift any more: nothing to accept."
    echo "closed pull request #$number"
  fi
  exit 0
fi

base="$(git rev-parse --abbrev-ref HEAD)"
git switch --quiet -C "$branch"
git add -- "${files[@]}"
git -c user.name="custody drift" -c user.email="custody-drift@users.noreply.github.com" \
  commit --quiet -m "Accept the console's state of the $stack stack"
git push --quiet --force origin "$branch"
# The workspace back on the base branch, as the job found it.
git switch --quiet "$base"

if [ -n "$number" ]; then
  gh pr edit "$number" --body-file "$report"
  echo "updated pull request #$number"
else
  gh pr create --base "$base" --head "$branch" --label custody-drift \
    --title "Accept the console's state of the $stack stack" --body-file "$report"
fi
