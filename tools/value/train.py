#!/usr/bin/python3
"""train.py -- fits the learned value of a deal boundary (src/ai/value.h).

    tools/value/train.py --boundary build/tools/value/value_data \
        --train TRAIN.txt --test HELDOUT.txt [--hidden 32] [--epochs 12] \
        [--seed 1] [--out src/ai/value_weights.h] \
        [--cases tests/data/value_cases.txt]

TRAIN and HELDOUT are lines of `value_data gen` (a boundary and
the mean of K exact solves over re-drawn stock orders).  The features come
from the C extractor itself (`value_data features`), so the script
and the library can never disagree on them; the training lines are
augmented with the five permutations of the suits other than coins.

Fits, on the first 90% of the training lines (by round), a ridge
regression and a one-hidden-layer ReLU network with a linear skip term
(numpy, Adam, fixed seed), keeps whichever predicts the last 10% better,
reports both on the held-out lines, and writes the C header of the
weights and a few test cases (a held-out line and the prediction of the
kept model on it, which the C inference must reproduce; tests/ai).
"""
import argparse
import subprocess
import sys

import numpy as np

NF = 160


def features(binary, lines, augment):
    args = [binary, "features"] + (["--augment"] if augment else [])
    out = subprocess.run(args, input="".join(lines).encode(),
                         stdout=subprocess.PIPE, check=True).stdout
    rec = np.frombuffer(out, dtype=np.float32).reshape(-1, 1 + NF)
    return rec[:, 1:].copy(), rec[:, 0].astype(np.float64)


def read_lines(path):
    with open(path) as f:
        return [l for l in f if len(l.split()) == 7]


def ridge(x, y, lam):
    a = x.T.astype(np.float64) @ x + lam * np.eye(NF)
    return np.linalg.solve(a, x.T.astype(np.float64) @ y)


class Net:
    def __init__(self, hidden, rng):
        self.w1 = (rng.standard_normal((hidden, NF)) * np.sqrt(2.0 / NF)
                   ).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = (rng.standard_normal(hidden) * 0.1).astype(np.float32)
        self.b2 = np.float32(0)
        self.wl = np.zeros(NF, np.float32)

    def params(self):
        return [self.w1, self.b1, self.w2, self.wl]

    def predict(self, x):
        h = np.maximum(x @ self.w1.T + self.b1, 0)
        return h @ self.w2 + self.b2 + x @ self.wl

    def grads(self, x, y, l2):
        pre = x @ self.w1.T + self.b1
        h = np.maximum(pre, 0)
        err = h @ self.w2 + self.b2 + x @ self.wl - y
        n = len(y)
        g_out = (2.0 / n) * err
        g_w2 = h.T @ g_out + 2 * l2 * self.w2
        g_wl = x.T @ g_out
        g_h = np.outer(g_out, self.w2) * (pre > 0)
        g_w1 = g_h.T @ x + 2 * l2 * self.w1
        g_b1 = g_h.sum(0)
        return [g_w1, g_b1, g_w2, g_wl], g_out.sum()


def train_net(x, y, xv, yv, hidden, epochs, seed, log):
    rng = np.random.default_rng(seed)
    net = Net(hidden, rng)
    net.b2 = np.float32(y.mean())
    ps = net.params()
    m = [np.zeros_like(p) for p in ps]
    v = [np.zeros_like(p) for p in ps]
    mb = vb = 0.0
    lr, b1, b2, eps, t = 1e-3, 0.9, 0.999, 1e-8, 0
    best, best_state = None, None
    xf = x.astype(np.float32)
    yf = y.astype(np.float32)
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), 512):
            idx = order[start:start + 512]
            gs, gb = net.grads(xf[idx], yf[idx], 1e-5)
            t += 1
            for p, g, mm, vv in zip(ps, gs, m, v):
                mm *= b1
                mm += (1 - b1) * g
                vv *= b2
                vv += (1 - b2) * g * g
                p -= (lr * (mm / (1 - b1 ** t)) /
                      (np.sqrt(vv / (1 - b2 ** t)) + eps)).astype(np.float32)
            mb = b1 * mb + (1 - b1) * gb
            vb = b2 * vb + (1 - b2) * gb * gb
            net.b2 = np.float32(net.b2 - lr * (mb / (1 - b1 ** t)) /
                                (np.sqrt(vb / (1 - b2 ** t)) + eps))
        if epoch == epochs // 2:
            lr *= 0.3
        mse = float(np.mean((net.predict(xv) - yv) ** 2))
        log(f"  epoch {epoch + 1}: validation mse {mse:.4f}")
        if best is None or mse < best:
            best = mse
            best_state = [p.copy() for p in ps] + [np.float32(net.b2)]
    net.w1, net.b1, net.w2, net.wl, net.b2 = best_state
    return net, best


def c_array(values):
    return ", ".join(f"{float(v):.9g}f" for v in values)


