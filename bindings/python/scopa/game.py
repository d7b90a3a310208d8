"""game -- a game of rounds over the library's scopa_state and scopa_game
(CONTRACTS.md "Python").

    g = Game({"game": "scopa", "players": 2})
    r = g.new_round(dealer=0, seed=7)          # or deck=[40 cards]
    while r.current_seat is not None:
        r.apply(r.legal_moves()[0])
    r.score()                                  # as "sides" in replay --json

A Round holds one scopa_state (plain bytes, so copy() is cheap).  When a
round ends its score is added to its game once, with every end rule of
RULES.md; Game.totals, finished and winner follow.  Moves cross as record
notation; every move given is checked by the library (ValueError with its
message when illegal).
"""
import ctypes
import json
import os

from . import _lib, cards, rules as _rules

L = _lib.lib


class Game(object):
    """A game under the given rules (a dict as a record's "rules", a preset
    name, or None for the defaults)."""

    def __init__(self, rules=None, first_dealer=0, seats=None):
        self._rules = _rules._checked(rules)
        self.rules = _rules.to_dict(self._rules)
        self.players = self._rules.players
        self.sides = L.scopa_rules_sides(ctypes.byref(self._rules))
        if not 0 <= first_dealer < self.players:
            raise ValueError("first_dealer must be a seat 0..%d" %
                             (self.players - 1))
        if seats is not None and len(seats) != self.players:
            raise ValueError("seats must list %d names" % self.players)
        self.seats = list(seats) if seats is not None else None
        self._game = _lib.GameStruct()
        L.scopa_game_init(ctypes.byref(self._game), ctypes.byref(self._rules),
                          first_dealer)
        self.rounds = []

    # the game so far ---------------------------------------------------
    @property
    def totals(self):
        """Each side's game score."""
        return list(self._game.totals[:self.sides])

    @property
    def finished(self):
        return bool(self._game.finished)

    @property
    def winner(self):
        """The winning side, or None."""
        return self._game.winner if self._game.finished else None

    @property
    def next_dealer(self):
        return self._game.dealer

    def side_of(self, seat):
        return L.scopa_rules_side_of(ctypes.byref(self._rules), seat)

    def new_round(self, dealer=None, deck=None, seed=None):
        """Deals a round.  dealer defaults to the game's next dealer (the
        seat after the last one).  deck: 40 cards top first (notation or
        ints), dealt in the canonical order; seed=N shuffles (again until
        the deal is not void); neither: a random seed.

        Any dealer may be given, and a round may be dealt before the last
        one is over (it is then abandoned) or after the game has ended
        (its score then counts nowhere): for experiments.  Only a game
        played in order makes a valid record (save() checks)."""
        if dealer is None:
            dealer = self._game.dealer
        if type(dealer) is not int or not 0 <= dealer < self.players:
            raise ValueError("dealer must be a seat 0..%d" % (self.players - 1))
        if not self.rounds and dealer != self._game.dealer:
            L.scopa_game_init(ctypes.byref(self._game),
                              ctypes.byref(self._rules), dealer)
        r = Round(self, dealer, deck, seed)
        self.rounds.append(r)
        return r

    def _round_over(self, r):
        if self._game.finished or r is not self.rounds[-1]:
            return
        score = ctypes.create_string_buffer(_lib.SIZES["score"])
        L.scopa_state_score(ctypes.byref(r._st), score)
        L.scopa_game_add(ctypes.byref(self._game), score)

    def record(self):
        """The game as a record dict (RULES.md "Game records")."""
        rec = {"format": "scopa-record/1", "rules": dict(self.rules),
               "rounds": [{"dealer": r.dealer, "deck": r.deck,
                           "moves": r.moves} for r in self.rounds]}
        if self.seats is not None:
            rec["seats"] = list(self.seats)
        return rec

    def save(self, path):
        """Writes the record (checked first) atomically to path."""
        from . import records
        records.save(self.record(), path)

    @classmethod
    def from_record(cls, record):
        """Replays a record (a dict, JSON text or a path) into a Game;
        ValueError if the record is invalid."""
        from . import records
        rec = records.load(record)
        g = cls(rec["rules"], seats=rec.get("seats"))
        for rd in rec["rounds"]:
            r = g.new_round(dealer=rd["dealer"], deck=rd["deck"])
            for m in rd["moves"]:
                r.apply(m)
        return g


