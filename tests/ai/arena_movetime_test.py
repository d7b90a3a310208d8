#!/usr/bin/env python3
"""arena_movetime_test.py -- `scopa arena --movetime-a MS` sets bot A's
budget only and `--movetime-b MS` bot B's only; `--movetime MS` both.
Under node budgets a run is deterministic, so A's budget shows in the
result: `best` against `rules` (which ignores its budget) scores the same
with `--movetime-a 1 --movetime-b 300` as with `--movetime 1`, and
differently with `--movetime 300` (which keeps the test able to fail).
The JSON names both budgets (`movetime_ms`), a bot's own default where no
flag gave one.

usage: arena_movetime_test.py SCOPA
"""
import json
import subprocess
import sys

SCOPA = sys.argv[1]


def arena(*args):
    out = subprocess.run([SCOPA, "arena", "--a", "best", "--b", "rules",
                          "--deals", "4", "--seed", "5", "--json", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


split = arena("--movetime-a", "1", "--movetime-b", "300")
split_rev = arena("--movetime-b", "300", "--movetime-a", "1")
low = arena("--movetime", "1")
high = arena("--movetime", "300")
assert split["movetime_ms"] == [1, 300], split["movetime_ms"]
assert split_rev["movetime_ms"] == [1, 300], split_rev["movetime_ms"]
assert low["movetime_ms"] == [1, 1], low["movetime_ms"]
assert high["movetime_ms"] == [300, 300], high["movetime_ms"]
assert low["diff"] != high["diff"], (
    "best plays the same at 1 and 300 ms: this test cannot tell them apart")
assert split["diff"] == low["diff"], (split["diff"], low["diff"])
assert split_rev["diff"] == low["diff"], (split_rev["diff"], low["diff"])

only_b = arena("--movetime-b", "40")
assert only_b["movetime_ms"][1] == 40, only_b["movetime_ms"]
assert only_b["movetime_ms"][0] > 0, "A's own default is reported"
print("arena movetime: ok", split["diff"], high["diff"])
