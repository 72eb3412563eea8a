#!/bin/bash
# A rotation killed at every step (DELIBERATE_CRASH_AT) loses nothing,
# leaves no half file under a final name, and the next run completes.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t06-lib-lifecycle.inc"
have jq || skip_all "jq is missing"

STEPS="locked aggregate-tmp aggregated tmp-partial tmp-written tmp-synced
renamed dir-synced source-removed archived pruned done"
export DELIBERATE_NOW=2026-05-10T08:00:00Z

test_expect_success 'seed: one real day, then 5 synthetic days' '
	real_day 2026-05-09 &&
	gen_days 2026-05-04 6 4 &&
	# a day already archived with a late line, to crash a merge too
	cp -a "$LD" "$T/seed" &&
	all_lines >"$T/expect"
'

for step in $STEPS; do
	test_expect_success "crash at $step, then recover" '
		rm -rf "$LD" && cp -a "$T/seed" "$LD" &&
		{ DELIBERATE_CRASH_AT='"$step"' deliberate rotate >/dev/null 2>&1; rc=$?; } &&
		test $rc -eq 99 &&
		for f in "$LD"/archive/*.gz; do
			[ -e "$f" ] || continue; gzip -t "$f" || exit 1
		done &&
		all_lines | sort -u >"$T/got" &&
		comm -23 "$T/expect" "$T/got" >"$T/lost" &&
		test ! -s "$T/lost" &&
		deliberate rotate >"$T/out" &&
		all_lines >"$T/final" && test_cmp "$T/expect" "$T/final" &&
		{ ls "$LD/current" | grep -v "^2026-05-10" >"$T/left" || true; } &&
		test ! -s "$T/left" &&
		! ls -A "$LD/archive" "$LD/aggregated" | grep -q "\.tmp$" &&
		test $(ls "$LD/archive" | wc -l) -eq 6 &&
		test -e "$LD/aggregated/weekly-2026-19.json" &&
		jq -e ".entries == 26" "$LD/aggregated/weekly-2026-19.json"
	'
done

test_expect_success 'crash in the middle of a merge into an existing archive' '
	rm -rf "$LD" && cp -a "$T/seed" "$LD" && deliberate rotate >/dev/null &&
	zcat "$LD/archive/2026-05-08.ndjson.gz" | sed -n 1p |
		jq -c ".id = \"aaaaaaaa-2222-4333-8444-555555555555\"" \
		>"$LD/current/2026-05-08.ndjson" &&
	all_lines >"$T/expect2" &&
	for step in tmp-partial tmp-synced renamed; do
		DELIBERATE_CRASH_AT=$step deliberate rotate >/dev/null 2>&1
		test $? -eq 99 || exit 1
		gzip -t "$LD/archive/2026-05-08.ndjson.gz" || exit 1
		all_lines | sort -u >"$T/got2"
		test ! -s "$(comm -23 "$T/expect2" "$T/got2" >"$T/lost2"; echo "$T/lost2")" || exit 1
	done &&
	deliberate rotate >"$T/out2" &&
	test ! -e "$LD/current/2026-05-08.ndjson" &&
	all_lines >"$T/final2" && test_cmp "$T/expect2" "$T/final2"
'

test_done
