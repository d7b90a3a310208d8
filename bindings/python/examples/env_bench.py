#!/usr/bin/python3
"""env_bench.py -- steps per second of the learning environments with
uniformly random legal actions: the PettingZoo-style ScopaEnv (observation
and mask built at every step) and the Gymnasium-style ScopaGymEnv against
the random bot.

    PYTHONPATH=bindings/python python3 bindings/python/examples/env_bench.py
        [--seconds 3]
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import scopa  # noqa: E402


def bench_aec(seconds, observe):
    env, rng = scopa.ScopaEnv(), random.Random(1)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episodes)
        episodes += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last(observe)
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(env.legal_actions()))
            steps += 1
    secs = time.perf_counter() - start
    return steps / secs, episodes / secs


def bench_gym(seconds):
    env, rng = scopa.ScopaGymEnv(opponent="random"), random.Random(1)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, info = env.reset(seed=episodes)
        episodes += 1
        done = False
        while not done:
            obs, reward, done, trunc, info = env.step(
                rng.choice(info["legal_actions"]))
            steps += 1
    secs = time.perf_counter() - start
    return steps / secs, episodes / secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--seconds", type=float, default=3)
    args = ap.parse_args()
    s, e = bench_aec(args.seconds, True)
    print("ScopaEnv (AEC), observing every step: %8.0f steps/s %7.0f "
          "episodes/s" % (s, e))
    s, e = bench_aec(args.seconds, False)
    print("ScopaEnv (AEC), masks only:           %8.0f steps/s %7.0f "
          "episodes/s" % (s, e))
    s, e = bench_gym(args.seconds)
    print("ScopaGymEnv vs random bot:            %8.0f agent steps/s %7.0f "
          "episodes/s" % (s, e))


if __name__ == "__main__":
    main()
