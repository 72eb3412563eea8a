#!/bin/bash
# One entry per command even when the daemon is slow (docs/protocol.md,
# "Late checks"): a hook that got no verdict in time resends the line with
# `deliberate log --source hook`, and the daemon, which read the check late,
# settles that check instead of writing a second entry.  An event with an
# eventId is written once, over the socket and from the spool alike.
. "$(dirname "$0")/../lib/test-lib.sh"

mkdir -p -m 0700 "$DELIBERATE_HOME"
printf 'anonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
daemon_start || exit 1

now_ms() { "$PYTHON" -c 'import time; print(int(time.time() * 1000))'; }

# count CMD: entries whose fullCommand is CMD.
count() {
	"$PYTHON" - "$(today_file)" "$1" <<'PY'
import json, sys
n = 0
try:
    for l in open(sys.argv[1]):
        n += json.loads(l)["command"]["fullCommand"] == sys.argv[2]
except FileNotFoundError:
    pass
print(n)
PY
}

# field CMD EXPR: a Python expression over the last entry e for CMD.
field() {
	"$PYTHON" - "$(today_file)" "$1" "$2" <<'PY'
import json, sys
e = None
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x["command"]["fullCommand"] == sys.argv[2]:
        e = x
print(eval(sys.argv[3], {"e": e}))
PY
}

# check LINE TS: a hook's recorded check, sent at TS; prints the reply.
check() {
	printf '{"v":1,"type":"check","record":true,"source":"hook","shell":"zsh","cwd":"/tmp","session":"s-late","line":"%s","ts":%s}\n' \
	    "$1" "$2" | sock_raw
}

resend() {
	DELIBERATE_SESSION=s-late deliberate log --source hook --shell zsh \
	    --cwd /tmp --line "$1"
}

t_safe() {
	check 'ls -la /tmp/late-safe' $(($(now_ms) - 500)) >"$T/r1" || return 1
	grep -F '"recorded":true' "$T/r1" || return 1
	id=$(jq -r .id "$T/r1")
	resend 'ls -la /tmp/late-safe' || return 1
	sleep 0.3
	test "$(count 'ls -la /tmp/late-safe')" = 1 &&
	test "$(field 'ls -la /tmp/late-safe' 'e["id"]')" = "$id"
}
test_expect_success 'the resend of a late check that was recorded makes no entry' t_safe

t_pending() {
	check 'rm -rf ~/late-danger' $(($(now_ms) - 500)) >"$T/r2" || return 1
	grep -F '"action":"prompt"' "$T/r2" || return 1
	test "$(count 'rm -rf ~/late-danger')" = 0 || return 1
	resend 'rm -rf ~/late-danger' || return 1
	test "$(count 'rm -rf ~/late-danger')" = 1 || return 1
	test "$(field 'rm -rf ~/late-danger' 'e["userDecision"]["action"]')" = execute &&
	test "$(field 'rm -rf ~/late-danger' 'e["classification"]["riskLevel"]')" = dangerous || return 1
	# The check is settled: its decision now is unknown.
	cid=$(jq -r .checkId "$T/r2")
	expect_status 1 deliberate decision --check-id "$cid" --action cancel \
	    --time 5 2>"$T/err" &&
	grep -F 'unknown or expired checkId' "$T/err"
}
test_expect_success 'the resend of a late check awaiting a decision records it as executed, once' t_pending

t_nomatch() {
	# A check read in time is no note: the hook had its verdict (a ts
	# ahead of the clock, as python and the socket take some time).
	check 'ls /tmp/in-time' $(($(now_ms) + 2000)) >"$T/r3" || return 1
	resend 'ls /tmp/in-time' || return 1
	test "$(count 'ls /tmp/in-time')" = 2 || return 1
	# A resend long after the late check is another command.
	ts=$(($(now_ms) - 60000))
	check 'ls /tmp/long-ago' $ts >"$T/r4" || return 1
	printf '{"v":1,"type":"event","source":"hook","session":"s-late","resend":true,"line":"ls /tmp/long-ago","ts":%s}\n' \
	    $((ts + 40000)) | sock_raw >"$T/r5" || return 1
	grep -F '"ok":true' "$T/r5" &&
	test "$(count 'ls /tmp/long-ago')" = 2 || return 1
	# Another session's resend is its own command too.
	check 'ls /tmp/other-session' $(($(now_ms) - 500)) >"$T/r6" || return 1
	DELIBERATE_SESSION=s-other deliberate log --source hook \
	    --line 'ls /tmp/other-session' &&
	test "$(count 'ls /tmp/other-session')" = 2
}
test_expect_success 'a resend matching no late check is recorded' t_nomatch

