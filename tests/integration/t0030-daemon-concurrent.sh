#!/bin/bash
# Many clients at once: 200 `deliberate log` calls from 4 parallel loops
# give exactly 200 valid lines; persistent pipelined connections keep
# their order; a stuck client delays nobody.
. "$(dirname "$0")/../lib/test-lib.sh"

daemon_start

test_expect_success '200 log calls from 4 parallel loops give exactly 200 lines' '
	for loop in 1 2 3 4; do
		(for i in $(seq 1 50); do
			deliberate log -- echo "loop$loop" "n$i" || echo FAIL
		done) >"$T/loop$loop.out" 2>&1 &
	done &&
	wait &&
	! grep -q FAIL "$T"/loop*.out &&
	test "$(wc -l <"$(today_file)")" -eq 200
'

test_expect_success 'every line is valid, complete JSON with a unique id' '
	validate_entries "$(today_file)" &&
	test "$(jq -r .id "$(today_file)" | sort -u | wc -l)" -eq 200
'

test_expect_success '8 pipelined connections x 250 events: all acked, none lost, order kept' '
	"$PYTHON" - "$DELIBERATE_SOCKET" <<-PY
	import json, socket, sys, threading
	path = sys.argv[1]
	errors = []
	def client(k):
	    s = socket.socket(socket.AF_UNIX)
	    s.connect(path)
	    reqs = "".join(json.dumps({"v": 1, "type": "event", "seq": i,
	        "source": "cli", "line": "true c%d-%d" % (k, i)}) + "\n"
	        for i in range(250))
	    s.sendall(reqs.encode())
	    buf = b""
	    while buf.count(b"\n") < 250:
	        d = s.recv(65536)
	        if not d:
	            break
	        buf += d
	    seqs = [json.loads(l)["seq"] for l in buf.decode().splitlines()]
	    oks = [json.loads(l)["ok"] for l in buf.decode().splitlines()]
	    if seqs != list(range(250)) or not all(oks):
	        errors.append((k, len(seqs)))
	ts = [threading.Thread(target=client, args=(k,)) for k in range(8)]
	[t.start() for t in ts]
	[t.join() for t in ts]
	sys.exit(1 if errors else 0)
	PY
	test "$(wc -l <"$(today_file)")" -eq 2200 &&
	for k in 0 1 2 3 4 5 6 7; do
		jq -r "select(.command.command == \"true\") | .command.fullCommand" "$(today_file)" >/dev/null
	done &&
	validate_entries "$(today_file)"
'

test_expect_success 'a stuck client (half a message, never reads) does not delay others' '
	"$PYTHON" - "$DELIBERATE_SOCKET" <<-PY
	import socket, sys, time, json
	path = sys.argv[1]
	stuck = []
	for i in range(20):
	    s = socket.socket(socket.AF_UNIX)
	    s.connect(path)
	    s.sendall(b"{\"v\":1,\"type\":\"event\",\"line\":\"half")
	    stuck.append(s)
	t0 = time.time()
	s = socket.socket(socket.AF_UNIX)
	s.connect(path)
	s.sendall(b"{\"v\":1,\"type\":\"status\"}\n")
	r = json.loads(s.makefile().readline())
	took = time.time() - t0
	print("status took %.3f s with 20 stuck clients" % took)
	sys.exit(0 if r["ok"] and took < 2 else 1)
	PY
'

test_done
