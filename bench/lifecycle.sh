#!/bin/bash
# Rotation throughput: deliberate rotate (zlib level 6, streaming, plus the
# aggregates it recomputes) against gzip -6 on the same ~50 MB day file.
# Prints markdown rows "| metric | value |".
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
MB=${LIFECYCLE_MB:-50}
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-life.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME="$T/home" DELIBERATE_HOME="$T/home/.deliberate" TZ=UTC
export DELIBERATE_SOCKET="$T/none.sock" DELIBERATE_SHARE="$SRC"
unset DELIBERATE_NOW
LD="$DELIBERATE_HOME/learning-data"
mkdir -p "$LD/current" "$LD/archive" "$LD/aggregated"
chmod -R 0700 "$DELIBERATE_HOME"

# One big day of valid entries: the schema fixtures, compacted, with new
# ids, repeated to MB megabytes.
python3 - "$SRC/tests/fixtures/entries/valid" "$T/day.ndjson" "$MB" <<'PY'
import json, os, sys, uuid
src, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
seeds = [json.load(open(os.path.join(src, f))) for f in sorted(os.listdir(src))]
for s in seeds:
    s["privacy"]["retention"]["expiresAt"] = "2099-01-01T00:00:00.000Z"
size, i = 0, 0
with open(out, "w") as f:
    while size < mb * 1024 * 1024:
        e = dict(seeds[i % len(seeds)]); i += 1
        e["id"] = str(uuid.uuid4())
        e["timestamp"] = "2026-03-01T%02d:%02d:%02d.000Z" % (i // 3600 % 24, i // 60 % 60, i % 60)
        line = json.dumps(e, separators=(",", ":")) + "\n"
        f.write(line); size += len(line)
PY
bytes=$(stat -c %s "$T/day.ndjson")
lines=$(wc -l <"$T/day.ndjson")

now() { date +%s.%N; }
best() { sort -n | head -n 1; }

# gzip -6, best of 3 (to a file, like rotate; page cache warm for both)
for i in 1 2 3; do
	s=$(now); gzip -6 -c "$T/day.ndjson" >"$T/g.gz"; e=$(now)
	echo "$e - $s" | bc
done | best >"$T/gzip.t"

# deliberate rotate, best of 3 (a fresh copy each time; copy not timed)
for i in 1 2 3; do
	rm -f "$LD"/archive/* "$LD"/aggregated/*
	cp "$T/day.ndjson" "$LD/current/2026-03-01.ndjson"
	s=$(now); DELIBERATE_NOW=2026-03-02T12:00:00Z "$BUILD/deliberate" rotate --quiet; e=$(now)
	echo "$e - $s" | bc
done | best >"$T/rot.t"

g=$(cat "$T/gzip.t"); r=$(cat "$T/rot.t")
zcat "$LD/archive/2026-03-01.ndjson.gz" | cmp -s - "$T/day.ndjson" ||
	{ echo "archive differs from its source" >&2; exit 1; }
printf '| lifecycle: input | %d MB, %d entries |\n' $((bytes / 1048576)) "$lines"
printf '| lifecycle: gzip -6 | %.3f s |\n' "$g"
printf '| lifecycle: deliberate rotate (archive + aggregates) | %.3f s |\n' "$r"
printf '| lifecycle: rotate / gzip -6 | %.2f (target <= 1.1) |\n' "$(echo "$r / $g" | bc -l)"
printf '| lifecycle: archive size vs gzip -6 | %d vs %d bytes |\n' \
	"$(stat -c %s "$LD/archive/2026-03-01.ndjson.gz")" "$(stat -c %s "$T/g.gz")"