t_decided() {
	# The hook had its verdict (the decision came): no resend follows,
	# so a later one of the same line is a command of its own.
	check 'rm -rf ~/late-decided' $(($(now_ms) - 500)) >"$T/r10" || return 1
	cid=$(jq -r .checkId "$T/r10")
	deliberate decision --check-id "$cid" --action cancel --time 5 ||
	    return 1
	resend 'rm -rf ~/late-decided' || return 1
	test "$(count 'rm -rf ~/late-decided')" = 2 || return 1
	# Two late checks of one line: the resend settles the second, so
	# three copies make two entries.
	check 'ls /tmp/late-twice' $(($(now_ms) - 900)) >"$T/r11" || return 1
	check 'ls /tmp/late-twice' $(($(now_ms) - 500)) >"$T/r12" || return 1
	resend 'ls /tmp/late-twice' >"$T/r13" || return 1
	test "$(count 'ls /tmp/late-twice')" = 2
}
test_expect_success 'a decided check, and the older of two, are not settled by a resend' t_decided

t_event_id() {
	msg='{"v":1,"type":"event","source":"cli","line":"echo with-id","eventId":"0b9d5b4e-1f0c-4c3e-9a51-3e2f5c7d8a90"}'
	printf '%s\n%s\n' "$msg" "$msg" | sock_raw >"$T/r7" || return 1
	test "$(grep -c '"id":"0b9d5b4e-1f0c-4c3e-9a51-3e2f5c7d8a90"' "$T/r7")" = 2 &&
	test "$(count 'echo with-id')" = 1 &&
	test "$(field 'echo with-id' 'e["id"]')" = 0b9d5b4e-1f0c-4c3e-9a51-3e2f5c7d8a90 || return 1
	# Not a UUID: an error, and the daemon serves on.
	printf '%s\n' '{"v":1,"type":"event","line":"echo bad-id","eventId":"../../x"}' |
	    sock_raw >"$T/r8"
	grep -F '"ok":false' "$T/r8" && grep -F eventId "$T/r8" &&
	test "$(count 'echo bad-id')" = 0 &&
	deliberate status >/dev/null
}
test_expect_success 'an event with an eventId is written once; a bad one is refused' t_event_id

t_stopped() {
	# The CLI writes to a stopped daemon, gives up after 5 s and spools:
	# the daemon gets the event twice and records it once.
	# The same for a hook's resend of a late check: three copies, one
	# entry.
	check 'ls /tmp/late-stopped' $(($(now_ms) - 500)) >"$T/r9" || return 1
	kill -STOP "$DAEMON_PID"
	test_when_finished 'kill -CONT "$DAEMON_PID"'
	expect_status 3 deliberate log --line 'echo logged-twice' 2>"$T/err"
	DELIBERATE_SESSION=s-late expect_status 3 deliberate log \
	    --source hook --line 'ls /tmp/late-stopped'
	kill -CONT "$DAEMON_PID"
	grep -F 'spooled as' "$T/err" || return 1
	test "$(ls "$DELIBERATE_HOME/spool" | grep -c '\.sealed$')" = 2 ||
	    return 1
	# The spool is read every 5 s: wait until its copy is consumed.
	for i in $(seq 100); do
		test "$(ls "$DELIBERATE_HOME/spool" | grep -c '\.sealed$' || true)" = 0 && break
		sleep 0.1
	done
	test "$(ls "$DELIBERATE_HOME/spool" | grep -c '\.sealed$' || true)" = 0 &&
	test "$(count 'echo logged-twice')" = 1 &&
	test "$(count 'ls /tmp/late-stopped')" = 1
}
test_expect_success 'a log sent to a stopped daemon and spooled is recorded once' t_stopped

t_schema() {
	validate_entries "$(today_file)"
}
test_expect_success 'the entries validate' t_schema

test_done
