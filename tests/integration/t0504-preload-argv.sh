#!/bin/bash
# t0504: degenerate and oversized argv.  NULL argv, argv[0] == NULL, empty
# strings, newlines, quotes, control characters and invalid UTF-8 give
# valid strict-UTF-8 JSON (invalid bytes as \u00XX of the byte value); an
# argv near ARG_MAX is cut to fit PROTO_MAX_MSG and flagged "truncated",
# never dropped; the daemon writes valid entries for all of them.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_setup

test_expect_success 'odd argv: valid JSON on the wire, bytes kept' '
	capture_start record &&
	with_capture "$T/exec-all" odd 2>"$T/err" && test ! -s "$T/err" &&
	wait_capture 3 && capture_lines >"$T/c" && cat "$T/c" &&
	[ "$(wc -l <"$T/c")" = 3 ] &&
	[ "$(grep -c "^	/bin/true	False$" "$T/c")" = 2 ] &&
	grep -q "^true|odd-mark||line1\\\\nline2	\"quoted\" back\\\\slash|" "$T/c" &&
	grep -F -q "bad-utf8-ÿþ-Ã(-â" "$T/c" &&
	grep -F -q -- "-ok-é|" "$T/c" &&
	grep -F -q "emoji-😀" "$T/c" &&
	grep -F -q "\\u00ff\\u00fe" "$T/cap.out" &&
	grep -F -q "ctl-\\u0001\\u001b[31m-" "$T/cap.out" &&
	capture_stop
'

test_expect_success 'odd argv: the daemon records valid entries' '
	under_shim "$T/exec-all" odd && wait_entries 3 &&
	entries | grep -q odd-mark &&
	validate_entries "$(today_file)"
'

test_expect_success 'huge argv (1.5 MB): truncated to fit, flagged' '
	capture_start record &&
	with_capture "$T/exec-all" huge 1500000 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_capture 1 && capture_lines >"$T/c" &&
	cut -f 2- "$T/c" && grep -q "^true|huge-mark|aaa.*	/bin/true	True$" "$T/c" &&
	sz=$(wc -c <"$T/cap.out") && echo "message $sz bytes" &&
	[ "$sz" -le 262144 ] && [ "$sz" -gt 200000 ] &&
	capture_stop
'

test_expect_success 'huge argv reaches the daemon as a truncated entry' '
	before=$(nentries) &&
	under_shim "$T/exec-all" huge 1500000 &&
	wait_entries $((before + 1)) &&
	entries | grep "huge-mark" | grep -q "	True$" &&
	validate_entries "$(today_file)"
'

test_expect_success 'near ARG_MAX: the exec still works (E2BIG unchanged)' '
	r1=0 r2=0
	under_shim "$T/exec-all" huge 2000000 >"$T/o1" 2>&1 || r1=$?
	"$T/exec-all" huge 2000000 >"$T/o2" 2>&1 || r2=$?
	echo "shim $r1 bare $r2"; cat "$T/o1"
	[ $r1 = $r2 ] && test_cmp "$T/o2" "$T/o1"
'

test_done
