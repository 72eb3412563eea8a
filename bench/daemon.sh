#!/bin/bash
# Daemon benchmarks: check round-trip latency as a ratio to a bare Unix
# socket echo round trip, and acked ingest throughput with 1, 4 and 16
# concurrent clients.  Prints markdown table rows.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
T=$(mktemp -d)
trap 'kill $dpid 2>/dev/null || true; rm -rf "$T"' EXIT
cc -O2 -pthread -o "$T/sockbench" "$top/bench/sockbench.c"
export DELIBERATE_HOME=$T/home DELIBERATE_SOCKET=$T/sock DELIBERATE_SHARE=$top HOME=$T
mkfifo "$T/ready"
"$BUILD/deliberated" --ready-fd 3 3>"$T/ready" 2>"$T/log" &
dpid=$!
read -r _ <"$T/ready"
N=${BENCH_N:-2000}
"$T/sockbench" check "$DELIBERATE_SOCKET" 200 >/dev/null   # warm up
read -r e50 e99 < <("$T/sockbench" echo "$N")
read -r c50 c99 < <("$T/sockbench" check "$DELIBERATE_SOCKET" "$N")
printf '| check round trip, median (us) | %s (echo %s; ratio %.1fx) |\n' "$c50" "$e50" "$(echo "$c50 / $e50" | bc -l)"
printf '| check round trip, p99 (us) | %s (echo %s; ratio %.1fx) |\n' "$c99" "$e99" "$(echo "$c99 / $e99" | bc -l)"
for k in 1 4 16; do
	m=$((8000 / k))
	r=$("$T/sockbench" ingest "$DELIBERATE_SOCKET" "$k" "$m")
	printf '| ingest, %d client(s), acked (entries/s) | %s |\n' "$k" "$r"
done
lines=$(cat "$DELIBERATE_HOME"/learning-data/current/*.ndjson | wc -l)
printf '| entries written during the ingest runs | %s (expected %s) |\n' "$lines" "$((3 * 8000))"
