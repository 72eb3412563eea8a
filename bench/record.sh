#!/bin/bash
# The daemon's cost per recorded event, in instructions (callgrind), for
# the two sources that produce most events: the preload shim (one datagram
# per exec) and the shell hooks' fire-and-forget path (one stream line per
# command line).  Prints markdown table rows.
#
#   BUILD=build bash bench/record.sh [N]
#
# Method: the daemon runs under callgrind three times with a fresh home:
# with no event, with N shim events and with N hook events (default 2000,
# all distinct command lines; "ack": false like the real clients, so the
# daemon writes no reply).  Each run waits for the ready fd, sends, waits
# until the N entries are on disk and stops the daemon with SIGTERM.  The
# cost per event is (total - total without events) / N: it covers parsing,
# classification, the entry, the write, and the daemon's loop, like the
# real thing.  Callgrind counts instructions, so the figure does not
# depend on the machine's load.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
N=${1:-2000}
PY=/usr/bin/python3
DMN=$BUILD/deliberated
# valgrind makes system calls of its own that the seccomp filter denies
export DELIBERATE_SANDBOX=none

if ! command -v valgrind >/dev/null 2>&1; then
	echo "| record: instructions per event | skipped: no valgrind |"
	exit 0
fi
if [ ! -x "$DMN" ]; then
	echo "| record bench | no $DMN (build first) |"
	exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-record.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

# run KIND COUNT: the daemon's total instructions with COUNT events
run() {
	local kind=$1 n=$2 d=$T/$1.$2 fifo line pid i
	mkdir -p "$d/home" "$d/run"
	fifo=$d/ready
	mkfifo "$fifo"
	HOME=$d DELIBERATE_HOME=$d/home XDG_RUNTIME_DIR=$d/run \
	DELIBERATE_SOCKET=$d/run/sock DELIBERATE_SHARE=$SRC \
		valgrind --tool=callgrind --callgrind-out-file="$d/cg" \
		"$DMN" --ready-fd 3 3>"$fifo" >"$d/log" 2>&1 &
	pid=$!
	if ! read -t 120 line <"$fifo"; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 1
	fi
	"$PY" - "$kind" "$n" "$d/run/sock" "$d/home" <<'PY' || { kill "$pid"; wait "$pid"; return 1; }
import glob, json, os, socket, sys, time
kind, n, sock, home = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
ts = 1767268800000
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sock)
g = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
for i in range(n):
    if kind == "shim":
        m = {"v": 1, "type": "event", "ack": False, "source": "preload",
             "interactive": False, "path": "/usr/bin/true", "cwd": "/tmp",
             "pid": 4242 + i, "ppid": 4241, "uid": os.getuid(),
             "euid": os.getuid(), "tty": "", "isTTY": False,
             "parent": "bash", "static": False, "ts": ts + i,
             "interceptMs": 0.012, "argv": ["/usr/bin/true", "x%d" % i]}
        b = json.dumps(m, separators=(",", ":")).encode()
        while True:
            try:
                g.sendto(b, sock + ".dgram")
                break
            except (BlockingIOError, ConnectionRefusedError, OSError):
                time.sleep(0.01)
    else:
        m = {"v": 1, "type": "event", "ack": False, "source": "hook",
             "line": "ls -la r%d" % i, "cwd": "/tmp", "pid": 4242,
             "ppid": 4241, "tty": "/dev/pts/3", "shell": "bash",
             "term": "xterm-256color", "interactive": True, "isTTY": True,
             "sudo": False, "session": "bench-session", "pathEnv":
             "/usr/local/bin:/usr/bin:/bin", "ts": ts + i,
             "action": "execute"}
        s.sendall(json.dumps(m, separators=(",", ":")).encode() + b"\n")
# wait until every entry is on disk
deadline = time.time() + 600
while time.time() < deadline:
    got = 0
    for f in [f for f in glob.glob(home + "/**/*.ndjson", recursive=True) if "annotations" not in f]:
        with open(f, "rb") as fh:
            got += fh.read().count(b"\n")
    if got >= n:
        break
    time.sleep(0.2)
else:
    sys.exit("only %d of %d entries written" % (got, n))
s.close()
PY
	kill "$pid"
	wait "$pid"
	awk '/^(summary|totals):/ { print $2; exit }' "$d/cg"
}

base=$(run none 0) || base=
shim=$(run shim "$N") || shim=
hook=$(run hook "$N") || hook=
if [ -z "$base" ] || [ -z "$shim" ] || [ -z "$hook" ]; then
	echo "| record: instructions per event | callgrind run failed |"
	exit 1
fi
echo "| daemon: instructions per shim event (callgrind, $N datagrams) | $(( (shim - base) / N )) |"
echo "| daemon: instructions per hook event (callgrind, $N fire-and-forget lines) | $(( (hook - base) / N )) |"
echo "| daemon: start-up and shutdown instructions (no event) | $base |"
