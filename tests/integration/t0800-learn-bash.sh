#!/bin/bash
# Issue #8 in a real interactive bash (tmux pty): "f" at the dangerous
# prompt runs the line and records a false_positive correction; after two
# the shape is learned and the third identical line runs unprompted, its
# entry saying why; export merges the corrections, the training export
# labels the line safe; outcomes carry exit statuses 0, 1 and 130.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t04-lib-hooks.inc"

mkdir -p -m 0700 "$DELIBERATE_HOME"
printf 'anonymizationLevel = minimal\nimprovementConsent = true\n' \
    >"$DELIBERATE_HOME/config"
daemon_start || exit 1
mkdir -p "$T/w"
printf "PS1='b1\$ '\nsource '%s/deliberate.bash'\n" "$HOOKS" >"$T/b1.rc"
tstart b1 "cd '$T/w' && bash --rcfile '$T/b1.rc' -i"
twait b1 'b1$ '

ANN=$DELIBERATE_HOME/learning-data/current/$(basename "$(today_file)" .ndjson).annotations.ndjson
CMD='rm -rf ~/victim'

# ann PYEXPR: evaluate over the list a of annotation records.
ann() {
	"$PYTHON" - "$ANN" "$1" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
print(eval(sys.argv[2], {"a": a}))
PY
}
eid() {
	efield "$1" 'e["id"]'
}

t_f_twice() {
	for i in 1 2; do
		mkdir -p "$HOME/victim"
		n0=$(tcount b1 'Run it? [y/N/e')
		f0=$(tcount b1 'remembered as a false alarm')
		tsend b1 "$CMD"
		twait b1 'Run it? [y/N/e' $((n0 + 1)) || return 1
		tscreen b1 | grep -q 'f(alse alarm)' || return 1
		tkeys b1 f
		twait b1 'remembered as a false alarm' $((f0 + 1)) || return 1
		ewait "$CMD" execute "$i" || return 1
		test ! -d "$HOME/victim" || return 1
	done
	tsync b1 &&
	test "$(ann 'sum(1 for r in a if r["kind"] == "correction" and r["type"] == "false_positive" and r["correctClassification"] == "safe")')" = 2 &&
	test -f "$DELIBERATE_HOME/learned.json" &&
	test "$(stat -c %a "$DELIBERATE_HOME/learned.json")" = 600 &&
	test "$(stat -c %a "$ANN")" = 600
}
test_expect_success 'f twice at the prompt records two false_positive corrections' t_f_twice

t_third() {
	mkdir -p "$HOME/victim"
	n0=$(tcount b1 'Run it? [y/N/e')
	tsend b1 "$CMD"
	ewait "$CMD" execute 3 || return 1
	tsync b1 || return 1
	test "$(tcount b1 'Run it? [y/N/e')" = "$n0" || return 1
	test ! -d "$HOME/victim" || return 1
	test "$(efield "$CMD" 'e["classification"]["riskLevel"]')" = safe ||
	    return 1
	efield "$CMD" '[p["patternName"] for p in e["classification"]["patterns"] if p["patternId"].startswith("learned:") and p["matched"]]' >"$T/why"
	grep -F "you marked this safe 2 times" "$T/why"
}
test_expect_success 'the third identical command runs unprompted and says why' t_third

t_check_reply() {
	deliberate check --format json -- "rm -rf ~/other" >"$T/check.json"
	grep -F '"riskLevel":"safe"' "$T/check.json" &&
	grep -F 'you marked this safe 2 times' "$T/check.json" &&
	grep -F '"patternId":"learned:' "$T/check.json"
}
test_expect_success 'the check reply describes the learned override' t_check_reply

t_export() {
	deliberate export --format ndjson >"$T/exp.ndjson"
	"$PYTHON" - "$T/exp.ndjson" "$CMD" <<'PY'
import json, sys
es = [json.loads(l) for l in open(sys.argv[1])]
es = [e for e in es if e["command"]["fullCommand"] == sys.argv[2]]
assert len(es) == 3, len(es)
assert "correction" not in es[2]["userDecision"]
for e in es[:2]:
    c = e["userDecision"]["correction"]
    assert c == {"type": "false_positive", "correctClassification": "safe"}, c
    assert e["classification"]["riskLevel"] == "dangerous"
PY
	deliberate export --format training >"$T/train.jsonl"
	"$PYTHON" - "$T/train.jsonl" <<'PY'
import json, sys
ss = [json.loads(l) for l in open(sys.argv[1])]
ss = [s for s in ss if "rm -rf ~/victim\n" in s["messages"][1]["content"] + "\n"]
assert len(ss) == 3, len(ss)
for s in ss:
    assert s["metadata"]["label"] == "safe", s["metadata"]
    assert s["messages"][2]["content"].split("Risk: ")[1].startswith("safe")
assert [s["metadata"]["label_source"] for s in ss] == ["user_correction"] * 2 + ["classifier"]
PY
}
test_expect_success 'export merges the correction; training labels it safe' t_export

t_outcomes() {
	tsend b1 'true; echo out-ok'
	twait b1 out-ok || return 1
	tsend b1 'false'
	tsend b1 'sleep 5'
	sleep 0.5
	tkeys b1 C-c
	tsync b1 || return 1
	outcomes_wait || return 1
	# Exported entries carry it in userDecision.
	deliberate export --format ndjson >"$T/exp2.ndjson"
	"$PYTHON" - "$T/exp2.ndjson" <<'PY'
import json, sys
es = {e["command"]["fullCommand"]: e for e in map(json.loads, open(sys.argv[1]))}
assert es["sleep 5"]["userDecision"]["exitStatus"] == 130
assert es["false"]["userDecision"]["exitStatus"] == 1
assert es["sleep 5"]["userDecision"]["durationMs"] >= 300
PY
}
test_expect_success 'outcomes carry exit statuses 0, 1 and 130 (Ctrl-C)' t_outcomes

t_schema() {
	deliberate validate-dataset "$ANN" &&
	/usr/bin/python3 "$SRC/tests/lib/validate-schema.py" \
	    "$SRC/schemas/annotation.schema.json" "$ANN" &&
	deliberate export --format ndjson >"$T/exp3.ndjson" &&
	/usr/bin/python3 "$SRC/tests/lib/validate-schema.py" \
	    "$SRC/schemas/dataset-entry.schema.json" "$T/exp3.ndjson"
}
test_expect_success 'annotations and merged entries validate' t_schema

test_done
