"""Logistic regression by plain SGD, shared by the model trainers
(risk-rules/train-words.py and redaction-rules/train-values.py).

Only the Python standard library; deterministic (a fixed shuffle seed).
"""

import math
import random


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def sgd(xs, epochs=6, rate=0.2, l2=1e-5, mincount=2):
    """Train on xs, a list of (label 0.0 or 1.0, sorted list of feature
    names); features seen fewer than mincount times are left out.
    Returns (weights by feature, bias)."""
    count = {}
    for _, fs in xs:
        for x in fs:
            count[x] = count.get(x, 0) + 1
    xs = [(y, [x for x in fs if count[x] >= mincount]) for y, fs in xs]
    w = {}
    b = 0.0
    rnd = random.Random(1)
    for _ in range(epochs):
        rnd.shuffle(xs)
        for y, fs in xs:
            g = sigmoid(b + sum(w.get(x, 0.0) for x in fs)) - y
            b -= rate * g * 0.1
            for x in fs:
                wx = w.get(x, 0.0)
                w[x] = wx - rate * (g + l2 * wx)
        rate *= 0.7
    return w, b


def folds(groups, k=5):
    """Split group names (set files, corpora) into k folds for
    cross-validation, the same way on every run."""
    order = sorted(groups)
    random.Random(7).shuffle(order)
    return [order[i::k] for i in range(k)]
