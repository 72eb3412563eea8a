#!/usr/bin/python3
"""Measure the redaction engine over a secrets corpus and a clean corpus.

    redact-corpus.py [--deliberate PATH] [--level minimal] [--secrets FILE]
                     [--clean FILE] [--min-recall PCT] [--max-fp N] [-v]

secrets FILE: one `command<TAB>secret1<TAB>...` per line; clean FILE: one
secret-free command per line ('#' lines and blank lines are skipped in
both).  Each corpus goes through one `deliberate redact --level LEVEL` run
(one line in, one line out).  Recall = secret substrings no longer present
in the redacted line / all secret substrings.  A clean line counts as a
false positive when it does not come out byte-identical.

Prints the figures; exits 1 when recall < --min-recall or false positives
> --max-fp, 2 on a usage or run error.
"""
import argparse
import os
import shutil
import subprocess
import sys


def read_lines(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            out.append((n, line))
    return out


def redact(deliberate, level, lines):
    data = "".join(l + "\n" for l in lines).encode()
    p = subprocess.run([deliberate, "redact", "--level", level], input=data,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode(errors="replace"))
        sys.exit(2)
    out = p.stdout.decode("utf-8", errors="replace").split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(lines):
        sys.stderr.write("redact: %d lines in, %d out\n" % (len(lines), len(out)))
        sys.exit(2)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deliberate", default=shutil.which("deliberate") or "deliberate")
    ap.add_argument("--level", default="minimal")
    ap.add_argument("--secrets")
    ap.add_argument("--clean")
    ap.add_argument("--min-recall", type=float, default=0.0,
                    help="percent; exit 1 below it")
    ap.add_argument("--max-fp", type=int, default=None,
                    help="exit 1 when more clean lines change")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="list the missed secrets and changed clean lines")
    a = ap.parse_args()
    if not a.secrets and not a.clean:
        ap.error("give --secrets and/or --clean")
    fail = False

    if a.secrets:
        rows = read_lines(a.secrets)
        cmds, secrets = [], []
        for n, line in rows:
            parts = line.split("\t")
            if len(parts) < 2:
                sys.stderr.write("%s:%d: no secret column\n" % (a.secrets, n))
                sys.exit(2)
            for s in parts[1:]:
                if s not in parts[0]:
                    sys.stderr.write("%s:%d: secret not in command\n" % (a.secrets, n))
                    sys.exit(2)
            cmds.append(parts[0])
            secrets.append(parts[1:])
        out = redact(a.deliberate, a.level, cmds)
        total = gone = lines_clean = 0
        missed = []
        for (n, _), cmd, red, secs in zip(rows, cmds, out, secrets):
            left = [s for s in secs if s in red]
            total += len(secs)
            gone += len(secs) - len(left)
            if not left:
                lines_clean += 1
            else:
                missed.append((n, cmd, red, left))
        recall = 100.0 * gone / total if total else 100.0
        print("secrets corpus: %s" % a.secrets)
        print("  lines: %d, secret substrings: %d" % (len(cmds), total))
        print("  gone: %d, left: %d" % (gone, total - gone))
        print("  recall: %.2f%% (lines fully redacted: %d/%d)" % (recall, lines_clean, len(cmds)))
        if a.verbose:
            for n, cmd, red, left in missed:
                print("  MISS line %d: %s" % (n, red))
                for s in left:
                    print("       left: %s" % s)
        if recall < a.min_recall:
            print("  FAIL: recall %.2f%% < %.2f%%" % (recall, a.min_recall))
            fail = True

    if a.clean:
        rows = read_lines(a.clean)
        cmds = [l for _, l in rows]
        out = redact(a.deliberate, a.level, cmds)
        changed = [(n, c, r) for (n, c), r in zip(rows, out) if c != r]
        print("clean corpus: %s" % a.clean)
        print("  lines: %d, changed: %d" % (len(cmds), len(changed)))
        if a.verbose:
            for n, c, r in changed:
                print("  FP line %d: %s" % (n, c))
                print("          -> %s" % r)
        if a.max_fp is not None and len(changed) > a.max_fp:
            print("  FAIL: %d clean lines changed > %d" % (len(changed), a.max_fp))
            fail = True

    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
