#!/bin/bash
# Per-exec cost of the capture layers: N fork+execve of /bin/true (by the
# C driver bench/spawn-true.c) bare, under libdeliberate.so with the
# daemon up (monitor mode), under Debian's snoopy (output to /dev/null)
# and under deliberate run --strict.  The variants run interleaved, REPS
# times; the table shows medians in microseconds per exec and the ratios.
#
#	BUILD=build N=2000 REPS=7 bash bench/preload.sh
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
N=${N:-2000}
REPS=${REPS:-7}
SNOOPY=${SNOOPY:-/lib/x86_64-linux-gnu/libsnoopy.so}

T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench.XXXXXX")
trap 'kill $DPID 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
export HOME=$T/home DELIBERATE_HOME=$T/home/.deliberate
export XDG_RUNTIME_DIR=$T/xdg DELIBERATE_SOCKET=$T/xdg/deliberate/sock
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 0700 "$XDG_RUNTIME_DIR"
if ls "$SRC"/redaction-rules/*.rules >/dev/null 2>&1 &&
    ls "$SRC"/risk-rules/*.rules >/dev/null 2>&1; then
	export DELIBERATE_SHARE=$SRC
else
	# A minimal rule set while the real ones are being written.
	mkdir -p "$T/share/redaction-rules" "$T/share/risk-rules"
	printf '[rule t]\ntype = api_key\nlabel = [K]\npattern = (?<secret>xyzzy_[a-z]{20})\nexample = x\nnegative = y\n' \
	    >"$T/share/redaction-rules/t.rules"
	printf '[rule t:rm]\nrisk = dangerous\nscope = line\npattern = \\brm\\s+-rf\n' \
	    >"$T/share/risk-rules/t.rules"
	export DELIBERATE_SHARE=$T/share
fi

cc -O2 -o "$T/spawn-true" "$SRC/bench/spawn-true.c" || exit 1
mkfifo "$T/ready"
"$BUILD/deliberated" --ready-fd 3 3>"$T/ready" >"$T/daemon.log" 2>&1 &
DPID=$!
read -r -t 20 _ <"$T/ready" || { cat "$T/daemon.log"; exit 1; }
printf '[snoopy]\noutput = file:/dev/null\n' >"$T/snoopy.ini"

have_snoopy=0
[ -f "$SNOOPY" ] && have_snoopy=1

run() {
	case $1 in
	bare)	"$T/spawn-true" "$N" ;;
	shim)	LD_PRELOAD=$BUILD/libdeliberate.so "$T/spawn-true" "$N" ;;
	shimdown)
		DELIBERATE_SOCKET=$T/none DELIBERATE_HOME=$T/none \
		    LD_PRELOAD=$BUILD/libdeliberate.so "$T/spawn-true" "$N" ;;
	snoopy)	SNOOPY_INI=$T/snoopy.ini LD_PRELOAD=$SNOOPY \
		    "$T/spawn-true" "$N" ;;
	strict)	"$BUILD/deliberate" run --strict -- "$T/spawn-true" "$N" ;;
	esac
}

variants="bare shim shimdown strict"
[ $have_snoopy = 1 ] && variants="bare shim shimdown snoopy strict"
for v in $variants; do : >"$T/$v"; done
for r in $(seq "$REPS"); do
	for v in $variants; do
		run "$v" >>"$T/$v" || { echo "$v failed" >&2; exit 1; }
	done
done

median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
bare=$(median "$T/bare")
shim=$(median "$T/shim")
strict=$(median "$T/strict")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

echo "| metric | value |"
echo "|---|---|"
echo "| fork+execve /bin/true, N=$N, median of $REPS, bare | ${bare} µs |"
echo "| same, libdeliberate.so (daemon up, monitor) | ${shim} µs |"
echo "| same, libdeliberate.so, daemon down (load + connect only) | $(median "$T/shimdown") µs |"
if [ $have_snoopy = 1 ]; then
	snoopy=$(median "$T/snoopy")
	echo "| same, snoopy ($SNOOPY, output /dev/null) | ${snoopy} µs |"
fi
echo "| same, deliberate run --strict | ${strict} µs |"
echo "| shim / bare (target <= 1.25) | $(ratio "$shim" "$bare") |"
echo "| shim, daemon down / bare | $(ratio "$(median "$T/shimdown")" "$bare") |"
if [ $have_snoopy = 1 ]; then
	echo "| shim overhead / snoopy overhead | $(awk -v s="$shim" -v n="$snoopy" -v b="$bare" 'BEGIN {printf "%.2f (%.0f µs vs %.0f µs)", (s-b)/(n-b), s-b, n-b}') |"
fi
echo "| strict / bare (target <= 1.35) | $(ratio "$strict" "$bare") |"
echo "| entries written by the daemon | $(cat "$DELIBERATE_HOME"/learning-data/current/*.ndjson 2>/dev/null | wc -l) |"
echo "| events dropped (preload-drops) | $(cat "$DELIBERATE_HOME/run/preload-drops" 2>/dev/null | wc -c) |"
"$BUILD/deliberate" status --json 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)
print("| events as datagrams / over the stream (batches) | %s / %s (%s) |" % (
    s.get("dgramReceived"), s.get("streamEvents"), s.get("dgramBatches")))' 2>/dev/null
