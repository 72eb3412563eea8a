#!/bin/bash
# Redaction engine cost and recall, side by side with secretlint.  Prints
# markdown table rows.
#
#   BUILD=build bash bench/redact.sh [MB]
#
# Corpus: the command lines of tests/fixtures/redact/{secrets.tsv,
# independent.tsv,clean.txt,independent-clean.txt}, one per line, repeated
# to about MB megabytes (default 5).
#  * throughput: `deliberate redact --level minimal` over that file (best of
#    3, process start-up included: it is negligible at this size), with one
#    thread (--jobs 1) and with the default (one job per CPU), and the same
#    at standard (rules plus argument typing, default jobs);
#  * the ratio to secretlint, for both (secretlint runs on one thread);
#  * instructions per command line: callgrind totals for 2000 lines minus
#    the totals for 1000 lines, divided by 1000 (each rule's pattern is
#    JIT-compiled when it first runs: by line 1000 they all have);
#  * recall on the independent corpus (tests/lib/redact-corpus.py);
#  * secretlint (npm, preset-recommend) installed into a temp dir: the same
#    file (best of 3, as ours), and its recall on the independent corpus: a secret
#    substring counts as found when a finding's range overlaps it.  Skipped
#    with a message when npm or the install fails.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
MB=${1:-5}
PY=/usr/bin/python3
FIX=$SRC/tests/fixtures/redact
DLB=$BUILD/deliberate
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-redact.XXXXXX")
trap 'rm -rf "$T"' EXIT
export DELIBERATE_SHARE=${DELIBERATE_SHARE:-$SRC}

if [ ! -x "$DLB" ]; then
	echo "| redact bench | no $DLB (build first) |"
	exit 1
fi

# One command per line, all four corpora.
{
	grep -hv '^#' "$FIX/secrets.tsv" "$FIX/independent.tsv" | grep . | cut -f1
	grep -hv '^#' "$FIX/clean.txt" "$FIX/independent-clean.txt" | grep .
} >"$T/base.txt"
"$PY" - "$T/base.txt" "$T/big.txt" "$MB" <<'PY'
import sys
base = open(sys.argv[1], "rb").read()
n = max(1, int(float(sys.argv[3]) * 1e6 / len(base) + 0.999))
open(sys.argv[2], "wb").write(base * n)
PY
bytes=$(wc -c <"$T/big.txt")
lines=$(wc -l <"$T/big.txt")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')

# best wall time of N runs of "$@" <file, in seconds
best_time() {
	local n=$1 in=$2 i best= t0 t1 d
	shift 2
	for i in $(seq 1 "$n"); do
		t0=$(date +%s.%N)
		"$@" <"$in" >/dev/null 2>&1
		t1=$(date +%s.%N)
		d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
		if [ -z "$best" ] || awk -v d="$d" -v b="$best" 'BEGIN { exit !(d < b) }'; then
			best=$d
		fi
	done
	echo "$best"
}

# One thread (--jobs 1), and the default: one job per CPU this process may
# run on, each with its own redactor (lines are independent).
ncpu=$(nproc 2>/dev/null || echo 1)
t_one=$(best_time 3 "$T/big.txt" "$DLB" redact --level minimal --jobs 1)
mbs_one=$(awk -v b="$bytes" -v t="$t_one" 'BEGIN { printf "%.1f", b / 1e6 / t }')
us_line=$(awk -v l="$lines" -v t="$t_one" 'BEGIN { printf "%.2f", t * 1e6 / l }')
t_ours=$(best_time 3 "$T/big.txt" "$DLB" redact --level minimal)
mbs_ours=$(awk -v b="$bytes" -v t="$t_ours" 'BEGIN { printf "%.1f", b / 1e6 / t }')
echo "| redact corpus (commands, repeated) | $lines lines, $mb MB |"
echo "| deliberate redact --level minimal --jobs 1 throughput | $mbs_one MB/s ($us_line us/line, ${t_one}s) |"
echo "| deliberate redact --level minimal throughput (default: $ncpu jobs) | $mbs_ours MB/s (${t_ours}s) |"
# standard: the rules plus argument typing (what the daemon writes by default)
t_std=$(best_time 3 "$T/big.txt" "$DLB" redact --level standard)
mbs_std=$(awk -v b="$bytes" -v t="$t_std" 'BEGIN { printf "%.1f", b / 1e6 / t }')
us_std=$(awk -v l="$lines" -v t="$t_std" 'BEGIN { printf "%.2f", t * 1e6 / l }')
echo "| deliberate redact --level standard throughput | $mbs_std MB/s ($us_std us/line, ${t_std}s) |"

