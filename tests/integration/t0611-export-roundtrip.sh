#!/bin/bash
# deliberate export: entries written by the real daemon on four days (two
# of them gzipped into archive/ the way rotation leaves them) come back
# byte for byte, oldest first, as NDJSON or a JSON array, filtered by
# --since/--until, and --output writes a 0600 file atomically.
. "$(dirname "$0")/../lib/test-lib.sh"

have jq || skip_all "jq is missing"
data=$DELIBERATE_HOME/learning-data
days="2026-11-10 2026-11-11 2026-11-12 2026-11-13"

# Log $2 commands on day $1 (the daemon's clock starts at noon).
log_day() {
	export DELIBERATE_NOW="$1T12:00:00Z"
	daemon_start
	for i in $(seq 1 "$2"); do
		deliberate log --shell bash --cwd /tmp -- ls "-l$i" || return 1
	done
	deliberate log --line "rm -rf /tmp/x$1" || return 1
	daemon_stop
	unset DELIBERATE_NOW
}

# Every stored line, day by day, the way it is on disk.
stored() {
	local d
	for d in $days; do
		if [ -f "$data/archive/$d.ndjson.gz" ]; then
			zcat "$data/archive/$d.ndjson.gz"
		fi
		if [ -f "$data/current/$d.ndjson" ]; then
			cat "$data/current/$d.ndjson"
		fi
	done
}

test_expect_success 'the daemon logs on four days' '
	log_day 2026-11-10 3 && log_day 2026-11-11 4 &&
	log_day 2026-11-12 2 && log_day 2026-11-13 5 &&
	mkdir -p "$data/archive" &&
	for d in 2026-11-10 2026-11-11; do
		if [ -f "$data/current/$d.ndjson" ]; then
			gzip -c "$data/current/$d.ndjson" >"$data/archive/$d.ndjson.gz" &&
			rm "$data/current/$d.ndjson"
		fi
	done &&
	test -f "$data/archive/2026-11-10.ndjson.gz" &&
	test -f "$data/archive/2026-11-11.ndjson.gz" &&
	test -f "$data/current/2026-11-13.ndjson" &&
	stored >"$T/stored" &&
	test "$(wc -l <"$T/stored")" -eq 18
'

test_expect_success 'export | wc -l equals the number logged' '
	test "$(deliberate export | wc -l)" -eq 18
'

test_expect_success 'exported lines are byte-identical to the stored ones' '
	deliberate export >"$T/out.ndjson" 2>"$T/err" &&
	cmp "$T/stored" "$T/out.ndjson" &&
	test ! -s "$T/err"
'

test_expect_success 'exported entries are in chronological order' '
	jq -r .timestamp "$T/out.ndjson" >"$T/ts" &&
	sort -c "$T/ts" &&
	head -n 1 "$T/ts" | grep -q "^2026-11-10T12:" &&
	tail -n 1 "$T/ts" | grep -q "^2026-11-13T12:"
'

test_expect_success 'the export validates against the schema' '
	validate_entries "$T/out.ndjson"
'

test_expect_success '--format json streams one array with the same count' '
	deliberate export --format json >"$T/out.json" &&
	test "$(jq length "$T/out.json")" -eq 18 &&
	jq -c ".[]" "$T/out.json" >"$T/a" && jq -c . "$T/out.ndjson" >"$T/b" &&
	cmp "$T/a" "$T/b" &&
	head -c 1 "$T/out.json" | grep -q "\[" &&
	! grep -q "^,$" "$T/out.json" &&
	test "$(grep -c "},$" "$T/out.json")" -eq 17
'

test_expect_success '--since/--until filter exactly by day' '
	deliberate export --since 2026-11-11 --until 2026-11-12 >"$T/f" &&
	test "$(wc -l <"$T/f")" -eq 8 &&
	jq -r .timestamp "$T/f" | cut -c1-10 | sort -u >"$T/fd" &&
	printf "2026-11-11\n2026-11-12\n" >"$T/want" && test_cmp "$T/want" "$T/fd" &&
	grep -F -x -f "$T/f" "$T/stored" | wc -l | grep -q "^8$" &&
	deliberate export --since 2026-11-13 | wc -l | grep -q "^6$" &&
	deliberate export --until 2026-11-10 | wc -l | grep -q "^4$" &&
	deliberate export --since 2026-11-14 | wc -l | grep -q "^0$"
'

