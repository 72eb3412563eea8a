#!/bin/sh
# Build the libFuzzer targets in tests/fuzz/ with clang (ASan + UBSan)
# into build-fuzz/, replay every input kept in tests/fuzz/regress/<target>/,
# then fuzz each target for SECONDS (default 60) starting from the seeds
# in tests/fuzz/corpus/<target>/.  Prints one markdown table row per
# target and exits 1 when any target crashed, 77 when clang or its fuzzer
# runtime is missing.
#
#   sh tests/fuzz/run.sh [SECONDS]
#
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_TARGETS ("proto
# shtok", default all), FUZZ_JOBS (targets fuzzed at once, default 1),
# CLANG (default clang).  New interesting inputs collect in
# $FUZZ_BUILD/corpus/<target>/, crashes in $FUZZ_BUILD/crashes/<target>/:
# copy a crash into tests/fuzz/regress/<target>/ once it is fixed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
out=${FUZZ_BUILD:-$top/build-fuzz}
case $out in /*) ;; *) out=$top/$out ;; esac
CLANG=${CLANG:-clang}
jobs=${FUZZ_JOBS:-1}
targets=${FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
	for f in "$top"/tests/fuzz/fuzz-*.c; do
		t=${f##*/fuzz-}; targets="$targets ${t%.c}"
	done
fi

if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "skipped: no $CLANG"; exit 77
fi
mkdir -p "$out/obj" "$out/crashes" "$out/corpus" "$out/logs"
probe=$out/probe.c
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);
int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined -o "$out/probe" "$probe" \
    >/dev/null 2>&1; then
	echo "skipped: $CLANG cannot link -fsanitize=fuzzer (install libclang-rt-dev)"
	exit 77
fi

PKGS="libseccomp zlib json-c libpcre2-8 libsodium"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CFLAGS="-std=c11 -g -O1 -D_GNU_SOURCE -DDELIBERATE_VERSION=\"fuzz\" $SAN \
    -I$top/common $(pkg-config --cflags $PKGS)"
LIBS="$(pkg-config --libs $PKGS) -lm"

# Compile common/*.c (instrumented for coverage, no fuzzer main).
objs=
for src in "$top"/common/*.c; do
	o=$out/obj/$(basename "$src" .c).o
	if [ ! -f "$o" ] || [ "$src" -nt "$o" ] ||
	    [ -n "$(find "$top/common" -name '*.h' -newer "$o" 2>/dev/null)" ]; then
		"$CLANG" $CFLAGS -fsanitize=fuzzer-no-link -c -o "$o" "$src" ||
		    { echo "error: cannot compile $src" >&2; exit 1; }
	fi
	objs="$objs $o"
done
for t in $targets; do
	"$CLANG" $CFLAGS -fsanitize=fuzzer -DFUZZ_SRC_DIR="\"$top\"" \
	    -o "$out/fuzz-$t" "$top/tests/fuzz/fuzz-$t.c" $objs $LIBS ||
	    { echo "error: cannot build fuzz-$t" >&2; exit 1; }
done

opts="-timeout=25 -rss_limit_mb=2560 -print_final_stats=1"
export DELIBERATE_SRC="$top" ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

# Replay the regression inputs: each must run clean.
failed=0
for t in $targets; do
	r=$top/tests/fuzz/regress/$t
	[ -d "$r" ] || continue
	set -- "$r"/*
	[ -e "$1" ] || continue
	if ! "$out/fuzz-$t" $opts "$@" >"$out/logs/$t.regress.log" 2>&1; then
		echo "FAIL: fuzz-$t regression inputs in $r (log: $out/logs/$t.regress.log)"
		tail -n 30 "$out/logs/$t.regress.log"
		failed=1
	fi
done

fuzz_one() {
	t=$1
	mkdir -p "$out/corpus/$t" "$out/crashes/$t"
	"$out/fuzz-$t" $opts -max_total_time="$secs" \
	    -artifact_prefix="$out/crashes/$t/" \
	    "$out/corpus/$t" "$top/tests/fuzz/corpus/$t" \
	    >"$out/logs/$t.log" 2>&1
	echo $? >"$out/logs/$t.rc"
}

for t in $targets; do
	rm -f "$out/logs/$t.rc"
	find "$out/crashes/$t" -type f -delete 2>/dev/null
done
running=0
for t in $targets; do
	fuzz_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait; running=0
	fi
done
wait

echo "| target | seconds | executions | exec/s | corpus | crashes |"
echo "|---|---:|---:|---:|---:|---:|"
for t in $targets; do
	log=$out/logs/$t.log
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	ncorp=$(find "$out/corpus/$t" -type f | wc -l)
	ncrash=$(find "$out/crashes/$t" -type f | wc -l)
	rc=$(cat "$out/logs/$t.rc" 2>/dev/null || echo 1)
	if [ "$rc" -ne 0 ] && [ "$ncrash" -eq 0 ]; then
		ncrash=1	# died without an artifact
	fi
	echo "| fuzz-$t | $secs | ${runs:-?} | ${eps:-?} | $ncorp | $ncrash |"
	if [ "$ncrash" -gt 0 ]; then
		failed=1
		echo "FAIL: fuzz-$t crashed (log: $log, inputs: $out/crashes/$t/)" >&2
		grep -m 5 -E 'ERROR: |runtime error|SUMMARY|^fuzz-' "$log" >&2
		# The input itself, so that a CI log keeps it (the temp dir
		# does not): copy it into tests/fuzz/regress/<target>/.
		for f in "$out/crashes/$t"/*; do
			[ -f "$f" ] && [ "$(wc -c <"$f")" -le 8192 ] || continue
			echo "input ${f##*/} (base64): $(base64 -w0 "$f")" >&2
		done
	fi
done
exit $failed
