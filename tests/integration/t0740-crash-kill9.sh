#!/bin/bash
# Crash safety: kill -9 the daemon at random moments under load, 20 times.
# After each restart every acknowledged entry is present, once; no file
# keeps a torn line; validate-dataset and the JSON Schema accept it all.
. "$(dirname "$0")/../lib/test-lib.sh"

test_expect_success '20 rounds of kill -9 under 4 writers lose nothing acked' '
	DAEMON_LOG="$T/daemon.log" "$PYTHON" "$SRC/tests/lib/crash-rounds.py" \
	    "$BUILD/deliberated" "$DELIBERATE_SOCKET" \
	    "$DELIBERATE_HOME/learning-data" 20 4 | tee "$T/figures" &&
	grep -E " 0 missing, 0 duplicated" "$T/figures"
'

test_expect_success 'every day file ends with a newline and validates' '
	for f in "$DELIBERATE_HOME"/learning-data/current/*.ndjson; do
		test "$(tail -c 1 "$f" | od -An -c | tr -d " ")" = "\n" || exit 1
		tail -n 500 "$f" >"$T/sample.ndjson"
		validate_entries "$T/sample.ndjson" || exit 1
	done &&
	deliberate validate-dataset "$DELIBERATE_HOME"/learning-data/current/
'

test_expect_success 'a torn last line is cut off at start and quarantined' '
	f=$(today_file) &&
	n=$(wc -l <"$f") &&
	printf "{\"id\":\"torn" >>"$f" &&
	daemon_start &&
	test "$(wc -l <"$f")" -eq "$n" &&
	test "$(tail -c 1 "$f" | od -An -c | tr -d " ")" = "\n" &&
	ls "$DELIBERATE_HOME/learning-data/quarantine/" | grep -q "torn" &&
	grep_f "cut a torn last line" "$T/daemon.log" &&
	validate_entries "$f"
'

test_done
