#!/bin/bash
# The daemon's seccomp sandbox (daemon/sandbox-seccomp.c): a normal
# workload never trips it, harmless probes fail with EACCES, and execve
# or an AF_INET socket kill the daemon with SIGSYS.  The forbidden calls
# are made through the test hooks of daemon/testhooks.c, which answer
# only when DELIBERATE_TEST_HOOKS=1 (see docs/security.md).
. "$(dirname "$0")/../lib/test-lib.sh"

grep -q Seccomp: /proc/self/status 2>/dev/null ||
	skip_all "the kernel has no seccomp"
unset DELIBERATE_TEST_HOOKS
# Sanitizer builds default to no sandbox, and LeakSanitizer ptraces the
# process at exit, which the sandbox forbids: ask for it explicitly.
export DELIBERATE_SANDBOX=seccomp
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

ctl() {	# $1: op; prints the reply
	printf '{"v":1,"type":"control","op":"%s"}\n' "$1" | sock_raw
}

# The everyday work the daemon does, through the CLI and the socket.
workload() {
	deliberate log -- ls -la /tmp &&
	deliberate log --line "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY; curl https://example.com" &&
	deliberate log -- git status &&
	{ deliberate check -- rm -rf /tmp/nothing-here >/dev/null 2>&1 || :; } &&
	deliberate status >"$T/status.out" &&
	printf "not json\n" | sock_raw >"$T/r1" && grep_f "\"ok\":false" "$T/r1" &&
	printf '{"v":1,"type":"event","line":"ls \xff"}\n' | sock_raw >"$T/r2" &&
	printf '{"v":1,"type":"nope"}\n' | sock_raw >"$T/r3" &&
	kill -HUP "$(cat "$T/daemon.pid")" &&
	sleep 0.3 &&
	printf '{"v":1,"type":"status"}\n' | sock_raw >"$T/r4" &&
	grep_f "\"ok\":true" "$T/r4" &&
	{ printf '{"v":1,"type":"control","op":"rotate","dryRun":true}\n' |
		sock_raw >"$T/r5" || :; } &&
	deliberate log -- make -j4
}

test_expect_success 'the daemon runs sandboxed (seccomp, no_new_privs)' '
	daemon_start &&
	pid=$(cat "$T/daemon.pid") &&
	grep -E "^Seccomp:[[:space:]]+2" /proc/$pid/status &&
	grep -E "^NoNewPrivs:[[:space:]]+1" /proc/$pid/status &&
	grep_f "sandbox: seccomp" "$T/daemon.log"
'

test_expect_success 'a normal workload and a SIGHUP reload never trip the filter' '
	workload &&
	deliberate status >"$T/status2.out" &&
	kill -0 "$(cat "$T/daemon.pid")" &&
	n=$(wc -l <"$(today_file)") && test "$n" -ge 4 &&
	grep_f "SIGHUP: reloaded" "$T/daemon.log" &&
	validate_entries "$(today_file)" &&
	nogrep_f "wJalrXUtnFEMI" "$(today_file)"
'

test_expect_success 'SIGTERM still ends the sandboxed daemon cleanly' '
	daemon_stop &&
	grep_f "exiting" "$T/daemon.log"
'

test_expect_success 'the default is seccomp (none in sanitizer builds)' '
	want=seccomp &&
	if grep -q -a __asan_init "$BUILD/deliberated"; then want=none; fi &&
	: >"$T/daemon.log" &&
	(unset DELIBERATE_SANDBOX; daemon_start) &&
	grep_f "sandbox: $want" "$T/daemon.log" &&
	daemon_stop
'

test_expect_success 'trap mode: the same workload logs no trapped call' '
	: >"$T/daemon.log" &&
	DELIBERATE_SANDBOX=trap daemon_start &&
	grep_f "sandbox: trap" "$T/daemon.log" &&
	workload &&
	daemon_stop &&
	nogrep_f "trapped system call" "$T/daemon.log"
