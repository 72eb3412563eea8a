#!/usr/bin/python3
"""Send stdin's bytes to a Unix socket, print the reply lines.

usage: sockclient.py SOCKET [--expect N] [--timeout S] [--half-close]

Reads until N reply lines arrived (default: one per non-empty input line),
the peer closes, or the timeout passes. Exit 0 if the expected count came.
"""
import socket
import sys
import time

def main():
    path = sys.argv[1]
    args = sys.argv[2:]
    expect = None
    timeout = 5.0
    half = False
    while args:
        a = args.pop(0)
        if a == "--expect":
            expect = int(args.pop(0))
        elif a == "--timeout":
            timeout = float(args.pop(0))
        elif a == "--half-close":
            half = True
        else:
            print("bad argument", a, file=sys.stderr)
            return 2
    data = sys.stdin.buffer.read()
    if expect is None:
        expect = sum(1 for l in data.split(b"\n") if l.strip())
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    try:
        s.sendall(data)
    except BrokenPipeError:
        pass  # the daemon may refuse us and close; read its reply
    if half:
        s.shutdown(socket.SHUT_WR)
    got = b""
    deadline = time.time() + timeout
    while got.count(b"\n") < expect and time.time() < deadline:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        got += chunk
    sys.stdout.write(got.decode("utf-8", "replace"))
    return 0 if got.count(b"\n") >= expect else 1

sys.exit(main())
