#!/usr/bin/python3
"""refscopa: an independent reference implementation of RULES.md and of
`scopa replay [--json] [--legal] FILE` (CONTRACTS.md), in plain Python 3
(standard library only).

It exists to cross-check the C engine: it was written from RULES.md and
CONTRACTS.md alone, without reading the C sources.  Where RULES.md leaves
room for more than one reading, the reading taken here is listed in
tests/oracle/README.md; the places are marked "AMBIGUITY" below.

Library use:
    import refscopa
    code, obj = refscopa.replay_text(text, legal=True)   # code 0 valid, 1 invalid
    rules = refscopa.parse_rules({...})                  # raises RecordError
    rnd = refscopa.Round(rules, dealer, deck)            # one round's state
    rnd.legal_moves() -> [Move]; rnd.apply(move); rnd.over; rnd.score()

CLI:
    python3 refscopa.py replay [--json] [--legal] FILE   (FILE may be -)

Invariant kept by Round: each of the 40 cards is in exactly one place
(a hand, the stock, the table, or a side's pile).
"""

import json
import re
import sys

SUITS = "dcsb"
SUIT_NAMES = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}
ALL_CARDS = ["%d%s" % (r, s) for s in SUITS for r in range(1, 11)]
CARD_RE = re.compile(r"(10|[1-9])[dcsb]\Z")

PRIMIERA_STD = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
PRIMIERA_FZ = dict(PRIMIERA_STD)
PRIMIERA_FZ.update({8: 0, 9: 0, 10: 0})

# Order of the count_order tiebreak (RULES.md, "End of the game").
COUNT_ORDER = ["carte", "denari", "settebello", "primiera", "scope", "re_bello", "napola",
               "sevens", "all_sevens"]
POINT_KEYS = ["scope", "carte", "denari", "settebello", "primiera", "re_bello", "napola",
              "sevens", "all_sevens"]

FORMAT = "scopa-record/1"

# Readings of the places where RULES.md can be read more than one way (see
# README.md). The defaults are this reference's readings; diff_replay.py
# flips them one at a time to tell a bug from a different reading.
READINGS = {
    # count_order, two sides reaching the target in the same step: compare
    # their totals after the whole round ("final") or at that step ("step").
    "count_order_highest": "final",
    # mandatory_capture false: may an ace that would sweep be laid instead?
    "sweep_may_be_laid": True,
    # a round after an unfinished one: reported at that round ("next", move
    # null) or at the unfinished round, move = its number of moves ("prev").
    "after_unfinished_at": "next",
}
DEFAULT_READINGS = dict(READINGS)
ALTERNATIVE_READINGS = [
    ("count_order_highest", "step"),
    ("sweep_may_be_laid", False),
    ("after_unfinished_at", "prev"),
]


class RecordError(Exception):
    """A fault in a record: round/move are 0-based indexes or None."""

    def __init__(self, rnd, move, message):
        Exception.__init__(self, message)
        self.round = rnd
        self.move = move
        self.message = message


def rank(card):
    return int(card[:-1])


def suit(card):
    return card[-1]


def is_card(x):
    return isinstance(x, str) and CARD_RE.match(x) is not None


def card_sort_key(card):
    return (rank(card), SUITS.index(suit(card)))


# ---------------------------------------------------------------- rules

def _is_int(v):
    return type(v) is int  # bool is a subclass of int: excluded on purpose


def _is_bool(v):
    return type(v) is bool


