#!/bin/bash
# Annotations follow their day file through rotation (archive/
# D.annotations.ndjson.gz), export still merges them from the archive,
# and purging an entry drops its annotations.
. "$(dirname "$0")/../lib/test-lib.sh"

mkdir -p -m 0700 "$DELIBERATE_HOME"
daemon_start || exit 1
DATA=$DELIBERATE_HOME/learning-data
D=$(date -d yesterday +%F)

t_setup() {
	deliberate log --line 'make install' >/dev/null &&
	deliberate log --line 'make clean' >/dev/null || return 1
	ids=$("$PYTHON" -c 'import json,sys; print(" ".join(json.loads(l)["id"] for l in open(sys.argv[1])))' "$(today_file)")
	set -- $ids
	echo "$1" >"$T/id1"; echo "$2" >"$T/id2"
	deliberate correct --entry "$1" --as dangerous >/dev/null &&
	deliberate feedback --entry "$2" --helpful y --accurate y >/dev/null &&
	daemon_stop &&
	mv "$(today_file)" "$DATA/current/$D.ndjson" &&
	mv "$DATA/current/$(date +%F).annotations.ndjson" \
	    "$DATA/current/$D.annotations.ndjson"
}
test_expect_success 'two entries, a correction and a feedback, moved to a past day' t_setup

t_rotate() {
	deliberate rotate >"$T/rot" || { cat "$T/rot"; return 1; }
	test -f "$DATA/archive/$D.annotations.ndjson.gz" &&
	test ! -e "$DATA/current/$D.annotations.ndjson" &&
	test -f "$DATA/archive/$D.ndjson.gz" &&
	test "$(zcat "$DATA/archive/$D.annotations.ndjson.gz" | wc -l)" = 2 &&
	deliberate validate-dataset "$DATA" &&
	deliberate export --format ndjson >"$T/exp" &&
	"$PYTHON" - "$T/exp" "$(cat "$T/id1")" "$(cat "$T/id2")" <<'PY'
import json, sys
es = {e["id"]: e for e in map(json.loads, open(sys.argv[1]))}
assert es[sys.argv[2]]["userDecision"]["correction"] == {"type": "false_negative", "correctClassification": "dangerous"}
assert es[sys.argv[3]]["userDecision"]["feedback"] == {"helpful": True, "accurate": True}
PY
}
test_expect_success 'rotation archives the annotations; export merges them' t_rotate

t_purge() {
	deliberate purge --entry "$(cat "$T/id1")" --yes >/dev/null &&
	test "$(zcat "$DATA/archive/$D.annotations.ndjson.gz" | wc -l)" = 1 &&
	! zcat "$DATA/archive/$D.annotations.ndjson.gz" | grep -F "$(cat "$T/id1")" &&
	zcat "$DATA/archive/$D.annotations.ndjson.gz" | grep -F "$(cat "$T/id2")" &&
	deliberate purge --all --yes >/dev/null &&
	test ! -e "$DATA/archive/$D.annotations.ndjson.gz"
}
test_expect_success 'purging an entry drops its annotations; --all drops all' t_purge

test_done
