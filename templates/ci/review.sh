#!/bin/sh
# revtrail in CI: reviews what a branch or pull request adds on top of its base, prints the
# findings in the log and writes SARIF for code scanning. Ships with revtrail:
# sh node_modules/revtrail/templates/ci/review.sh
#
#   BASE          what to compare with (default origin/main; in GitHub Actions
#                 origin/${{ github.base_ref }}); it must be fetched (fetch-depth: 0)
#   POLICY        whose config, knowledge bundle and doc map the review uses (default: BASE), so a
#                 pull request that edits them cannot weaken its own review (docs/server.md)
#   OUT           the SARIF file (default revtrail.sarif)
#   REVTRAIL_BIN  the CLI (default node_modules/.bin/revtrail, else revtrail on PATH)
#
# Exit codes, as revtrail review's: 0 APPROVE or COMMENT, 1 REQUEST_CHANGES (a blocking
# finding), 2 the review could not run (a usage or input error: no base, a broken config).
# Only committed verdicts count here: a verdict queued on someone's machine is not in the range.
#
# A fork's pull request may run this as it is: revtrail runs no reviewer program that comes
# from the repository's own config unless a person trusted it on that machine (CI never has), so
# a pull request cannot make CI execute code through revtrail. Do not add --reviewer to a job
# that runs for forks with secrets in reach.
set -u
base=${BASE:-refs/remotes/origin/main}
policy=${POLICY:-$base}
out=${OUT:-revtrail.sarif}
cli=${REVTRAIL_BIN:-}
if [ -z "$cli" ]; then
  if [ -x node_modules/.bin/revtrail ]; then cli=node_modules/.bin/revtrail; else cli=revtrail; fi
fi
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "revtrail-ci: $base is not in this clone; fetch it (actions/checkout with fetch-depth: 0) or set BASE" >&2
  exit 2
fi
if ! git rev-parse --verify --quiet "$policy^{commit}" >/dev/null; then
  echo "revtrail-ci: $policy (POLICY) is not in this clone; fetch it or set POLICY" >&2
  exit 2
fi
status=0
# The findings as text in the log, then the same review as SARIF (rules are deterministic; CI runs
# no reviewer program from the repository's config).
"$cli" review --range "$base...HEAD" --policy-from "$policy" || status=$?
if [ "$status" -le 1 ]; then
  sarif_status=0
  "$cli" review --range "$base...HEAD" --policy-from "$policy" --format sarif >"$out" 2>/dev/null || sarif_status=$?
  [ "$sarif_status" -le 1 ] || status=$sarif_status
fi
# Every commit of the range for credentials, as the push gate reviews a push (a key added in one
# commit and removed in the next is still in the history a merge keeps; so are messages and
# paths): the server gate's own review of the update from the fork point to HEAD, with POLICY's
# commit as its policy ref (docs/server.md "CI"). Its findings are in the log as text.
fork=$(git merge-base "$base" HEAD 2>/dev/null || true)
if [ "$status" -le 1 ] && [ -n "$fork" ]; then
  git update-ref refs/revtrail-ci/policy "$(git rev-parse "$policy^{commit}")"
  git config --local revtrail.policyRef refs/revtrail-ci/policy
  gate_status=0
  "$cli" hook update refs/revtrail-ci/head "$fork" "$(git rev-parse HEAD)" || gate_status=$?
  git config --local --unset revtrail.policyRef || true
  git update-ref -d refs/revtrail-ci/policy || true
  if [ "$gate_status" -eq 1 ] && [ "$status" -eq 0 ]; then status=1; fi
  [ "$gate_status" -le 1 ] || status=$gate_status
fi
case $status in
  0) echo "revtrail-ci: no blocking finding; SARIF in $out" >&2 ;;
  1) echo "revtrail-ci: blocking findings (REQUEST_CHANGES); SARIF in $out" >&2 ;;
  *) echo "revtrail-ci: the review did not run (exit $status); see above" >&2 ;;
esac
exit "$status"
