#!/bin/bash
# Load: 64 concurrent clients, every event acked, written exactly once, in
# each client's order, with the daemon's memory bounded.  (bench/load.sh
# runs the full 64 x 20,000.)
. "$(dirname "$0")/../lib/test-lib.sh"

# A fixed midday clock: 32,000 entries take a minute or two under ASan,
# and a run that straddled midnight saw the daemon rotate its day file
# away mid-test (session 20's CI started at 23:59).
export DELIBERATE_NOW=2026-05-10T12:00:00Z
DAY=$DELIBERATE_HOME/learning-data/current/2026-05-10.ndjson

# ASan's shadow memory and quarantine inflate RSS; the bound is for
# the real build.
limit=64
[ "${SANITIZE:-}" = 1 ] && limit=1024
daemon_start

test_expect_success '64 clients x 500 events: 0 lost, 0 interleaved or duplicated' '
	"$PYTHON" "$SRC/tests/lib/load.py" "$DELIBERATE_SOCKET" "$DAY" \
	    "$(cat "$T/daemon.pid")" 64 500 | tee "$T/figures" &&
	grep -E "0 out of order" "$T/figures" &&
	rss=$(sed -E "s/.*peak RSS ([0-9.]+) MiB.*/\1/" "$T/figures") &&
	echo "$rss < $limit" | bc -l | grep -qx 1
'

test_expect_success 'the day file is complete and valid' '
	test "$(wc -l <"$DAY")" -eq 32000 &&
	validate_entries "$DAY"
'

test_expect_success 'a burst from a client that never reads is throttled, not buffered without bound' '
	"$PYTHON" - "$DELIBERATE_SOCKET" "$(cat "$T/daemon.pid")" <<-PY
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
	s.setblocking(False)
	msg = b"{\"v\":1,\"type\":\"status\"}\n" * 1000
	sent = 0
	t0 = time.time()
	while time.time() - t0 < 3:
	    try:
	        sent += s.send(msg)
	    except BlockingIOError:
	        time.sleep(0.01)
	rss = int([l for l in open("/proc/%s/status" % sys.argv[2]) if l.startswith("VmRSS:")][0].split()[1])
	print("sent %d bytes without reading; daemon RSS %d KiB" % (sent, rss))
	sys.exit(0 if rss < $limit * 1024 else 1)
	PY
	deliberate status >/dev/null
'

test_done
