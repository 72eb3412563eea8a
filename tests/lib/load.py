#!/usr/bin/python3
"""Load the daemon: C clients x N events each, pipelined in windows.

usage: load.py SOCKET DAYFILE DAEMON_PID CLIENTS EVENTS

Checks that the day file gains exactly the acked entries, with no
interleaved or duplicated line and each client's order kept, and prints
events/s and the daemon's peak RSS.
"""
import json, os, socket, sys, threading, time

WINDOW = 32

def client(path, k, n, acked):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    f = s.makefile("rwb")
    sent = got = 0
    while got < n:
        while sent < n and sent - got < WINDOW:
            # Plain small numbers: the standard level keeps them, while
            # it types any other free word.
            f.write(b'{"v":1,"type":"event","line":"echo %d %d"}\n' % (k, sent))
            sent += 1
        f.flush()
        r = json.loads(f.readline())
        if r.get("ok"):
            acked[k] += 1
        got += 1

def rss_kb(pid):
    for line in open("/proc/%s/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0

def main():
    path, dayfile, pid, clients, events = sys.argv[1:6]
    clients, events = int(clients), int(events)
    before = sum(1 for _ in open(dayfile)) if os.path.exists(dayfile) else 0
    acked = [0] * clients
    peak = [rss_kb(pid)]
    done = threading.Event()
    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kb(pid))
            time.sleep(0.05)
    sm = threading.Thread(target=sample); sm.start()
    t0 = time.time()
    ts = [threading.Thread(target=client, args=(path, k, events, acked)) for k in range(clients)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    took = time.time() - t0
    done.set(); sm.join()
    seen = {}
    bad = 0
    lines = 0
    for i, line in enumerate(open(dayfile, encoding="utf-8")):
        if i < before:
            continue
        lines += 1
        try:
            e = json.loads(line)
        except ValueError:
            bad += 1
            continue
        try:
            c, n = map(int, e["command"]["fullCommand"].split()[1:3])
        except ValueError:
            bad += 1
            continue
        if n != seen.get(c, -1) + 1:
            bad += 1
        seen[c] = n
    total = sum(acked)
    print("%d clients x %d events: %d acked, %d lines, %d out of order or torn, "
          "%.0f events/s, daemon peak RSS %.1f MiB"
          % (clients, events, total, lines, bad, total / took, peak[0] / 1024))
    return 0 if total == clients * events and lines == total and bad == 0 else 1

sys.exit(main())
