#!/bin/bash
# On ENOSPC the daemon keeps running, says so in status and its log,
# counts what it could not write, never leaves a partial line, and
# resumes when space returns.  Needs root for a small tmpfs.
. "$(dirname "$0")/../lib/test-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to mount a small tmpfs"
mkdir -p "$T/small"
mount -t tmpfs -o size=320k,mode=0755 tmpfs "$T/small" 2>/dev/null ||
	skip_all "cannot mount a tmpfs here"
test_when_finished "umount -l '$T/small'"
export DELIBERATE_HOME="$T/small/home"
daemon_start

test_expect_success 'fill the disk: writes fail with an error reply, the daemon lives' '
	dd if=/dev/zero of="$T/small/filler" bs=1k count=200 2>/dev/null
	"$PYTHON" - "$DELIBERATE_SOCKET" "$T/acked" <<-PY
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
	f = s.makefile("rw")
	acked = errors = 0
	for i in range(5000):
	    f.write(json.dumps({"v": 1, "type": "event", "line": "echo fill-%d" % i}) + "\n"); f.flush()
	    r = json.loads(f.readline())
	    if r["ok"]:
	        acked += 1
	    else:
	        errors += 1
	        assert "No space left" in r["error"], r
	        if errors >= 20:
	            break
	open(sys.argv[2], "w").write("%d\n" % acked)
	print(acked, "acked,", errors, "errors")
	sys.exit(0 if errors >= 20 and acked > 0 else 1)
	PY
	kill -0 "$(cat "$T/daemon.pid")" &&
	deliberate status --json >"$T/st" &&
	jq -e ".diskFull and .writeErrors >= 20 and (.lastError | test(\"No space left\"))" "$T/st" &&
	grep_f "disk full" "$T/daemon.log"
'

test_expect_success 'no partial line: the file holds exactly the acked entries, all valid' '
	test "$(wc -l <"$(today_file)")" -eq "$(cat "$T/acked")" &&
	test "$(tail -c 1 "$(today_file)" | od -An -c | tr -d " ")" = "\n" &&
	validate_entries "$(today_file)"
'

test_expect_success 'a CLI log on a full disk fails with a clear error' '
	{ deliberate log -- echo no-room 2>"$T/err"; test $? -eq 1; } &&
	grep_f "No space left on device" "$T/err"
'

test_expect_success 'when space returns, writing resumes' '
	rm -f "$T/small/filler" &&
	deliberate log -- echo room-again &&
	tail -n 1 "$(today_file)" | jq -e ".command.fullCommand == \"echo [ARG]\"" &&
	deliberate status --json | jq -e "(.diskFull | not)" &&
	grep_f "writing again after a full disk" "$T/daemon.log" &&
	validate_entries "$(today_file)"
'

test_done
