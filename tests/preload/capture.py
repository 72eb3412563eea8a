#!/usr/bin/python3
"""A stand-in daemon for the preload tests.

    capture.py MODE SOCKET OUT READY

Listens on SOCKET and, once listening, creates the file READY.  Modes:

  record    read every connection to EOF and append each message line
            (raw bytes) to OUT; reply {"v":1,"ok":true,"action":"allow"}
            to checks
  deny      like record, but reply "deny" to checks, with a patternId and
            a description
  silent    like record, but never reply (enforce-mode timeouts)
  stall     accept connections and never read them
  noaccept  listen with a backlog of 1 and never accept
"""
import os
import socket
import sys
import threading


def serve(conn, mode, out, lock):
    buf = b""
    while True:
        try:
            data = conn.recv(65536)
        except OSError:
            break
        if not data:
            break
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            with lock:
                with open(out, "ab") as f:
                    f.write(line + b"\n")
            if b'"type":"check"' in line and mode != "silent":
                if mode == "deny":
                    rep = (b'{"v":1,"ok":true,"riskLevel":"dangerous",'
                           b'"patternId":"test:deny","description":'
                           b'"Refused by the \\"test\\" daemon",'
                           b'"bypass":[{"x":"}"}],"action":"deny"}\n')
                else:
                    rep = b'{"v":1,"ok":true,"action":"allow"}\n'
                try:
                    conn.sendall(rep)
                except OSError:
                    pass
    if buf:
        with lock:
            with open(out, "ab") as f:
                f.write(buf + b"\n")
    conn.close()


def main():
    mode, path, out, ready = sys.argv[1:5]
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(1 if mode == "noaccept" else 128)
    open(ready, "w").close()
    lock = threading.Lock()
    held = []
    if mode == "noaccept":
        threading.Event().wait()
    while True:
        conn, _ = s.accept()
        if mode == "stall":
            held.append(conn)
            continue
        threading.Thread(target=serve, args=(conn, mode, out, lock),
                         daemon=True).start()


main()