# name -> (kind, allowed values or None, default). Defaults that depend on
# other options (players, teams) are None here and filled in parse_rules.
OPTIONS = {
    "game": ("str", ("scopa", "scopone", "scopone_scientifico"), "scopa"),
    "players": ("int", (2, 3, 4, 6), None),
    "teams": ("bool", None, None),
    "team_size": ("int", (2, 3), 2),
    "refill": ("int", (1, 3), 3),
    "kings_redeal": ("bool", None, True),
    "deal_bonus": ("str", ("off", "fifteen"), "off"),
    "mandatory_capture": ("bool", None, True),
    "fewest_cards": ("bool", None, False),
    "single_match_first": ("bool", None, True),
    "max_capture": ("int", (0, 2), 0),
    "last_card_scopa": ("bool", None, False),
    "ace_sweeps": ("bool", None, False),
    "ace_sweep_scopa": ("bool", None, True),
    "ace_sweep_with_ace": ("str", ("no", "yes", "choice"), "no"),
    "ace_first_play": ("str", ("sweeps", "no_sweep", "no_ace"), "sweeps"),
    "ace_empty_table": ("str", ("laid", "taken"), "laid"),
    "ace_sweep_optional": ("bool", None, False),
    "capture": ("str", ("match", "quindici"), "match"),
    "leftovers": ("str", ("last_capture", "dealer", "nobody"), "last_capture"),
    "primiera": ("str", ("standard", "faces_zero", "sevens", "off", "sum",
                         "complete_only"), "standard"),
    "re_bello": ("bool", None, False),
    "napola": ("bool", None, False),
    "most_sevens": ("bool", None, False),
    "all_sevens": ("int", "nonnegative", 0),
    "target": ("int", "positive", 11),
    "tiebreak": ("str", ("extra_round", "count_order", "count_order_on_tie"), "extra_round"),
    "win_by_two": ("bool", None, False),
    "cappotto": ("int", "nonnegative", 0),
    "all_coins_wins": ("bool", None, False),
    "lowest_wins": ("bool", None, False),
}

# The four refinements of ace_sweeps, invalid away from their defaults
# without it (RULES.md "A turn").
ACE_OPTIONS = ("ace_sweep_with_ace", "ace_first_play", "ace_empty_table",
               "ace_sweep_optional")


class Rules(object):
    """Parsed, validated rule options (attributes named as the options)."""

    def __init__(self, values):
        for k, v in values.items():
            setattr(self, k, v)
        # RULES.md "Seats, sides, order": players / team_size sides with
        # teams, seat i on side i mod the number of sides.
        self.sides = self.players // self.team_size if self.teams else self.players
        if self.game == "scopa":
            self.hand_size, self.table_size = 3, 4
        elif self.game == "scopone":
            self.hand_size, self.table_size = 9, 4
        else:
            self.hand_size, self.table_size = 10, 0

    def side_of(self, seat):
        return seat % self.sides


def _json_repr(v):
    try:
        return json.dumps(v)
    except Exception:
        return repr(v)


def parse_rules(obj):
    """Validate a record's `rules` object; return Rules or raise RecordError."""
    if not isinstance(obj, dict):
        raise RecordError(None, None, "rules must be a JSON object")
    vals = {}
    for key, val in obj.items():
        if key not in OPTIONS:
            raise RecordError(None, None, "unknown rule option %s" % _json_repr(key))
        kind, allowed, _ = OPTIONS[key]
        ok = False
        if kind == "bool":
            ok = _is_bool(val)
            what = "true or false"
        elif kind == "int":
            if _is_int(val):
                if allowed == "positive":
                    ok = val >= 1
                    what = "a whole number of at least 1"
                elif allowed == "nonnegative":
                    ok = val >= 0
                    what = "a whole number of at least 0"
                else:
                    ok = val in allowed
                    what = "one of " + ", ".join(str(a) for a in allowed)
            else:
                what = {"positive": "a whole number of at least 1",
                        "nonnegative": "a whole number of at least 0"}.get(
                    allowed, "one of " + ", ".join(str(a) for a in allowed)
                    if isinstance(allowed, tuple) else "a whole number")
        else:
            ok = isinstance(val, str) and val in allowed
            what = "one of " + ", ".join('"%s"' % a for a in allowed)
        if not ok:
            raise RecordError(None, None, "rule %s is %s; it must be %s"
                              % (key, _json_repr(val), what))
        vals[key] = val
    for key, (_, _, default) in OPTIONS.items():
        if key not in vals and default is not None:
            vals[key] = default
    scopone = vals["game"] != "scopa"
    if "players" not in vals:
        vals["players"] = 4 if scopone else 2
    if "teams" not in vals:
        vals["teams"] = scopone
    # RULES.md "Game records": rules that cannot be played.
    if vals["teams"] and vals["players"] not in (4, 6):
        raise RecordError(None, None, "teams need 4 or 6 players (rules say %d)" % vals["players"])
    if vals["team_size"] == 3 and not (vals["players"] == 6 and vals["teams"]):
        raise RecordError(None, None, "team_size 3 is only for 6 players in teams")
    if vals["players"] == 6 and scopone:
        raise RecordError(None, None, "6 players only with game scopa")
    if scopone and (vals["players"] != 4 or not vals["teams"]):
        raise RecordError(None, None, "%s is played by 4 players in teams" % vals["game"])
    # AMBIGUITY: only refill 1 is named invalid outside scopa; refill 3 (the
    # default, written out) is accepted in the scopone games.
    if vals["refill"] == 1 and scopone:
        raise RecordError(None, None, "refill 1 is only for game scopa")
    if not vals["ace_sweeps"]:
        for k in ACE_OPTIONS:
            if vals[k] != OPTIONS[k][2]:
                raise RecordError(None, None, "%s needs ace_sweeps" % k)
    if not vals["single_match_first"] and vals["capture"] == "quindici":
        raise RecordError(None, None, "single_match_first false is not for quindici")
    if vals["deal_bonus"] != "off" and vals["game"] == "scopone_scientifico":
        raise RecordError(None, None, "deal_bonus needs table cards")
    if vals["win_by_two"] and vals["tiebreak"] in ("count_order", "count_order_on_tie"):
        raise RecordError(None, None, "win_by_two and a count order tiebreak cannot be combined")
    if vals["lowest_wins"] and (vals["win_by_two"] or vals["cappotto"] > 0
                                or vals["all_coins_wins"]
                                or vals["tiebreak"] != "extra_round"):
        raise RecordError(None, None, "lowest_wins cannot be combined with win_by_two, "
                          "cappotto, all_coins_wins or a count order tiebreak")
    return Rules(vals)


