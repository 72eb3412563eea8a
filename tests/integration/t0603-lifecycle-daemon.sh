#!/bin/bash
# The daemon rotates by itself: at local midnight, and at start-up after
# downtime; deliberate rotate goes through it when it runs.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t06-lib-lifecycle.inc"

# The marker words below must reach the dataset as they are: this test is
# about rotation in the daemon, not the standard level's argument typing (t0320 covers that).
mkdir -p "$DELIBERATE_HOME" && echo "anonymizationLevel = minimal" >>"$DELIBERATE_HOME/config"

have jq || skip_all "jq is missing"

test_expect_success 'midnight: yesterday is archived by the daemon itself' '
	export DELIBERATE_NOW=2026-03-01T23:59:57Z
	daemon_start
	deliberate log -- echo before-midnight >/dev/null &&
	test -e "$LD/current/2026-03-01.ndjson" &&
	wait_for 15 "test -e \"$LD/archive/2026-03-01.ndjson.gz\"" &&
	DELIBERATE_NOW=2026-03-02T00:00:05Z deliberate log -- echo after-midnight >/dev/null &&
	test ! -e "$LD/current/2026-03-01.ndjson" &&
	zcat "$LD/archive/2026-03-01.ndjson.gz" | jq -r .command.fullCommand >"$T/a" &&
	grep_f before-midnight "$T/a" &&
	grep_f after-midnight "$LD/current/2026-03-02.ndjson" &&
	grep_f "midnight rotation: archived 2026-03-01" "$T/daemon.log" &&
	test -e "$LD/aggregated/weekly-2026-09.json" &&
	daemon_stop
'

test_expect_success 'start-up after downtime rotates the finished days' '
	export DELIBERATE_NOW=2026-03-02T15:00:00Z
	daemon_start
	deliberate log -- echo day2 >/dev/null
	daemon_kill9
	export DELIBERATE_NOW=2026-03-05T09:00:00Z
	daemon_start
	# before it was ready it had archived 03-02
	test -e "$LD/archive/2026-03-02.ndjson.gz" &&
	test ! -e "$LD/current/2026-03-02.ndjson" &&
	test $(zcat "$LD/archive/2026-03-02.ndjson.gz" | wc -l) -eq 2 &&
	grep_f "start-up rotation: archived 2026-03-02" "$T/daemon.log"
'

test_expect_success 'deliberate rotate asks the running daemon' '
	export DELIBERATE_NOW=2026-03-05T09:00:00Z
	gen_days 2026-03-03 2 4 &&
	deliberate rotate >"$T/out" &&
	grep_f "archived 2026-03-03" "$T/out" &&
	grep_f "rotation: archived 2026-03-04" "$T/daemon.log" &&
	deliberate log -- echo still-writing >/dev/null &&
	grep_f still-writing "$LD/current/2026-03-05.ndjson" &&
	jq -e ".lastUpdated | startswith(\"2026-03-05\")" "$LD/metadata.json"
'

test_expect_success 'a crash point in the daemon kills it; the restart finishes' '
	export DELIBERATE_NOW=2026-03-05T10:00:00Z
	gen_days 2026-03-04 1 3 &&
	all_lines >"$T/expect" &&
	daemon_stop &&
	# the start-up rotation crashes before the daemon is ready
	crash_start() { ( export DELIBERATE_CRASH_AT=renamed; daemon_start ) 2>/dev/null; } &&
	expect_status 1 crash_start &&
	test -e "$LD/current/2026-03-04.ndjson" &&
	daemon_start &&
	test ! -e "$LD/current/2026-03-04.ndjson" &&
	all_lines >"$T/got" && test_cmp "$T/expect" "$T/got" &&
	grep_f "verified archive/2026-03-04.ndjson.gz" "$T/daemon.log"
'

test_done
