#!/usr/bin/python3
"""Type lines into an interactive shell on a pty, one at a time, as a user does.

usage: pty-lines.py LINES_FILE -- SHELL ARGS...

The shell runs on a new pty (200x50).  Each line of LINES_FILE is typed
(with a carriage return) once the shell has shown a prompt after the line
before: the shell's line editor (zle, readline) reads it, and the hooks
run as they do for a person.  The first line must set PS1 to 'BENCH> ' and
the last must make the shell exit.  Exits 1 if the shell stalls for 30 s.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

PROMPT = b"BENCH> "


def main():
    lines_file = sys.argv[1]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    with open(lines_file, "rb") as f:
        lines = f.read().splitlines()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    seen = b""
    prompts = 0

    def wait_prompt(want):
        nonlocal seen, prompts
        deadline = time.monotonic() + 30
        while prompts < want:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            seen = seen[-len(PROMPT):] + data
            prompts += seen.count(PROMPT)
            # Count each prompt once: keep only what follows the last one.
            i = seen.rfind(PROMPT)
            if i >= 0:
                seen = seen[i + len(PROMPT):]
        return True

    # The first line sets the prompt: wait until the shell can read it.
    time.sleep(0.3)
    os.write(fd, lines[0] + b"\r")
    if not wait_prompt(1):
        print("pty-lines: no prompt after the first line", file=sys.stderr)
        return 1
    for n, line in enumerate(lines[1:], start=2):
        os.write(fd, line + b"\r")
        if n == len(lines):
            break
        if not wait_prompt(n):
            print("pty-lines: no prompt after line %d" % n, file=sys.stderr)
            return 1
    # Drain until the shell exits.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 1)
        if r:
            try:
                if not os.read(fd, 65536):
                    break
            except OSError:
                break
    _, status = os.waitpid(pid, 0)
    return 0 if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main())