# callgrind: instructions per command line
if command -v valgrind >/dev/null 2>&1; then
	head -n 2000 "$T/big.txt" >"$T/l2000.txt"
	head -n 1000 "$T/big.txt" >"$T/l1000.txt"
	head -n 1 "$T/big.txt" >"$T/l1.txt"
	ir() {
		valgrind --tool=callgrind --callgrind-out-file="$T/cg.$1" \
			"$DLB" redact --level minimal <"$T/l$1.txt" >/dev/null 2>"$T/cg.$1.log"
		awk '/^(summary|totals):/ { print $2; exit }' "$T/cg.$1"
	}
	i2000=$(ir 2000)
	i1000=$(ir 1000)
	i1=$(ir 1)
	if [ -n "$i2000" ] && [ -n "$i1000" ] && [ -n "$i1" ]; then
		echo "| deliberate redact: instructions per command line (callgrind, 2000 - 1000 lines: the rules are JIT-compiled by then) | $(( (i2000 - i1000) / 1000 )) |"
		echo "| deliberate redact: start-up and first 1000 lines, of which JIT compilation on first use | $i1000 |"
		echo "| deliberate redact: start-up instructions (1 line) | $i1 |"
	else
		echo "| deliberate redact: instructions per command line | callgrind failed |"
	fi
else
	echo "| deliberate redact: instructions per command line | skipped: no valgrind |"
fi

# our recall on the independent corpus
"$PY" "$SRC/tests/lib/redact-corpus.py" --deliberate "$DLB" --level minimal \
	--secrets "$FIX/independent.tsv" --clean "$FIX/independent-clean.txt" >"$T/recall.txt" 2>&1
recall_ours=$(awk '/recall:/ { print $2; exit }' "$T/recall.txt")
gone_ours=$(awk '/gone:/ { sub(",", "", $2); print $2; exit }' "$T/recall.txt")
total_ours=$(awk '/secret substrings:/ { print $NF; exit }' "$T/recall.txt")
fp_ours=$(awk '/changed:/ { print $NF; exit }' "$T/recall.txt")
nclean=$(awk '/clean corpus/ { c = 1 } c && /lines:/ { sub(",", "", $2); print $2; exit }' "$T/recall.txt")
echo "| deliberate recall, independent corpus (minimal) | $recall_ours ($gone_ours/$total_ours secret substrings) |"
echo "| deliberate false positives, independent clean corpus (minimal) | $fp_ours/$nclean lines changed |"

# secretlint
SL=$T/secretlint
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "| secretlint | skipped: npm or node not found |"
	exit 0
fi
mkdir -p "$SL"
if ! (cd "$SL" && timeout 120 npm install --prefix "$SL" --no-audit --no-fund \
	secretlint @secretlint/secretlint-rule-preset-recommend >"$T/npm.log" 2>&1) ||
	[ ! -x "$SL/node_modules/.bin/secretlint" ]; then
	echo "| secretlint | skipped: npm install failed ($(tail -n 1 "$T/npm.log" | tr '|' ' ')) |"
	exit 0
fi
echo '{"rules":[{"id":"@secretlint/secretlint-rule-preset-recommend"}]}' >"$SL/.secretlintrc.json"
slv=$("$SL/node_modules/.bin/secretlint" --version 2>/dev/null)
# secretlint reads files, not stdin: the wrapper ignores stdin
sl_run() { (cd "$SL" && ./node_modules/.bin/secretlint --secretlintrc .secretlintrc.json \
	--format json --no-color "$1"); }
cp "$T/big.txt" "$SL/big.txt"
t_sl=$(best_time 3 /dev/null sl_run big.txt)
mbs_sl=$(awk -v b="$bytes" -v t="$t_sl" 'BEGIN { printf "%.2f", b / 1e6 / t }')
ratio=$(awk -v a="$t_sl" -v b="$t_ours" 'BEGIN { printf "%.1f", a / b }')
ratio_one=$(awk -v a="$t_sl" -v b="$t_one" 'BEGIN { printf "%.1f", a / b }')
echo "| secretlint $slv (preset-recommend) throughput, same file | $mbs_sl MB/s (${t_sl}s) |"
echo "| throughput ratio deliberate / secretlint (target >= 10), default jobs ($ncpu) | ${ratio}x |"
echo "| throughput ratio deliberate --jobs 1 / secretlint | ${ratio_one}x |"

# secretlint recall: findings' ranges over the independent corpus
grep -v '^#' "$FIX/independent.tsv" | grep . >"$SL/ind.tsv"
cut -f1 "$SL/ind.tsv" >"$SL/ind.txt"
sl_run ind.txt >"$SL/ind.json" 2>"$SL/ind.err"
"$PY" - "$SL/ind.tsv" "$SL/ind.json" <<'PY'
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
try:
    res = json.load(open(sys.argv[2]))
except ValueError:
    print("| secretlint recall, independent corpus | no JSON output |")
    sys.exit(0)
ranges = [tuple(m["range"]) for f in res for m in f.get("messages", [])]
# character offsets of each line in the file secretlint read
off, starts = 0, []
for r in rows:
    starts.append(off)
    off += len(r[0]) + 1
total = found = lines_hit = 0
for r, s0 in zip(rows, starts):
    cmd, secs = r[0], r[1:]
    hit_line = any(a < s0 + len(cmd) and b > s0 for a, b in ranges)
    lines_hit += hit_line
    for s in secs:
        total += 1
        i = cmd.find(s)
        a0, b0 = s0 + i, s0 + i + len(s)
        if any(a < b0 and b > a0 for a, b in ranges):
            found += 1
print("| secretlint recall, independent corpus | %.2f%% (%d/%d secret substrings; lines with a finding: %d/%d) |"
      % (100.0 * found / total, found, total, lines_hit, len(rows)))
PY
