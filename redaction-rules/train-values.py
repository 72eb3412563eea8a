#!/usr/bin/env python3
"""Train redaction-rules/values.model, the value model behind rule
value-model.

The model is a logistic regression over one word of a command line at a
time (a "value": a run of bytes between blanks, quotes and = : , ; ( ) { }
[ ] < > | & @ \\).  It scores how much the value, its shape and the words
around it look like the secret substrings of the corpora in
tests/fixtures/redact.  The redactor asks it only about values no rule has
already hidden; see redaction-rules/README.md, "The value model".

    python3 redaction-rules/train-values.py          # write values.model and
                                                     # the C test's fixture
    python3 redaction-rules/train-values.py --cv     # also measure it: 5-fold,
                                                     # grouped by corpus
    python3 redaction-rules/train-values.py --exclude 106,107

Feature extraction must stay byte for byte what common/valuemodel.c does;
tests/unit/test-valuemodel.c checks the scores of the fixture this writes.
Only the Python standard library is used, and training is deterministic.
"""

import argparse
import glob
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
from logreg import folds as cv_folds, sgd, sigmoid  # noqa: E402
FIX = os.path.join(ROOT, "tests", "fixtures", "redact")
MODEL = os.path.join(HERE, "values.model")
CHECK = os.path.join(ROOT, "tests", "fixtures", "valuemodel-scores.tsv")
MISSES = os.path.join(FIX, "untuned-misses.tsv")
BASE = ("secrets.tsv", "independent.tsv", "clean.txt", "independent-clean.txt")
NEGATIVE_WEIGHT = 3     # each rule's `negative` line counts this many times
CLEAN_WEIGHT = 2        # and each line of a corpus's clean file

MAXTOK = 1024           # values of a line that are looked at
MINLEN = 6              # shorter values are never asked about
DELIM = set(b" \t\n\r'\"`=:,;(){}[]<>|&@\\")
HEXD = set(b"0123456789abcdefABCDEF")
B64 = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
B64URL = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
             b"+/-_")
