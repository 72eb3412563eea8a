#!/bin/bash
# deliberate purge: --before, --entry, --all (key rotated), confirmation,
# bad arguments, and a purge while a writer hammers the daemon.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t06-lib-lifecycle.inc"

# The marker words below must reach the dataset as they are: this test is
# about purging, not the standard level's argument typing (t0320 covers that).
mkdir -p "$DELIBERATE_HOME" && echo "anonymizationLevel = minimal" >>"$DELIBERATE_HOME/config"

have jq || skip_all "jq is missing"

export DELIBERATE_NOW=2026-05-20T12:00:00Z

test_expect_success 'seed: real days, 15 synthetic days, rotated' '
	real_day 2026-05-18 &&
	gen_days 2026-05-05 15 4 &&
	deliberate rotate >/dev/null &&
	test $(ls "$LD/archive" | wc -l) -eq 15 &&
	all_ids >"$T/ids0" && test $(wc -l <"$T/ids0") -eq 62
'

test_expect_success 'no tty and no --yes: refused with exit 2' '
	expect_status 2 deliberate purge --all </dev/null 2>"$T/err" &&
	grep_f "refusing to purge without confirmation" "$T/err" &&
	all_ids >"$T/ids" && test_cmp "$T/ids0" "$T/ids"
'

test_expect_success 'bad date, bad id, unknown id, no mode: exit 2' '
	expect_status 2 deliberate purge --before 2026-13-45 --yes 2>"$T/e1" &&
	grep_f "bad date" "$T/e1" &&
	expect_status 2 deliberate purge --entry nope --yes 2>"$T/e2" &&
	expect_status 2 deliberate purge --entry 00000000-0000-4000-8000-000000000000 --yes 2>"$T/e3" &&
	grep_f "no entry" "$T/e3" &&
	expect_status 2 deliberate purge --yes 2>"$T/e4" &&
	all_ids >"$T/ids" && test_cmp "$T/ids0" "$T/ids"
'

test_expect_success 'purge --before D removes exactly the older entries (no daemon)' '
	all_lines | jq -r "select(.timestamp >= \"2026-05-10\") | .id" | sort >"$T/keep" &&
	deliberate purge --before 2026-05-10 --yes >"$T/out" &&
	grep_f "removed 20 entries from 5 files" "$T/out" &&
	grep_f "archive/2026-05-05.ndjson.gz: 4" "$T/out" &&
	all_ids >"$T/left" && test_cmp "$T/keep" "$T/left" &&
	test ! -e "$LD/archive/2026-05-09.ndjson.gz" &&
	for f in "$LD"/archive/*.gz; do gzip -t "$f" || exit 1; done &&
	validate_entries "$LD"/archive/*.gz
'

test_expect_success 'purge --entry ID removes one entry, in an archive and in today' '
	id=$(zcat "$LD/archive/2026-05-12.ndjson.gz" | sed -n 2p | jq -r .id) &&
	deliberate purge --entry "$id" --yes >"$T/out" &&
	grep_f "removed 1 entries" "$T/out" &&
	all_ids >"$T/left2" && test $(wc -l <"$T/left2") -eq 41 &&
	nogrep_f "$id" "$T/left2" &&
	gen_days 2026-05-20 1 3 &&
	id2=$(sed -n 2p "$LD/current/2026-05-20.ndjson" | jq -r .id) &&
	daemon_start &&
	deliberate purge --entry "$id2" --yes >"$T/out2" &&
	grep_f "current/2026-05-20.ndjson: 1" "$T/out2" &&
	all_ids >"$T/left3" && nogrep_f "$id2" "$T/left3" &&
	test $(wc -l <"$T/left3") -eq 43 &&
	deliberate log -- echo after-entry-purge >/dev/null &&
	test $(wc -l <"$LD/current/2026-05-20.ndjson") -eq 3
'

test_expect_success 'purge while a writer hammers the daemon' '
	[ -e "$T/daemon.pid" ] || daemon_start
	before=$(all_ids | wc -l)
	# the writer stamps entries with the real clock
	( unset DELIBERATE_NOW
	  for i in $(seq 1 120); do
		deliberate log -- echo "hammer-$i" >/dev/null && echo $i
	  done >"$T/acked" ) &
	w=$!
	wait_for 20 "test \$(wc -l <\"$T/acked\") -ge 40" || exit 1
	k0=$(wc -l <"$T/acked")
	cut=$(date -u +%FT%T.%3NZ)
	deliberate purge --before "$cut" --yes >"$T/out" || exit 1
	wait $w
	removed=$(sed -n "s/^removed \([0-9]*\) entries.*/\1/p" "$T/out") &&
	echo "removed=$removed before=$before acked=$(wc -l <"$T/acked") now=$(all_ids | wc -l)" &&
	test "$removed" -gt 0 &&
	acked=$(wc -l <"$T/acked") && test $acked -eq 120 &&
	test $(all_ids | wc -l) -eq $((before + acked - removed)) &&
	# an entry older than the cut survives only if it reached the daemon
	# after the purge: one in flight when the cut was taken, or one the
	# CLI spooled while the daemon was busy purging
	all_lines | jq -r "select(.timestamp < \"$cut\") | .command.fullCommand" >"$T/older" &&
	! grep -v "hammer-" "$T/older" &&
	sed "s/.*hammer-//" "$T/older" | while read n; do
		test "$n" -ge "$k0" || { echo "hammer-$n acked before the cut survived"; exit 1; }
	done &&
	all_ids | uniq -d >"$T/dups" && test ! -s "$T/dups"
'

test_expect_success 'purge --all removes everything and rotates the user-id key' '
	old=$(all_lines | jq -r .context.user.id | sort -u) &&
	test $(echo "$old" | wc -l) -eq 1 &&
	cp "$DELIBERATE_HOME/key" "$T/key.old" &&
	deliberate purge --all --yes >"$T/out" &&
	grep_f "user-id key rotated" "$T/out" &&
	test $(all_ids | wc -l) -eq 0 &&
	test -z "$(ls -A "$LD/archive" "$LD/aggregated" | grep -v :)" &&
	! cmp -s "$DELIBERATE_HOME/key" "$T/key.old" &&
	jq -e ".statistics.totalEntries == 0" "$LD/metadata.json" &&
	deliberate log -- echo after-purge >/dev/null &&
	new=$(all_lines | jq -r .context.user.id) &&
	test -n "$new" && test "$new" != "$old" &&
	test $(all_ids | wc -l) -eq 1
'

test_done
