#!/bin/bash
# deliberate rotate: 120 days of history become one gzip archive per
# finished day within retentionDays=90, plus weekly and monthly aggregates.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t06-lib-lifecycle.inc"
have jq || skip_all "jq is missing"

mkdir -p "$DELIBERATE_HOME"
echo "retentionDays = 90" >"$DELIBERATE_HOME/config"
TODAY=2026-06-30

test_expect_success 'a real daemon writes entries on several days' '
	real_day 2026-06-25 &&
	real_day 2026-06-27 &&
	real_day 2026-06-29 &&
	# each start-up rotated the days before it
	test -e "$LD/archive/2026-06-25.ndjson.gz" &&
	test -e "$LD/archive/2026-06-27.ndjson.gz" &&
	test $(all_lines | wc -l) -eq 6
'

test_expect_success '120 days of synthetic history (3 entries a day)' '
	gen_days 2026-03-02 120 3 &&
	gen_days 2026-06-30 1 2 &&
	ls "$LD"/current | wc -l >"$T/n" && test $(cat "$T/n") -eq 121
'

test_expect_success 'rotate --dry-run changes nothing' '
	ls -R "$LD" >"$T/before" &&
	DELIBERATE_NOW=${TODAY}T08:00:00Z deliberate rotate --dry-run >"$T/dry" &&
	grep_f "would archive 2026-06-29" "$T/dry" &&
	ls -R "$LD" >"$T/after" && test_cmp "$T/before" "$T/after"
'

test_expect_success 'rotate archives, aggregates and prunes' '
	all_lines >"$T/lines.before" &&
	DELIBERATE_NOW=${TODAY}T08:00:00Z deliberate rotate >"$T/out" &&
	cat "$T/out" &&
	grep_f "archived 2026-06-29" "$T/out" &&
	grep_f "past retention deleted" "$T/out"
'

