#!/usr/bin/python3
"""gen_records: random game records for differential testing of
`scopa replay`.

    python3 gen_records.py --seed S --count N --out DIR

writes DIR/rec-S-00000.json ... : valid records (random rule options, random
decks, games played with uniformly random legal moves; some played to the
end of the game, some cut mid-round or between rounds) and invalid ones
(the same, mutated: an illegal move, a duplicated or missing card, a wrong
dealer, a badly typed rule value, an unknown option, a round after the end,
a non-canonical card, malformed JSON, ...).  The kind of each record is in
the file name's companion list DIR/index.txt ("file kind").

Only cases with one clear reading of RULES.md are generated (the readings
listed in README.md as ambiguous are left out), so a disagreement between
the reference and the C binary on these records is worth a look.

Standard library only; uses refscopa.py (same folder) to play legal moves.
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refscopa  # noqa: E402

BOOL_OPTS = ["kings_redeal", "mandatory_capture", "fewest_cards", "ace_sweeps",
             "ace_sweep_scopa", "re_bello", "napola", "win_by_two",
             "last_card_scopa", "most_sevens", "all_coins_wins"]


PROFILE = {"name": "mixed"}


def endgame_rules(rng, rules):
    """Profile "endgame": small targets and the end-of-game options, so that
    ties, count_order steps, win_by_two and cappotto happen often."""
    rules["target"] = rng.choice([1, 2, 2, 3, 3, 4, 5, 6])
    rules.pop("win_by_two", None)
    r = rng.random()
    if r < 0.4:
        rules["tiebreak"] = "count_order"
    elif r < 0.6:
        rules["tiebreak"] = "count_order_on_tie"
    else:
        rules.pop("tiebreak", None)
        if r < 0.8:
            rules["win_by_two"] = True
    rules["cappotto"] = rng.choice([0, 0, 1, 2, 3, 4])
    if rng.random() < 0.2:
        rules["all_coins_wins"] = True
    return valid_end(rng, rules)


def random_rules(rng):
    rules = random_rules_mixed(rng)
    if PROFILE["name"] == "endgame":
        rules = endgame_rules(rng, rules)
    return rules


def random_rules_mixed(rng):
    rules = {}
    game = rng.choice(["scopa"] * 4 + ["scopone", "scopone_scientifico"])
    if game != "scopa" or rng.random() < 0.2:
        rules["game"] = game
    if game == "scopa":
        players = rng.choice([2, 2, 2, 3, 4, 6, 6])
        if players != 2 or rng.random() < 0.2:
            rules["players"] = players
        if players in (4, 6) and rng.random() < 0.6:
            rules["teams"] = rng.random() < 0.6
        elif rng.random() < 0.1:
            rules["teams"] = False
        if players == 6 and rules.get("teams") and rng.random() < 0.7:
            rules["team_size"] = rng.choice([2, 3])
        elif rng.random() < 0.05:
            rules["team_size"] = 2
        if rng.random() < 0.35:
            rules["refill"] = rng.choice([1, 1, 3])
    else:
        if rng.random() < 0.3:
            rules["players"] = 4
        if rng.random() < 0.3:
            rules["teams"] = True
    for k in BOOL_OPTS:
        if rng.random() < 0.3:
            rules[k] = rng.random() < 0.5
    if rng.random() < 0.3:
        rules["capture"] = rng.choice(["match", "quindici"])
    if rules.get("capture", "match") == "match" and rng.random() < 0.25:
        rules["single_match_first"] = rng.random() < 0.3
    if rng.random() < 0.2:
        rules["max_capture"] = rng.choice([0, 2, 2])
    if game != "scopone_scientifico" and rng.random() < 0.25:
        rules["deal_bonus"] = rng.choice(["off", "fifteen", "fifteen"])
    if rules.get("ace_sweeps") or rng.random() < 0.15:
        rules["ace_sweeps"] = True
        for key, values in (("ace_sweep_with_ace", ["no", "yes", "choice"]),
                            ("ace_first_play", ["sweeps", "no_sweep", "no_ace"]),
                            ("ace_empty_table", ["laid", "taken"]),
                            ("ace_sweep_optional", [False, True])):
            if rng.random() < 0.45:
                rules[key] = rng.choice(values)
    if rng.random() < 0.25:
        rules["leftovers"] = rng.choice(["last_capture", "dealer", "nobody", "nobody"])
    if rng.random() < 0.4:
        rules["primiera"] = rng.choice(["standard", "faces_zero", "sevens", "off", "sum",
                                        "complete_only"])
    if rng.random() < 0.2:
        rules["all_sevens"] = rng.choice([0, 1, 2, 5])
    if rng.random() < 0.7:
        rules["target"] = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 11, 11, 16, 21])
    if rng.random() < 0.4:
        rules["tiebreak"] = rng.choice(["extra_round", "count_order", "count_order",
                                        "count_order_on_tie"])
    if rng.random() < 0.3:
        rules["cappotto"] = rng.choice([0, 1, 2, 3, 4, 7])
    if rng.random() < 0.15:
        rules["lowest_wins"] = True
    return valid_end(rng, rules)


def valid_end(rng, rules):
    """Drops the end-of-game options RULES.md forbids together."""
    if rules.get("tiebreak", "extra_round") != "extra_round":
        rules.pop("win_by_two", None)
    if rules.get("lowest_wins"):
        for k in ("win_by_two", "cappotto", "all_coins_wins", "tiebreak"):
            rules.pop(k, None)
    return rules


def random_deck(rng, rules, dealer, allow_kings=False):
    """A shuffled deck; no void deal unless allow_kings (kings_redeal off)."""
    while True:
        deck = list(refscopa.ALL_CARDS)
        rng.shuffle(deck)
        pos = rules.hand_size * rules.players
        table = deck[pos:pos + rules.table_size]
        kings = sum(1 for c in table if refscopa.rank(c) == 10)
        if allow_kings and not rules.kings_redeal and rules.table_size and rng.random() < 0.15:
            # put three or four kings on the table on purpose (legal here)
            ks = [c for c in deck if refscopa.rank(c) == 10][:rng.choice([3, 4])]
            rest = [c for c in deck if c not in ks]
            tbl = ks + rest[:4 - len(ks)]
            rng.shuffle(tbl)
            rest = rest[4 - len(ks):]
            deck = rest[:pos] + tbl + rest[pos:]
            return deck
        if kings >= 3 and rules.kings_redeal and rules.table_size:
            continue
        return deck


def play_game(rng, rules_obj, max_rounds, cut_mid_round):
    """Play a game with random legal moves. Returns list of round dicts and
    whether the game finished."""
    rules = refscopa.parse_rules(rules_obj)
    dealer = rng.randrange(rules.players)
    rounds = []
    totals = [0] * rules.sides
    finished = False
    cut_at_round = rng.randrange(max_rounds) if cut_mid_round else None
    for ri in range(max_rounds):
        deck = random_deck(rng, rules, dealer, allow_kings=True)
        rnd = refscopa.Round(rules, dealer, deck)
        moves = []
        total_moves = 40 - rules.table_size
        stop = None
        if cut_at_round is not None and ri == cut_at_round:
            stop = rng.randrange(total_moves)
        while not rnd.over:
            if stop is not None and len(moves) == stop:
                break
            m = rng.choice(rnd.legal_moves())
            if m.captured is not None and rng.random() < 0.5:
                caps = list(m.captured)
                rng.shuffle(caps)  # captured cards in any order
                m = refscopa.Move(m.card, caps)
            moves.append(str(m))
            rnd.apply(m)
        rounds.append({"dealer": dealer, "deck": deck, "moves": moves})
        if not rnd.over:
            break
        sides = rnd.score()
        prev = list(totals)
        totals = [totals[s] + sides[s]["round_total"] for s in range(rules.sides)]
        if refscopa.game_winner(rules, prev, sides, totals) is not None:
            finished = True
            break
        dealer = (dealer + 1) % rules.players
    return rounds, finished


def base_record(rng, kind):
    rules_obj = random_rules(rng)
    rules = refscopa.parse_rules(rules_obj)
    max_rounds = rng.choice([1, 2, 3, 6, 12, 25])
    rounds, finished = play_game(rng, rules_obj, max_rounds, kind == "cut")
    rec = {"format": refscopa.FORMAT, "rules": rules_obj}
    if rng.random() < 0.7:
        names = ["Anna", "Beppe", "Carla", "Dario", "Elena", "Franco"][:rules.players]
        rec["seats"] = names
    rec["rounds"] = rounds
    if rng.random() < 0.1:
        rec["comment"] = {"note": "unknown keys are ignored"}
        if rounds:
            rounds[0]["clock"] = [1, 2]
    return rec, rules, finished


# ---------------------------------------------------------------- mutations

NONCANON = ["07d", "7D", "7 d", " 7d", "7d ", "11d", "0d", "7e", "10", "d", "1O",
            "010b", "+7d", "7dd", "Ad", "７d", "1\u0000d", "", "x"]


def replay_state(rec, ri, upto):
    """The Round of record round ri after its first `upto` moves."""
    rules = refscopa.parse_rules(rec["rules"])
    rd = rec["rounds"][ri]
    rnd = refscopa.Round(rules, rd["dealer"], rd["deck"])
    for m in rd["moves"][:upto]:
        rnd.apply(refscopa.parse_move(m))
    return rnd


def bad_move_for(rng, rnd):
    """An illegal move string for the position (tries to make it plausible)."""
    seat = rnd.seat_to_play()
    hand = rnd.hands[seat]
    legal = set(m.key() for m in rnd.legal_moves())
    for _ in range(200):
        r = rng.random()
        if r < 0.15:
            others = [c for c in refscopa.ALL_CARDS if c not in hand]
            card = rng.choice(others)
        else:
            card = rng.choice(hand)
        r = rng.random()
        if r < 0.3 or not rnd.table:
            caps = None
        elif r < 0.9:
            k = rng.randint(1, min(4, len(rnd.table)))
            caps = rng.sample(rnd.table, k)
        else:
            caps = [rng.choice([c for c in refscopa.ALL_CARDS if c not in rnd.table])]
        mv = refscopa.Move(card, caps)
        if mv.key() not in legal:
            return str(mv)
    return None


def mutate(rng, rec, rules, finished):
    """Returns (text, kind) of an invalid variant of rec, or None."""
    rounds = rec["rounds"]
    choice = rng.choice([
        "move", "move", "move", "move", "deck_dup", "deck_39", "deck_41", "deck_noncanon",
        "move_noncanon", "dealer", "dealer_type", "rule_type", "rule_value", "unknown_option",
        "after_end", "after_unfinished", "json", "format", "seats", "kings", "extra_move",
        "combo", "move_type", "top_type", "deck_type"])
    rec = json.loads(json.dumps(rec))
    rounds = rec["rounds"]
    if choice == "move":
        cands = [(i, j) for i, r in enumerate(rounds) for j in range(len(r["moves"]))]
        if not cands:
            return None
        ri, mi = rng.choice(cands[-40 * 3:] if rng.random() < 0.3 else cands)
        rnd = replay_state(rec, ri, mi)
        bad = bad_move_for(rng, rnd)
        if bad is None:
            return None
        rounds[ri]["moves"][mi] = bad
        if rng.random() < 0.3:
            del rounds[ri]["moves"][mi + 1:]
            del rounds[ri + 1:]
    elif choice in ("deck_dup", "deck_39", "deck_41", "deck_noncanon", "deck_type"):
        if not rounds:
            return None
        d = rng.choice(rounds)["deck"]
        i, j = rng.sample(range(40), 2)
        if choice == "deck_dup":
            d[i] = d[j]
        elif choice == "deck_39":
            del d[i]
        elif choice == "deck_41":
            d.append(d[j])
        elif choice == "deck_noncanon":
            d[i] = rng.choice(NONCANON)
        else:
            d[i] = rng.choice([7, None, ["7d"], {"card": "7d"}, 7.0, True])
    elif choice == "move_noncanon":
        cands = [(i, j) for i, r in enumerate(rounds) for j in range(len(r["moves"]))]
        if not cands:
            return None
        ri, mi = rng.choice(cands)
        m = rounds[ri]["moves"][mi]
        card, sep, rest = m.partition("x")
        nc = rng.choice(NONCANON)
        r = rng.random()
        if r < 0.4 or not sep:
            rounds[ri]["moves"][mi] = nc + sep + rest
        elif r < 0.7:
            caps = rest.split("+")
            caps[rng.randrange(len(caps))] = nc
            rounds[ri]["moves"][mi] = card + "x" + "+".join(caps)
        else:
            rounds[ri]["moves"][mi] = rng.choice([
                m.upper(), m + "+", m.replace("x", "X"), m.replace("x", " x "),
                card + "x", m + "x", card + "x" + rest + "+" + rest.split("+")[0],
                " " + m, m + " ", m.replace("+", ",")])
    elif choice in ("dealer", "dealer_type"):
        if not rounds:
            return None
        ri = rng.randrange(len(rounds))
        old = rounds[ri]["dealer"]
        if choice == "dealer":
            if ri == 0:
                rounds[ri]["dealer"] = rng.choice([rules.players, rules.players + 1, -1, 99])
            else:
                rounds[ri]["dealer"] = rng.choice(
                    [d for d in range(rules.players) if d != old] or [rules.players])
        else:
            rounds[ri]["dealer"] = rng.choice([float(old), str(old), True if old else False,
                                               None, [old]])
    elif choice == "rule_type":
        key = rng.choice(sorted(refscopa.OPTIONS))
        kind = refscopa.OPTIONS[key][0]
        cur = rec["rules"].get(key, refscopa.OPTIONS[key][2])
        if kind == "int":
            cur = cur if cur is not None else getattr(rules, key)
            bad = rng.choice([float(cur), str(cur), True, None, [cur]])
        elif kind == "bool":
            bad = rng.choice([1, 0, "true", "false", None, 1.0])
        else:
            bad = rng.choice([1, None, True, [cur], cur.upper(), cur + " "])
        rec["rules"][key] = bad
    elif choice == "rule_value":
        key, bad = rng.choice([("game", "scopa2"), ("game", "Scopa"), ("players", 1),
                               ("players", 5), ("players", 0), ("refill", 2), ("refill", 0),
                               ("capture", "sum"), ("primiera", "none"),
                               ("tiebreak", "sudden_death"), ("kings_redeal", "yes"),
                               ("players", 7), ("team_size", 1), ("team_size", 4),
                               ("max_capture", 1), ("max_capture", 3),
                               ("all_sevens", -1), ("leftovers", "winner"),
                               ("ace_sweep_with_ace", "maybe"), ("deal_bonus", "thirty"),
                               ("ace_first_play", "never"), ("ace_empty_table", "kept"),
                               ("primiera", "Sum")])
        # target 0 / negative target / negative cappotto: see README (ambiguous)
        rec["rules"][key] = bad
    elif choice == "unknown_option":
        rec["rules"][rng.choice(["foo", "Target", "re bello", "napoli", "teams ", ""])] = \
            rng.choice([1, True, "x"])
    elif choice == "after_end":
        if not finished:
            return None
        last = rounds[-1]
        rnd_rules = rules
        dealer = (last["dealer"] + 1) % rnd_rules.players
        deck = random_deck(rng, rnd_rules, dealer)
        nm = rng.choice([0, 1, 5])
        rnd = refscopa.Round(rnd_rules, dealer, deck)
        moves = []
        for _ in range(nm):
            m = rng.choice(rnd.legal_moves())
            moves.append(str(m))
            rnd.apply(m)
        rounds.append({"dealer": dealer, "deck": deck, "moves": moves})
    elif choice == "after_unfinished":
        if not rounds or finished:
            return None
        last = rounds[-1]
        r0 = replay_state(rec, len(rounds) - 1, len(last["moves"]))
        if r0.over:
            # make it unfinished by dropping some trailing moves
            k = rng.randint(1, len(last["moves"]))
            del last["moves"][len(last["moves"]) - k:]
        dealer = (last["dealer"] + 1) % rules.players
        rounds.append({"dealer": dealer, "deck": random_deck(rng, rules, dealer), "moves": []})
    elif choice == "json":
        text = json.dumps(rec)
        r = rng.random()
        if r < 0.4:
            text = text[:rng.randrange(1, len(text))]
        elif r < 0.6:
            i = rng.randrange(len(text))
            text = text[:i] + rng.choice(["}", ",", "]", "'", "{", ":"]) + text[i:]
        elif r < 0.8:
            text = text.replace(json.dumps(refscopa.FORMAT), json.dumps(refscopa.FORMAT) + ",", 1)
        else:
            text = rng.choice(["", "   ", "[", "null x", "{\"format\": NaN}",
                               text + " {}", text + "x"])
        return text, "invalid:json"
    elif choice == "format":
        r = rng.random()
        if r < 0.4:
            rec["format"] = rng.choice(["scopa-record/2", "scopa-record/1 ", "Scopa-record/1",
                                        "scopa-record", ""])
        elif r < 0.7:
            del rec["format"]
        else:
            rec["format"] = rng.choice([1, None, ["scopa-record/1"]])
    elif choice == "seats":
        n = rules.players
        rec["seats"] = rng.choice([["A"] * (n - 1), ["A"] * (n + 1), [1] * n,
                                   ["A"] * (n - 1) + [None], "Anna", {"0": "A"}])
    elif choice == "kings":
        if not rules.kings_redeal or not rules.table_size or not rounds:
            return None
        ri = rng.randrange(len(rounds))
        d = rounds[ri]["deck"]
        pos = rules.hand_size * rules.players
        kings = [c for c in refscopa.ALL_CARDS if refscopa.rank(c) == 10]
        rng.shuffle(kings)
        slots = rng.sample(range(pos, pos + 4), rng.choice([3, 4]))
        for slot, k in zip(slots, kings):
            j = d.index(k)
            d[slot], d[j] = d[j], d[slot]
    elif choice == "extra_move":
        complete = [i for i, r in enumerate(rounds)
                    if replay_state(rec, i, len(r["moves"])).over]
        if not complete:
            return None
        ri = rng.choice(complete)
        rounds[ri]["moves"].append(rng.choice(rounds[ri]["deck"]))
    elif choice == "combo":
        r = rec["rules"]
        c = rng.randrange(14)
        if c >= 6:
            variant_combo(rng, r, c)
        elif c == 0:
            r["win_by_two"] = True
            r["tiebreak"] = "count_order"
        elif c == 1:
            r["teams"] = True
            if r.get("players", 4 if r.get("game", "scopa") != "scopa" else 2) in (4, 6):
                r["players"] = rng.choice([2, 3])
        elif c == 2:
            r["game"] = rng.choice(["scopone", "scopone_scientifico"])
            r["players"] = rng.choice([2, 3])
        elif c == 3:
            r["game"] = rng.choice(["scopone", "scopone_scientifico"])
            r["players"] = 4
            r["teams"] = False
        elif c == 4:
            r["game"] = rng.choice(["scopone", "scopone_scientifico"])
            r["refill"] = 1
            r.pop("players", None)
            r.pop("teams", None)
        else:
            r["players"] = rng.choice([2, 3])
            r["teams"] = True
    elif choice == "move_type":
        cands = [(i, j) for i, r in enumerate(rounds) for j in range(len(r["moves"]))]
        if not cands:
            return None
        ri, mi = rng.choice(cands)
        rounds[ri]["moves"][mi] = rng.choice([7, None, ["7d"], {"card": "7d"}, True])
    elif choice == "top_type":
        r = rng.random()
        if r < 0.5:
            return json.dumps(rng.choice([[rec], "scopa", 1, None, True])), "invalid:top_type"
        rec["rounds"] = rng.choice([{"0": 1}, "none", 3, None])
    return json.dumps(rec, indent=rng.choice([None, 1])), "invalid:" + choice


def variant_combo(rng, r, c):
    """Rules of the variants that RULES.md says cannot be played together."""
    if c == 6:
        r["ace_sweeps"] = False
        k, v = rng.choice([("ace_sweep_with_ace", "yes"), ("ace_sweep_with_ace", "choice"),
                           ("ace_first_play", "no_sweep"), ("ace_first_play", "no_ace"),
                           ("ace_empty_table", "taken"), ("ace_sweep_optional", True)])
        r[k] = v
    elif c == 7:
        r["capture"] = "quindici"
        r["single_match_first"] = False
    elif c == 8:
        r["game"] = "scopone_scientifico"
        r.pop("players", None)
        r.pop("teams", None)
        r.pop("refill", None)
        r["deal_bonus"] = "fifteen"
    elif c == 9:
        r["lowest_wins"] = True
        k, v = rng.choice([("win_by_two", True), ("cappotto", rng.choice([1, 7])),
                           ("all_coins_wins", True), ("tiebreak", "count_order"),
                           ("tiebreak", "count_order_on_tie")])
        r[k] = v
    elif c == 10:
        r["team_size"] = 3
        r["players"] = rng.choice([2, 3, 4, 6])
        r["teams"] = r["players"] != 6 and rng.random() < 0.5
    elif c == 11:
        r["game"] = rng.choice(["scopone", "scopone_scientifico"])
        r["players"] = 6
    elif c == 12:
        r["tiebreak"] = "count_order_on_tie"
        r["win_by_two"] = True
    else:
        r["players"] = 5


def generate(seed, count, out_dir):
    rng = random.Random(seed)
    os.makedirs(out_dir, exist_ok=True)
    index = []
    i = 0
    while i < count:
        r = rng.random()
        if r < 0.02:
            rec = {"format": refscopa.FORMAT, "rules": random_rules(rng), "rounds": []}
            text, kind = json.dumps(rec), "valid:empty"
        elif r < 0.35:
            rec, rules, fin = base_record(rng, "full")
            text, kind = json.dumps(rec, indent=rng.choice([None, 1])), "valid:full"
        elif r < 0.55:
            rec, rules, fin = base_record(rng, "cut")
            text, kind = json.dumps(rec), "valid:cut"
        else:
            rec, rules, fin = base_record(rng, rng.choice(["full", "cut"]))
            res = mutate(rng, rec, rules, fin)
            if res is None:
                continue
            text, kind = res
        name = "rec-%d-%05d.json" % (seed, i)
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)
        index.append("%s %s" % (name, kind))
        i += 1
    with open(os.path.join(out_dir, "index.txt"), "w") as f:
        f.write("\n".join(index) + "\n")
    return [ln.split(" ", 1) for ln in index]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", required=True)
    ap.add_argument("--profile", choices=["mixed", "endgame"], default="mixed",
                    help="endgame: small targets, count_order / win_by_two / cappotto")
    a = ap.parse_args()
    PROFILE["name"] = a.profile
    recs = generate(a.seed, a.count, a.out)
    print("wrote %d records to %s" % (len(recs), a.out))


if __name__ == "__main__":
    main()