# ---------------------------------------------------------------- moves

class Move(object):
    """A played card and the captured cards (a tuple), or None for a lay."""
    __slots__ = ("card", "captured")

    def __init__(self, card, captured):
        self.card = card
        self.captured = tuple(captured) if captured is not None else None

    def key(self):
        cap = None if self.captured is None else frozenset(self.captured)
        return (self.card, cap)

    def __str__(self):
        if self.captured is None:
            return self.card
        return self.card + "x" + "+".join(self.captured)

    __repr__ = __str__


def parse_move(text):
    """Record notation -> Move, or a string saying why it is not a move."""
    if not isinstance(text, str):
        return "a move must be a string, not %s" % _json_repr(text)
    if "x" in text:
        card, _, rest = text.partition("x")
        caps = rest.split("+")
        if not is_card(card):
            return "%s is not a card" % json.dumps(card)
        for c in caps:
            if not is_card(c):
                return "%s in move %s is not a card" % (json.dumps(c), json.dumps(text))
        if len(set(caps)) != len(caps):
            return "move %s names a captured card twice" % json.dumps(text)
        return Move(card, caps)
    if not is_card(text):
        return "%s is not a move (a card like 7d, or 7dx3c+4s)" % json.dumps(text)
    return Move(text, None)


def normalize_move(text):
    """Canonical string of a move for comparisons (captured cards sorted)."""
    m = parse_move(text)
    if isinstance(m, str):
        return text
    if m.captured is None:
        return m.card
    return m.card + "x" + "+".join(sorted(m.captured, key=card_sort_key))


def subsets_with_sum(cards, total, min_size):
    """All subsets (as tuples, in table order) of `cards` whose ranks add up to
    `total`, with at least min_size cards."""
    out = []
    vals = [rank(c) for c in cards]
    n = len(cards)

    def rec(i, s, chosen):
        if s == total:
            if len(chosen) >= min_size:
                out.append(tuple(chosen))
            # ranks are >= 1: adding more can only overshoot
            return
        if i == n:
            return
        if s + vals[i] <= total:
            chosen.append(cards[i])
            rec(i + 1, s + vals[i], chosen)
            chosen.pop()
        rec(i + 1, s, chosen)

    if total > 0:
        rec(0, 0, [])
    return out


# ---------------------------------------------------------------- a round

