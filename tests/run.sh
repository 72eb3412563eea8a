#!/bin/sh
# Run the unit programs and the integration scripts; print one summary
# line "N passed, N failed, N skipped".  Logs of failures are shown, the
# others are kept only on failure.  Exit status 77 means skipped.
#
#   BUILD=build sh tests/run.sh [pattern]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
export BUILD DELIBERATE_SRC="$top"
pattern=${1:-}
logdir=$(mktemp -d "${TMPDIR:-/tmp}/deliberate-tests.XXXXXX")
pass=0 fail=0 skip=0 failed=

run_one() {
	name=$1; shift
	case $name in *"$pattern"*) ;; *) return ;; esac
	log=$logdir/$(basename "$name").log
	start=$(date +%s)
	# No test may hang the suite.
	timeout -k 10 "${TEST_TIMEOUT:-600}" "$@" >"$log" 2>&1
	rc=$?
	[ $rc -eq 124 ] && echo "timed out after ${TEST_TIMEOUT:-600}s" >>"$log"
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); printf 'ok    %-50s %3ss\n' "$name" "$secs"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); printf 'skip  %-50s %s\n' "$name" "$(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		printf 'FAIL  %-50s (exit %s)\n' "$name" "$rc"
		sed 's/^/    | /' "$log" | tail -n 60
	fi
}

for t in "$BUILD"/tests/test-*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in "$top"/tests/integration/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t")" bash "$t"
done
rm -rf "$logdir"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
