#!/bin/bash
# Malformed and hostile input gets an error reply each, and the daemon
# keeps serving.
. "$(dirname "$0")/../lib/test-lib.sh"

daemon_start

expect_error() {
	# $1: what the error says; stdin: the raw request bytes
	sock_raw >"$T/reply" &&
	grep_f "\"ok\":false" "$T/reply" &&
	grep_f "$1" "$T/reply"
}

test_expect_success 'not JSON' '
	printf "hello daemon\n" | expect_error "bad JSON"
'
test_expect_success 'truncated JSON' '
	printf "{\"v\":1,\"type\":\"event\",\"line\":\"ls\n" | expect_error "bad JSON"
'
test_expect_success 'truncated at EOF without a newline' '
	printf "{\"v\":1,\"type\":\"ev" | sock_raw --half-close --expect 1 >"$T/reply" &&
	grep_f "bad JSON" "$T/reply"
'
test_expect_success 'a 1 MiB message is refused, and the connection goes on' '
	{ head -c 1048576 /dev/zero | tr "\0" a; printf "\n{\"v\":1,\"type\":\"status\"}\n"; } |
		sock_raw --expect 2 >"$T/reply" &&
	head -n 1 "$T/reply" | grep -F "message too large" &&
	tail -n 1 "$T/reply" | grep -F "\"ok\":true"
'
test_expect_success 'invalid UTF-8' '
	printf "{\"v\":1,\"type\":\"event\",\"line\":\"ls \xff\xfe\"}\n" | expect_error "bad JSON"
'
test_expect_success 'NUL bytes' '
	printf "{\"v\":1,\"type\":\"event\",\"line\":\"ls\0x\"}\n" | expect_error "NUL byte"
'
test_expect_success 'unknown type' '
	printf "{\"v\":1,\"type\":\"launch-missiles\"}\n" | expect_error "unknown request type"
'
test_expect_success 'wrong protocol version' '
	printf "{\"v\":99,\"type\":\"status\"}\n" | expect_error "unsupported protocol version 99"
'
test_expect_success 'deeply nested JSON' '
	{ printf "{\"v\":1,\"type\":\"event\",\"x\":"; for i in $(seq 1 5000); do printf "["; done; printf "\n"; } |
		expect_error "bad JSON"
'
test_expect_success 'wrong field types' '
	printf "{\"v\":1,\"type\":\"event\",\"line\":[1]}\n{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"pid\":\"12\"}\n{\"v\":1,\"type\":\"decision\",\"checkId\":\"nope\",\"action\":\"execute\"}\n" |
		sock_raw >"$T/reply" &&
	test "$(grep -c "\"ok\":false" "$T/reply")" -eq 3 &&
	grep_f "must be a string" "$T/reply" &&
	grep_f "must be a number" "$T/reply" &&
	grep_f "unknown or expired checkId" "$T/reply"
'
test_expect_success 'the daemon is still serving, wrote nothing bad, and counted the errors' '
	deliberate status --json >"$T/st" &&
	jq -e ".ok and .badRequests >= 12 and .written == 0" "$T/st" &&
	kill -0 "$DAEMON_PID" &&
	deliberate log -- true &&
	test "$(wc -l <"$(today_file)")" -eq 1 &&
	validate_entries "$(today_file)"
'
test_expect_success 'a secret in a bad request is not echoed into the log' '
	printf "{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"pid\":\"ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}\n" | sock_raw >/dev/null &&
	nogrep_f ghp_aaaa "$T/daemon.log"
'

test_done
