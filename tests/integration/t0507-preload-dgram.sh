#!/bin/bash
# t0507: the datagram path of the shim's monitor events, with the real
# daemon and real sockets.  Events arrive as datagrams on SOCKET.dgram
# (dgramReceived in status, no stream events); the socket is 0600 and is
# removed at shutdown, a stale one is replaced; with the datagram socket
# gone (an older daemon) every exec still gives exactly one entry over the
# stream; an event larger than one datagram chunk and a huge, truncated
# one take the stream; a datagram from another uid is refused and
# counted; a datagram that is not an event is dropped; a burst from 100
# threads loses nothing (a full queue falls back to the stream).
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_setup
DG="$DELIBERATE_SOCKET.dgram"

# Print one counter of the daemon's status reply.
stat_of() {
	deliberate status --json | "$PYTHON" -c \
	    "import json, sys; print(json.load(sys.stdin).get(sys.argv[1]))" "$1"
}

# Send stdin as one datagram to $1 (as whoever runs this).
send_dgram() {
	"$PYTHON" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.sendto(sys.stdin.buffer.read(), sys.argv[1])' "$1"
}

test_expect_success 'the datagram socket is there, 0600, in the status' '
	test -S "$DG" &&
	[ "$(stat -c %a "$DG")" = 600 ] &&
	[ "$(stat_of dgramSocket)" = "$DG" ]
'

test_expect_success 'the 13 functions: 13 entries, all as datagrams' '
	under_shim "$T/exec-all" all dg 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_entries 13 && entries >"$T/e" &&
	[ "$(grep -c dg- "$T/e")" = 13 ] && [ "$(nentries)" = 13 ] &&
	[ "$(stat_of dgramReceived)" = 13 ] &&
	[ "$(stat_of streamEvents)" = 0 ] &&
	[ "$(drops)" = 0 ]
'

test_expect_success 'an event over one chunk (20 kB argv) takes the stream' '
	before=$(nentries) && s0=$(stat_of streamEvents) &&
	d0=$(stat_of dgramReceived) &&
	under_shim "$T/exec-all" huge 20000 &&
	wait_entries $((before + 1)) &&
	entries | grep "huge-mark" | grep -q "	False$" &&
	[ "$(stat_of streamEvents)" = $((s0 + 1)) ] &&
	[ "$(stat_of dgramReceived)" = "$d0" ]
'

test_expect_success 'a small argv (5 kB) still fits one datagram' '
	before=$(nentries) && d0=$(stat_of dgramReceived) &&
	under_shim "$T/exec-all" huge 5000 &&
	wait_entries $((before + 1)) &&
	[ "$(stat_of dgramReceived)" = $((d0 + 1)) ]
'

test_expect_success 'a huge argv arrives over the stream, truncated, flagged' '
	before=$(nentries) && s0=$(stat_of streamEvents) &&
	under_shim "$T/exec-all" huge 1500000 &&
	wait_entries $((before + 1)) &&
	[ "$(entries | grep "huge-mark" | grep -c "	True$")" = 1 ] &&
	[ "$(stat_of streamEvents)" = $((s0 + 1)) ] &&
	validate_entries "$(today_file)"
'

test_expect_success 'a datagram that is not an event is dropped, counted' '
	before=$(nentries) && b0=$(stat_of badRequests) &&
	printf "{\"v\":1,\"type\":\"check\",\"line\":\"echo dgcheck\"}\n" |
	    send_dgram "$DG" &&
	printf "not json" | send_dgram "$DG" &&
	sleep 0.3 &&
	[ "$(stat_of badRequests)" = $((b0 + 2)) ] &&
	[ "$(nentries)" = "$before" ]
'

test_expect_success 'a hand-made event datagram is recorded like a stream one' '
	before=$(nentries) &&
	printf "{\"v\":1,\"type\":\"event\",\"ack\":false,\"source\":\"preload\",\"argv\":[\"echo\",\"dg-hand\"]}\n" |
	    send_dgram "$DG" &&
	wait_entries $((before + 1)) &&
	[ "$(count_marks dg-hand)" = 1 ]
'

