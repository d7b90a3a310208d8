#!/usr/bin/python3
"""env_size.py -- the size of the game per preset, for docs/env.md: plays
per round, rounds per game and legal moves per turn (uniformly random
play), and information sets.

Information sets are counted with Knuth's estimator (1975): a random
path through the game tree (a uniformly random deal and dealer, then
uniformly random legal moves) weighs each node it passes by the inverse
of its probability, P * 40! * (product of the legal-move counts so far);
dividing by the number of histories in the acting seat's information
state at that node, and averaging over paths, estimates the number of
information sets at each depth; their sum is the total.  The histories
in an information state are the deck orders consistent with it: with
deals of a batch of cards whenever hands are empty (every preset), each
card another seat played is known to come from the batch it was holding
then, so the count is t! * (own batches b!) * (other seats' batches
b! / (b - p)!, p of them played) * u!, with t the table's first cards
and u the cards the seat has not seen.  Void deals (kings_redeal) are
ignored: they change the counts by well under 1%.

    PYTHONPATH=bindings/python python3 bench/env_size.py [--rounds N]
"""
import argparse
import math
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..",
                                "bindings", "python"))
import scopa  # noqa: E402
from scopa import env as senv  # noqa: E402

H, B = senv._lib.INFOSTATE_HEADER, senv._lib.INFOSTATE_PLAY
LOG_40 = math.lgamma(41)


def lfact(n):
    return math.lgamma(n + 1)


def batches(info):
    """A seat's batches of cards from its information state: a list of
    sets of cards, and the set of cards it played."""
    out = [set(np.flatnonzero(info[40:80]))]
    played = set()
    for t in range(40):
        block = info[H + t * B:H + (t + 1) * B]
        if block[0]:
            played.add(int(np.flatnonzero(block[6:46])[0]))
        got = set(np.flatnonzero(block[86:126]))
        if got:
            out.append(got)
    return out, played


def log_histories(env, seat):
    """log of the number of deck orders consistent with seat's
    information state now (see the top)."""
    r = env.round
    log = lfact(len(r.initial_table))
    for k in range(env.players):
        mine, played = batches(env.infostate("player_%d" % k))
        for b in mine:
            if k == seat:
                log += lfact(len(b))
            else:
                p = len(b & played)
                log += lfact(len(b)) - lfact(len(b) - p)
    seen = len(r.hand(seat)) + len(r.table) + \
        sum(len(r.pile(s)) for s in range(env.sides))
    return log + lfact(40 - seen)


def logsumexp(xs):
    m = max(xs)
    return m + math.log(sum(math.exp(x - m) for x in xs))


def measure(preset, rounds, rng):
    env = scopa.ScopaEnv(preset, observation="infostate")
    by_depth = {}
    moves, plays = [], []
    for n in range(rounds):
        env.reset(seed=n)
        log_w = math.log(env.players) + LOG_40
        depth = 0
        while not env.terminations[env.agent_selection]:
            seat = env._seat[env.agent_selection]
            legal = env.legal_actions()
            by_depth.setdefault(depth, []).append(
                log_w - log_histories(env, seat))
            moves.append(len(legal))
            log_w += math.log(len(legal))
            env.step(int(rng.choice(legal)))
            depth += 1
        plays.append(depth)
    # mean over paths at each depth, then the sum over depths
    per_depth = [logsumexp(v) - math.log(rounds) for v in by_depth.values()]
    first = per_depth[0]
    total = logsumexp(per_depth)
    game = scopa.ScopaEnv(preset, whole_game=True)
    lengths = []
    for n in range(max(20, rounds // 10)):
        game.reset(seed=n)
        steps = 0
        for agent in game.agent_iter():
            obs, rew, term, trunc, info = game.last(observe=False)
            if term:
                game.step(None)
                continue
            game.step(int(rng.choice(game.legal_actions())))
            steps += 1
        lengths.append(steps)
    return {"preset": preset, "players": env.players,
            "plays": (min(plays), max(plays)),
            "moves_mean": float(np.mean(moves)), "moves_max": max(moves),
            "game_steps": float(np.mean(lengths)),
            "log10_first": first / math.log(10),
            "log10_infosets": total / math.log(10)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--rounds", type=int, default=1000)
    args = ap.parse_args()
    rng = random.Random(1)
    print("| preset | players | plays per round | AEC steps per game "
          "(mean) | legal moves per turn (mean / max) | information sets "
          "at the first move | information sets |")
    print("|---|---|---|---|---|---|---|")
    for preset in scopa.PRESETS:
        m = measure(preset, args.rounds, rng)
        print("| %s | %d | %d | %.0f | %.2f / %d | 10^%.1f | 10^%.1f |" %
              (m["preset"], m["players"], m["plays"][1], m["game_steps"],
               m["moves_mean"], m["moves_max"], m["log10_first"],
               m["log10_infosets"]))


if __name__ == "__main__":
    main()
