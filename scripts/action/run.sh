#!/usr/bin/env bash
# The action's step "Check the target" (action.yml): runs the harness built in the action's
# checkout from the caller's workspace, so that a target file, an expected-failures file and the
# report folder given as relative paths are the caller's (a target given by name, such as
# `staging`, is one of the harness's own targets/). Inputs come from the step's env (INPUT_*).
#
# The command's exit status does not fail this step: it is written to GITHUB_OUTPUT with the
# verdict and the report folder, the reports are uploaded, and the action's last step exits with
# it. Outputs:
#   verdict     pass | fail, from report.json; error when there was nothing to judge (exit 2 usage
#               or configuration error, 3 target unreachable, any other status, or no report.json)
#   exit-code   the command's exit status (2 as well for an input this script refuses)
#   report-dir  the report folder, absolute
set -euo pipefail

cli="$GITHUB_ACTION_PATH/dist/lib/cli/main.js"
cd "${GITHUB_WORKSPACE:-$PWD}"

report_dir=$(node -e 'process.stdout.write(require("path").resolve(process.argv[1]))' "${INPUT_REPORT_DIR:-conformance-report}")

# Ends the step with these outputs; the last step of the action fails the job unless the code is 0.
finish() {
  local code=$1 verdict=$2
  {
    echo "verdict=$verdict"
    echo "exit-code=$code"
    echo "report-dir=$report_dir"
  } >>"$GITHUB_OUTPUT"
  echo "Verdict: $verdict (exit status $code); reports in $report_dir"
  exit 0
}

# An input the action cannot use: a usage error, as the command would say (exit status 2).
refuse() {
  echo "::error title=Animal Store conformance::$1"
  finish 2 error
}

warn() {
  echo "::warning title=Animal Store conformance::$1"
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# The words of $1 split like a shell's (quotes and backslashes respected, nothing expanded, no
# command run), appended to the array `words`. Returns 1 for unbalanced quotes. (Plain bash 3:
# no mapfile, no namerefs.)
split_words() {
  words=()
  [ -n "${1//[[:space:]]/}" ] || return 0
  printf '%s' "$1" | xargs printf '%s\0' >"$tmp" 2>/dev/null || return 1
  local word
  while IFS= read -r -d '' word; do words+=("$word"); done <"$tmp"
}

split_words "${INPUT_ARGS:-}" || refuse "args: unbalanced quotes in: ${INPUT_ARGS:-}"
extra=(${words[@]+"${words[@]}"})

strict=$(printf '%s' "${INPUT_STRICT:-false}" | tr '[:upper:]' '[:lower:]')
case "$strict" in
  true | false | '') ;;
  *) refuse "strict takes true or false, not \"${INPUT_STRICT:-}\"" ;;
esac

segment=${INPUT_LOAD_SEGMENT:-}
args=()
case "${INPUT_MODE:-run}" in
  run)
    [ -z "${INPUT_MERGE_DIRS:-}" ] || warn "merge-dirs is read in mode: merge only; ignored"
    [ -z "${INPUT_TARGET:-}" ] || args+=(--target "$INPUT_TARGET")
    suites=$(printf '%s' "${INPUT_SUITES:-}" | tr -d '[:space:]')
    [ -z "$suites" ] || args+=(--suite "$suites")
    [ "$strict" != true ] || args+=(--strict)
    [ -z "$segment" ] || args+=(--load-segment "$segment")
    [ -z "${INPUT_START_AT:-}" ] || args+=(--start-at "$INPUT_START_AT")
    ;;
  merge)
    # The segments' own settings (target, suites, --strict, the segment) are in their reports.
    if [ -n "$segment$(printf '%s' "${INPUT_SUITES:-}" | tr -d '[:space:]')" ] || [ "$strict" = true ]; then
      warn "mode: merge judges the segments as they ran: suites, strict and load-segment are ignored"
    fi
    split_words "${INPUT_MERGE_DIRS:-}" || refuse "merge-dirs: unbalanced quotes in: ${INPUT_MERGE_DIRS:-}"
    [ ${#words[@]} -gt 0 ] || refuse "mode: merge needs merge-dirs: the report folders of the load segments"
    args+=(merge)
    for pattern in "${words[@]}"; do
      # A glob is expanded (sorted); one that matches nothing is passed on, for merge to name it.
      found=0
      if [[ $pattern == *[*?[]* ]]; then
        while IFS= read -r dir; do
          args+=("$dir")
          found=1
        done < <(compgen -G "$pattern" | LC_ALL=C sort)
      fi
      [ "$found" = 1 ] || args+=("$pattern")
    done
    segment=
    ;;
  *) refuse "mode takes run or merge, not \"${INPUT_MODE:-}\"" ;;
esac
[ -z "${INPUT_EXPECTED_FAILURES:-}" ] || args+=(--expected-failures "$INPUT_EXPECTED_FAILURES")
args+=(--report-dir "$report_dir" ${extra[@]+"${extra[@]}"})

# A report.json left in the folder from before must not pass for this run's.
rm -f "$report_dir/report.json"

echo "animal-store-conformance $(printf '%q ' "${args[@]}")"
set +e
if [ -n "$segment" ]; then
  # A load segment writes no job summary and no annotations: the merge judges the segments as one
  # run and writes them.
  (unset GITHUB_STEP_SUMMARY && node "$cli" "${args[@]}")
else
  node "$cli" "${args[@]}"
fi
code=$?
set -e

verdict=error
if { [ "$code" = 0 ] || [ "$code" = 1 ]; } && [ -f "$report_dir/report.json" ]; then
  verdict=$(node -e 'const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).verdict; process.stdout.write(v === "pass" || v === "fail" ? v : "error")' "$report_dir/report.json")
fi
case "$code" in
  0 | 1) [ "$verdict" != error ] || echo "::error title=Animal Store conformance::the run wrote no report.json in $report_dir" ;;
  2) echo "::error title=Animal Store conformance::usage or configuration error (exit status 2): the log above names the option, field or variable at fault" ;;
  3) echo "::error title=Animal Store conformance::target unreachable (exit status 3): nothing answered at its baseUrl, or its start command never became ready" ;;
  *) echo "::error title=Animal Store conformance::the harness stopped with exit status $code: see the log above" ;;
esac
finish "$code" "$verdict"
