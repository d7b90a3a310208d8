#!/usr/bin/python3
"""perft.py [FILE] -- recomputes the perft counts of tests/data/perft.txt
with the independent Python reference (refscopa.Round), so the numbers the
C test keeps are checked by a second implementation of RULES.md.  Slow
(pure Python): run by hand, or by CTest with label "slow"."""
import copy
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import refscopa  # noqa: E402


def rules_of(words):
    values = {}
    for w in words.split():
        key, value = w.split("=")
        if value in ("true", "false"):
            values[key] = value == "true"
        elif value.isdigit():
            values[key] = int(value)
        else:
            values[key] = value
    return refscopa.parse_rules(values)


def perft(rnd, depth):
    if depth == 0 or rnd.over:
        return 1
    total = 0
    for move in rnd.legal_moves():
        nxt = copy.deepcopy(rnd)
        nxt.apply(move)
        total += perft(nxt, depth - 1)
    return total


def main():
    path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parents[1] / "data/perft.txt")
    passed = failed = 0
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, words, dealer, depth, nodes, deck = line.split("|")
        rnd = refscopa.Round(rules_of(words), int(dealer), deck.split())
        got = perft(rnd, int(depth))
        if got == int(nodes):
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: reference counts {got}, the file says {nodes}")
    print(f"perft: {passed} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(main())
