#!/usr/bin/python3
"""engine_latency.py -- `go` (and `hint`) latency of each bot through the
`scopa engine` protocol: positions from random 2-player rounds, one request
per position and bot, timed from write to answer.

    PYTHONPATH=bindings/python python3 bindings/python/examples/engine_latency.py
        [--scopa build/scopa] [--rounds 3] [--movetime-ms 0] [--hint]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import scopa  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..",
                                   ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--scopa", default=os.path.join(TOP, "build", "scopa"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--movetime-ms", type=int, default=0,
                    help="0: each bot's default")
    ap.add_argument("--hint", action="store_true", help="time hint too")
    args = ap.parse_args()
    proc = subprocess.Popen([args.scopa, "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)

    def ask(obj):
        proc.stdin.write((json.dumps(obj) + "\n").encode())
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    bots = ask({"cmd": "hello"})["bots"]
    rng, views = random.Random(1), []
    for s in range(args.rounds):
        r = scopa.Game({"players": 2}).new_round(seed=s)
        while r.current_seat is not None:
            views.append(r.view(r.current_seat))
            r.apply(rng.choice(r.legal_moves()))
    cmds = ["go", "hint"] if args.hint else ["go"]
    print("%d positions, movetime_ms %s" %
          (len(views), args.movetime_ms or "default"))
    for cmd in cmds:
        for bot in bots:
            times = []
            for i, v in enumerate(views):
                req = dict(v, cmd=cmd, bot=bot, seed=i)
                if args.movetime_ms:
                    req["movetime_ms"] = args.movetime_ms
                t = time.perf_counter()
                ans = ask(req)
                times.append(time.perf_counter() - t)
                if "error" in ans:
                    sys.exit("error: %s" % ans["error"])
            times.sort()
            print("%-4s %-8s mean %7.2f ms  median %7.2f ms  p95 %7.2f ms  "
                  "max %7.2f ms" % (cmd, bot, 1e3 * sum(times) / len(times),
                                    1e3 * times[len(times) // 2],
                                    1e3 * times[int(len(times) * 0.95)],
                                    1e3 * times[-1]))
    proc.stdin.close()
    proc.wait()


if __name__ == "__main__":
    main()
