#!/usr/bin/env bash
# Posts the nightly drift report as a GitHub issue, with the `gh` CLI (GH_TOKEN in the environment):
#   bash post-drift-report.sh <exit code of custody drift> <report.md> <stack>
#   - 3 (drift): opens an issue labelled custody-drift, or comments on the open one;
#   - 1 (the check could not run): the same with the label custody-drift-check-failed, so that a failure to
#     check is never read as drift, nor drift as a failure;
#   - 0 (no drift): closes the open issues of both labels, saying so.
# drift.yml runs it after `custody drift`; run-local.sh runs it with a stand-in `gh`.
set -euo pipefail

code="$1"
report="$2"
stack="$3"

open_issue() { # $1 = label; prints the number of its open issue, if any
  gh issue list --state open --label "$1" --json number --jq '.[0].number // empty'
}

post() { # $1 = label, $2 = title
  local number
  number="$(open_issue "$1")"
  if [ -n "$number" ]; then
    gh issue comment "$number" --body-file "$report"
    echo "updated issue #$number ($1)"
  else
    gh label create "$1" --force --description "custody drift check of the stack $stack" >/dev/null
    gh issue create --title "$2" --label "$1" --body-file "$report"
  fi
}

close_issue() { # $1 = label, $2 = comment; closes its open issue, if any
  local number
  number="$(open_issue "$1")"
  if [ -n "$number" ]; then
    gh issue close "$number" --comment "$2"
    echo "closed issue #$number ($1)"
  fi
}

case "$code" in
  3)
    post custody-drift "Custody drift in the $stack stack"
    close_issue custody-drift-check-failed "The drift check runs again; it found drift (see the issue labelled custody-drift)."
    ;;
  1) post custody-drift-check-failed "The custody drift check of the $stack stack could not run" ;;
  0)
    for label in custody-drift custody-drift-check-failed; do
      close_issue "$label" "The nightly check finds no drift any more:"$'\n\n'"$(cat "$report")"
    done
    ;;
  *)
    echo "post-drift-report: unexpected exit code $code of custody drift" >&2
    exit 2
    ;;
esac
