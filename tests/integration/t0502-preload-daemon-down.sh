#!/bin/bash
# t0502: with the daemon down (no socket), a stale socket file, a socket
# another uid owns, a daemon that accepts and never reads, and one that
# never accepts (full backlog), execs neither hang nor print anything, the
# exit status is unchanged, and undelivered events are counted in
# $DELIBERATE_HOME/run/preload-drops (one byte per drop).  In enforce mode
# the check fails open within DELIBERATE_ENFORCE_TIMEOUT_MS, or closed
# with DELIBERATE_FAIL_CLOSED=1.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_share
mkdir -p "$DELIBERATE_HOME/run"
preload_cc exec-all
N=2000

# Run N execs; they must finish within $1 seconds with no stderr.
loop_ok() {
	local limit=$1 start end
	shift
	start=$(date +%s%N)
	env $UNPIN "$@" LD_PRELOAD="$SHIM" "$T/exec-all" loop $N /bin/true \
	    >"$T/out" 2>"$T/err" || { echo "loop failed"; return 1; }
	end=$(date +%s%N)
	echo "$N execs in $(( (end - start) / 1000000 )) ms"
	[ $(( (end - start) / 1000000000 )) -lt "$limit" ] &&
	test ! -s "$T/err" && test ! -s "$T/out"
}

test_expect_success 'no socket: execs complete, drops counted' '
	rm -f "$DELIBERATE_HOME/run/preload-drops" &&
	loop_ok 60 DELIBERATE_SOCKET="$T/nothing/sock" &&
	[ "$(drops)" = $N ] &&
	[ "$(tr -d c <"$DELIBERATE_HOME/run/preload-drops" | wc -c)" = 0 ]
'

test_expect_success 'the counter directory is created if missing' '
	rm -rf "$DELIBERATE_HOME/run" &&
	DELIBERATE_SOCKET="$T/nothing/sock" under_shim \
	    "$T/exec-all" loop 3 /bin/true &&
	[ "$(drops)" = 3 ] &&
	[ "$(stat -c %a "$DELIBERATE_HOME/run")" = 700 ] &&
	[ "$(stat -c %a "$DELIBERATE_HOME/run/preload-drops")" = 600 ]
'

test_expect_success 'no DELIBERATE_HOME at all: silent, nothing created' '
	env -u DELIBERATE_HOME $UNPIN HOME="$T/nohome" \
	    DELIBERATE_SOCKET="$T/nothing/sock" LD_PRELOAD="$SHIM" \
	    "$T/exec-all" loop 3 /bin/true 2>"$T/err" &&
	test ! -s "$T/err" && test ! -e "$T/nohome"
'

test_expect_success 'stale socket file (crashed daemon): drops counted' '
	rm -f "$DELIBERATE_HOME/run/preload-drops" &&
	"$PYTHON" -c "import socket; s = socket.socket(socket.AF_UNIX); s.bind(\"$T/stale.sock\")" &&
	test -S "$T/stale.sock" &&
	loop_ok 60 DELIBERATE_SOCKET="$T/stale.sock" &&
	[ "$(drops)" = $N ]
'

test_expect_success 'daemon accepts and never reads: no hang' '
	capture_start stall &&
	loop_ok 60 DELIBERATE_SOCKET="$T/cap.sock" &&
	capture_stop
'

test_expect_success 'daemon never accepts (backlog full): drops counted' '
	rm -f "$DELIBERATE_HOME/run/preload-drops" &&
	capture_start noaccept &&
	loop_ok 60 DELIBERATE_SOCKET="$T/cap.sock" &&
	d=$(drops) && echo "drops $d" &&
	[ "$d" -ge $((N - 10)) ] &&
	grep -q b "$DELIBERATE_HOME/run/preload-drops" &&
	capture_stop
'

test_expect_success 'enforce, daemon never replies: fails open in budget' '
	rm -f "$DELIBERATE_HOME/run/preload-drops" &&
	capture_start silent &&
	start=$(date +%s%N) &&
	DELIBERATE_MODE=enforce DELIBERATE_ENFORCE_TIMEOUT_MS=100 \
	    with_capture "$T/exec-all" loop 5 /bin/true 2>"$T/err" &&
	ms=$(( ($(date +%s%N) - start) / 1000000 )) && echo "$ms ms" &&
	[ $ms -ge 500 ] && [ $ms -lt 5000 ] && test ! -s "$T/err" &&
	[ "$(cat "$DELIBERATE_HOME/run/preload-drops")" = ttttt ]
'

test_expect_success 'enforce + DELIBERATE_FAIL_CLOSED=1: refused, one line' '
	! DELIBERATE_MODE=enforce DELIBERATE_FAIL_CLOSED=1 \
	    DELIBERATE_ENFORCE_TIMEOUT_MS=50 \
	    with_capture "$T/exec-all" execvp true true fc-mark 2>"$T/err" &&
	cat "$T/err" &&
	[ "$(grep -c "^deliberate: refused " "$T/err")" = 1 ] &&
	grep -q "^deliberate: refused '"'"'true fc-mark'"'"': no verdict" "$T/err" &&
	grep -q "^execvp: Permission denied" "$T/err" &&
	capture_stop &&
	! DELIBERATE_MODE=enforce DELIBERATE_FAIL_CLOSED=1 \
	    DELIBERATE_SOCKET="$T/nothing" under_shim \
	    "$T/exec-all" execvp true true 2>"$T/err" &&
	grep -q "^deliberate: refused" "$T/err"
'

test_expect_success 'a socket another uid owns: silent, counted (root only)' '
	if [ "$(id -u)" != 0 ] || ! have setpriv; then
		echo "skipped: needs root and setpriv"; exit 0
	fi
	daemon_start &&
	mkdir -p "$T/nb/.deliberate/run" && chown -R nobody "$T/nb" &&
	chmod 755 "$T" "$T/exec-all" &&
	before=$(nentries) &&
	setpriv --reuid nobody --regid nogroup --clear-groups env $UNPIN \
	    HOME="$T/nb" DELIBERATE_HOME="$T/nb/.deliberate" \
	    DELIBERATE_SOCKET="$DELIBERATE_SOCKET" LD_PRELOAD="$SHIM" \
	    "$T/exec-all" loop 50 /bin/true 2>"$T/err" &&
	test ! -s "$T/err" &&
	[ "$(wc -c <"$T/nb/.deliberate/run/preload-drops")" = 50 ] &&
	sleep 0.3 && [ "$(nentries)" = "$before" ] &&
	daemon_stop
'

test_done
