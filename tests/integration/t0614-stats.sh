#!/bin/bash
# deliberate stats on a known data set: counts by risk level, category,
# command, decision, corrections, bypass techniques, stage timings and
# days, as --json data and as a plain (uncoloured) chart when piped.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t0619-dataset.inc"

have jq || skip_all "jq is missing"

test_expect_success 'a known data set' '
	make_dataset "$DELIBERATE_HOME/learning-data"
'

test_expect_success 'stats --json counts' '
	deliberate stats --json >"$T/s.json" &&
	jq -e ".entries == 8 and .invalid == 0" "$T/s.json" &&
	jq -e ".riskLevels == {safe: 3, moderate: 2, dangerous: 3}" "$T/s.json" &&
	jq -e ".decisions == {execute: 4, cancel: 2, modify: 1, timeout: 1}" "$T/s.json" &&
	jq -e ".corrections.total == 1 and .corrections.byType.false_positive == 1
	    and .corrections.toRiskLevel.moderate == 1" "$T/s.json" &&
	jq -e ".bypass.detected == 1 and .bypass.techniques ==
	    {ld_preload: 1, direct_execution: 1}" "$T/s.json" &&
	jq -e ".categories.fs == 2 and .categories.read == 2 and
	    .categories.uncategorized == 1 and ([.categories[]] | add) == 8" "$T/s.json" &&
	jq -e ".days == {\"2026-11-01\": 3, \"2026-11-02\": 2, \"2026-11-03\": 3}" "$T/s.json" &&
	jq -e "(.topCommands | length) == 8 and ([.topCommands[].count] | add) == 8" "$T/s.json" &&
	jq -e ".first == \"2026-11-01T10:01:00.000Z\" and .last == \"2026-11-03T10:08:00.000Z\"" "$T/s.json"
'

test_expect_success 'stage timings: average exact, p95 within a bucket' '
	zcat "$DELIBERATE_HOME"/learning-data/archive/*.gz |
	    cat - "$DELIBERATE_HOME"/learning-data/current/*.ndjson |
	    jq -s "[.[].performance.stages.classification] | sort" >"$T/cls" &&
	jq -e --slurpfile v "$T/cls" "
	    (\$v[0] | add / length) as \$avg |
	    (\$v[0][(0.95 * (\$v[0] | length) | ceil) - 1]) as \$p95 |
	    .stages.classification.count == 8 and
	    ((.stages.classification.avg - \$avg) | fabs) < 0.001 and
	    ((.stages.classification.p95 - \$p95) | fabs) <= \$p95 * 0.011" "$T/s.json" &&
	jq -e ".stages.userPrompt.count == 4 and .stages.aiAnalysis.count == 1 and
	    .totalTime.count == 8" "$T/s.json"
'

test_expect_success '--since/--until restrict the counts' '
	deliberate stats --json --since 2026-11-02 --until 2026-11-02 >"$T/d.json" &&
	jq -e ".entries == 2 and .days == {\"2026-11-02\": 2}" "$T/d.json" &&
	deliberate stats --json --since 2026-11-03T10:07:00Z >"$T/e.json" &&
	jq -e ".entries == 2" "$T/e.json"
'

test_expect_success 'the text report, piped, is plain and has the day chart' '
	deliberate stats >"$T/s.txt" 2>"$T/err" &&
	test ! -s "$T/err" &&
	grep_f "Entries: 8" "$T/s.txt" &&
	grep -q "^  dangerous  *3 " "$T/s.txt" &&
	{ grep -q "^  2026-11-01 █*  *3$" "$T/s.txt" || grep -q "^  2026-11-01 █* 3$" "$T/s.txt"; } &&
	grep_f "Corrections: 1" "$T/s.txt" &&
	grep_f "Slowest stages" "$T/s.txt" &&
	! grep -q "$(printf "\\033")" "$T/s.txt"
'

test_expect_success 'colour only on a tty, and never with NO_COLOR' '
	if ! have script; then echo "no script(1), skipping"; exit 0; fi
	script -qec "deliberate stats" /dev/null >"$T/tty.txt" &&
	grep -q "$(printf "\\033")\\[" "$T/tty.txt" &&
	NO_COLOR=1 script -qec "deliberate stats" /dev/null >"$T/nc.txt" &&
	! grep -q "$(printf "\\033")\\[" "$T/nc.txt"
'

test_expect_success 'an empty data dir gives zero counts' '
	DELIBERATE_HOME=$T/none deliberate stats --json | jq -e ".entries == 0" &&
	DELIBERATE_HOME=$T/none deliberate stats | grep_f "Entries: 0" /dev/stdin
'

test_done
