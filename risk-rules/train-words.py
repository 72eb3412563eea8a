#!/usr/bin/env python3
"""Train risk-rules/words.model, the word model behind rule model:words.

The model is a logistic regression over the words of a command line: it
scores how much a line's words (command names, subcommands, flags, path
roots, word pairs) look like the lines labelled dangerous in
tests/fixtures/classify/*.tsv.  The classifier asks it only about lines no
rule calls dangerous and that are not trigger-free; see risk-rules/README.md,
"The word model".

    python3 risk-rules/train-words.py            # write words.model and
                                                 # the C test's fixture
    python3 risk-rules/train-words.py --cv       # also measure it: 5-fold,
                                                 # grouped by test-set file
    python3 risk-rules/train-words.py --exclude heldout127.tsv,...

Feature extraction must stay byte for byte what common/wordmodel.c does;
tests/unit/test-wordmodel.c checks the scores of the fixture this writes.
Only the Python standard library is used, and training is deterministic.
"""

import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
from logreg import folds as cv_folds, sgd, sigmoid  # noqa: E402
SETS = os.path.join(ROOT, "tests", "fixtures", "classify")
MODEL = os.path.join(HERE, "words.model")
CHECK = os.path.join(ROOT, "tests", "fixtures", "wordmodel-scores.tsv")
DECISIONS = os.path.join(HERE, "words-decisions.tsv")
DECISION_WEIGHT = 10    # each decision line counts this many times
ALTERNATIVE_WEIGHT = 3  # and each rule's safer alternative

MAXLINE = 4096          # bytes of a line that are looked at
MAXWORD = 24            # longer words are dropped (hashes, keys, paths)
SPLIT = re.compile(rb"[^a-z0-9_.\-]+")
ROOTS = re.compile(rb"(?:^|[ \t\n\r\f\v'\"=])/([a-z0-9_.\-]+)")
SEGMENTS = re.compile(rb"\|\||&&|[|;&(`]|\$\(")
WRAPPERS = {b"sudo", b"env", b"nohup", b"time", b"nice", b"exec", b"command",
            b"doas"}
ASSIGN = re.compile(rb"[a-z_][a-z0-9_]*=")
MARKS = ((b">>", "c:>>"), (b"> ", "c:>"), (b"|", "c:|"), (b"~", "c:~"),
         (b"*", "c:*"), (b"$(", "c:$("), (b"0.0.0.0", "c:any"))


def features(line):
    """The set of feature strings of one line (bytes or str)."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogateescape")
    s = line[:MAXLINE].lower()          # ASCII only, as tolower() in C
    words = []
    for w in SPLIT.split(s):
        w = w.strip(b".")
        if w and len(w) <= MAXWORD and not w.isdigit():
            words.append(w.decode("ascii"))
    f = set("w:" + w for w in words)
    for a, b in zip(words, words[1:]):
        f.add("b:" + a + " " + b)
    for needle, name in MARKS:
        if needle in s:
            f.add(name)
    for m in ROOTS.finditer(s):
        if len(m.group(1)) <= MAXWORD:
            f.add("r:/" + m.group(1).decode("ascii"))
    # Per simple command (split at | || && ; & ( $( and backquotes): its
    # name after wrappers and assignments, the name with its first
    # positional, and the name with each option.
    for seg in SEGMENTS.split(s):
        ws = seg.split()
        while ws and (ws[0] in WRAPPERS or ASSIGN.match(ws[0])):
            ws = ws[1:]
        if not ws:
            continue
        name = ws[0].rsplit(b"/", 1)[-1].strip(b"'\"")
        extra = [b"f:" + name]
        pos = [w for w in ws[1:] if not w.startswith(b"-")]
        if pos:
            extra.append(b"s:" + name + b" " + pos[0].strip(b"'\"")[:MAXWORD])
        for w in ws[1:]:
            if w.startswith(b"-"):
                extra.append(b"g:" + name + b" " +
                             w.split(b"=")[0][:MAXWORD])
        for x in extra:
            if x.isascii():
                f.add(x.decode("ascii"))
    return f


# Lines with the edges of feature extraction, scored into the C test's
# fixture besides a sample of the sets.
EDGES = [
    b"sudo FOO=1 /usr/bin/RM -rf \"/x\" && kubectl delete ns prod --all=true"
    b" | xargs echo $(date)",
    b"env -i PATH=/bin 'rm' -- '' \"\" '-' x=y `id` (cd /; ls)",
    b"echo \xc3\xa9t\xc3\xa9 | caf\xc3\xa9 --r\xc3\xa9sum\xc3\xa9 \xc3\xa9",
    b"a||b&&c;d&e|f(g)h`i`j$(k)l $ ( m",
    b"...  .a. -.- 1234 12.34 /123 =/etc '/usr \"/var" + b" x" * 40,
    b"x" * 30 + b" /" + b"y" * 30 + b" --" + b"z" * 30 + b"=1",
    b"\t\x0b\x0crm\t-rf\r/ \x1f",
]


def load(path):
    rows = []
    with open(path, "rb") as fp:
        for raw in fp:
            raw = raw.rstrip(b"\n")
            if not raw or raw.startswith(b"#") or b"\t" not in raw:
                continue
            label, cmd = raw.split(b"\t", 1)
            label = label.decode("ascii", "replace")
            if label in ("safe", "moderate", "dangerous"):
                rows.append((label, cmd))
    return rows


def load_rules(directory):
    """Labelled lines from the rules' own examples: a dangerous rule's
    match lines are dangerous; a moderate or safe rule's match lines,
    every nomatch line and every safer alternative are not (the guard
    must not block its own alternative: they count three times)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.rules"))):
        with open(path, "rb") as fp:
            text = fp.read().replace(b"\\\n", b"")
        risk = None
        for raw in text.split(b"\n"):
            if raw.startswith(b"[rule "):
                risk = None
                continue
            key, sep, val = raw.partition(b" = ")
            if not sep or raw.startswith(b"#"):
                continue
            if key == b"risk":
                risk = val.decode("ascii", "replace")
            elif key == b"match":
                rows.append(("dangerous" if risk == "dangerous" else
                             "safe", val))
            elif key == b"nomatch":
                rows.append(("safe", val))
            elif key == b"alternative":
                rows.extend([("safe", val)] * ALTERNATIVE_WEIGHT)
    return rows


