#!/bin/bash
# Socket location rules, a second daemon, a stale socket, readiness
# (--ready-fd, NOTIFY_SOCKET) and `deliberate daemon start|stop`.
. "$(dirname "$0")/../lib/test-lib.sh"

test_expect_success 'a second daemon on the same socket fails cleanly' '
	daemon_start &&
	! deliberated 2>"$T/second.err" &&
	grep_f "another deliberated is already serving" "$T/second.err" &&
	deliberate status >/dev/null
'

test_expect_success 'a stale socket from a killed daemon is replaced' '
	daemon_kill9 &&
	test -S "$DELIBERATE_SOCKET" &&
	! deliberate status >/dev/null 2>&1 &&
	daemon_start &&
	grep_f "replaced a stale socket" "$T/daemon.log" &&
	deliberate status >/dev/null
'

test_expect_success 'SIGTERM stops the daemon and removes the socket' '
	daemon_stop &&
	! test -e "$DELIBERATE_SOCKET" &&
	grep_f "exiting" "$T/daemon.log"
'

test_expect_success 'the socket falls back to XDG_RUNTIME_DIR, then DELIBERATE_HOME/run' '
	(unset DELIBERATE_SOCKET; deliberate status >"$T/a" 2>&1; test $? -eq 3) &&
	grep_f "socket: $XDG_RUNTIME_DIR/deliberate/sock" "$T/a" &&
	(unset DELIBERATE_SOCKET XDG_RUNTIME_DIR; deliberate status >"$T/b" 2>&1; test $? -eq 3) &&
	grep_f "socket: $DELIBERATE_HOME/run/sock" "$T/b"
'

test_expect_success 'daemon start/stop run a background daemon with a pidfile' '
	(unset DELIBERATE_SOCKET XDG_RUNTIME_DIR
	 deliberate daemon start >"$T/start.out" &&
	 grep_f "deliberated started" "$T/start.out" &&
	 test -S "$DELIBERATE_HOME/run/sock" &&
	 test "$(stat -c %a "$DELIBERATE_HOME/run")" = 700 &&
	 pid=$(cat "$DELIBERATE_HOME/run/deliberated.pid") &&
	 kill -0 "$pid" &&
	 deliberate daemon start | grep -F "already running" &&
	 deliberate daemon status | grep -F "daemon: running (pid $pid" &&
	 deliberate daemon stop | grep -F "stopped" &&
	 ! kill -0 "$pid" 2>/dev/null &&
	 deliberate daemon stop | grep -F "not running")
'

test_expect_success 'READY=1 goes to NOTIFY_SOCKET' '
	"$PYTHON" - "$T/notify" <<-PY &
	import socket, sys
	s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
	s.bind(sys.argv[1])
	s.settimeout(20)
	open(sys.argv[1] + ".got", "w").write(s.recv(100).decode())
	PY
	pypid=$! &&
	for i in $(seq 50); do test -S "$T/notify" && break; sleep 0.1; done &&
	NOTIFY_SOCKET="$T/notify" daemon_start &&
	wait $pypid &&
	grep -x "READY=1" "$T/notify.got" &&
	grep -x "deliberated: ready" "$T/daemon.log"
'

test_expect_success 'bad daemon arguments exit 2 with the usage' '
	daemon_stop &&
	{ deliberated --ready-fd nope 2>"$T/err"; test $? -eq 2; } &&
	grep_f "bad --ready-fd" "$T/err" && grep_f "usage: deliberated" "$T/err" &&
	{ deliberated --frobnicate 2>"$T/err"; test $? -eq 2; } &&
	grep_f "usage: deliberated" "$T/err" &&
	deliberated --version | grep -E "^deliberated [0-9]+\.[0-9]+\.[0-9]+$"
'

test_expect_success 'a bad config line is reported by line number, and ignored' '
	printf "retentionDays = 30\nmode = sideways\n" >"$DELIBERATE_HOME/config" &&
	daemon_start &&
	grep_f "config:2: bad value '\''sideways'\'' for mode" "$T/daemon.log" &&
	deliberate log -- true &&
	tail -n 1 "$(today_file)" | jq -e ".privacy.retention.retentionDays == 30" &&
	deliberate status | grep -F "mode: prompt"
'

test_done
