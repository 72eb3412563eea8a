#!/usr/bin/env python3
"""Report risk-rule patterns that consume a blank before a lookaround
whose body wants one.

In  ^cmd\\s(?=.*\\s-f)  the \\s after cmd is used up before the lookahead
runs, so an option right after the command name (cmd -f x) is never seen;
(?!.*\\s--dry-run) likewise misses cmd --dry-run.  The fix is to put the
blank after the lookaround: ^cmd(?=.*\\s-f)\\s.

    lint-rule-patterns.py [FILE.rules...]   (default: risk-rules/*.rules)

Prints FILE:LINE: and the spot for each finding; exits 1 if any.
"""
import glob
import os
import re
import sys

BUG = re.compile(r'\\s\(\?[=!](?:\.\*\??|\[\^[^\]]*\]\*\??)\\s')


def main(argv):
    top = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    files = argv[1:] or sorted(glob.glob(os.path.join(top, 'risk-rules',
                                                      '*.rules')))
    found = 0
    for path in files:
        with open(path, encoding='utf-8') as f:
            for n, line in enumerate(f, 1):
                if not line.startswith(('pattern = ', 'unless = ')):
                    continue
                for m in BUG.finditer(line):
                    found += 1
                    print('%s:%d: blank consumed before a lookaround: %s'
                          % (path, n, line[max(0, m.start() - 20):
                                           m.end() + 10].strip()))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