class Round(object):
    """One round: deal, legal moves, apply, score."""

    def __init__(self, game, dealer, deck=None, seed=None):
        self.game = game
        self.dealer = dealer
        self.scores = game.totals  # each side's game score before it
        self._st = _lib.State()
        self._counted = False
        self._scores_c = None
        if deck is not None:
            if seed is not None:
                raise ValueError("give a deck or a seed, not both")
            if len(deck) != 40:
                raise ValueError("a deck has 40 cards, not %d" % len(deck))
            raw = (_lib.c_u8 * 40)()
            for i, c in enumerate(deck):
                if isinstance(c, str) and cards.is_card(c):
                    raw[i] = cards.card_parse(c)
                elif type(c) is int and 0 <= c < 40:
                    raw[i] = c
                else:
                    raise ValueError("deck position %d is not a card: %r" %
                                     (i, c))
            msg = _lib.msgbuf()
            if L.scopa_state_deal(ctypes.byref(self._st),
                                  ctypes.byref(game._rules), dealer, raw, msg,
                                  _lib.MSG) != 0:
                raise ValueError(msg.value.decode())
        else:
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            rng = _lib.Rng()
            L.scopa_rng_seed(ctypes.byref(rng), seed & (2 ** 64 - 1))
            L.scopa_state_deal_random(ctypes.byref(self._st),
                                      ctypes.byref(game._rules), dealer,
                                      ctypes.byref(rng))

    # state ---------------------------------------------------------------
    @property
    def current_seat(self):
        """The seat to play, None once the round is over."""
        t = self._st.to_play
        return None if t == _lib.NO_SEAT else t

    @property
    def over(self):
        return self._st.to_play == _lib.NO_SEAT

    @property
    def deck(self):
        return [cards.CARDS[c] for c in self._st.deck]

    @property
    def moves(self):
        return [cards.move_str(m) for m in self._st.moves[:self._st.plays]]

    @property
    def table(self):
        return cards.cards_of(self._st.table)

    @property
    def initial_table(self):
        return cards.cards_of(self._st.initial_table)

    def hand(self, seat):
        return cards.cards_of(self._st.hand[seat])

    def pile(self, side):
        return cards.cards_of(self._st.pile[side])

    @property
    def stock(self):
        return 40 - self._st.next

    @property
    def scope(self):
        return list(self._st.scope[:self.game.sides])

    def copy(self):
        """An independent copy of the round (its game is shared, and the
        copy's end is not added to it)."""
        other = Round.__new__(Round)
        other.__dict__.update(self.__dict__)
        other._st = _lib.State()
        ctypes.memmove(ctypes.byref(other._st), ctypes.byref(self._st),
                       ctypes.sizeof(_lib.State))
        other._counted = True
        return other

    # moves ---------------------------------------------------------------
    def legal_moves(self):
        """The legal moves of the seat to play, in record notation ([] once
        the round is over)."""
        text = _lib.take_string(L.scopa_state_legal_text(
            ctypes.byref(self._st)))
        return text.split(" ") if text else []

    def apply(self, move):
        """Plays a move (record notation, any order of captured cards) for
        the seat to play; ValueError with the engine's message if it is
        not legal (the round is then unchanged)."""
        m = cards.parse_move(move)
        msg = _lib.msgbuf()
        if L.scopa_state_apply(ctypes.byref(self._st), m, msg, _lib.MSG) != 0:
            raise ValueError(msg.value.decode() or "illegal move")
        self._after_move()

    def playout(self, seed=0):
        """Plays the round to its end, every move drawn uniformly from the
        legal ones (seeded: the same seed, the same round), in C at full
        speed: for Monte Carlo rollouts, usually on a copy().  Returns how
        many moves were played."""
        rng = _lib.Rng()
        L.scopa_rng_seed(ctypes.byref(rng), seed & (2 ** 64 - 1))
        plays = L.scopa_state_playout(ctypes.byref(self._st), ctypes.byref(rng))
        self._after_move()
        return plays

    def _play_int(self, m):
        """Plays a move int known to be legal (from the action table)."""
        L.scopa_state_play(ctypes.byref(self._st), m)
        self._after_move()

    def _after_move(self):
        if self._st.to_play == _lib.NO_SEAT and not self._counted:
            self._counted = True
            self.game._round_over(self)

    # views and scores ----------------------------------------------------
    def _scores_arg(self):
        if self._scores_c is None:
            padded = (self.scores + [0] * _lib.MAX_SEATS)[:_lib.MAX_SEATS]
            self._scores_c = (ctypes.c_int * _lib.MAX_SEATS)(*padded)
        return self._scores_c

    def view_json(self, seat):
        if not 0 <= seat < self.game.players:
            raise ValueError("seat must be 0..%d" % (self.game.players - 1))
        return _lib.take_string(L.scopa_state_view_json(
            ctypes.byref(self._st), seat, self._scores_arg()))

    def view(self, seat):
        """What `seat` knows, as the fields of an engine request: {"rules",
        "seat", "scores", "round": {"dealer", "table", "dealt", "moves"}}."""
        return json.loads(self.view_json(seat))

    def score(self):
        """Once over: a list of per-side dicts, exactly as "sides" in
        `scopa replay --json`.  ValueError before the end."""
        ptr = L.scopa_state_score_json(ctypes.byref(self._st))
        if not ptr:
            raise ValueError("the round is not over")
        return json.loads(_lib.take_string(ptr))

    def _view_buffer(self, seat):
        buf = _lib.view_buffer()
        L.scopa_view_of(ctypes.byref(self._st), seat, self._scores_arg(), buf)
        return buf