def write_header(path, net, hidden, note):
    with open(path, "w") as f:
        f.write("/*\n * value_weights.h -- the fitted network of src/ai/value.c (the learned\n"
                " * value of a deal boundary), written by tools/value/train.py; do not\n"
                " * edit.  Not API.\n *\n")
        for line in note:
            f.write(f" * {line}\n")
        f.write(" */\n")
        f.write(f"#define AI_VALUE_WEIGHTS_FEATURES {NF}\n")
        f.write(f"#define AI_VALUE_HIDDEN {hidden}\n")
        f.write(f"static const float AI_VALUE_B2 = {float(net.b2):.9g}f;\n")
        f.write(f"static const float AI_VALUE_WL[{NF}] = {{{c_array(net.wl)}}};\n")
        f.write(f"static const float AI_VALUE_B1[{hidden}] = {{{c_array(net.b1)}}};\n")
        f.write(f"static const float AI_VALUE_W1[{hidden}][{NF}] = {{\n")
        for row in net.w1:
            f.write(f"    {{{c_array(row)}}},\n")
        f.write("};\n")
        f.write(f"static const float AI_VALUE_W2[{hidden}] = {{{c_array(net.w2)}}};\n")


def report(name, pred, y, log):
    err = pred - y
    mse = float(np.mean(err ** 2))
    se = float(np.std(err ** 2) / np.sqrt(len(y)))
    log(f"{name}: mse {mse:.4f} +- {1.96 * se:.4f} (rmse {np.sqrt(mse):.3f}), "
        f"mean error {err.mean():+.4f}")
    return mse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boundary", required=True)
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--test-k", type=int, default=16,
                    help="solves (or playouts) behind each held-out label")
    ap.add_argument("--out", default="src/ai/value_weights.h")
    ap.add_argument("--cases", default="tests/data/value_cases.txt")
    a = ap.parse_args()
    log = lambda s: print(s, file=sys.stderr, flush=True)

    lines = read_lines(a.train)
    test_lines = read_lines(a.test)
    # Whole rounds (5 boundaries each) on either side of the split.
    cut = (len(lines) * 9 // 10) // 5 * 5
    x, y = features(a.boundary, lines[:cut], True)
    xv, yv = features(a.boundary, lines[cut:], False)
    xt, yt = features(a.boundary, test_lines, False)
    log(f"train {cut} lines ({len(y)} with suit permutations), validation "
        f"{len(yv)}, held-out {len(yt)}")
    sd = np.array([float(l.split()[6]) for l in test_lines])
    k_test = a.test_k
    log(f"held-out label noise (mean sd^2 / K, K={k_test}): "
        f"{np.mean(sd ** 2) / k_test:.4f}")

    # Baseline: the mean label of each deal.
    deal = lambda xs: np.argmax(xs[:, 142:147], 1)
    means = np.array([y[deal(x) == d].mean() for d in range(5)])
    report("held-out, mean per deal", means[deal(xt)], yt, log)

    best_lin, best_lam = None, None
    for lam in (1.0, 10.0, 100.0):
        w = ridge(x, y, lam)
        mse = float(np.mean((xv @ w - yv) ** 2))
        log(f"ridge lambda {lam}: validation mse {mse:.4f}")
        if best_lin is None or mse < best_lin[1]:
            best_lin, best_lam = (w, mse), lam
    lin_test = report(f"held-out, ridge (lambda {best_lam})",
                      xt @ best_lin[0], yt, log)

    net, net_val = train_net(x, y, xv, yv, a.hidden, a.epochs, a.seed, log)
    net_test = report(f"held-out, network ({a.hidden} hidden)",
                      net.predict(xt), yt, log)

    if best_lin[1] < net_val:
        log("kept: ridge")
        lin = Net(a.hidden, np.random.default_rng(0))
        lin.w1[:] = 0
        lin.w2[:] = 0
        lin.b1[:] = 0
        lin.wl = best_lin[0].astype(np.float32)
        lin.b2 = np.float32(0)
        net, kept, kept_test = lin, "ridge regression", lin_test
    else:
        log("kept: network")
        kept, kept_test = f"network, {a.hidden} ReLU units + linear skip", net_test

    note = [
        f"Kept: {kept}; held-out mean squared error {kept_test:.4f} points^2",
        f"against the K={k_test} labels of {len(yt)} boundaries (label noise",
        f"{np.mean(sd ** 2) / k_test:.4f} of it); trained on {cut} boundaries",
        "(x6 suit permutations).  Command:",
        "  " + " ".join(sys.argv[0:1] + [s for s in sys.argv[1:]]),
    ]
    write_header(a.out, net, a.hidden, note)
    with open(a.cases, "w") as f:
        f.write("# plays last table mine theirs label sd prediction: held-out\n"
                "# boundaries and the prediction of tools/value/train.py\n"
                "# (src/ai/value_weights.h) on each; tests/ai checks the C\n"
                "# inference against them.\n")
        p = net.predict(xt[:24].astype(np.float32))
        for line, v in zip(test_lines[:24], p):
            f.write(f"{line.strip()} {float(v):.6f}\n")
    log(f"wrote {a.out} and {a.cases}")


if __name__ == "__main__":
    main()
