#!/bin/bash
# Issue #8 in a real interactive zsh (tmux pty), as t0800 does for bash:
# "f" at the dangerous prompt runs the line and records a false_positive
# correction; after two the shape is learned and the third identical line
# runs unprompted, its entry saying why; outcomes carry exit statuses 0, 1
# and 130 (Ctrl-C); DELIBERATE_SESSION is exported; $? and $pipestatus
# survive for the precmd functions after ours.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t04-lib-hooks.inc"
have zsh || skip_all 'zsh is not installed'

# The hooks are matched by fullCommand, so keep home paths as typed.
mkdir -p -m 0700 "$DELIBERATE_HOME"
printf 'anonymizationLevel = minimal\nimprovementConsent = true\n' \
    >"$DELIBERATE_HOME/config"
daemon_start || exit 1
mkdir -p "$T/w" "$T/z-z1"
# A precmd function after ours sees the user's $? and $pipestatus.
printf "%s\n" "PS1='z1%% '" "source '$HOOKS/deliberate.zsh'" \
    'after_precmd() { __after="st=$? ps=$pipestatus"; }' \
    'precmd_functions+=(after_precmd)' >"$T/z-z1/.zshrc"
tstart z1 "cd '$T/w' && env ZDOTDIR='$T/z-z1' zsh -i"
twait z1 'z1% ' || exit 1

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

t_session() {
	tsend z1 'echo exported=$(env | grep -c "^DELIBERATE_SESSION=zsh-$$-")'
	twait z1 'exported=1'
}
test_expect_success 'DELIBERATE_SESSION is exported' t_session

t_f_twice() {
	for i in 1 2; do
		mkdir -p "$HOME/victim"
		n0=$(tcount z1 'Run it? [y/N/e')
		f0=$(tcount z1 'remembered as a false alarm')
		tsend z1 "$CMD"
		twait z1 'Run it? [y/N/e' $((n0 + 1)) || return 1
		tscreen z1 | grep -q 'f(alse alarm)' || return 1
		sleep 0.3
		tkeys z1 f
		twait z1 'remembered as a false alarm' $((f0 + 1)) || return 1
		ewait "$CMD" execute "$i" || return 1
		for j in $(seq 50); do
			test -d "$HOME/victim" || break
			sleep 0.1
		done
		test ! -d "$HOME/victim" || return 1
	done
	tsync z1 &&
	test "$(ann 'sum(1 for r in a if r["kind"] == "correction" and r["type"] == "false_positive" and r["correctClassification"] == "safe")')" = 2 &&
	test "$(ann 'len(set(r["entryId"] for r in a if r["kind"] == "correction"))')" = 2 &&
	test -f "$DELIBERATE_HOME/learned.json" &&
	test "$(stat -c %a "$DELIBERATE_HOME/learned.json")" = 600 &&
	test "$(stat -c %a "$ANN")" = 600
}
test_expect_success 'f twice at the prompt records two false_positive corrections' t_f_twice

t_third() {
	mkdir -p "$HOME/victim"
	n0=$(tcount z1 'Run it? [y/N/e')
	tsend z1 "$CMD"
	ewait "$CMD" execute 3 || return 1
	tsync z1 || return 1
	test "$(tcount z1 'Run it? [y/N/e')" = "$n0" || return 1
	test ! -d "$HOME/victim" || return 1
	test "$(efield "$CMD" 'e["classification"]["riskLevel"]')" = safe ||
	    return 1
	efield "$CMD" '[p["patternId"] + " " + p["patternName"] for p in e["classification"]["patterns"] if p["patternId"].startswith("learned:") and p["matched"]]' >"$T/why"
	grep -F "learned:" "$T/why" &&
	grep -F "you marked this safe 2 times" "$T/why"
}
test_expect_success 'the third identical command runs unprompted and says why' t_third

t_outcomes() {
	tsend z1 'true; echo out-ok'
	twait z1 out-ok || return 1
	tsend z1 'false'
	tsend z1 'sleep 5'
	sleep 0.5
	tkeys z1 C-c
	tsync z1 || return 1
	outcomes_wait || return 1
	# The prompted and the learned lines have theirs too.
	test "$(ann "sum(1 for r in a if r['kind'] == 'outcome' and r['exitStatus'] == 0)")" -ge 5 || return 1
	deliberate export --format ndjson >"$T/exp.ndjson"
	"$PYTHON" - "$T/exp.ndjson" <<'PY'
import json, sys
es = {e["command"]["fullCommand"]: e for e in map(json.loads, open(sys.argv[1]))}
assert es["sleep 5"]["userDecision"]["exitStatus"] == 130
assert es["false"]["userDecision"]["exitStatus"] == 1
assert es["sleep 5"]["userDecision"]["durationMs"] >= 300
PY
}
test_expect_success 'outcomes carry exit statuses 0, 1 and 130 (Ctrl-C)' t_outcomes

t_private() {
	n0=$(ann "len(a)")
	tsend z1 ' echo zspace-private'
	twait z1 'zspace-private' 2 || return 1
	tsync z1 || return 1
	for i in $(seq 50); do
		test "$(ann "len(a)")" -gt "$n0" && break
		sleep 0.1
	done
	sleep 0.3
	# Only the sync line's outcome was added.
	test "$(ann "len(a)")" = "$((n0 + 1))"
}
test_expect_success 'a leading-space line sends no outcome' t_private

t_status() {
	tsend z1 '(exit 3) | (exit 4)'
	tsend z1 'echo got=$__after ps=$pipestatus'
	twait z1 'got=st=4 ps=3 4 ps=3 4'
}
test_expect_success '$? and pipestatus survive for later precmd functions' t_status

t_schema() {
	deliberate validate-dataset "$ANN" &&
	/usr/bin/python3 "$SRC/tests/lib/validate-schema.py" \
	    "$SRC/schemas/annotation.schema.json" "$ANN" &&
	validate_entries "$(today_file)" &&
	deliberate export --format ndjson >"$T/exp3.ndjson" &&
	/usr/bin/python3 "$SRC/tests/lib/validate-schema.py" \
	    "$SRC/schemas/dataset-entry.schema.json" "$T/exp3.ndjson"
}
test_expect_success 'annotations and every entry validate' t_schema

test_done
