#!/bin/bash
# The daemon is memcheck-clean under a mixed workload: events, checks and
# decisions, malformed input, status, a reload, and shutdown with a
# pending check.  Skipped when valgrind is missing or under ASan.
. "$(dirname "$0")/../lib/test-lib.sh"

have valgrind || skip_all "valgrind is not installed"
[ "${SANITIZE:-}" != 1 ] || skip_all "the ASan build runs its own checks"

# valgrind cannot run under our seccomp filter (it makes its own calls).
export DELIBERATE_SANDBOX=none
# JIT code is opaque to memcheck: use the PCRE2 interpreter.
export DELIBERATE_NO_JIT=1
fifo="$T/ready.fifo"
mkfifo "$fifo"
valgrind --error-exitcode=42 --leak-check=full \
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --log-file="$T/vg.log" "$BUILD/deliberated" --ready-fd 3 3>"$fifo" \
    >>"$T/daemon.log" 2>&1 &
vpid=$!
echo $vpid >"$T/daemon.pid"
read -t 120 _ <"$fifo" || { cat "$T/vg.log"; die "no ready under valgrind"; }

test_expect_success 'a mixed workload under memcheck' '
	deliberate log -- rm -rf /tmp/x &&
	deliberate log --line "export GITHUB_TOKEN=ghp_R4nd0mStr1ngW1thThirtySixCharsXYZ12; curl -u a:b https://x.example.com" &&
	deliberate classify -- ls >/dev/null &&
	printf "%s\n" "{\"v\":1,\"type\":\"check\",\"line\":\"rm -rf ~/proj\",\"record\":true}" \
	    "{\"v\":1,\"type\":\"check\",\"line\":\"ls -la\",\"record\":true}" \
	    "garbage" "{\"v\":1,\"type\":\"nope\"}" "{\"v\":1,\"type\":\"status\"}" |
	    sock_raw --timeout 60 >"$T/replies" &&
	id=$(head -n 1 "$T/replies" | jq -r .checkId) &&
	printf "{\"v\":1,\"type\":\"decision\",\"checkId\":\"%s\",\"action\":\"cancel\",\"decisionTime\":12}\n" "$id" |
	    sock_raw --timeout 60 | grep -F "\"ok\":true" &&
	printf "{\"v\":1,\"type\":\"check\",\"line\":\"rm -rf ~/other\",\"record\":true}\n" |
	    sock_raw --timeout 60 | grep -F checkId &&
	kill -HUP $vpid && sleep 3 &&
	deliberate status --json --help >/dev/null &&
	deliberate status >/dev/null
'

test_expect_success 'shutdown: no memcheck error, no leak' '
	kill -TERM $vpid &&
	for i in $(seq 300); do kill -0 $vpid 2>/dev/null || break; sleep 0.1; done &&
	! kill -0 $vpid 2>/dev/null &&
	grep -E "ERROR SUMMARY|definitely lost|in use at exit" "$T/vg.log" &&
	grep -q "ERROR SUMMARY: 0 errors from 0 contexts" "$T/vg.log" &&
	grep_f "exiting" "$T/daemon.log" &&
	test "$(wc -l <"$(today_file)")" -eq 5 &&
	validate_entries "$(today_file)"
'

test_done
