#!/bin/bash
# Two rotations at once, and rotations while a writer hammers the daemon:
# no lost or duplicated line.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t06-lib-lifecycle.inc"
have jq || skip_all "jq is missing"

export DELIBERATE_NOW=2026-04-20T09:00:00Z

test_expect_success 'seed 30 finished days' '
	real_day 2026-04-19 &&
	gen_days 2026-03-20 30 20 &&
	all_lines >"$T/expect"
'

test_expect_success 'two concurrent rotations (no daemon) both succeed' '
	deliberate rotate >"$T/a" 2>&1 &
	pa=$!
	deliberate rotate >"$T/b" 2>&1 &
	pb=$!
	wait $pa && wait $pb &&
	cat "$T/a" "$T/b" &&
	all_lines >"$T/got" && test_cmp "$T/expect" "$T/got" &&
	test $(ls "$LD/archive" | wc -l) -eq 31 &&
	test $(ls "$LD/current" | wc -l) -eq 0 &&
	for f in "$LD"/archive/*.gz; do gzip -t "$f" || exit 1; done
'

test_expect_success 'a rotation waits for the lock holder' '
	gen_days 2026-04-01 1 5 && all_lines >"$T/expect2" &&
	flock -x "$LD/.rotate.lock" -c "touch \"$T/held\"; for i in \$(seq 200);
		do [ -e \"$T/release\" ] && exit 0; sleep 0.05; done" &
	holder=$!
	wait_for 5 "test -e \"$T/held\"" &&
	timeout 30 deliberate rotate >"$T/c" 2>"$T/c.err" &
	pc=$!
	wait_for 5 "grep -q waiting \"$T/c.err\"" &&
	kill -0 $pc && touch "$T/release" &&
	wait $holder && wait $pc &&
	grep_f "merged 5 late lines of 2026-04-01" "$T/c" &&
	all_lines >"$T/got2" && test_cmp "$T/expect2" "$T/got2"
'

test_expect_success 'rotation while a writer hammers the daemon' '
	daemon_start
	gen_days 2026-03-01 19 20
	before=$(all_lines | wc -l)
	test $before -gt 700 || exit 1
	( for i in $(seq 1 150); do
		deliberate log -- echo "hammer-$i" >/dev/null && echo $i
	  done >"$T/acked" ) &
	w=$!

	for k in 1 2 3; do timeout 60 deliberate rotate >>"$T/rot" || exit 1; done &&
	wait $w &&
	deliberate rotate >>"$T/rot" &&
	daemon_stop &&
	acked=$(wc -l <"$T/acked") && test $acked -eq 150 &&
	test $(all_lines | wc -l) -eq $((before + acked)) &&
	all_ids | uniq -d >"$T/dups" && test ! -s "$T/dups" &&
	jq -r .command.command "$LD/current/2026-04-20.ndjson" | grep -cx echo >"$T/n" &&
	test $(cat "$T/n") -eq 150 &&
	test $(ls "$LD/archive" | wc -l) -eq 50 &&
	ls "$LD/current" >"$T/cur" && test "$(cat "$T/cur")" = 2026-04-20.ndjson
'

test_done
