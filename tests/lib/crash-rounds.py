#!/usr/bin/python3
"""kill -9 the daemon under load, N times; check nothing acked is lost.

usage: crash-rounds.py DAEMON SOCKET DATADIR ROUNDS WRITERS

Each round starts the real daemon (waiting on its ready fd), runs WRITERS
threads that send events and wait for each ack, kills the daemon with
SIGKILL at a random moment, and goes on.  At the end every acked entry id
must be in the dataset, exactly once.  Prints the figures.
"""
import json, os, random, signal, socket, subprocess, sys, threading, time

def start(daemon):
    r, w = os.pipe()
    p = subprocess.Popen([daemon, "--ready-fd", str(w)], pass_fds=(w,),
                         stderr=open(os.environ.get("DAEMON_LOG", "/dev/null"), "a"))
    os.close(w)
    os.read(r, 1)
    os.close(r)
    return p

def writer(path, k, acked, stop):
    i = 0
    while not stop.is_set():
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            f = s.makefile("rw")
            while not stop.is_set():
                f.write(json.dumps({"v": 1, "type": "event", "line": "echo w%d-%d" % (k, i)}) + "\n")
                f.flush()
                line = f.readline()
                if not line:
                    break
                r = json.loads(line)
                if r.get("ok"):
                    acked.append(r["id"])
                i += 1
        except (OSError, ValueError):
            pass
        time.sleep(0.01)

def main():
    daemon, path, datadir, rounds, writers = sys.argv[1:6]
    rounds, writers = int(rounds), int(writers)
    acked = []
    random.seed(os.getpid())
    for rnd in range(rounds):
        p = start(daemon)
        stop = threading.Event()
        ts = [threading.Thread(target=writer, args=(path, k, acked, stop))
              for k in range(writers)]
        [t.start() for t in ts]
        time.sleep(random.uniform(0.05, 0.6))
        p.send_signal(signal.SIGKILL)
        p.wait()
        stop.set()
        [t.join() for t in ts]
    p = start(daemon)       # a last start repairs and checks
    p.send_signal(signal.SIGTERM)
    p.wait()
    ids = {}
    for name in os.listdir(os.path.join(datadir, "current")):
        for line in open(os.path.join(datadir, "current", name), encoding="utf-8"):
            e = json.loads(line)
            ids[e["id"]] = ids.get(e["id"], 0) + 1
    missing = [a for a in acked if a not in ids]
    dups = [i for i, n in ids.items() if n > 1]
    print("%d rounds, %d acked, %d on disk, %d missing, %d duplicated"
          % (rounds, len(acked), len(ids), len(missing), len(dups)))
    return 1 if missing or dups or not acked else 0

sys.exit(main())
