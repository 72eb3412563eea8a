# Helpers for the preload and strict-mode tests (t05*.sh).  Source after
# tests/lib/test-lib.sh:
#
#	. "$SRC/tests/preload/lib.sh"
#	preload_setup		# builds $T/exec-all, writes the config,
#				# starts the daemon
#
# SHIM is the absolute path of the shim; entries() prints today's entries
# as "captureLayer<TAB>fullCommand" lines (python3), count_marks counts
# entries whose fullCommand contains a string.

SHIM=$BUILD/libdeliberate.so
[ -f "$SHIM" ] || skip_all "no $SHIM (build with make BUILD=...)"
[ -x "$PYTHON" ] || skip_all "no $PYTHON"

# The real rule sets if they are there; else a minimal share so the
# daemon starts (used only while redaction-rules/ and risk-rules/ are
# being written).
preload_share() {
	if ls "$SRC"/redaction-rules/*.rules >/dev/null 2>&1 &&
	    ls "$SRC"/risk-rules/*.rules >/dev/null 2>&1; then
		export DELIBERATE_SHARE="$SRC"
		return
	fi
	mkdir -p "$T/share/redaction-rules" "$T/share/risk-rules"
	cat >"$T/share/redaction-rules/t.rules" <<-'EOF'
	[rule test-token]
	type = api_key
	label = [REDACTED_API_KEY]
	pattern = (?<secret>xyzzy_[A-Za-z0-9]{20})
	example = xyzzy_abcdefghijklmnopqrst
	negative = ls -la
	EOF
	cat >"$T/share/risk-rules/t.rules" <<-'EOF'
	[rule fs:rm-rf-test]
	name = Recursive forced delete
	risk = dangerous
	scope = line
	pattern = \brm\s+-(rf|fr)\b
	description = Recursive forced delete
	EOF
	export DELIBERATE_SHARE="$T/share"
	say "# note: real rule sets missing, using a minimal share"
}

# Run "$@" under the shim being tested.  It follows this test's own
# DELIBERATE_SOCKET, DELIBERATE_MODE and DELIBERATE_HOME: the pinned
# DELIBERATE_PRELOAD_* variables of an outer `deliberate run` (this suite
# run under the shim, docs/preload.md) are emptied for it, which the shim
# reads as unset.  UNPIN is the same for `env` command lines.
UNPIN="DELIBERATE_PRELOAD_SOCKET= DELIBERATE_PRELOAD_MODE= DELIBERATE_PRELOAD_DROPS="
under_shim() {
	DELIBERATE_PRELOAD_SOCKET= DELIBERATE_PRELOAD_MODE= \
	    DELIBERATE_PRELOAD_DROPS= LD_PRELOAD="$SHIM" "$@"
}

# Compile a test program into $T.
preload_cc() {
	cc -std=gnu11 -O1 -g -Wall -o "$T/$1" "$SRC/tests/preload/$1.c" \
	    -lpthread || die "cannot compile $1.c"
}

preload_setup() {
	preload_share
	mkdir -p "$DELIBERATE_HOME/run"
	printf 'anonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
	preload_cc exec-all
	daemon_start || die "daemon did not start"
}

# Print today's entries as "layer<TAB>fullCommand<TAB>truncated" lines.
entries() {
	local f
	f=$(today_file)
	[ -f "$f" ] || return 0
	"$PYTHON" - "$f" <<-'EOF'
	import json, sys
	for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
	    e = json.loads(line)
	    env = e["context"]["environment"]
	    print("%s\t%s\t%s" % (env.get("captureLayer"),
	        e["command"]["fullCommand"].replace("\n", "\\n"),
	        env.get("truncated", False)))
	EOF
}

# Number of entries whose fullCommand contains $1 (fixed string).
count_marks() {
	entries | grep -c -F -- "$1" || true
}

# Wait until the daemon has written at least $1 lines (fire-and-forget
# events are written asynchronously), at most 10 s.
wait_entries() {
	local want=$1 i=0 f
	f=$(today_file)
	while [ $i -lt 200 ]; do
		if [ -f "$f" ] && [ "$(wc -l <"$f")" -ge "$want" ]; then
			sleep 0.1
			return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# Lines in today's file.
nentries() {
	local f
	f=$(today_file)
	if [ -f "$f" ]; then wc -l <"$f"; else echo 0; fi
}

# The drop counter (bytes in $DELIBERATE_HOME/run/preload-drops).
drops() {
	local f=$DELIBERATE_HOME/run/preload-drops
	if [ -f "$f" ]; then wc -c <"$f"; else echo 0; fi
}

# Start tests/preload/capture.py MODE on $T/cap.sock, writing $T/cap.out.
CAPTURE_PID=
capture_start() {
	rm -f "$T/cap.ready" "$T/cap.out"
	"$PYTHON" "$SRC/tests/preload/capture.py" "$1" "$T/cap.sock" \
	    "$T/cap.out" "$T/cap.ready" 2>>"$T/capture.log" &
	CAPTURE_PID=$!
	test_when_finished "kill $CAPTURE_PID"
	local i=0
	while [ ! -f "$T/cap.ready" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -f "$T/cap.ready" ]
}

# Cleanup, not an assertion: the server may have exited already, and
# wait gives its status (143 when killed), so neither may fail a test.
capture_stop() {
	if [ -n "$CAPTURE_PID" ]; then
		kill "$CAPTURE_PID" 2>/dev/null || true
		wait "$CAPTURE_PID" 2>/dev/null || true
	fi
	CAPTURE_PID=
	rm -f "$T/cap.sock"
}

# Run a command with the shim and the capture socket.
with_capture() {
	DELIBERATE_SOCKET="$T/cap.sock" under_shim "$@"
}

# Wait until $T/cap.out has at least $1 lines.
wait_capture() {
	local i=0
	while [ $i -lt 200 ]; do
		if [ -f "$T/cap.out" ] &&
		    [ "$(wc -l <"$T/cap.out")" -ge "$1" ]; then
			return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# Check the captured messages: each line strict UTF-8 JSON, at most
# PROTO_MAX_MSG bytes with its newline; print "argv<TAB>path<TAB>truncated"
# per message (argv joined with |, newlines as \n).
capture_lines() {
	"$PYTHON" - "$T/cap.out" <<-'PY'
	import json, sys
	for raw in open(sys.argv[1], "rb"):
	    assert len(raw) <= 262144, "message of %d bytes" % len(raw)
	    m = json.loads(raw.decode("utf-8", errors="strict"))
	    assert m["v"] == 1 and m["source"] == "preload", m
	    for k in ("pid", "ppid", "uid", "euid", "ts"):
	        assert isinstance(m[k], int), k
	    assert isinstance(m["isTTY"], bool) and m["interactive"] is False
	    print("%s\t%s\t%s" % ("|".join(m["argv"]).replace("\n", "\\n"),
	        m.get("path"), m.get("truncated", False)))
	PY
}
