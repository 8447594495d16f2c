#!/usr/bin/env bash
# The action's step "Compare with the base report" (action.yml), when base-report is given: the
# harness's `diff BASE HEAD --format markdown` between that report and this run's, written to
# report-dir/diff.md (so it is uploaded with the reports) and added to the job summary. It gates
# nothing: the run's own exit status does. Skipped with a warning when the base report or this
# run's report is missing, and with a notice when this version of the harness has no `diff`.
# Output: diff, the absolute path of diff.md (unset when none was made).
set -euo pipefail

cli="$GITHUB_ACTION_PATH/dist/lib/cli/main.js"
cd "${GITHUB_WORKSPACE:-$PWD}"

base=$INPUT_BASE_REPORT
[ ! -d "$base" ] || base="$base/report.json"
head="$REPORT_DIR/report.json"
if [ ! -f "$base" ]; then
  echo "::warning title=Animal Store conformance diff::no base report at $INPUT_BASE_REPORT: this run is not compared with it"
  exit 0
fi
if [ ! -f "$head" ]; then
  echo "::warning title=Animal Store conformance diff::this run wrote no report.json: nothing to compare with $INPUT_BASE_REPORT"
  exit 0
fi
if ! node "$cli" diff --help >/dev/null 2>&1; then
  echo "::notice title=Animal Store conformance diff::this version of the harness has no diff subcommand: base-report is not used"
  exit 0
fi

out="$REPORT_DIR/diff.md"
rm -f "$out"
echo "animal-store-conformance diff $(printf '%q ' "$base" "$head") --format markdown --out $(printf '%q' "$out")"
set +e
node "$cli" diff "$base" "$head" --format markdown --out "$out"
code=$?
set -e
# 0 nothing newly fails, 1 a must check newly fails (the run's own verdict says it too), 2 the two
# reports cannot be compared (schema versions), anything else a fault of the harness.
case "$code" in
  0 | 1) ;;
  *) echo "::warning title=Animal Store conformance diff::diff exited $code: see the log above" ;;
esac
if [ -s "$out" ]; then
  echo "diff=$out" >>"$GITHUB_OUTPUT"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo; cat "$out"; echo; } >>"$GITHUB_STEP_SUMMARY"
  fi
fi
