#!/bin/bash
# deliberate export cost.  Prints markdown table rows `| metric | value |`.
#
#   BUILD=build bash bench/export.sh [SMALL_MB] [LARGE_MB]
#
# Data: the valid fixtures (tests/fixtures/entries/valid), with fresh ids,
# repeated to about SMALL_MB (default 10) and LARGE_MB (default 200)
# megabytes of NDJSON, one gzipped archive/YYYY-MM-DD.ndjson.gz per ~5 MB
# plus one plain current/ file, as rotation leaves them.
#  * time of `deliberate export >/dev/null` against `zcat archive/*.gz
#    current/* >/dev/null` over the same large data set (best of 3 each),
#    and their ratio (target <= 1.3);
#  * peak RSS (GNU time -v) of export over the small and the large set,
#    which must be about the same: the reader streams.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
SMALL=${1:-10}
LARGE=${2:-200}
PY=/usr/bin/python3
DLB=$BUILD/deliberate
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-export.XXXXXX")
trap 'rm -rf "$T"' EXIT

[ -x /usr/bin/time ] || { echo "bench/export.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }

# make_data DIR MB
make_data() {
	mkdir -p "$1/learning-data/archive" "$1/learning-data/current"
	"$PY" - "$SRC/tests/fixtures/entries/valid" "$1/learning-data" "$2" <<'PY'
import glob, json, os, sys, uuid, datetime
fx, data, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
docs = [json.load(open(p)) for p in sorted(glob.glob(fx + "/*.json"))]
per_file = 5 * 1024 * 1024
total = mb * 1024 * 1024
day = datetime.date(2026, 1, 1)
written, n = 0, 0
files = []
while written < total:
    lines = []
    size = 0
    while size < per_file and written + size < total:
        e = dict(docs[n % len(docs)])
        e["id"] = str(uuid.uuid4())
        e["timestamp"] = "%sT%02d:%02d:%02d.000Z" % (day, (n // 3600) % 24, (n // 60) % 60, n % 60)
        line = json.dumps(e, separators=(",", ":"))
        lines.append(line)
        size += len(line) + 1
        n += 1
    files.append((str(day), "\n".join(lines) + "\n"))
    written += size
    day += datetime.timedelta(days=1)
for i, (d, text) in enumerate(files):
    where = "current" if i == len(files) - 1 else "archive"
    with open(os.path.join(data, where, d + ".ndjson"), "w") as f:
        f.write(text)
PY
	for f in "$1"/learning-data/archive/*.ndjson; do
		gzip -6 "$f"
	done
}

best_of_3() {
	local best= t i
	for i in 1 2 3; do
		/usr/bin/time -f %e -o "$T/time" "$@" >/dev/null 2>&1
		t=$(tail -n 1 "$T/time")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
	done
	echo "$best"
}

peak_rss_kb() {
	DELIBERATE_HOME=$1 /usr/bin/time -v "$DLB" export 2>&1 >/dev/null |
	    awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }'
}

make_data "$T/small" "$SMALL"
make_data "$T/large" "$LARGE"
lines=$(DELIBERATE_HOME=$T/large "$DLB" export | wc -l)
gz=$(du -sk "$T/large/learning-data" | cut -f1)

cd "$T/large/learning-data"
t_zcat=$(best_of_3 sh -c 'zcat archive/*.gz; cat current/*')
t_exp=$(DELIBERATE_HOME=$T/large best_of_3 "$DLB" export)
t_json=$(DELIBERATE_HOME=$T/large best_of_3 "$DLB" export --format json)
cd "$SRC"
ratio=$(awk -v a="$t_exp" -v b="$t_zcat" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
rss_s=$(peak_rss_kb "$T/small")
rss_l=$(peak_rss_kb "$T/large")

echo "| metric | value |"
echo "| --- | --- |"
echo "| export data set | $LARGE MB NDJSON, $lines entries, $((gz / 1024)) MB on disk (gzip -6) |"
echo "| zcat (archive + current) | ${t_zcat} s |"
echo "| deliberate export (ndjson) | ${t_exp} s |"
echo "| deliberate export --format json | ${t_json} s |"
echo "| export / zcat time ratio (target <= 1.3) | $ratio |"
echo "| peak RSS, export of $SMALL MB | $rss_s KiB |"
echo "| peak RSS, export of $LARGE MB | $rss_l KiB |"