test_expect_success 'one valid archive per finished day within retention' '
	# cut = today - 90 = 2026-04-01; finished days 2026-04-01..06-29
	ls "$LD/archive" >"$T/arcs" &&
	test $(wc -l <"$T/arcs") -eq 90 &&
	test "$(head -n 1 "$T/arcs")" = 2026-04-01.ndjson.gz &&
	test "$(tail -n 1 "$T/arcs")" = 2026-06-29.ndjson.gz &&
	for f in "$LD"/archive/*.gz; do gzip -t "$f" || exit 1; done &&
	zcat "$LD/archive/2026-06-29.ndjson.gz" | jq -e .id >/dev/null &&
	test $(zcat "$LD/archive/2026-06-29.ndjson.gz" | wc -l) -eq 5 &&
	validate_entries "$LD"/archive/*.ndjson.gz &&
	test "$(stat -c %a "$LD/archive/2026-06-29.ndjson.gz")" = 600
'

test_expect_success 'today is untouched, finished days are gone from current/' '
	ls "$LD/current" >"$T/cur" &&
	echo 2026-06-30.ndjson >"$T/cur.expect" &&
	test_cmp "$T/cur.expect" "$T/cur" &&
	test $(wc -l <"$LD/current/2026-06-30.ndjson") -eq 2
'

test_expect_success 'nothing within retention was lost' '
	all_lines >"$T/lines.after" &&
	# the lines of the kept days, before and after, are the same
	grep -c . "$T/lines.after" &&
	comm -13 "$T/lines.before" "$T/lines.after" >"$T/new" &&
	test ! -s "$T/new" &&
	test $(wc -l <"$T/lines.after") -eq $((90 * 3 + 6 + 2))
'

test_expect_success 'aggregates: weekly and monthly, 0600, right counts' '
	ls "$LD/aggregated" >"$T/aggs" &&
	grep_f monthly-2026-03.json "$T/aggs" &&
	grep_f monthly-2026-06.json "$T/aggs" &&
	grep_f weekly-2026-26.json "$T/aggs" &&
	grep_f weekly-2026-10.json "$T/aggs" &&
	test "$(stat -c %a "$LD/aggregated/monthly-2026-04.json")" = 600 &&
	jq -e ".entries == 90 and .period == \"monthly\"" \
		"$LD/aggregated/monthly-2026-04.json" &&
	# week 26 = 06-22..06-28: 7*3 + 3 real-day extras (06-25, 06-27: +2 each)
	jq -e ".entries == 25 and .from == \"2026-06-22\" and .to == \"2026-06-28\"" \
		"$LD/aggregated/weekly-2026-26.json" &&
	jq -e ".command.ls >= 1 and .riskLevel != null and .decision != null and
	       .performance.p95TotalTime >= .performance.avgTotalTime * 0 and
	       (.redactedCount | type) == \"number\"" \
		"$LD/aggregated/weekly-2026-26.json" &&
	# March was aggregated before its detail went past retention
	jq -e ".entries == 90" "$LD/aggregated/monthly-2026-03.json"
'

test_expect_success 'metadata.json was rewritten' '
	jq -e ".retention.currentPolicy == \"90days\"" "$LD/metadata.json" &&
	grep_f "\"lastUpdated\": \"2026-06-30" "$LD/metadata.json"
'

test_expect_success 'a second rotation is a no-op (idempotent)' '
	(cd "$LD" && find archive aggregated -type f | sort | xargs md5sum) >"$T/sum1" &&
	DELIBERATE_NOW=${TODAY}T09:00:00Z deliberate rotate >"$T/out2" &&
	grep_f "nothing to rotate" "$T/out2" &&
	(cd "$LD" && find archive aggregated -type f | sort | xargs md5sum) >"$T/sum2" &&
	test_cmp "$T/sum1" "$T/sum2"
'

test_expect_success 'a late write to a finished day is merged into its archive' '
	zcat "$LD/archive/2026-06-29.ndjson.gz" | sed -n 1p |
		jq -c ".id = \"11111111-2222-4333-8444-555555555555\"" \
		>"$LD/current/2026-06-29.ndjson" &&
	DELIBERATE_NOW=${TODAY}T10:00:00Z deliberate rotate >"$T/out3" &&
	grep_f "merged 1 late lines of 2026-06-29" "$T/out3" &&
	test ! -e "$LD/current/2026-06-29.ndjson" &&
	zcat "$LD/archive/2026-06-29.ndjson.gz" | jq -r .id >"$T/ids" &&
	test $(wc -l <"$T/ids") -eq 6 &&
	grep_f 11111111-2222-4333-8444-555555555555 "$T/ids" &&
	test $(sort -u "$T/ids" | wc -l) -eq 6
'

test_expect_success 'expired entries are dropped when a file is rotated' '
	zcat "$LD/archive/2026-06-29.ndjson.gz" | sed -n 1p |
		jq -c ".id = \"99999999-2222-4333-8444-555555555555\" |
		       .privacy.retention.expiresAt = \"2026-06-01T00:00:00.000Z\"" \
		>"$LD/current/2026-06-28.ndjson" &&
	DELIBERATE_NOW=${TODAY}T11:00:00Z deliberate rotate >"$T/out4" &&
	test ! -e "$LD/current/2026-06-28.ndjson" &&
	zcat "$LD/archive/2026-06-28.ndjson.gz" | jq -r .id >"$T/ids28" &&
	nogrep_f 99999999-2222-4333-8444-555555555555 "$T/ids28" &&
	test $(wc -l <"$T/ids28") -eq 3
'

test_expect_success 'aggregates older than 365 days are deleted' '
	echo "{}" >"$LD/aggregated/weekly-2025-20.json" &&
	echo "{}" >"$LD/aggregated/monthly-2025-05.json" &&
	echo "{}" >"$LD/aggregated/monthly-2025-07.json" &&
	DELIBERATE_NOW=${TODAY}T12:00:00Z deliberate rotate >"$T/out5" &&
	test ! -e "$LD/aggregated/weekly-2025-20.json" &&
	test ! -e "$LD/aggregated/monthly-2025-05.json" &&
	test -e "$LD/aggregated/monthly-2025-07.json"
'

test_expect_success 'rotate with bad arguments is a usage error' '
	expect_status 2 deliberate rotate --bogus 2>"$T/err" &&
	expect_status 2 deliberate rotate extra 2>"$T/err2"
'

test_done
