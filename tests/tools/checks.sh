# The tally of the script tests, sourced by them (. "$(dirname "$0")/checks.sh"): pass and fail
# record a check; checks_done [NAME] prints the tally and fails when any check failed.
passed=0; failed=0
pass() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
checks_done() {
  echo "${1:+$1: }$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
