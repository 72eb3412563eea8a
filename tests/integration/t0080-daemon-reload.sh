#!/bin/bash
# The daemon reloads its config and rules on SIGHUP and when a rule file
# changes, without dropping events; a broken rule file keeps the old set.
. "$(dirname "$0")/../lib/test-lib.sh"

mkdir -p "$T/share"
cp -r "$SRC/redaction-rules" "$SRC/risk-rules" "$T/share/"
export DELIBERATE_SHARE="$T/share"
daemon_start

wait_reloads() {
	for i in $(seq 1 60); do
		n=$(deliberate status --json | jq .reloads)
		[ "$n" -ge "$1" ] && return 0
		sleep 0.1
	done
	echo "reloads stayed at $n, wanted $1"; return 1
}

test_expect_success 'a new rule file is picked up without a restart' '
	deliberate log --line "deploy --license ZQXW-12345678-ACME" &&
	tail -n 1 "$(today_file)" | jq -e ".privacy.redactionStats.redactionPatterns
	    | index(\"local-license\") | not" &&
	cat >"$T/share/redaction-rules/90-local.rules" <<-RULES &&
	[rule local-license]
	type = license_key
	pattern = (?<secret>ZQXW-[0-9]{8}-[A-Z]{4})
	label = [REDACTED_LICENSE]
	keywords = zqxw
	level = minimal
	example = deploy --license ZQXW-87654321-ACME
	negative = deploy --license none
	RULES
	wait_reloads 1 &&
	deliberate log --line "deploy --license ZQXW-12345678-ACME" &&
	tail -n 1 "$(today_file)" | grep -F "[REDACTED_LICENSE]" &&
	! tail -n 1 "$(today_file)" | grep -F "ZQXW-12345678" &&
	grep_f "rule files changed: reloaded" "$T/daemon.log"
'

test_expect_success 'SIGHUP reloads the config' '
	deliberate status | grep -F "mode: prompt" &&
	echo "mode = monitor" >"$DELIBERATE_HOME/config" &&
	kill -HUP "$(cat "$T/daemon.pid")" &&
	wait_reloads 2 &&
	deliberate status | grep -F "mode: monitor"
'

test_expect_success 'a broken rule file is refused and the old rules stay' '
	printf "[rule broken]\ntype = x\npattern = (?<secret>[unclosed\n" >"$T/share/redaction-rules/95-broken.rules" &&
	for i in $(seq 1 40); do grep -q "cannot reload the rules" "$T/daemon.log" && break; sleep 0.1; done &&
	grep_f "cannot reload the rules, keeping the old ones" "$T/daemon.log" &&
	deliberate status --json | jq -e ".lastError | test(\"reload failed\")" &&
	deliberate log --line "deploy --license ZQXW-12345678-ACME" &&
	tail -n 1 "$(today_file)" | grep -F "[REDACTED_LICENSE]" &&
	rm "$T/share/redaction-rules/95-broken.rules"
'

test_expect_success 'reloads under load drop no event' '
	before=$(wc -l <"$(today_file)")
	"$PYTHON" - "$DELIBERATE_SOCKET" <<-PY &
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
	f = s.makefile("rw")
	ok = 0
	for i in range(1500):
	    f.write(json.dumps({"v": 1, "type": "event", "line": "true %d" % i}) + "\n"); f.flush()
	    ok += json.loads(f.readline())["ok"]
	sys.exit(0 if ok == 1500 else 1)
	PY
	py=$! &&
	for i in 1 2 3 4 5; do kill -HUP "$(cat "$T/daemon.pid")"; sleep 0.1; done &&
	wait $py &&
	test $(( $(wc -l <"$(today_file)") - before )) -eq 1500 &&
	validate_entries "$(today_file)"
'

test_done