test_expect_success 'a datagram from another uid is refused (root only)' '
	if [ "$(id -u)" != 0 ] || ! have setpriv; then
		echo "skipped: needs root and setpriv"; exit 0
	fi
	before=$(nentries) && r0=$(stat_of refusedPeers) &&
	chmod 0755 "$T" "$T/xdg" "$(dirname "$DG")" && chmod 0666 "$DG" &&
	printf "{\"v\":1,\"type\":\"event\",\"ack\":false,\"argv\":[\"rm\",\"-rf\",\"/injected\"]}\n" |
	    setpriv --reuid nobody --regid nogroup --clear-groups \
	    "$PYTHON" -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.sendto(sys.stdin.buffer.read(), sys.argv[1])" "$DG" &&
	sleep 0.3 &&
	[ "$(nentries)" = "$before" ] &&
	[ "$(stat_of dgramRefused)" = 1 ] &&
	[ "$(stat_of refusedPeers)" = $((r0 + 1)) ] &&
	grep_f "refused a datagram from uid $(id -u nobody)" "$T/daemon.log" &&
	chmod 0700 "$T/xdg" "$(dirname "$DG")" && chmod 0600 "$DG"
'

# Send N event datagrams to $1 in a tight loop, marked dgburst-0...
send_burst() {
	"$PYTHON" - "$1" "$2" <<-\EOF
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
	for i in range(int(sys.argv[2])):
	    ev = {"v": 1, "type": "event", "ack": False,
	          "argv": ["echo", "dgburst-%d" % i]}
	    s.sendto((json.dumps(ev) + "\n").encode(), sys.argv[1])
	EOF
}

test_expect_success 'a burst is read in batches: 8 datagrams, fewer wake-ups' '
	before=$(nentries) && b0=$(stat_of dgramBatches) &&
	send_burst "$DG" 8 &&
	wait_entries $((before + 8)) &&
	[ "$(count_marks dgburst-)" = 8 ] &&
	b=$(( $(stat_of dgramBatches) - b0 )) &&
	echo "8 datagrams in $b reads" && [ "$b" -lt 8 ]
'

test_expect_success '100 threads at once: 100 entries, no drops' '
	before=$(nentries) && d0=$(stat_of dgramReceived) &&
	s0=$(stat_of streamEvents) &&
	under_shim "$T/exec-all" threads 100 dgthr 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_entries $((before + 100)) && entries >"$T/e" &&
	grep -o "dgthr-[0-9]*" "$T/e" | sort >"$T/seen" &&
	seq 0 99 | sed "s/^/dgthr-/" | sort >"$T/want" &&
	test_cmp "$T/want" "$T/seen" &&
	[ "$(drops)" = 0 ] &&
	d=$(( $(stat_of dgramReceived) - d0 )) &&
	s=$(( $(stat_of streamEvents) - s0 )) &&
	echo "datagrams $d, stream $s" && [ $((d + s)) = 100 ]
'

test_expect_success 'no datagram socket (older daemon): one entry each' '
	rm -f "$DG" &&
	before=$(nentries) && s0=$(stat_of streamEvents) &&
	d0=$(stat_of dgramReceived) &&
	under_shim "$T/exec-all" all fb 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_entries $((before + 13)) && entries >"$T/e" &&
	[ "$(grep -c "fb-" "$T/e")" = 13 ] &&
	[ "$(nentries)" = $((before + 13)) ] &&
	[ "$(stat_of streamEvents)" = $((s0 + 13)) ] &&
	[ "$(stat_of dgramReceived)" = "$d0" ] &&
	[ "$(drops)" = 0 ]
'

test_expect_success 'a stale datagram socket is replaced, removed at exit' '
	daemon_stop &&
	test ! -e "$DELIBERATE_SOCKET" && test ! -e "$DG" &&
	"$PYTHON" -c "import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).bind(sys.argv[1])" "$DG" &&
	test -S "$DG" &&
	daemon_start &&
	before=$(nentries) &&
	under_shim "$T/exec-all" execvp true true dg-stale &&
	wait_entries $((before + 1)) &&
	[ "$(stat_of dgramReceived)" = 1 ] &&
	[ "$(stat -c %a "$DG")" = 600 ] &&
	daemon_stop && test ! -e "$DG"
'

test_expect_success 'every entry validates against the schema' '
	validate_entries "$(today_file)"
'

test_done
