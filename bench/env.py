#!/usr/bin/python3
"""env.py -- the learning environments' speed (docs/env.md "Speed"), as
medians of several runs, beside the C playout's plays per second
(`scopa bench`, one thread) as ratios:

  aec      ScopaEnv in PettingZoo's loop: last() observes (features and
           mask, fresh arrays) at every step, and the action is a
           uniformly random legal one read from the observed mask
  gym      ScopaGymEnv against the random bot, the action read from
           info["action_mask"] likewise (the bot's moves are inside the
           step and not counted)
  vector   scopa.vector.VecEnv (copy=False), every environment's
           observation and mask written at every step, the actions read
           from the masks (the first legal action of each, by argmax)
  vector_1024  the same at --big-envs environments (1024)
  compact  the same at --big-envs environments with VecEnv(compact=True):
           int8 observations written by C
  compact_noscores  the same with scores=False (no info["score"])
  bench_env_compact  bench_env at --big-envs environments, --compact 1
  bench_env  the same batched step driven from C, a uniformly random
           legal action per environment (build/bench/bench_env)

Each rate is given by the wall clock and by the process's CPU time: on a
machine other work is using, the CPU-time rate is what the code does per
second of a core it has.

    python3 bench/env.py [--runs 5] [--seconds 3] [--envs 256]
                         [--big-envs 1024] [--threads 2]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

import numpy as np

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "bindings", "python"))
import scopa  # noqa: E402


def timed(run, seconds):
    """run(deadline) -> steps; returns (steps per wall s, per CPU s)."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = run(wall + seconds)
    return (steps / (time.perf_counter() - wall),
            steps / (time.process_time() - cpu))


def aec(deadline):
    env, rng = scopa.ScopaEnv(), random.Random(1)
    steps = episode = 0
    while time.perf_counter() < deadline:
        env.reset(seed=episode)
        episode += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps


def gym(deadline):
    env, rng = scopa.ScopaGymEnv(opponent="random"), random.Random(1)
    steps = episode = 0
    while time.perf_counter() < deadline:
        obs, info = env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            legal = info["action_mask"].view(np.bool_).nonzero()[0]
            obs, reward, done, trunc, info = env.step(
                int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps


def vector(envs, threads, compact=False, scores=True):
    def run(deadline):
        vec = scopa.vector.VecEnv(envs, seed=1, threads=threads, copy=False,
                                  compact=compact, scores=scores)
        obs, info = vec.reset()
        steps = 0
        while time.perf_counter() < deadline:
            obs, rew, term, trunc, info = vec.step(
                info["action_mask"].argmax(axis=1))
            steps += envs
        vec.close()
        return steps
    return run


def bench_env(envs, threads, seconds, compact=0):
    exe = os.path.join(TOP, "build", "bench", "bench_env")
    if not os.path.exists(exe):
        return None
    out = subprocess.run([exe, "--envs", str(envs), "--threads",
                          str(threads), "--seconds", str(seconds),
                          "--compact", str(compact)],
                         capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return r["steps_per_s"], r["steps_per_cpu_s"]


def playout(seconds):
    exe = os.path.join(TOP, "build", "scopa")
    out = subprocess.run([exe, "bench", "--json", "--seconds", str(seconds)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["plays_per_second"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--big-envs", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    rows = {k: [] for k in ("aec", "gym", "vector", "vector_1024",
                            "compact", "compact_noscores", "bench_env",
                            "bench_env_compact")}
    plays = []
    for _ in range(args.runs):
        rows["aec"].append(timed(aec, args.seconds))
        rows["gym"].append(timed(gym, args.seconds))
        rows["vector"].append(timed(vector(args.envs, args.threads),
                                    args.seconds))
        rows["vector_1024"].append(timed(vector(args.big_envs,
                                                args.threads), args.seconds))
        rows["compact"].append(timed(vector(args.big_envs, args.threads,
                                            True), args.seconds))
        rows["compact_noscores"].append(timed(
            vector(args.big_envs, args.threads, True, False), args.seconds))
        c = bench_env(args.envs, args.threads, args.seconds)
        if c:
            rows["bench_env"].append(c)
        c = bench_env(args.big_envs, args.threads, args.seconds, 1)
        if c:
            rows["bench_env_compact"].append(c)
        plays.append(playout(args.seconds))
    play = statistics.median(plays)
    report = {"runs": args.runs, "seconds": args.seconds,
              "envs": args.envs, "big_envs": args.big_envs,
              "threads": args.threads,
              "load_average": os.getloadavg()[0],
              "playout_plays_per_s": play}
    for name, got in rows.items():
        if not got:
            continue
        wall = statistics.median(r[0] for r in got)
        cpu = statistics.median(r[1] for r in got)
        report[name] = {"steps_per_s": round(wall),
                        "steps_per_cpu_s": round(cpu),
                        "min": round(min(r[0] for r in got)),
                        "max": round(max(r[0] for r in got)),
                        "playout_ratio": round(play / wall, 1)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