class Round(object):
    """State of one round, dealt from `deck` (top first) by `dealer`."""

    def __init__(self, rules, dealer, deck):
        self.rules = rules
        self.dealer = dealer
        P = rules.players
        self.hands = [[] for _ in range(P)]
        pos = 0
        for i in range(rules.hand_size * P):
            self.hands[(dealer + 1 + i) % P].append(deck[pos])
            pos += 1
        self.table = list(deck[pos:pos + rules.table_size])
        self.initial_table = list(self.table)
        pos += rules.table_size
        self.stock = list(deck[pos:])
        self.piles = [[] for _ in range(rules.sides)]
        self.scope = [0] * rules.sides
        self.last_capturer = None  # a side
        self.nmoves = 0
        self.over = False
        self.leftover = []
        self.leftover_to = None
        # deal_bonus "fifteen" (RULES.md "The deal"): the dealt table adding
        # up to 15 (30) is the dealer's side's, with 1 (2) scope; not a play.
        if rules.deal_bonus == "fifteen" and self.table:
            total = sum(rank(c) for c in self.table)
            if total in (15, 30):
                side = rules.side_of(dealer)
                self.piles[side].extend(self.table)
                self.scope[side] += total // 15
                self.last_capturer = side
                self.table = []

    # whose turn -------------------------------------------------------
    def seat_to_play(self):
        if self.over:
            return None
        return (self.dealer + 1 + self.nmoves) % self.rules.players

    def _start_turn(self):
        """Deal or draw as the rules say before the next play."""
        r = self.rules
        if all(not h for h in self.hands):
            if not self.stock:
                self._finish()
                return
            if r.refill == 3:
                for i in range(3 * r.players):
                    if not self.stock:
                        break
                    self.hands[(self.dealer + 1 + i) % r.players].append(self.stock.pop(0))
        if r.refill == 1:
            seat = self.seat_to_play()
            if not self.hands[seat] and self.stock:
                self.hands[seat].append(self.stock.pop(0))

    def _finish(self):
        """RULES.md "End of the round", with `leftovers`."""
        r = self.rules
        self.over = True
        self.leftover = list(self.table)
        to = None
        if r.leftovers == "last_capture":
            to = self.last_capturer
        elif r.leftovers == "dealer":
            to = r.side_of(self.dealer)
        if to is not None:
            self.piles[to].extend(self.table)
            self.leftover_to = to
            self.table = []
        # "nobody": the cards stay out of every pile.

    # move generation ----------------------------------------------------
    def first_play(self):
        return self.nmoves == 0

    def ace_mode(self, card):
        """How a card plays, in the words of RULES.md's list for an ace
        under ace_sweeps: "rule" (the capture rule in force: any other card,
        and the ace in cases 1 and 4), "empty" (case 2), "sweep" (case 3,
        the sweep is its only capture) or "choice" (case 3 under "choice"
        with an ace on the table)."""
        r = self.rules
        if not r.ace_sweeps or rank(card) != 1:
            return "rule"
        if self.first_play() and r.ace_first_play in ("no_sweep", "no_ace"):
            return "rule"
        if not self.table:
            return "empty"
        ace_on_table = any(rank(t) == 1 for t in self.table)
        if not ace_on_table or r.ace_sweep_with_ace == "yes":
            return "sweep"
        if r.ace_sweep_with_ace == "choice":
            return "choice"
        return "rule"

    def is_sweep(self, card):
        """True when `card` taking every table card now is a sweep (scored
        under ace_sweep_scopa), not an ordinary capture: the ace can sweep,
        and the table is not exactly one card, an ace."""
        if self.ace_mode(card) not in ("sweep", "choice"):
            return False
        return not (len(self.table) == 1 and rank(self.table[0]) == 1)

    def is_taken_ace(self, card):
        """An ace played alone to an empty table under "taken"."""
        return self.ace_mode(card) == "empty" and self.rules.ace_empty_table == "taken"

    def rule_captures(self, card):
        """The captures the capture rule in force allows (RULES.md rules 1
        and 2, single_match_first, quindici, max_capture, fewest_cards)."""
        r = self.rules
        v = rank(card)
        T = self.table
        if r.capture == "quindici":
            caps = subsets_with_sum(T, 15 - v, 1)
        elif r.single_match_first:
            singles = [t for t in T if rank(t) == v]
            if singles:
                caps = [(t,) for t in singles]
            else:
                caps = subsets_with_sum(T, v, 2)
        else:
            caps = subsets_with_sum(T, v, 1)
        if r.max_capture:
            caps = [c for c in caps if len(c) <= r.max_capture]
        if r.fewest_cards and caps:
            m = min(len(c) for c in caps)
            caps = [c for c in caps if len(c) == m]
        return caps

    def captures_for(self, card):
        mode = self.ace_mode(card)
        if mode == "empty":
            return []
        if mode == "rule":
            return self.rule_captures(card)
        caps = [tuple(self.table)]
        if mode == "choice":
            every = frozenset(self.table)
            caps += [c for c in self.rule_captures(card) if frozenset(c) != every]
        return caps

    def ace_barred(self, card):
        """ace_first_play "no_ace": no ace on the first play unless every
        card in that hand is one."""
        r = self.rules
        if not (r.ace_sweeps and r.ace_first_play == "no_ace" and self.first_play()):
            return False
        hand = self.hands[self.seat_to_play()]
        return rank(card) == 1 and any(rank(c) != 1 for c in hand)

    def moves_for(self, card):
        if self.ace_barred(card):
            return []
        caps = self.captures_for(card)
        moves = [Move(card, c) for c in caps]
        r = self.rules
        # RULES.md: mandatory_capture false lets the ace be laid wherever a
        # card may be (case 2 has one move only: laid or taken).
        may_lay = not caps or not r.mandatory_capture
        if r.ace_sweep_optional and len(caps) == 1 and self.is_sweep(card):
            may_lay = True
        if may_lay and not READINGS["sweep_may_be_laid"] and self.is_sweep(card) \
                and not r.ace_sweep_optional:
            may_lay = False
        if may_lay:
            moves.append(Move(card, None))
        return moves

    def legal_moves(self):
        if self.over:
            return []
        out = []
        for card in self.hands[self.seat_to_play()]:
            out.extend(self.moves_for(card))
        return out

    # applying -----------------------------------------------------------
    def check(self, move):
        """None if `move` (a Move) is legal now, else a message."""
        seat = self.seat_to_play()
        if self.over:
            return "the round is over: no card is left to play"
        hand = self.hands[seat]
        if move.card not in hand:
            return "%s is not in the hand of the seat to play (holding %s)" % (
                move.card, " ".join(hand) if hand else "nothing")
        legal = self.moves_for(move.card)
        if any(m.key() == move.key() for m in legal):
            return None
        caps = [m for m in legal if m.captured is not None]
        r = self.rules
        if move.captured is None:
            return "%s can capture (%s), so it cannot be laid on the table" % (
                move.card, " or ".join("+".join(c.captured) for c in caps))
        missing = [c for c in move.captured if c not in self.table]
        if missing:
            return "%s is not on the table" % " ".join(missing)
        if not caps:
            return "%s cannot capture %s: nothing on the table can be taken with it" % (
                move.card, "+".join(move.captured))
        if self.ace_barred(move.card):
            return "the first play may not be an ace unless the whole hand is aces"
        if self.ace_mode(move.card) in ("sweep", "choice"):
            return "an ace that can sweep takes the whole table (%s)" % (
                "+".join(self.table))
        v = rank(move.card)
        if r.capture == "match":
            singles = [t for t in self.table if rank(t) == v]
            if singles and len(move.captured) > 1:
                return "%s cannot capture %s while %s is on the table" % (
                    move.card, "+".join(move.captured), singles[0])
            s = sum(rank(c) for c in move.captured)
            if s != v:
                return "%s cannot capture %s: they add up to %d, not %d" % (
                    move.card, "+".join(move.captured), s, v)
        else:
            s = sum(rank(c) for c in move.captured) + v
            if s != 15:
                return "%s cannot capture %s: with it they add up to %d, not 15" % (
                    move.card, "+".join(move.captured), s)
        if r.fewest_cards:
            return "%s cannot capture %s: with fewest_cards it must take %d card(s)" % (
                move.card, "+".join(move.captured), len(caps[0].captured))
        return "%s cannot capture %s" % (move.card, "+".join(move.captured))

    def apply(self, move):
        """Play a legal Move (checked by the caller)."""
        r = self.rules
        seat = self.seat_to_play()
        side = r.side_of(seat)
        sweep = (move.captured is not None and self.is_sweep(move.card)
                 and set(move.captured) == set(self.table))
        taken = move.captured is None and self.is_taken_ace(move.card)
        self.hands[seat].remove(move.card)
        if taken:
            self.piles[side].append(move.card)
            self.last_capturer = side
        elif move.captured is None:
            self.table.append(move.card)
        else:
            for c in move.captured:
                self.table.remove(c)
            self.piles[side].append(move.card)
            self.piles[side].extend(move.captured)
            self.last_capturer = side
        self.nmoves += 1
        last_card = all(not h for h in self.hands) and not self.stock
        emptied = taken or (move.captured is not None and not self.table)
        if emptied and (not last_card or r.last_card_scopa):
            if not (sweep or taken) or r.ace_sweep_scopa:
                self.scope[side] += 1
        self._start_turn()

    # scoring ------------------------------------------------------------
    def score(self):
        """Per-side dicts as in `scopa replay --json` "sides"."""
        return score_piles(self.rules, self.piles, self.scope)


