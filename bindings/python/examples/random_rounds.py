#!/usr/bin/python3
"""random_rounds.py -- plays 1,000 rounds with uniformly random legal moves
and prints statistics of the scoring.

    PYTHONPATH=bindings/python python3 bindings/python/examples/random_rounds.py
        [--rounds N] [--seed S] [--rules '{"players": 3}' | --preset assi]
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import scopa  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default=None, help="rules as JSON")
    ap.add_argument("--preset", default=None, help=", ".join(scopa.PRESETS))
    args = ap.parse_args()
    rules = json.loads(args.rules) if args.rules else (args.preset or {})
    rng = random.Random(args.seed)
    cats = ["scope", "carte", "denari", "settebello", "primiera",
            "re_bello", "napola"]
    sides = scopa.Game(rules).sides
    points = [dict((c, 0) for c in cats) for _ in range(sides)]
    totals, moves, choices, scope_rounds = [0] * sides, 0, 0, 0
    start = time.perf_counter()
    for n in range(args.rounds):
        g = scopa.Game(rules, first_dealer=n % scopa.Game(rules).players)
        r = g.new_round(seed=rng.getrandbits(64))
        while r.current_seat is not None:
            legal = r.legal_moves()
            choices += len(legal)
            r.apply(rng.choice(legal))
            moves += 1
        score = r.score()
        scope_rounds += any(s["scope"] for s in score)
        for i, s in enumerate(score):
            totals[i] += s["round_total"]
            for c in cats:
                points[i][c] += s["points"][c]
    secs = time.perf_counter() - start
    print("rules: %s" % json.dumps(scopa.check_rules(rules)))
    print("%d random rounds, %d moves in %.2f s (%.0f rounds/s, %.0f moves/s)"
          % (args.rounds, moves, secs, args.rounds / secs, moves / secs))
    print("legal moves per turn: %.2f on average" % (choices / moves))
    print("rounds with at least one scopa: %.1f%%" %
          (100.0 * scope_rounds / args.rounds))
    print("%-12s" % "per round" + "".join("%10s" % ("side %d" % i)
                                          for i in range(sides)))
    for c in cats + ["total"]:
        row = [totals[i] if c == "total" else points[i][c]
               for i in range(sides)]
        print("%-12s" % c + "".join("%10.3f" % (v / args.rounds)
                                    for v in row))


if __name__ == "__main__":
    main()