test_expect_success '--since/--until with times cut inside a day' '
	t=$(grep "^2026-11-11" "$T/ts" | sed -n 1p) &&
	want=$(awk -v t="$t" "\$0 >= t" "$T/ts" | wc -l) &&
	test "$(deliberate export --since "$t" | wc -l)" -eq "$want" &&
	want=$(awk -v t="$t" "\$0 <= t" "$T/ts" | wc -l) &&
	test "$(deliberate export --until "$t" | wc -l)" -eq "$want" &&
	deliberate export --since "$t" --until "$t" >"$T/one" &&
	jq -c --arg t "$t" "select(.timestamp != \$t)" "$T/one" >"$T/other" &&
	test ! -s "$T/other" && test -s "$T/one" &&
	deliberate export --since 2026-11-13T13:00:00+01:00 | wc -l | grep -q "^6$" &&
	deliberate export --until 2026-11-10T11:59:59Z | wc -l | grep -q "^0$"
'

test_expect_success 'bad dates and formats are usage errors (exit 2)' '
	expect_status 2 deliberate export --since yesterday &&
	expect_status 2 deliberate export --format xml &&
	expect_status 2 deliberate export --since 2026-11-13 --until 2026-11-10 &&
	expect_status 2 deliberate export extra
'

test_expect_success '--output writes a 0600 file atomically' '
	umask 022 &&
	deliberate export --output "$T/exp.ndjson" &&
	test "$(stat -c %a "$T/exp.ndjson")" = 600 &&
	cmp "$T/stored" "$T/exp.ndjson" &&
	! ls "$T"/exp.ndjson.tmp.* 2>/dev/null &&
	echo old >"$T/exp2.json" && chmod 644 "$T/exp2.json" &&
	deliberate export --format json --output "$T/exp2.json" &&
	test "$(stat -c %a "$T/exp2.json")" = 600 &&
	test "$(jq length "$T/exp2.json")" -eq 18
'

test_expect_success '--output into a missing directory fails and leaves nothing' '
	! deliberate export --output "$T/nodir/x.ndjson" 2>"$T/err" &&
	grep_f "cannot create" "$T/err" && test ! -e "$T/nodir"
'

test_expect_success 'no progress bar when stderr is not a tty' '
	deliberate export >/dev/null 2>"$T/err" && test ! -s "$T/err"
'

test_expect_success 'late lines in current/ for an archived day are exported once' '
	d=2026-11-11 &&
	zcat "$data/archive/$d.ndjson.gz" >"$data/current/$d.ndjson" &&
	deliberate export >"$T/dup" && cmp "$T/stored" "$T/dup" &&
	zcat "$data/archive/$d.ndjson.gz" | sed -n 1p |
	    sed "s/\"id\":\"[0-9a-f-]*\"/\"id\":\"11111111-1111-4111-8111-111111111111\"/" \
	    >>"$data/current/$d.ndjson" &&
	deliberate export >"$T/late" &&
	test "$(wc -l <"$T/late")" -eq 19 &&
	grep -c 11111111-1111-4111-8111-111111111111 "$T/late" | grep -q "^1$" &&
	rm "$data/current/$d.ndjson"
'

test_expect_success 'an overlong line is reported and skipped, the rest exported' '
	f=$data/current/2026-11-13.ndjson && cp "$f" "$T/save" &&
	head -c 1100000 /dev/zero | tr "\0" x >>"$f" && echo >>"$f" &&
	tail -n 1 "$T/save" >>"$f" &&
	expect_status 1 deliberate export >"$T/long" 2>"$T/err" &&
	grep_f "2026-11-13.ndjson:7: line longer than" "$T/err" &&
	test "$(wc -l <"$T/long")" -eq 19 &&
	cp "$T/save" "$f"
'

test_expect_success 'an empty data directory exports nothing' '
	DELIBERATE_HOME=$T/empty deliberate export >"$T/e" &&
	test ! -s "$T/e" &&
	DELIBERATE_HOME=$T/empty deliberate export --format json | jq -e "length == 0"
'

test_expect_success 'a FIFO or device as --output is written to, never replaced' '
	mkfifo "$T/out.fifo" &&
	{ cat "$T/out.fifo" >"$T/from-fifo" & } &&
	deliberate export -o "$T/out.fifo" &&
	wait &&
	test -p "$T/out.fifo" &&
	deliberate export >"$T/direct.ndjson" &&
	cmp "$T/from-fifo" "$T/direct.ndjson" &&
	! ls "$T"/out.fifo.tmp.* 2>/dev/null
'

test_done
