"""Shared setup of the Python tests: the package from bindings/python, the
library from SCOPA_LIB (set by CTest), the reference implementation from
tests/oracle, and random rules as the outside checkers draw them."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(TOP, "bindings", "python"))
sys.path.insert(0, os.path.join(TOP, "tests", "oracle"))

BOOLS = ["kings_redeal", "mandatory_capture", "fewest_cards", "ace_sweeps",
         "ace_sweep_scopa", "re_bello", "napola"]


def random_rules(rng):
    """Half the time the older options only, else every option of RULES.md
    (six seats, the ace options, leftovers, the new scoring...) as the
    oracle's generator draws them."""
    if rng.random() < 0.5:
        import gen_records
        return gen_records.random_rules_mixed(rng)
    rules = {}
    game = rng.choice(["scopa"] * 4 + ["scopone", "scopone_scientifico"])
    if game != "scopa" or rng.random() < 0.2:
        rules["game"] = game
    if game == "scopa":
        players = rng.choice([2, 2, 3, 4])
        rules["players"] = players
        if players == 4 and rng.random() < 0.6:
            rules["teams"] = rng.random() < 0.6
        if rng.random() < 0.35:
            rules["refill"] = rng.choice([1, 3])
    for k in BOOLS:
        if rng.random() < 0.3:
            rules[k] = rng.random() < 0.5
    if rng.random() < 0.3:
        rules["capture"] = rng.choice(["match", "quindici"])
    if rng.random() < 0.4:
        rules["primiera"] = rng.choice(["standard", "faces_zero", "sevens",
                                        "off"])
    return rules


def scopa_bin():
    if os.environ.get("SCOPA_BIN"):
        return os.environ["SCOPA_BIN"]
    """The `scopa` command next to the library under test."""
    lib = os.environ.get("SCOPA_LIB")
    if lib:
        path = os.path.join(os.path.dirname(lib), "scopa")
        if os.path.exists(path):
            return path
    return os.path.join(TOP, "build", "scopa")
