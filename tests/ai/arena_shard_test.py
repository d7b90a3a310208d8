#!/usr/bin/env python3
"""arena_shard_test.py -- `scopa arena --shard I/N` and `--merge`: the
shards of a run, merged, report exactly what the whole run reports (every
figure but the clock's), for deals, games and three players (whose deal
figures are thirds); a missing, repeated or foreign shard is refused.
`--games` plays duplicate games, one per seating with the same seed and
first dealer: a bot against itself wins exactly its seat's share (before,
A's side dealt first in every game, which loses ~60% of plain scopone).

usage: arena_shard_test.py SCOPA
"""
import json
import os
import subprocess
import sys
import tempfile

SCOPA = sys.argv[1]
TIMING = {"a_ms_per_move", "b_ms_per_move", "a_cpu_ms_per_move",
          "b_cpu_ms_per_move", "threads"}


def arena(*args):
    out = subprocess.run([SCOPA, "arena", *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def merge(paths, ok=True):
    p = subprocess.run([SCOPA, "arena", "--merge", "--json", *paths],
                       capture_output=True, text=True)
    if not ok:
        assert p.returncode != 0, f"merge of {paths} accepted"
        return None
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def strip(o):
    o = {k: v for k, v in o.items() if k not in TIMING}
    s = dict(o["sums"])
    for k in ("ms", "cpu_ms"):
        s.pop(k)
    o["sums"] = s
    return o


def check(tmp, name, shards, args):
    whole = arena(*args)
    paths, parts = [], []
    for i in range(shards):
        part = arena(*args, "--shard", f"{i}/{shards}", "--threads", "2")
        parts.append(part)
        path = os.path.join(tmp, f"{name}-{i}.json")
        with open(path, "w") as f:
            json.dump(part, f)
        paths.append(path)
    # each shard plays its own part of the run, not the whole of it
    n = "games" if "--games" in args else "deals"
    assert sum(p[n] for p in parts) == whole[n], (name, parts)
    assert all(p[n] < whole[n] for p in parts), name
    merged = merge(list(reversed(paths)))
    assert strip(merged) == strip(whole), (name, merged, whole)
    moves = [sum(p["sums"]["moves"][b] for p in parts) for b in (0, 1)]
    assert moves == whole["sums"]["moves"], (name, moves)
    merge(paths[:-1], ok=False)                  # a shard missing
    merge(paths + paths[:1], ok=False)           # a shard twice
    return paths


def mirror(three):
    """A deterministic bot against itself: the games of a set are the same
    game with the names swapped, so A wins exactly one game of each set
    (a half with two sides, a third with three players)."""
    for args, share in ((["--preset", "scopone"], 2),
                        (["--preset", "scientifico"], 2),
                        ([], 2),
                        (["--rules", three], 3)):
        for bot in ("greedy", "rules"):
            n = 6 * share
            o = arena("--a", bot, "--b", bot, "--games", str(n),
                      "--seed", "7", *args)
            assert o["unfinished"] == 0, (args, o)
            assert o["a_wins"] == n // share, (bot, args, o)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        deals = check(tmp, "deals", 3,
                      ["--a", "rules", "--b", "greedy", "--deals", "31",
                       "--seed", "5"])
        check(tmp, "games", 2,
              ["--a", "greedy", "--b", "random", "--games", "5",
               "--seed", "2"])
        rules = os.path.join(tmp, "three.json")
        with open(rules, "w") as f:
            json.dump({"game": "scopa", "players": 3}, f)
        mirror(rules)
        three = check(tmp, "three", 4,
                      ["--a", "greedy", "--b", "random", "--deals", "14",
                       "--seed", "9", "--rules", rules])
        # shards of different runs do not merge
        merge([deals[0], deals[1], three[2]], ok=False)
        other = arena("--a", "rules", "--b", "greedy", "--deals", "31",
                      "--seed", "6", "--shard", "2/3")
        path = os.path.join(tmp, "other.json")
        with open(path, "w") as f:
            json.dump(other, f)
        merge([deals[0], deals[1], path], ok=False)
    bad = subprocess.run([SCOPA, "arena", "--a", "greedy", "--b", "random",
                          "--deals", "3", "--shard", "3/3"],
                         capture_output=True)
    assert bad.returncode == 2, "--shard 3/3 accepted"
    print("ok")


main()
