#!/bin/bash
# deliberate validate-dataset: a valid data dir exits 0; a broken line
# exits 1 and names file:line; ids repeated across two files are found;
# gzip files are read; bad input exits 2.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t0619-dataset.inc"
data=$DELIBERATE_HOME/learning-data

test_expect_success 'a valid data dir (archive .gz and current) exits 0' '
	make_dataset "$data" &&
	deliberate validate-dataset "$data" >"$T/out" &&
	grep_f "8 entries in 3 files, 0 invalid" "$T/out"
'

test_expect_success 'a gz file on its own is validated' '
	deliberate validate-dataset "$data/archive/2026-11-01.ndjson.gz" >"$T/out" &&
	grep_f "3 entries in 1 file, 0 invalid" "$T/out"
'

test_expect_success 'the real daemon writes entries that validate' '
	daemon_start &&
	deliberate log --shell bash --cwd /tmp -- ls -la &&
	deliberate log --line "curl http://x | sh" &&
	daemon_stop &&
	deliberate validate-dataset "$(today_file)" >"$T/out" &&
	grep_f "2 entries in 1 file, 0 invalid" "$T/out" &&
	rm "$(today_file)"
'

test_expect_success 'a broken line exits 1 and names file:line' '
	f=$T/broken.ndjson &&
	zcat "$data/archive/2026-11-01.ndjson.gz" >"$f" &&
	sed -i "2s/\"riskLevel\":\"dangerous\"/\"riskLevel\":\"DANGER\"/" "$f" &&
	echo "{not json" >>"$f" &&
	expect_status 1 deliberate validate-dataset "$f" >"$T/out" &&
	grep_f "$f:2: \$.classification.riskLevel: DANGER is not one of" "$T/out" &&
	grep_f "$f:4: \$: invalid JSON" "$T/out" &&
	grep_f "4 entries in 1 file, 2 invalid" "$T/out"
'

test_expect_success 'an empty line is an error' '
	f=$T/blank.ndjson &&
	{ zcat "$data/archive/2026-11-01.ndjson.gz" | sed -n 1p; echo; } >"$f" &&
	expect_status 1 deliberate validate-dataset "$f" >"$T/out" &&
	grep_f "$f:2: \$: empty line" "$T/out"
'

test_expect_success 'duplicate ids across two files are detected' '
	mkdir -p "$T/dup" &&
	zcat "$data/archive/2026-11-01.ndjson.gz" >"$T/dup/a.ndjson" &&
	sed -n 2p "$T/dup/a.ndjson" | gzip -c >"$T/dup/b.ndjson.gz" &&
	expect_status 1 deliberate validate-dataset "$T/dup/a.ndjson" "$T/dup/b.ndjson.gz" >"$T/out" &&
	grep_f "$T/dup/b.ndjson.gz:1: \$.id: duplicate id 00000002-0000-4000-8000-000000000002, first seen at $T/dup/a.ndjson:2" "$T/out" &&
	expect_status 1 deliberate validate-dataset "$T/dup" >"$T/out2" &&
	grep_f "duplicate id" "$T/out2"
'

test_expect_success 'an unknown top-level key is an error, nested ones are not' '
	zcat "$data/archive/2026-11-01.ndjson.gz" | sed -n 1p |
	    jq -c ".extra = 1 | .command.newKey = 2" >"$T/top.ndjson" &&
	expect_status 1 deliberate validate-dataset "$T/top.ndjson" >"$T/out" &&
	grep_f "$T/top.ndjson:1: \$.extra: unknown top-level field" "$T/out" &&
	test "$(grep -c ": \\$" "$T/out")" -eq 1
'

test_expect_success 'bad input exits 2' '
	expect_status 2 deliberate validate-dataset "$T/missing.ndjson" &&
	echo x >"$T/x.txt" &&
	expect_status 2 deliberate validate-dataset "$T/x.txt" 2>"$T/err" &&
	grep_f "is not a .ndjson" "$T/err" &&
	echo garbage >"$T/bad.ndjson.gz" &&
	! deliberate validate-dataset "$T/bad.ndjson.gz" &&
	expect_status 2 deliberate validate-dataset
'

test_expect_success 'no progress output when stderr is not a tty' '
	deliberate validate-dataset "$data" >/dev/null 2>"$T/err" &&
	test ! -s "$T/err"
'

test_done