def primiera_sum(pile, scale):
    best = {}
    for c in pile:
        s = suit(c)
        best[s] = max(best.get(s, -1), scale[rank(c)])
    return sum(best.values()), len(best) == 4


def unique_best(values, candidates):
    """The single candidate with the strictly greatest value, else None."""
    if not candidates:
        return None
    m = max(values[i] for i in candidates)
    best = [i for i in candidates if values[i] == m]
    return best[0] if len(best) == 1 else None


def score_piles(rules, piles, scope):
    S = len(piles)
    scale = PRIMIERA_FZ if rules.primiera == "faces_zero" else PRIMIERA_STD
    cards = [len(p) for p in piles]
    denari = [sum(1 for c in p if suit(c) == "d") for p in piles]
    prim = [primiera_sum(p, scale) for p in piles]
    pts = [dict((k, 0) for k in POINT_KEYS) for _ in range(S)]
    for s in range(S):
        pts[s]["scope"] = scope[s]
    w = unique_best(cards, list(range(S)))
    if w is not None:
        pts[w]["carte"] = 1
    w = unique_best(denari, list(range(S)))
    if w is not None:
        pts[w]["denari"] = 1
    for s in range(S):
        if "7d" in piles[s]:
            pts[s]["settebello"] = 1
        if rules.re_bello and "10d" in piles[s]:
            pts[s]["re_bello"] = 1
        if rules.napola:
            n = 0
            while n < 10 and ("%dd" % (n + 1)) in piles[s]:
                n += 1
            if n >= 3:
                pts[s]["napola"] = n
    if rules.primiera in ("standard", "faces_zero"):
        complete = [s for s in range(S) if prim[s][1]]
        cands = complete if complete else list(range(S))
        w = unique_best([p[0] for p in prim], cands)
        if w is not None:
            pts[w]["primiera"] = 1
    elif rules.primiera == "sum":
        w = unique_best([p[0] for p in prim], list(range(S)))
        if w is not None:
            pts[w]["primiera"] = 1
    elif rules.primiera == "complete_only":
        complete = [s for s in range(S) if prim[s][1]]
        w = unique_best([p[0] for p in prim], complete)
        if w is not None:
            pts[w]["primiera"] = 1
    elif rules.primiera == "sevens":
        cands = list(range(S))
        for group in ([7], [6], [1], [5], [4], [3], [2], [8, 9, 10]):
            counts = [sum(1 for c in p if rank(c) in group) for p in piles]
            m = max(counts[s] for s in cands)
            cands = [s for s in cands if counts[s] == m]
            if len(cands) == 1:
                break
        if len(cands) == 1:
            pts[cands[0]]["primiera"] = 1
    sevens = [sum(1 for c in p if rank(c) == 7) for p in piles]
    if rules.most_sevens:
        w = unique_best(sevens, list(range(S)))
        if w is not None:
            pts[w]["sevens"] = 1
    for s in range(S):
        if sevens[s] == 4:
            pts[s]["all_sevens"] = rules.all_sevens
    out = []
    for s in range(S):
        out.append({
            "cards": cards[s],
            "denari": denari[s],
            "settebello": "7d" in piles[s],
            "primiera": prim[s][0],
            "scope": scope[s],
            "sevens": sevens[s],
            "points": pts[s],
            "round_total": sum(pts[s].values()),
        })
    return out


