#!/usr/bin/python3
"""Drive the daemon's quiet connection (docs/protocol.md, "quiet").

usage: quiet.py SOCKET SCRIPT

SCRIPT is a list of steps separated by ';':
  q TEXT      send TEXT + newline on the quiet connection (opened with the
              "quiet" hello before the first step)
  l TEXT      send TEXT + newline on a second, ordinary connection and print
              the reply line ("reply: ...")
  noreply     check that nothing is readable on the quiet connection (prints
              "quiet: no reply" or "quiet: got ...")
  close       close the quiet connection
  sleep S     sleep S seconds
"""
import socket
import sys
import time


def main():
    path, script = sys.argv[1], sys.argv[2]
    q = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    q.connect(path)
    q.sendall(b'{"v":1,"type":"quiet"}\n')
    loud = None
    for step in script.split(";"):
        step = step.strip()
        if not step:
            continue
        verb, _, arg = step.partition(" ")
        if verb == "q":
            q.sendall(arg.encode() + b"\n")
        elif verb == "l":
            if loud is None:
                loud = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                loud.settimeout(5)
                loud.connect(path)
            loud.sendall(arg.encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = loud.recv(65536)
                if not chunk:
                    break
                data += chunk
            print("reply:", data.decode().strip())
        elif verb == "noreply":
            q.setblocking(False)
            try:
                got = q.recv(65536)
                print("quiet: got", got)
            except BlockingIOError:
                print("quiet: no reply")
            q.setblocking(True)
        elif verb == "close":
            q.close()
        elif verb == "sleep":
            time.sleep(float(arg))
        else:
            print("bad step", step, file=sys.stderr)
            return 2
        sys.stdout.flush()
    return 0


sys.exit(main())
