#!/usr/bin/python3
"""train.py -- fits the learned opponent model (src/ai/oppmodel.h).

Reads the lines oppmodel_data gen writes (decision type chosen f...),
one training and one held-out file per player type, fits for each type a
conditional logit (the chance of a move is a softmax of a weighted sum of
its features) by maximum likelihood with a small L2 penalty (Newton's
method: the problem is convex, so the fit is the same on any machine), and
writes src/ai/oppmodel_weights.h: the weights, the types' prior (uniform)
and the floor (the share of uniform play mixed in; fixed, not fitted: it is
what keeps the model safe against a player of none of the types).  Prints
the held-out log-likelihood per move of every type's model on every type's
moves, against a uniform choice.

  tools/oppmodel/train.py --out src/ai/oppmodel_weights.h \
      --train greedy=A.txt rules=B.txt ... --test greedy=C.txt ...
"""
import argparse
import sys

import numpy as np

FEATURES = 25


def load(path):
    a = np.loadtxt(path, dtype=np.float64, ndmin=2)
    dec = a[:, 0].astype(np.int64)
    chosen = a[:, 2] > 0.5
    x = a[:, 3:]
    assert x.shape[1] == FEATURES, (path, x.shape)
    # Each decision's rows are consecutive; starts of the groups.
    starts = np.flatnonzero(np.r_[True, dec[1:] != dec[:-1]])
    return x, chosen, starts


def group_softmax(s, starts):
    top = np.maximum.reduceat(s, starts)
    sizes = np.diff(np.r_[starts, len(s)])
    e = np.exp(s - np.repeat(top, sizes))
    tot = np.add.reduceat(e, starts)
    return e / np.repeat(tot, sizes), sizes


def loglik(w, data, floor=0.0):
    x, chosen, starts = data
    p, sizes = group_softmax(x @ w, starts)
    n = np.repeat(sizes, sizes)
    q = floor / n + (1 - floor) * p
    return float(np.log(q[chosen]).sum()), int(chosen.sum())


def fit(data, l2, iters=50):
    x, chosen, starts = data
    w = np.zeros(FEATURES)
    for it in range(iters):
        p, sizes = group_softmax(x @ w, starts)
        mean = np.add.reduceat(x * p[:, None], starts)  # E_p[f] per decision
        grad = x[chosen].sum(0) - mean.sum(0) - l2 * w
        # Hessian: sum over decisions of Cov_p(f), plus the penalty.
        xw = x * np.sqrt(p)[:, None]
        hess = xw.T @ xw - mean.T @ mean + l2 * np.eye(FEATURES)
        step = np.linalg.solve(hess, grad)
        # Damped Newton: halve until the penalised likelihood rises.
        def obj(v):
            return loglik(v, data)[0] - 0.5 * l2 * v @ v
        cur, t = obj(w), 1.0
        while t > 1e-6 and obj(w + t * step) < cur:
            t *= 0.5
        w = w + t * step
        if np.abs(t * step).max() < 1e-7:
            break
    return w


def parse_pairs(items):
    out = []
    for it in items:
        name, path = it.split("=", 1)
        out.append((name, path))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--test", nargs="+", required=True)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--floor", type=float, default=0.03)
    ap.add_argument("--command", default=" ".join(sys.argv))
    a = ap.parse_args()
    train = parse_pairs(a.train)
    test = dict(parse_pairs(a.test))
    names = [n for n, _ in train]
    weights, report = [], []
    tests = {n: load(test[n]) for n in names}
    for name, path in train:
        w = fit(load(path), a.l2)
        weights.append(w)
    # Held-out: every type's model on every type's moves, per move.
    header = "model \\ moves of " + " ".join(f"{n:>12}" for n in names)
    report.append(header)
    for i, n in enumerate(names):
        row = []
        for m in names:
            ll, k = loglik(weights[i], tests[m], a.floor)
            row.append(f"{ll / k:12.4f}")
        report.append(f"{n:>16} " + " ".join(row))
    row = []
    for m in names:
        x, chosen, starts = tests[m]
        sizes = np.diff(np.r_[starts, len(chosen)])
        row.append(f"{-np.log(sizes).mean():12.4f}")
    report.append(f"{'uniform':>16} " + " ".join(row))
    row = []
    for m in names:
        x, chosen, starts = tests[m]
        i = names.index(m)
        s = x @ weights[i]
        top = np.maximum.reduceat(s, starts)
        sizes = np.diff(np.r_[starts, len(s)])
        best = s >= np.repeat(top, sizes) - 1e-12
        row.append(f"{(best & chosen).sum() / len(starts):12.3f}")
    # The share of held-out choices where the type's likeliest move (on
    # its own moves) is the move played.
    report.append(f"{'likeliest played':>16} " + " ".join(row))
    print("\n".join(report))
    with open(a.out, "w") as f:
        f.write("/*\n * oppmodel_weights.h -- the fitted player types of src/ai/oppmodel.c\n")
        f.write(" * (the learned opponent model), written by tools/oppmodel/train.py;\n")
        f.write(" * do not edit.  Not API.\n *\n")
        f.write(" * Types: " + ", ".join(names) + f"; L2 {a.l2}, floor {a.floor}.\n")
        f.write(" * Held-out log-likelihood per move (floor included):\n")
        for line in report:
            f.write(" *   " + line + "\n")
        f.write(" * Command:\n *   " + a.command + "\n */\n")
        f.write(f"#define AI_OPP_WEIGHTS_FEATURES {FEATURES}\n")
        f.write(f"#define AI_OPP_WEIGHTS_TYPES {len(names)}\n")
        f.write(f"static const double AI_OPP_FLOOR = {a.floor!r};\n")
        prior = ", ".join(repr(1.0 / len(names)) for _ in names)
        f.write(f"static const double AI_OPP_PRIOR[{len(names)}] = {{{prior}}};\n")
        f.write(f"static const double AI_OPP_W[{len(names)}][{FEATURES}] = {{\n")
        for n, w in zip(names, weights):
            f.write(f"    /* {n} */\n    {{" + ", ".join(f"{v:.9g}" for v in w) + "},\n")
        f.write("};\n")


if __name__ == "__main__":
    main()
