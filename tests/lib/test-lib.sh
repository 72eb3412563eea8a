# Shared setup for tests/integration/tNNNN-*.sh (bash).  Source it first:
#
#	. "$(dirname "$0")/../lib/test-lib.sh"
#	test_expect_success 'what it checks' '
#		commands that must all succeed
#	'
#	test_done
#
# Every test gets its own temp dir $T with HOME, DELIBERATE_HOME, the
# socket and XDG_RUNTIME_DIR inside it; daemon_start runs the real
# build/deliberated there and waits on its ready fd.  Exit status 77 means
# skipped.  Logs are printed only when something fails.

set -u
TEST_NAME=$(basename "$0" .sh)
SRC=${DELIBERATE_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
export DELIBERATE_SRC="$SRC" BUILD

T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-$TEST_NAME.XXXXXX")
chmod 0755 "$T"
export HOME="$T/home" DELIBERATE_HOME="$T/home/.deliberate"
export XDG_RUNTIME_DIR="$T/xdg" DELIBERATE_SOCKET="$T/xdg/deliberate/sock"
export DELIBERATE_SHARE="${DELIBERATE_TEST_SHARE:-$SRC}"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"
export PATH="$BUILD:$PATH"
unset DELIBERATE_NOW DELIBERATE_DEBUG
PYTHON=/usr/bin/python3

test_count=0 test_failed=0
DAEMON_PID=

# Run cmd at exit, after the tests (like git's test_when_finished).  The
# commands go to a file, so a registration made inside a test's subshell
# is kept too.
test_when_finished() {
	printf '%s\n' "$1" >>"$T/.cleanup"
}

_test_exit() {
	local rc=$? pid
	# Stop the daemon and make sure it is gone: a stopped one is
	# continued first, and one that does not exit in time (an ASan build
	# can hang in its exit-time leak check) is killed, so that no test
	# leaves a process behind to eat the CPU of the ones after it.
	if [ -f "$T/daemon.pid" ]; then
		pid=$(cat "$T/daemon.pid")
		kill -CONT "$pid" 2>/dev/null
		kill "$pid" 2>/dev/null
		_wait_gone "$pid" || kill -9 "$pid" 2>/dev/null
	fi
	if [ -f "$T/.cleanup" ]; then
		while IFS= read -r _c; do
			eval "$_c" >/dev/null 2>&1
		done <"$T/.cleanup"
	fi
	if [ "${KEEP_TEST_DIR:-}" = 1 ] || [ $rc -ne 0 -a $rc -ne 77 ]; then
		if [ -f "$T/daemon.log" ]; then
			echo "--- daemon log ($T/daemon.log):"
			tail -n 40 "$T/daemon.log"
		fi
	fi
	[ "${KEEP_TEST_DIR:-}" = 1 ] || rm -rf "$T"
	exit $rc
}
trap _test_exit EXIT

say() { printf '%s\n' "$*"; }

# Skip the whole script.
skip_all() {
	echo "skipped: $*"
	exit 77
}

# test_expect_success 'description' 'commands'
#
# The commands run with set -e, so any failing command fails the test,
# inside functions too, and the one that failed is shown.  The subshell
# is not the condition of an if: there bash ignores set -e, and only the
# last command would count.  (bash also ignores it for every command but
# the last of an && list, and for a command negated with !: write a body
# as one chain, or as one command per line, never a chain followed by
# more lines; tests/lib/lint-and-lists.py checks every file, t0002 runs
# it.)
test_expect_success() {
	local _tes_rc
	test_count=$((test_count + 1))
	(set -eE -o pipefail
	 trap 'echo "failed: $BASH_COMMAND" >&2' ERR
	 eval "$2") >"$T/test.out" 2>&1
	_tes_rc=$?
	if [ $_tes_rc -eq 0 ]; then
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		sed 's/^/#   /' "$T/test.out" | tail -n 40
	fi
}

# expect_status N CMD [ARGS...]: CMD exits with status N (a command that
# must fail, under the set -e of test_expect_success).
expect_status() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	[ "$rc" = "$want" ] || { echo "exit status $rc, want $want: $*"; return 1; }
}

# Finish: exit 1 when any test failed.
test_done() {
	say "# $test_count tests, $test_failed failed"
	[ $test_failed -eq 0 ] && exit 0
	exit 1
}

die() { echo "error: $*" >&2; exit 1; }

# Compare two files, showing a diff on mismatch.
test_cmp() { diff -u "$1" "$2"; }

# Assert that a file contains a fixed string.
grep_f() { grep -F -q -- "$1" "$2" || { echo "'$1' not found in $2"; return 1; }; }
# Assert that a file does not contain a fixed string.
nogrep_f() { ! grep -F -q -- "$1" "$2" || { echo "'$1' unexpectedly in $2"; return 1; }; }

# Start the real daemon and wait until it is ready (on its ready fd).
daemon_start() {
	local fifo="$T/ready.fifo" line=
	rm -f "$fifo"; mkfifo "$fifo"
	"$BUILD/deliberated" --ready-fd 3 "$@" 3>"$fifo" >>"$T/daemon.log" 2>&1 &
	DAEMON_PID=$!
	echo "$DAEMON_PID" >"$T/daemon.pid"
	if ! read -t 20 line <"$fifo"; then
		echo "daemon did not become ready" >&2
		exit 1
	fi
	rm -f "$fifo"
}

# Wait until a pid is gone (it may not be our child when started inside
# a test's subshell).
_wait_gone() {
	local i
	for i in $(seq 1 200); do
		kill -0 "$1" 2>/dev/null || return 0
		# An exited child of a finished subshell may linger unreaped.
		grep -q "^State:.*Z" "/proc/$1/status" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# Stop the daemon (SIGTERM) and wait for it (SIGKILL if it hangs).
daemon_stop() {
	local pid
	pid=$(cat "$T/daemon.pid" 2>/dev/null) || return 0
	kill -CONT "$pid" 2>/dev/null
	kill "$pid" 2>/dev/null
	_wait_gone "$pid" || kill -9 "$pid" 2>/dev/null || true
	rm -f "$T/daemon.pid"
	DAEMON_PID=
}

# Kill the daemon hard.
daemon_kill9() {
	local pid
	pid=$(cat "$T/daemon.pid" 2>/dev/null) || return 0
	kill -9 "$pid" 2>/dev/null
	_wait_gone "$pid"
	rm -f "$T/daemon.pid"
	DAEMON_PID=
}

# Today's dataset file (local date, or DELIBERATE_NOW's).
today_file() {
	echo "$DELIBERATE_HOME/learning-data/current/$(date +%F).ndjson"
}

# Every line of the given files validates against the JSON Schema.
validate_entries() {
	"$PYTHON" "$SRC/tests/lib/validate-schema.py" \
		"$SRC/schemas/dataset-entry.schema.json" "$@"
}

# Send raw bytes (from stdin) to the socket and print what comes back.
sock_raw() {
	"$PYTHON" "$SRC/tests/lib/sockclient.py" "$DELIBERATE_SOCKET" "$@"
}

# Whether a program exists.
have() { command -v "$1" >/dev/null 2>&1; }
