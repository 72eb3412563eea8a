#!/bin/bash
# A client with another uid is refused (SO_PEERCRED) and logged, even when
# file permissions would let it connect.
. "$(dirname "$0")/../lib/test-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run a client as nobody"
if have setpriv; then
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
elif have runuser; then
	as_nobody() { runuser -u nobody -- "$@"; }
else
	skip_all "neither setpriv nor runuser is available"
fi

daemon_start

test_expect_success 'by default another user cannot even reach the socket' '
	! as_nobody "$PYTHON" -c "
import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "$DELIBERATE_SOCKET" 2>"$T/err" &&
	grep -q "Permission denied" "$T/err"
'

test_expect_success 'with open permissions, the daemon itself refuses the peer' '
	chmod 0755 "$T" "$T/xdg" "$(dirname "$DELIBERATE_SOCKET")" &&
	chmod 0666 "$DELIBERATE_SOCKET" &&
	printf "{\"v\":1,\"type\":\"event\",\"line\":\"rm -rf /injected\"}\n" |
		as_nobody "$PYTHON" "$SRC/tests/lib/sockclient.py" "$DELIBERATE_SOCKET" >"$T/reply" &&
	grep_f "\"ok\":false" "$T/reply" &&
	grep_f "permission denied" "$T/reply" &&
	grep_f "refused a client with uid $(id -u nobody)" "$T/daemon.log"
'

test_expect_success 'nothing from the refused peer was recorded, and it was counted' '
	! test -s "$(today_file)" &&
	deliberate status --json | jq -e ".refusedPeers == 1 and .written == 0"
'

test_expect_success 'our own uid is still served' '
	deliberate log -- true && test "$(wc -l <"$(today_file)")" -eq 1
'

test_done
