#!/bin/bash
# AI analysis (docs/analyzers.md): three analyzers that disagree give
# the documented consensus; safe commands are not analyzed; without
# analyzers there is no aiAnalysis at all; every entry validates; the
# daemon stays sandboxed with its broker.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t085-lib-ai.inc"

# Sanitizer builds default to no sandbox; this test wants it (and
# LeakSanitizer cannot run under it, see t0700).
export DELIBERATE_SANDBOX=seccomp
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

mk_answer a1 '{"decision":"deny","confidence":0.9,"reasoning":"wipes a tree","riskFactors":[{"factor":"recursive delete","severity":"high","description":"rm -rf of a directory"},{"factor":"bad item"}],"alternatives":[{"command":"trash-put /srv/data","explanation":"recoverable","safetyImprovement":80}]}'
mk_answer a2 '{"decision":"deny","confidence":0.7,"reasoning":"irreversible","riskFactors":[{"factor":"recursive delete","severity":"critical","description":"dup"}]}'
mk_answer a3 '{"decision":"allow","confidence":0.8,"reasoning":"looks deliberate"}'

test_expect_success 'without analyzers there is no aiAnalysis and no broker' '
	write_config "mode = prompt" &&
	daemon_start &&
	send_event "rm -rf /srv/data" >"$T/r0" && grep_f "\"ok\":true" "$T/r0" &&
	ai_is a None &&
	nogrep_f "analysis broker" "$T/daemon.log" &&
	nogrep_f aiAnalysis "$(today_file)" &&
	daemon_stop
'

test_expect_success 'three analyzers that disagree: deny, 66.67%, 0.8' '
	write_config "analyzer = $T/a1" "analyzer = $T/a2" \
		"analyzer = $T/a3 --some-flag" "analyzerTimeoutMs = 3000" &&
	daemon_start &&
	grep_f "analysis broker started" "$T/daemon.log" &&
	send_event "rm -rf /srv/data" >"$T/r1" && grep_f "\"ok\":true" "$T/r1" &&
	ai_is "a[\"performed\"]" True &&
	ai_is "a[\"consensus\"][\"decision\"]" deny &&
	ai_is "a[\"consensus\"][\"agreement\"]" 66.67 &&
	ai_is "a[\"consensus\"][\"confidence\"]" 0.8 &&
	ai_is "\",\".join(m[\"modelId\"] for m in a[\"models\"])" a1,a2,a3 &&
	ai_is "\",\".join(m[\"decision\"] for m in a[\"models\"])" deny,deny,allow &&
	ai_is "\"|\".join(m[\"reasoning\"] for m in a[\"models\"])" "wipes a tree|irreversible|looks deliberate" &&
	ai_is "all(m[\"responseTime\"] > 0 for m in a[\"models\"])" True &&
	ai_is "json.dumps(a[\"riskFactors\"])" "[{\"factor\": \"recursive delete\", \"severity\": \"critical\", \"description\": \"rm -rf of a directory\"}]" &&
	ai_is "a[\"alternatives\"][0][\"safetyImprovement\"]" 80 &&
	test "$(ai_get "e[\"performance\"][\"stages\"][\"aiAnalysis\"] > 0")" = True
'

test_expect_success 'analyzers get the redacted command and classification on stdin' '
	"$PYTHON" -c "
import json, sys
i = json.load(open(sys.argv[1]))
assert i[\"command\"][\"command\"] == \"rm\", i
assert i[\"command\"][\"args\"] == [\"-rf\", \"/srv/data\"], i
assert i[\"command\"][\"fullCommand\"] == \"rm -rf /srv/data\", i
assert i[\"classification\"][\"riskLevel\"] in (\"moderate\", \"dangerous\"), i
" "$T/a1.in"
'

test_expect_success 'the check reply carries aiConsensus' '
	send_check "rm -rf /srv/other" >"$T/r2" &&
	grep_f "\"aiConsensus\":{\"decision\":\"deny\",\"confidence\":0.8,\"agreement\":66.67,\"performed\":true}" "$T/r2"
'

test_expect_success 'safe commands are not analyzed' '
	rm -f "$T/a1.in" "$T/a2.in" "$T/a3.in" &&
	send_event "ls -la" >"$T/r3" && grep_f "\"ok\":true" "$T/r3" &&
	send_check "git status" >"$T/r4" &&
	nogrep_f aiConsensus "$T/r4" &&
	ai_is a None &&
	test ! -e "$T/a1.in" && test ! -e "$T/a3.in"
'

test_expect_success 'a tie breaks toward the safer decision' '
	daemon_stop &&
	write_config "analyzer = $T/a1" "analyzer = $T/a3" &&
	daemon_start &&
	send_event "rm -rf /srv/data" >/dev/null &&
	ai_is "a[\"consensus\"][\"decision\"]" deny &&
	ai_is "a[\"consensus\"][\"agreement\"]" 50 &&
	test "$(ai_get "a[\"consensus\"][\"confidence\"]")" = 0.9
'

test_expect_success 'the daemon stays sandboxed; the broker holds no data' '
	pid=$(cat "$T/daemon.pid") &&
	grep_f "sandbox: seccomp" "$T/daemon.log" &&
	bpid=$(sed -n "s/.*analysis broker started (pid \([0-9]*\).*/\1/p" "$T/daemon.log" | tail -n 1) &&
	test -n "$bpid" && kill -0 "$bpid" &&
	test "$(readlink /proc/$bpid/cwd)" = / &&
	! ls -l /proc/$bpid/fd | grep -F "$DELIBERATE_HOME" &&
	test "$(ls /proc/$bpid/fd | wc -l)" -le 4 &&
	kill -0 "$pid"
'

test_expect_success 'bad analyzer keys are reported with their line' '
	daemon_stop &&
	write_config "# ai" "analyzer = relative/prog" "analyzerTimeoutMs = 5" &&
	daemon_start &&
	grep -E "config:2: bad value .relative/prog. for analyzer: want an absolute" "$T/daemon.log" &&
	grep -E "config:3: bad value .5. for analyzerTimeoutMs: want milliseconds" "$T/daemon.log"
'

test_expect_success 'every entry validates' '
	daemon_stop &&
	validate_entries "$(today_file)"
'

test_done