def train(rows, **kw):
    """Dangerous is 1, safe and moderate are 0 (tools/logreg.py)."""
    return sgd([(1.0 if label == "dangerous" else 0.0, sorted(features(cmd)))
                for label, cmd in rows], **kw)


def score(model, cmd):
    w, b = model
    return sigmoid(b + sum(w.get(x, 0.0) for x in features(cmd)))


def cross_validate(files, data, rules):
    """5 folds of whole files: a set is never half in training.  The
    rules' examples are always in training, never measured."""
    folds = cv_folds(files)
    out = []
    for k, fold in enumerate(folds):
        rows = [r for f in files if f not in fold for r in data[f]] + rules
        m = train(rows)
        for f in fold:
            out.extend((label, score(m, cmd)) for label, cmd in data[f])
        print("fold %d of 5 done" % (k + 1), file=sys.stderr)
    table = []
    for th in (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9):
        d = [p for lab, p in out if lab == "dangerous"]
        s = [p for lab, p in out if lab == "safe"]
        mo = [p for lab, p in out if lab == "moderate"]
        table.append((th, sum(p >= th for p in d) / len(d),
                      sum(p >= th for p in s) / len(s),
                      sum(p >= th for p in mo) / len(mo)))
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cv", action="store_true",
                    help="measure with 5-fold cross-validation by file")
    ap.add_argument("--exclude", default="",
                    help="comma-separated set files to leave out")
    ap.add_argument("--threshold", type=float, default=0.70,
                    help="with --cv: the lowest threshold of the table whose "
                    "safe lines over it are at most MAXFA")
    ap.add_argument("--max-fa", type=float, default=1.5)
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--check", default=CHECK)
    a = ap.parse_args()

    skip = set(x for x in a.exclude.split(",") if x)
    files = [f for f in sorted(glob.glob(os.path.join(SETS, "*.tsv")))
             if os.path.basename(f) not in skip]
    data = {f: load(f) for f in files}
    # The rules' examples go in as one more "file" of every fold.
    rules = load_rules(HERE)
    decisions = load(DECISIONS)
    rules += decisions * DECISION_WEIGHT
    rows = [r for f in files for r in data[f]]
    n_sets = len(rows)
    header = ["# Deliberate word model for rule model:words.  Generated by "
              "risk-rules/train-words.py; do not edit.",
              "# Trained on %d lines of %d files in tests/fixtures/classify "
              "(%d dangerous)," % (n_sets, len(files),
                                   sum(lab == "dangerous" for lab, _ in rows)),
              "# and %d examples and alternatives of the rules in "
              "risk-rules/*.rules and %d decisions in words-decisions.tsv "
              "(x%d)." % (len(rules) - len(decisions) * DECISION_WEIGHT,
                          len(decisions), DECISION_WEIGHT)]
    if skip:
        header.append("# Left out: %s" % ", ".join(sorted(skip)))
    if a.cv:
        cv_line = ("# 5-fold cross-validation by file (threshold: recall "
                   "on dangerous, safe lines over it, moderate over it):")
        header.append(cv_line)
        chosen = None
        for th, rec, fa, mo in cross_validate(files, data, rules):
            header.append("#   %.2f: %.1f%% %.1f%% %.1f%%" %
                          (th, 100 * rec, 100 * fa, 100 * mo))
            if chosen is None and 100 * fa <= a.max_fa:
                chosen = th
        if chosen is not None:
            a.threshold = chosen
        header.append("# Threshold: the lowest with at most %.1f%% of safe "
                      "lines over it." % a.max_fa)
        for h in header[header.index(cv_line) + 1:]:
            print(h[2:])
    w, b = train(rows + rules)
    kept = sorted((x, v) for x, v in w.items() if abs(v) >= 0.01)
    with open(a.model, "w") as fp:
        for h in header:
            fp.write(h + "\n")
        fp.write("threshold\t%.4f\n" % a.threshold)
        fp.write("bias\t%.6f\n" % b)
        for x, v in kept:
            fp.write("%s\t%.6f\n" % (x, v))
    # The model as written (rounded), for the C test.
    model = ({x: float("%.6f" % v) for x, v in kept}, float("%.6f" % b))
    with open(a.check, "wb") as fp:
        fp.write(b"# Scores of model:words for test-wordmodel; generated by "
                 b"risk-rules/train-words.py.\n")
        n = 0
        for cmd in EDGES:
            fp.write(b"%.6f\t%s\n" % (score(model, cmd), cmd))
            n += 1
        for i, (lab, cmd) in enumerate(rows):
            if i % 97 != 0 or b"\t" in cmd:
                continue
            fp.write(b"%.6f\t%s\n" % (score(model, cmd), cmd))
            n += 1
    print("%s: %d features; %s: %d lines" % (a.model, len(kept), a.check, n))


if __name__ == "__main__":
    main()