LOWERISH = set(b"abcdefghijklmnopqrstuvwxyz.-")
B64VAL = dict((c, i) for i, c in enumerate(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"))
B64VAL[ord("-")] = 62
B64VAL[ord("_")] = 63
LENS = (4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64)
PIECE = re.compile(rb"[_.\-]+")

# Lines whose every value is scored in the C test's fixture.
EDGES = [
    b"export OS_PASSWORD='Kx7#vLm2qP9wRt4z'",
    b"mysql -u root -pS3cr3t-Pass01 db",
    b"echo 'aGVsbG8gd29ybGQgdGhpcyBpcyB0ZXh0' | base64 -d",
    b"curl -H 'X-Token: 9c94939e97694b3efe0d0c9a6befcb63' https://a.example",
    b"a=b:c,d;e(f)g{h}i[j]k<l>m|n&o@p\\q`r\"s's\tt",
    b"SOME_VAR_NAME_NAME=AbCdEf123456 tool --opt",
    b"\xc3\xa9t\xc3\xa9Secret123 caf\xc3\xa9 --mot-de-passe \xc3\xa9\xc3\xa9\xc3\xa9XyZ12345",
    b"x" * 300 + b" " + b"Ab1" * 20,
    b"======== ------ ...... Zz9Zz9 ______",
    b"git commit -m 'fix' && git push origin HEAD:refs/heads/main",
    b"echo 'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQA' | base64 -d",
    b"printf 'user=admin\\npass=Xy7#kLm2Qw9\\n' > creds.ini",
]


def tokens(line):
    """[(start, end)] of the values of line, at most MAXTOK."""
    out = []
    i, n = 0, len(line)
    while i < n and len(out) < MAXTOK:
        if line[i] in DELIM:
            # printf's \n, \t and \r escapes are blanks too
            i += 2 if line[i] == 92 and line[i + 1:i + 2] in (b"n", b"t",
                                                             b"r") else 1
            continue
        j = i
        while j < n and line[j] not in DELIM:
            j += 1
        out.append((i, j))
        i = j
    return out


def candidate(t):
    """Whether a value is ever asked about: long enough, not a flag, a
    path, a variable, or a lower-case word or name."""
    if len(t) < MINLEN or t[0] in b"-/~." or b"$" in t:
        return False
    # A port and a URL's path (host:7557/devices/...): no secret.
    i = 0
    while i < len(t) and i < 6 and 48 <= t[i] <= 57:
        i += 1
    if 0 < i < 6 and i < len(t) and t[i] == 47:
        return False
    if all(c in LOWERISH for c in t) and 97 <= t[-1] <= 122:
        return False
    return True


def entropy2(t):
    """Twice the Shannon entropy in bits per byte, rounded down; the
    counts are summed in byte order, as the C code does."""
    cnt = [0] * 256
    for c in t:
        cnt[c] += 1
    h = 0.0
    n = float(len(t))
    for c in range(256):
        if cnt[c]:
            p = cnt[c] / n
            h -= p * math.log2(p)
    return int(h * 2)


def b64_text(t):
    """Whether t is base64 (standard or URL-safe) of mostly printable text
    (ASCII or UTF-16LE)."""
    s = t.rstrip(b"=")
    if len(t) < 16 or len(s) % 4 == 1 or any(c not in B64URL for c in s):
        return False
    acc = bits = nbytes = printable = 0
    for c in s:
        acc = (acc << 6) | B64VAL[c]
        bits += 6
        if bits >= 8:
            bits -= 8
            b = (acc >> bits) & 0xff
            # UTF-16LE text (PowerShell -EncodedCommand): a NUL at every
            # odd offset counts as text
            if 32 <= b <= 126 or b in (9, 10, 13) or (b == 0 and
                                                       nbytes % 2 == 1):
                printable += 1
            nbytes += 1
    return nbytes > 0 and 10 * printable >= 9 * nbytes


def lenbucket(n):
    for k, b in enumerate(LENS):
        if n < b:
            return k
    return len(LENS)


def features(line, toks, k):
    """The features of value k of line (a set of byte strings)."""
    s, e = toks[k]
    t = line[s:e]
    f = set()
    m = 0
    for c in t:
        if 65 <= c <= 90:
            m |= 1
        elif 97 <= c <= 122:
            m |= 2
        elif 48 <= c <= 57:
            m |= 4
        else:
            m |= 8
    lb = lenbucket(len(t))
    f.add(b"l:%d" % lb)
    f.add(b"c:%d" % m)
    f.add(b"cl:%d:%d" % (m, lb))
    f.add(b"e:%d" % entropy2(t))
    if all(c in HEXD for c in t):
        f.add(b"hex:%d" % len(t) if len(t) in (32, 40, 64) else b"hex")
    if all(c in B64 for c in t):
        f.add(b"b64")
    if b64_text(t):
        f.add(b"b64txt")
    if b"/" in t:
        f.add(b"slash")
    if b"." in t:
        f.add(b"dot")
    if len(t) >= 8:
        f.add(b"p:" + t[:3])
    sh = bytearray()
    for c in t:
        cls = (b"A" if 65 <= c <= 90 else b"a" if 97 <= c <= 122 else
               b"9" if 48 <= c <= 57 else bytes([c]))
        if sh[-1:] != cls:
            sh += cls
    f.add(b"sh:" + bytes(sh[:12]))
    f.add(b"pos:%d" % min(k, 6))
    if s > 0 and line[s - 1] in b"'\"":
        f.add(b"q")
    if k > 0:
        ps, pe = toks[k - 1]
        p = line[ps:pe].lower()
        f.add(b"p1:" + p[:32])
        f.add(b"s:" + line[pe:s][:4].replace(b"\t", b" "))
        for piece in PIECE.split(p[:128]):
            if piece:
                f.add(b"k:" + piece[:24])
        if k > 1:
            qs, qe = toks[k - 2]
            f.add(b"p2:" + line[qs:qe].lower()[:32])
    else:
        f.add(b"first")
    cs, ce = toks[0]
    f.add(b"cmd:" + line[cs:ce].rsplit(b"/", 1)[-1][:24])
    if k > 2:
        us, ue = toks[1]
        f.add(b"sub:" + line[us:ue].lower()[:16])
    if k == len(toks) - 1:
        f.add(b"last")
    else:
        ns, ne = toks[k + 1]
        f.add(b"n1:" + line[ns:ne].lower()[:16])
        f.add(b"sa:" + line[e:ns][:4].replace(b"\t", b" "))
    return f


def candidates(line):
    """[(start, end, features)] of the values of line the model is asked
    about."""
    toks = tokens(line)
    return [(s, e, features(line, toks, k)) for k, (s, e) in enumerate(toks)
            if candidate(line[s:e])]


def read_lines(path):
    with open(path, "rb") as fp:
        for raw in fp:
            raw = raw.rstrip(b"\n")
            if raw and not raw.startswith(b"#"):
                yield raw


def load_secrets(path):
    return [(p[0], p[1:]) for p in (r.split(b"\t") for r in read_lines(path))]


def load_clean(path):
    return [(r, []) for r in read_lines(path)] if os.path.exists(path) else []


def load_negatives():
    """Every rule's `negative` lines: secret-free by definition."""
    out = []
    for path in sorted(glob.glob(os.path.join(HERE, "*.rules"))):
        for r in read_lines(path):
            if r.startswith(b"negative"):
                out.append((r.split(b"=", 1)[1].strip(), []))
    return out


def spans(line, secrets):
    sp = []
    for x in secrets:
        i = line.find(x)
        while x and i >= 0:
            sp.append((i, i + len(x)))
            i = line.find(x, i + 1)
    return sp


def examples(rows):
    """(label, features) of every candidate: 1 when it overlaps a secret."""
    xs = []
    for line, secrets in rows:
        sp = spans(line, secrets)
        for s, e, f in candidates(line):
            y = 1.0 if any(a < e and s < b for a, b in sp) else 0.0
            xs.append((y, sorted(f)))
    return xs


def train(xs, **kw):
    """Over the candidates; a secret is 1 (tools/logreg.py)."""
    return sgd(xs, **kw)


def score(model, f):
    w, b = model
    z = b
    for x in sorted(f):
        z += w.get(x, 0.0)
    return sigmoid(z)


THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)


def cross_validate(corpora, base, misses):
    """5 folds of whole corpora; the other files are always in training.
    For each threshold: secrets found, rule misses found, clean lines
    changed, counted over the held-out folds."""
    folds = cv_folds(corpora)
    res = {th: [0, 0, 0, 0, 0, 0] for th in THRESHOLDS}
    for k, fold in enumerate(folds):
        rows = list(base)
        for n in corpora:
            if n not in fold:
                rows += corpora[n][0] + corpora[n][1] * CLEAN_WEIGHT
        m = train(examples(rows))
        test = [(corpora[n][0], misses.get(n, []), corpora[n][1])
                for n in fold]
        for secs, miss, clean in test:
            for rows_, col in ((secs, 0), (miss, 2)):
                for line, secrets in rows_:
                    sc = [(score(m, f), s, e) for s, e, f in candidates(line)]
                    for x in secrets:
                        sp = spans(line, [x])
                        for th in THRESHOLDS:
                            res[th][col + 1] += 1
                            if any(p >= th and any(a < e and s < b
                                                   for a, b in sp)
                                   for p, s, e in sc):
                                res[th][col] += 1
            for line, _ in clean:
                sc = [score(m, f) for _, _, f in candidates(line)]
                for th in THRESHOLDS:
                    res[th][5] += 1
                    if any(p >= th for p in sc):
                        res[th][4] += 1
        print("fold %d of 5 done" % (k + 1), file=sys.stderr)
    return [(th,) + tuple(res[th]) for th in THRESHOLDS]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cv", action="store_true",
                    help="measure with 5-fold cross-validation by corpus")
    ap.add_argument("--exclude", default="",
                    help="comma-separated corpus numbers to leave out")
    ap.add_argument("--threshold", type=float, default=0.85)
    ap.add_argument("--max-fp", type=float, default=0.2,
                    help="with --cv: the lowest threshold of the table whose "
                    "clean lines changed are at most MAX_FP percent")
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--check", default=CHECK)
    a = ap.parse_args()

    skip = set(int(x) for x in a.exclude.split(",") if x)
    corpora = {}
    for path in sorted(glob.glob(os.path.join(FIX, "heldout*.tsv"))):
        n = int(re.search(r"heldout(\d+)\.tsv$", path).group(1))
        if n not in skip:
            corpora[n] = (load_secrets(path),
                          load_clean(path[:-4] + "-clean.txt"))
    base = []
    for name in BASE:
        path = os.path.join(FIX, name)
        base += (load_secrets(path) if name.endswith(".tsv")
                 else load_clean(path))
    negatives = load_negatives()
    base += negatives * NEGATIVE_WEIGHT
    misses = {}
    if os.path.exists(MISSES):
        for line in read_lines(MISSES):
            n, cmd, secret = line.split(b"\t")
            misses.setdefault(int(n), []).append((cmd, [secret]))
    rows = list(base)
    for n in sorted(corpora):
        rows += corpora[n][0] + corpora[n][1] * CLEAN_WEIGHT
    header = [
        "# Deliberate value model for rule value-model.  Generated by "
        "redaction-rules/train-values.py; do not edit.",
        "# Trained on %d corpora in tests/fixtures/redact (%d lines with "
        "secrets, %d without, x%d)," % (
            len(corpora), sum(len(c[0]) for c in corpora.values()),
            sum(len(c[1]) for c in corpora.values()), CLEAN_WEIGHT),
        "# %s and the %d `negative` lines of the rules (x%d)." % (
            ", ".join(BASE), len(negatives), NEGATIVE_WEIGHT)]
    if skip:
        header.append("# Left out: corpora %s" %
                      ", ".join(str(n) for n in sorted(skip)))
    if a.cv:
        header.append("# 5-fold cross-validation by corpus (threshold: "
                      "secrets found; of the secrets the rules missed when "
                      "each corpus was new, found; clean lines changed):")
        chosen = None
        for th, f, t, mf, mt, c, ct in cross_validate(corpora, base, misses):
            header.append("#   %.2f: %.1f%% (%d/%d); %.1f%% (%d/%d); "
                          "%.2f%% (%d/%d)" % (
                              th, 100.0 * f / max(t, 1), f, t,
                              100.0 * mf / max(mt, 1), mf, mt,
                              100.0 * c / max(ct, 1), c, ct))
            if chosen is None and 100.0 * c / max(ct, 1) <= a.max_fp:
                chosen = th
        if chosen is not None:
            a.threshold = chosen
        header.append("# Threshold: the lowest with at most %.2f%% of clean "
                      "lines changed." % a.max_fp)
        for h in header[-(len(THRESHOLDS) + 2):]:
            print(h[2:])
    w, b = train(examples(rows))
    kept = sorted((x, v) for x, v in w.items() if abs(v) >= 0.01)
    with open(a.model, "wb") as fp:
        for h in header:
            fp.write(h.encode() + b"\n")
        fp.write(b"threshold\t%.4f\n" % a.threshold)
        fp.write(b"bias\t%.6f\n" % b)
        for x, v in kept:
            fp.write(b"%s\t%.6f\n" % (x, v))
    # The model as written (rounded), for the C test: each candidate's
    # score, its offsets and its line.
    model = ({x: float("%.6f" % v) for x, v in kept}, float("%.6f" % b))
    with open(a.check, "wb") as fp:
        fp.write(b"# Scores of value-model for test-valuemodel; generated "
                 b"by redaction-rules/train-values.py.\n")
        n = 0
        sample = EDGES + [line for i, (line, _) in enumerate(rows)
                          if i % 53 == 0]
        for line in sample:
            for s, e, f in candidates(line):
                fp.write(b"%.6f\t%d\t%d\t%s\n" % (score(model, f), s, e, line))
                n += 1
    print("%s: %d features; %s: %d values" % (a.model, len(kept), a.check, n))


if __name__ == "__main__":
    main()