# ---------------------------------------------------------------- game end

def game_winner(rules, prev, sides, totals):
    """The winning side after a round, or None if play goes on.
    prev: totals before the round; sides: score_piles output; totals: after.
    RULES.md "End of the game": all_coins_wins, cappotto, then the target."""
    S = len(totals)
    if rules.all_coins_wins:
        for s in range(S):
            if sides[s]["denari"] == 10:
                return s
    if rules.cappotto > 0:
        for s in range(S):
            if totals[s] >= rules.cappotto and all(totals[o] == 0 for o in range(S) if o != s):
                return s
    at = [s for s in range(S) if totals[s] >= rules.target]
    if not at:
        return None
    if rules.lowest_wins:
        return unique_best([-t for t in totals], list(range(S)))
    if rules.tiebreak == "count_order_on_tie":
        w = unique_best(totals, list(range(S)))
        if w is not None:
            return w
        top = max(totals)
        tied = [s for s in range(S) if totals[s] == top]
        running = list(prev)
        for cat in [None] + COUNT_ORDER:
            if cat is not None:
                running = [running[s] + sides[s]["points"][cat] for s in range(S)]
            for s in tied:
                if running[s] >= rules.target and all(running[s] > running[o]
                                                      for o in tied if o != s):
                    return s
        return None
    if rules.tiebreak == "extra_round" or len(at) == 1:
        w = unique_best(totals, list(range(S)))
        if w is None:
            return None
        if rules.win_by_two and any(totals[w] - totals[o] < 2 for o in range(S) if o != w):
            return None
        return w
    # count_order, two or more sides at or over the target
    running = list(prev)
    reached = [s for s in range(S) if running[s] >= rules.target]
    if not reached:
        for cat in COUNT_ORDER:
            running = [running[s] + sides[s]["points"][cat] for s in range(S)]
            reached = [s for s in range(S) if running[s] >= rules.target]
            if reached:
                break
    if len(reached) == 1:
        return reached[0]
    # AMBIGUITY: "the highest total" read as the totals after the whole round.
    if READINGS["count_order_highest"] == "step":
        return unique_best(running, reached)
    return unique_best(totals, reached)


