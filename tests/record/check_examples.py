#!/usr/bin/env python3
"""check_examples.py SCOPA DIR -- every DIR/NAME.json replays (scopa replay
--json --legal) to exactly DIR/NAME.replay.json, up to the order of object
keys, of the moves in each legal list and of the captured cards in a move
(tests/data/examples/README.md), with the expected exit status.  The error
message text is compared too: ours is the one in the examples."""
import json
import pathlib
import subprocess
import sys


def norm_move(m):
    if "x" not in m:
        return m
    card, takes = m.split("x")
    return card + "x" + "+".join(sorted(takes.split("+")))


def normalize(obj):
    for r in obj.get("rounds", []):
        if "legal" in r:
            r["legal"] = [sorted(norm_move(m) for m in moves) for moves in r["legal"]]
    return obj


def main():
    scopa, folder = sys.argv[1], pathlib.Path(sys.argv[2])
    passed = failed = 0
    for rec in sorted(folder.glob("*.json")):
        if rec.name.endswith(".replay.json"):
            continue
        want = json.loads(rec.with_suffix(".replay.json").read_text())
        run = subprocess.run([scopa, "replay", "--json", "--legal", str(rec)],
                             capture_output=True, text=True, timeout=60)
        got = json.loads(run.stdout)
        status = 0 if want["valid"] else 1
        if run.returncode == status and normalize(got) == normalize(want):
            passed += 1
        else:
            failed += 1
            print(f"FAIL {rec.name}: exit {run.returncode}, want {status}")
            print("  got ", json.dumps(got)[:400])
            print("  want", json.dumps(want)[:400])
    print(f"examples: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


sys.exit(main())
