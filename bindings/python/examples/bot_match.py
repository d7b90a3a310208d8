#!/usr/bin/python3
"""bot_match.py -- pits two bots against each other on duplicate deals
(each deal played twice, seats swapped) and prints A's mean points per
deal minus B's, with a 95% confidence interval.

    PYTHONPATH=bindings/python python3 bindings/python/examples/bot_match.py
        --a greedy --b random [--deals 200] [--movetime-ms 20] [--seed 1]
"""
import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import scopa  # noqa: E402


def play(deck_seed, dealer, bots, movetime, seed):
    """One 2-player round; bots[seat] plays seat.  Returns the round
    totals per seat and the time each seat spent."""
    g = scopa.Game({"players": 2})
    r = g.new_round(dealer=dealer, seed=deck_seed)
    spent = [0.0, 0.0]
    n = 0
    while r.current_seat is not None:
        seat = r.current_seat
        t = time.perf_counter()
        move = bots[seat].choose(r, movetime_ms=movetime, seed=seed + n)
        spent[seat] += time.perf_counter() - t
        r.apply(move)
        n += 1
    return [s["round_total"] for s in r.score()], spent


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--a", default="greedy", help=", ".join(scopa.bot_names()))
    ap.add_argument("--b", default="random")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--movetime-ms", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    a, b = scopa.Bot(args.a), scopa.Bot(args.b)
    rng = random.Random(args.seed)
    diffs, time_a, time_b, moves = [], 0.0, 0.0, 0
    for d in range(args.deals):
        deck_seed, dealer = rng.getrandbits(64), rng.randrange(2)
        pts1, t1 = play(deck_seed, dealer, [a, b], args.movetime_ms, d)
        pts2, t2 = play(deck_seed, dealer, [b, a], args.movetime_ms, d)
        diffs.append(((pts1[0] - pts1[1]) + (pts2[1] - pts2[0])) / 2.0)
        time_a += t1[0] + t2[1]
        time_b += t1[1] + t2[0]
        moves += 36
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / max(1, n - 1)
    ci = 1.96 * math.sqrt(var / n)
    print("%s vs %s, %d duplicate deals (%d rounds)" % (a.name, b.name, n,
                                                        2 * n))
    print("points per deal, %s minus %s: %+.3f +/- %.3f (95%%)" %
          (a.name, b.name, mean, ci))
    print("ms per move: %s %.2f, %s %.2f" % (a.name, 1000 * time_a / moves,
                                             b.name, 1000 * time_b / moves))


if __name__ == "__main__":
    main()