# ---------------------------------------------------------------- replay

def _seat_label(seat, names):
    if names is not None:
        return "seat %d (%s)" % (seat, names[seat])
    return "seat %d" % seat


def check_deck(deck, ri):
    if not isinstance(deck, list):
        raise RecordError(ri, None, "round %d: deck must be a list of 40 cards" % ri)
    for c in deck:
        if not is_card(c):
            raise RecordError(ri, None, "round %d: deck entry %s is not a card (cards are "
                              "written like 7d or 10b)" % (ri, _json_repr(c)))
    seen = set()
    for c in deck:
        if c in seen:
            raise RecordError(ri, None, "round %d: %s appears twice in the deck" % (ri, c))
        seen.add(c)
    if len(deck) != 40:
        raise RecordError(ri, None, "round %d: the deck has %d cards, not 40" % (ri, len(deck)))


def replay_obj(rec, legal=False):
    """Replay a parsed record. Returns the JSON-able result object; raises
    RecordError for an invalid record."""
    if not isinstance(rec, dict):
        raise RecordError(None, None, "a record must be a JSON object")
    if rec.get("format") != FORMAT or not isinstance(rec.get("format"), str):
        raise RecordError(None, None, 'format must be "%s"' % FORMAT)
    # AMBIGUITY: "rules" may not be left out (it is shown in every record).
    if "rules" not in rec:
        raise RecordError(None, None, "the record has no rules object")
    rules = parse_rules(rec["rules"])
    names = None
    if "seats" in rec:
        seats = rec["seats"]
        if not isinstance(seats, list) or len(seats) != rules.players \
                or not all(isinstance(n, str) for n in seats):
            raise RecordError(None, None, "seats must be a list of %d names" % rules.players)
        names = seats
    rounds = rec.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError(None, None, "rounds must be a list")
    S = rules.sides
    totals = [0] * S
    finished = False
    winner = None
    out_rounds = []
    prev_dealer = None
    prev_complete = True
    for ri, rd in enumerate(rounds):
        if finished:
            raise RecordError(ri, None, "round %d follows the round that ended the game" % ri)
        if not prev_complete:
            # AMBIGUITY: reported at the round that follows (see READINGS).
            if READINGS["after_unfinished_at"] == "prev":
                raise RecordError(ri - 1, len(rounds[ri - 1]["moves"]),
                                  "round %d is unfinished but round %d follows it" % (ri - 1, ri))
            raise RecordError(ri, None, "round %d follows an unfinished round" % ri)
        if not isinstance(rd, dict):
            raise RecordError(ri, None, "round %d must be a JSON object" % ri)
        dealer = rd.get("dealer")
        if not _is_int(dealer) or not 0 <= dealer < rules.players:
            raise RecordError(ri, None, "round %d: dealer must be a seat number from 0 to %d"
                              % (ri, rules.players - 1))
        if prev_dealer is not None and dealer != (prev_dealer + 1) % rules.players:
            raise RecordError(ri, None, "round %d: the dealer must be seat %d, the seat after "
                              "the previous dealer" % (ri, (prev_dealer + 1) % rules.players))
        deck = rd.get("deck")
        check_deck(deck, ri)
        rnd = Round(rules, dealer, deck)
        if rules.kings_redeal and rules.table_size:
            kings = [c for c in rnd.initial_table if rank(c) == 10]
            if len(kings) >= 3:
                raise RecordError(ri, None, "round %d: %d kings on the table (%s) make the deal "
                                  "void; it must be dealt again" % (ri, len(kings), " ".join(kings)))
        moves = rd.get("moves")
        # AMBIGUITY: "moves" may not be left out, even for a round not begun.
        if not isinstance(moves, list):
            raise RecordError(ri, None, "round %d: moves must be a list" % ri)
        legal_lists = []
        for mi, mtext in enumerate(moves):
            if rnd.over:
                raise RecordError(ri, mi, "round %d: move %s comes after the last card of the "
                                  "round was played" % (ri, _json_repr(mtext)))
            seat = rnd.seat_to_play()
            lm = rnd.legal_moves()
            if legal:
                legal_lists.append([str(m) for m in lm])
            mv = parse_move(mtext)
            if isinstance(mv, str):
                raise RecordError(ri, mi, "%s: %s" % (_seat_label(seat, names), mv))
            why = rnd.check(mv)
            if why is not None:
                raise RecordError(ri, mi, "%s: %s" % (_seat_label(seat, names), why))
            rnd.apply(mv)
        prev_dealer = dealer
        ro = {"dealer": dealer, "complete": rnd.over}
        if rnd.over:
            sides = rnd.score()
            prev = list(totals)
            totals = [totals[s] + sides[s]["round_total"] for s in range(S)]
            ro["sides"] = sides
            ro["totals"] = list(totals)
            w = game_winner(rules, prev, sides, totals)
            if w is not None:
                finished, winner = True, w
        else:
            prev_complete = False
        if legal:
            ro["legal"] = legal_lists
        out_rounds.append(ro)
    return {"valid": True, "rounds": out_rounds, "totals": totals,
            "finished": finished, "winner": winner}