'

# Start a daemon in this (sub)shell so that wait gives its status.
start_hooked() {
	daemon_stop
	: >"$T/daemon.log"
	DELIBERATE_TEST_HOOKS=1 daemon_start "$@"
}

# Wait at most 10 s for our child daemon to end; print its exit status.
# A daemon still running is killed and counts as a failure.  Call it in
# the shell that started the daemon, not in $(...): a command
# substitution is a forked subshell, whose wait cannot reap the daemon
# if it ends after the fork (the status then reads 127).
daemon_status() {
	local i
	for i in $(seq 1 100); do
		[ -r /proc/$DAEMON_PID/status ] || break
		grep -q "^State:.*Z" /proc/$DAEMON_PID/status && break
		sleep 0.1
	done
	rm -f "$T/daemon.pid"
	if grep -q "^State:.*[RSD]" /proc/$DAEMON_PID/status 2>/dev/null; then
		kill -9 $DAEMON_PID
		wait $DAEMON_PID
		echo "the daemon survived (is testhooks_request() wired into dispatch()?)" >&2
		echo alive
		return 0
	fi
	wait $DAEMON_PID
	echo $?
}

test_expect_success 'a harmless probe (fchown) fails with EACCES and the daemon goes on' '
	start_hooked &&
	ctl test-probe >"$T/reply" &&
	grep_f "\"errno\":13" "$T/reply" &&
	deliberate status >/dev/null &&
	daemon_stop
'

test_expect_success 'execve kills the daemon with SIGSYS' '
	start_hooked &&
	{ ctl test-execve >"$T/reply" 2>&1 || :; } &&
	daemon_status >"$T/rc" && rc=$(cat "$T/rc") &&
	echo "exit status $rc" &&
	test "$rc" = $((128 + 31)) &&
	nogrep_f "\"ok\"" "$T/reply"
'

test_expect_success 'an AF_INET socket kills the daemon with SIGSYS' '
	start_hooked &&
	{ ctl test-socket-inet >"$T/reply" 2>&1 || :; } &&
	daemon_status >"$T/rc" && rc=$(cat "$T/rc") &&
	echo "exit status $rc" &&
	test "$rc" = $((128 + 31))
'

test_expect_success 'trap mode names the forbidden call and the daemon survives it' '
	DELIBERATE_SANDBOX=trap start_hooked &&
	ctl test-execve >"$T/reply" &&
	grep_f "\"errno\":38" "$T/reply" &&
	grep -E "trapped system call [0-9]+ \(execve\)" "$T/daemon.log" &&
	deliberate status >/dev/null &&
	daemon_stop
'

test_expect_success 'without a sandbox the hook really execs (so the kill above is the filter)' '
	start_hooked --sandbox none &&
	grep_f "sandbox: none" "$T/daemon.log" &&
	{ ctl test-execve >"$T/reply" 2>&1 || :; } &&
	daemon_status >"$T/rc" && rc=$(cat "$T/rc") &&
	test "$rc" = 0
'

test_expect_success 'the hooks are off unless DELIBERATE_TEST_HOOKS=1' '
	daemon_stop &&
	: >"$T/daemon.log" &&
	daemon_start &&
	ctl test-execve >"$T/reply" &&
	grep_f "\"ok\":false" "$T/reply" &&
	kill -0 "$(cat "$T/daemon.pid")" &&
	deliberate status >/dev/null &&
	daemon_stop
'

test_expect_success 'a bad sandbox mode is a usage error' '
	daemon_stop &&
	rc=0 && deliberated --sandbox bogus 2>"$T/err" || rc=$? &&
	test "$rc" -eq 2 &&
	grep_f "bad sandbox mode" "$T/err" &&
	rc=0 && DELIBERATE_SANDBOX=bogus deliberated 2>"$T/err" || rc=$? &&
	test "$rc" -eq 1 &&
	grep_f "bad DELIBERATE_SANDBOX" "$T/err"
'

test_done
