#!/usr/bin/env python3
"""test_bad_records.py SCOPA -- bad input to `scopa replay`: each kind of
fault gives exit status 1, valid JSON with "valid": false, the round and
move where the fault is (RULES.md "Game records": the first fault met
reading in order), and a message that names the problem.  None may crash
(the binary under test is the sanitizer build: a crash is exit >= 128 or
an ASan report on stderr)."""
import copy
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
BASE = json.loads((HERE.parent / "data/examples/scopa-default.json").read_text())
SCOPA = sys.argv[1]
passed = failed = 0


def replay(text, *flags):
    run = subprocess.run([SCOPA, "replay", "--json", *flags, "-"], input=text,
                         capture_output=True, text=True, timeout=60)
    return run


def case(name, text, rnd, move, words=()):
    """text: a record (dict, dumped) or raw text; rnd/move: expected."""
    global passed, failed
    if not isinstance(text, str):
        text = json.dumps(text)
    run = replay(text)
    problems = []
    if run.returncode != 1:
        problems.append(f"exit {run.returncode}")
    if "ERROR" in run.stderr or "runtime error" in run.stderr:
        problems.append("sanitizer: " + run.stderr[:300])
    try:
        out = json.loads(run.stdout)
        err = out["error"]
        if out["valid"] is not False:
            problems.append("valid is not false")
        if (err["round"], err["move"]) != (rnd, move):
            problems.append(f"at {err['round']},{err['move']} not {rnd},{move}")
        msg = err["message"]
        if not msg or any(w not in msg for w in words):
            problems.append(f"message {msg!r} lacks {words}")
    except (ValueError, KeyError, TypeError) as e:
        problems.append(f"bad output {run.stdout[:200]!r}: {e}")
    if problems:
        failed += 1
        print(f"FAIL {name}: " + "; ".join(problems))
    else:
        passed += 1


def rec(**changes):
    r = copy.deepcopy(BASE)
    r.update(changes)
    return r


def with_round(i, **changes):
    r = copy.deepcopy(BASE)
    r["rounds"][i].update(changes)
    return r


def with_move(i, j, move):
    r = copy.deepcopy(BASE)
    r["rounds"][i]["moves"][j] = move
    return r


deck0 = BASE["rounds"][0]["deck"]

# Not JSON, not a record.
case("json-1", "{", None, None, ["JSON"])
case("json-2", "", None, None, ["JSON"])
case("json-3", "[1,2]", None, None)
case("json-4", '{"format": "scopa-record/1", "rules": {}, "rounds": []} x',
     None, None, ["JSON"])
case("json-5", "\xff\xfe", None, None)
case("json-6", "[" * 100000, None, None)
case("format-1", rec(format="scopa-record/2"), None, None, ["format"])
case("format-2", {k: v for k, v in BASE.items() if k != "format"}, None, None)
# Rules.
case("rules-1", rec(rules={"target": 11.0}), None, None, ["target"])
case("rules-2", rec(rules={"target": "11"}), None, None, ["target"])
case("rules-3", rec(rules={"mandatory_capture": 1}), None, None,
     ["mandatory_capture"])
case("rules-4", rec(rules={"colour": "red"}), None, None, ["colour"])
case("rules-5", rec(rules={"players": 3, "teams": True}), None, None)
case("rules-6", rec(rules={"game": "scopone", "players": 2}), None, None)
case("rules-7", rec(rules={"refill": 1, "game": "scopone"}), None, None)
case("rules-8", rec(rules={"win_by_two": True, "tiebreak": "count_order"}),
     None, None)
case("rules-9", rec(rules={"capture": "somma"}), None, None, ["capture"])
case("rules-10", rec(rules=[]), None, None, ["rules"])
case("rules-11", rec(rules={"target": 0}), None, None, ["target"])
case("rules-12", rec(rules={"players": None}), None, None, ["players"])
case("rules-13", rec(rules={"game": "scopa\u0000x"}), None, None, ["game"])
# A long key of two-byte characters, cut to fit the message: the answer
# must still be valid JSON (valid UTF-8).
case("rules-14", rec(rules={"\u00e9" * 100: 1}), None, None, ["unknown"])
case("rules-15", rec(rules={"\U0001F0A1" * 50: True}), None, None)
# Seats.
case("seats-1", rec(seats=["Anna"]), None, None, ["seats"])
case("seats-2", rec(seats=["Anna", 7]), None, None)
# Rounds: dealer, deck, kings, moves.
case("rounds-1", rec(rounds={}), None, None, ["rounds"])
case("dealer-1", with_round(0, dealer=2), 0, None, ["dealer"])
case("dealer-2", with_round(1, dealer=1), 1, None, ["dealer"])
case("dealer-3", with_round(0, dealer="1"), 0, None, ["dealer"])
case("deck-1", with_round(0, deck=deck0[:39]), 0, None, ["39"])
case("deck-2", with_round(0, deck=deck0[:39] + [deck0[0]]), 0, None, ["twice"])
case("deck-3", with_round(0, deck=["5C"] + deck0[1:]), 0, None)
case("deck-4", with_round(0, deck=["05c"] + deck0[1:]), 0, None)
case("deck-5", with_round(0, deck=deck0 + ["1d"]), 0, None, ["41"])
case("deck-6", with_round(2, deck=None), 2, None, ["deck"])
kings = ["10d", "10c", "10s"]
rest = [c for c in deck0 if c not in kings]
# Dealer 1, 2 players: the table is deck[6..9].
case("kings-1", with_round(0, deck=rest[:6] + kings + rest[6:]), 0, None,
     ["kings"])
case("move-1", with_move(0, 0, "3s"), 0, 0, ["cannot be laid"])
case("move-2", with_move(0, 3, "9zx1d"), 0, 3, ["not a card"])
case("move-3", with_move(0, 5, "7cx1s"), 0, 5)
case("move-4", with_move(1, 0, "7d"), 1, 0, ["not in the hand"])
case("move-5", with_move(0, 2, 5), 0, 2, ["string"])
case("move-6", with_move(0, 0, "3sx2c+1c+1c"), 0, 0, ["twice"])
r = copy.deepcopy(BASE)
r["rounds"][0]["moves"].append("1d")
case("move-7", r, 0, 36, ["over"])
r = copy.deepcopy(BASE)
del r["rounds"][2]["moves"]
case("move-8", r, 2, None, ["moves"])
# Rounds that may not follow.
r = copy.deepcopy(BASE)
r["rounds"].append(copy.deepcopy(BASE["rounds"][0]))
r["rounds"][-1]["dealer"] = 0
case("after-1", r, 5, None, ["ended"])
r = copy.deepcopy(BASE)
r["rounds"][0]["moves"] = r["rounds"][0]["moves"][:10]
case("after-2", r, 1, None, ["unfinished"])
# The shared invalid example.
case("example-1",
     (HERE.parent / "data/examples/invalid-single-card-first.json").read_text(),
     4, 24, ["5s", "5c"])

# A usage error is exit 2, and a missing file too.
run = subprocess.run([SCOPA, "replay", "--bogus"], capture_output=True)
ok = run.returncode == 2
run = subprocess.run([SCOPA, "replay", "/nonexistent/x.json"], capture_output=True)
ok &= run.returncode == 2
passed, failed = passed + ok, failed + (not ok)
if not ok:
    print("FAIL usage: exit status is not 2")

print(f"bad-records: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