def _reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def load_record_text(text):
    """Parse JSON text strictly (no NaN/Infinity). Raises RecordError."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(None, None, "the record is not UTF-8 text")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise RecordError(None, None, "the record is not valid JSON (%s)" % e)


def replay_text(text, legal=False):
    """(exit code, result object) for record text (str or bytes)."""
    try:
        rec = load_record_text(text)
        return 0, replay_obj(rec, legal)
    except RecordError as e:
        return 1, {"valid": False,
                   "error": {"round": e.round, "move": e.move, "message": e.message}}


# ---------------------------------------------------------------- CLI

USAGE = "usage: refscopa.py replay [--json] [--legal] FILE   (FILE may be -)"


def summary_text(res, rec):
    if not res["valid"]:
        e = res["error"]
        where = []
        if e["round"] is not None:
            where.append("round %d" % e["round"])
        if e["move"] is not None:
            where.append("move %d" % e["move"])
        return "invalid record%s: %s\n" % (
            (" (" + ", ".join(where) + ")") if where else "", e["message"])
    lines = []
    for i, r in enumerate(res["rounds"]):
        if not r["complete"]:
            lines.append("round %d (dealer %d): unfinished" % (i, r["dealer"]))
            continue
        pts = ", ".join("side %d +%d" % (s, sd["round_total"]) for s, sd in enumerate(r["sides"]))
        lines.append("round %d (dealer %d): %s; totals %s" % (
            i, r["dealer"], pts, " - ".join(str(t) for t in r["totals"])))
    lines.append("score: %s" % " - ".join(str(t) for t in res["totals"]))
    if res["finished"]:
        lines.append("game over: side %d wins" % res["winner"])
    else:
        lines.append("game not finished")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 1 or argv[0] != "replay":
        sys.stderr.write(USAGE + "\n")
        return 2
    as_json = legal = False
    path = None
    for a in argv[1:]:
        if a == "--json":
            as_json = True
        elif a == "--legal":
            legal = True
        elif a.startswith("-") and a != "-":
            sys.stderr.write("unknown option %s\n%s\n" % (a, USAGE))
            return 2
        elif path is None:
            path = a
        else:
            sys.stderr.write(USAGE + "\n")
            return 2
    if path is None:
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        sys.stderr.write("cannot read %s: %s\n" % (path, e.strerror))
        return 2
    code, res = replay_text(data, legal)
    if as_json:
        sys.stdout.write(json.dumps(res) + "\n")
    else:
        sys.stdout.write(summary_text(res, None))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
