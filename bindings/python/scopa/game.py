"""game -- a whole game over the library's game object, scopa_match
(CONTRACTS.md "Python").

    g = Game({"game": "scopa", "players": 2})
    r = g.new_round(dealer=0, seed=7)          # or deck=[40 cards], or
    while r.current_seat is not None:          # neither: the game's seed
        r.apply(r.legal_moves()[0])
    r.score()                                  # as "sides" in replay --json

The game itself (dealing, checking moves, adding up scores, rotating the
deal, every end rule of RULES.md, the record) is the library's: a Game
holds a scopa_match and asks it.  A Round dealt in the game's order is
played through the match; its state is also mirrored in a scopa_state
(plain bytes, so copy() is cheap).  Moves cross as record notation; every
move given is checked by the library (ValueError with its message when
illegal).
"""
import ctypes
import json
import os

from . import _lib, cards, rules as _rules

L = _lib.lib


def seed_deck(seed, round_index, rules=None):
    """Round `round_index`'s deck (0 = the first round) of a game with this
    seed (1 to 64 lowercase hex digits), as the library deals it: the same
    for anyone, so a finished game can be dealt again from its seed."""
    r = _rules._checked(rules)
    _check_seed(seed)
    if type(round_index) is not int or round_index < 0:
        raise ValueError("round_index must be an int >= 0")
    deck = (_lib.c_u8 * 40)()
    L.scopa_seed_deck(seed.encode(), round_index, ctypes.byref(r), deck)
    return [cards.CARDS[c] for c in deck]


def seed_dealer(seed, players):
    """The first dealer of a game with this seed."""
    _check_seed(seed)
    if type(players) is not int or not 2 <= players <= _lib.MAX_SEATS:
        raise ValueError("players must be an int 2..%d" % _lib.MAX_SEATS)
    return L.scopa_seed_dealer(seed.encode(), players)


def _check_seed(seed):
    if not isinstance(seed, str):
        raise TypeError("a seed is a str of hex digits, not %s" %
                        type(seed).__name__)
    msg = _lib.msgbuf()
    if "\0" in seed or L.scopa_seed_check(seed.encode(), msg, _lib.MSG) != 0:
        raise ValueError(msg.value.decode() or "bad seed")


def _deck_bytes(deck):
    if len(deck) != 40:
        raise ValueError("a deck has 40 cards, not %d" % len(deck))
    raw = (_lib.c_u8 * 40)()
    for i, c in enumerate(deck):
        if isinstance(c, str) and cards.is_card(c):
            raw[i] = cards.card_parse(c)
        elif type(c) is int and 0 <= c < 40:
            raw[i] = c
        else:
            raise ValueError("deck position %d is not a card: %r" % (i, c))
    return raw


def _seeded_deck(game_rules, seed):
    """The deck an int seed shuffles (again until the deal is not void)."""
    rng = _lib.Rng()
    st = _lib.State()
    L.scopa_rng_seed(ctypes.byref(rng), seed & (2 ** 64 - 1))
    L.scopa_state_deal_random(ctypes.byref(st), ctypes.byref(game_rules), 0,
                              ctypes.byref(rng))
    return (_lib.c_u8 * 40)(*st.deck)


class Game(object):
    """A game under the given rules (a dict as a record's "rules", a preset
    name, or None for the defaults).  seed: the game's seed (1 to 64 hex
    digits) from which rounds dealt without a deck come; None for one from
    the operating system."""

    def __init__(self, rules=None, first_dealer=0, seats=None, seed=None):
        self._rules = _rules._checked(rules)
        self.rules = _rules.to_dict(self._rules)
        self.players = self._rules.players
        self.sides = L.scopa_rules_sides(ctypes.byref(self._rules))
        _lib.int_arg("first_dealer", first_dealer, 0, self.players - 1)
        if seats is not None:
            if not isinstance(seats, (list, tuple)) or \
                    len(seats) != self.players:
                raise ValueError("seats must list %d names" % self.players)
            for name in seats:
                if not isinstance(name, str):
                    raise TypeError("a seat's name is a str")
                if "\0" in name:
                    raise ValueError("a seat's name may not hold a NUL")
        if seed is not None:
            _check_seed(seed)
        self.seats = list(seats) if seats is not None else None
        self._match = ctypes.c_void_p()
        names = None
        if seats is not None:
            names = (_lib.Seat * self.players)()
            for i, name in enumerate(seats):
                names[i].kind = 0
                names[i].name = name.encode()
        msg = _lib.msgbuf()
        if L.scopa_match_new(ctypes.byref(self._rules), names,
                             seed.encode() if seed is not None else None,
                             ctypes.byref(self._match), msg, _lib.MSG) != 0:
            raise ValueError(msg.value.decode() or "cannot start a game")
        L.scopa_match_set_first_dealer(self._match, first_dealer)
        self.rounds = []

    def __del__(self):
        m = getattr(self, "_match", None)
        if m:
            L.scopa_match_free(m)
            self._match = None

    def _tally(self):
        return L.scopa_match_tally(self._match).contents

    # the game so far ---------------------------------------------------
    @property
    def seed(self):
        """The game's seed ("" for a game read from a record without one)."""
        return L.scopa_match_seed(self._match).decode()

    @property
    def totals(self):
        """Each side's game score."""
        return list(self._tally().totals[:self.sides])

    @property
    def finished(self):
        return bool(self._tally().finished)

    @property
    def winner(self):
        """The winning side, or None."""
        g = self._tally()
        return g.winner if g.finished else None

    @property
    def next_dealer(self):
        return self._tally().dealer

    def side_of(self, seat):
        _lib.int_arg("seat", seat, 0, self.players - 1)
        return L.scopa_rules_side_of(ctypes.byref(self._rules), seat)

    def new_round(self, dealer=None, deck=None, seed=None):
        """Deals a round.  dealer defaults to the game's next dealer (the
        seat after the last one).  deck: 40 cards top first (notation or
        ints), dealt in the canonical order; seed=N (an int) shuffles
        (again until the deal is not void); neither: the game's own deck
        for this round, from the game's seed.

        A round dealt in the game's order (the next dealer, or any dealer
        for the first round, the last round over, the game not) is played
        through the game and counts.  Any other is dealt apart, for
        experiments: any dealer, a round before the last one is over (which
        is then abandoned) or after the game has ended; it counts nowhere
        and is not in the record."""
        if deck is not None and seed is not None:
            raise ValueError("give a deck or a seed, not both")
        if dealer is None:
            dealer = self._tally().dealer
        _lib.int_arg("dealer", dealer, 0, self.players - 1)
        if deck is not None and not isinstance(deck, (list, tuple, bytes)):
            raise TypeError("deck must be a list of 40 cards, not %s" %
                            type(deck).__name__)
        if seed is not None and type(seed) is not int:
            raise TypeError("seed=N shuffles with an int; the game's own seed "
                            "is Game(seed=...)")
        raw = None
        if deck is not None:
            raw = _deck_bytes(deck)
        elif seed is not None:
            raw = _seeded_deck(self._rules, seed)
        attached = self._can_deal(dealer)
        if attached:
            if L.scopa_match_rounds(self._match) == 0:
                L.scopa_match_set_first_dealer(self._match, dealer)
            msg = _lib.msgbuf()
            rc = (L.scopa_match_deal_deck(self._match, raw, None, msg,
                                          _lib.MSG) if raw is not None
                  else L.scopa_match_deal(self._match, None))
            if rc != 0:
                raise ValueError(msg.value.decode() or "cannot deal")
            r = Round(self, dealer, match=self._match)
        else:
            if raw is None:
                raw = _seeded_deck(self._rules,
                                   int.from_bytes(os.urandom(8), "little"))
            r = Round(self, dealer, deck=raw)
        self.rounds.append(r)
        return r

    def _can_deal(self, dealer):
        if L.scopa_match_phase(self._match) != _lib.MATCH_DEAL:
            return False
        return (L.scopa_match_rounds(self._match) == 0 or
                dealer == self._tally().dealer)

    def view(self, seat=None):
        """What `seat` knows of the game's current round, as the fields of
        an engine request; seat None: the public view for spectators (no
        hand, no "dealt")."""
        if seat is not None and (type(seat) is not int or
                                 not 0 <= seat < self.players):
            raise ValueError("seat must be 0..%d or None" % (self.players - 1))
        ptr = L.scopa_match_view_json(self._match, -1 if seat is None else seat)
        if not ptr:
            raise ValueError("no round has been dealt")
        return json.loads(_lib.take_string(ptr))

    def record(self, viewer="full"):
        """The game as a record dict (RULES.md "Game records"), with its
        seed.  viewer "public", "seen" or a seat: the record of a game in
        progress that may be shown to that reader (no seed; in the live
        round's deck each card it may not know is None)."""
        code = {"full": -2, "seen": -3, "public": -1}.get(viewer, viewer)
        if type(code) is not int or not -3 <= code < self.players:
            raise ValueError("viewer is 'full', 'public', 'seen' or a seat")
        return json.loads(_lib.take_string(
            L.scopa_match_record_json(self._match, code)))

    def save(self, path):
        """Writes the record durably to path (a crash leaves the old file
        or the new one)."""
        if not isinstance(path, (str, bytes, os.PathLike)):
            raise TypeError("path must be a str or a path")
        msg = _lib.msgbuf()
        if L.scopa_match_save(self._match, os.fsencode(path), msg,
                              _lib.MSG) != 0:
            raise OSError(msg.value.decode() or "cannot save %s" % path)

    @classmethod
    def from_record(cls, record):
        """The game of a record (a dict, JSON text or a path), its
        unfinished round included and ready to go on; ValueError if the
        record is invalid."""
        from . import records
        rec = records.load(record)
        text = json.dumps(rec).encode()
        fault = _lib.Fault()
        match = ctypes.c_void_p()
        if L.scopa_match_from_record(text, len(text), ctypes.byref(match),
                                     ctypes.byref(fault)) != 0:
            raise ValueError(fault.message.decode(errors="replace"))
        g = cls.__new__(cls)
        g._match = match
        g._rules = _lib.Rules.from_buffer_copy(
            L.scopa_match_rules(match).contents)
        g.rules = _rules.to_dict(g._rules)
        g.players = g._rules.players
        g.sides = L.scopa_rules_sides(ctypes.byref(g._rules))
        g.seats = rec.get("seats")
        g.rounds = []
        n = L.scopa_match_rounds(match)
        for i, rd in enumerate(rec["rounds"]):
            live = i == n - 1 and \
                L.scopa_match_phase(match) == _lib.MATCH_PLAY
            if live:
                g.rounds.append(Round(g, rd["dealer"], match=match))
            else:
                r = Round(g, rd["dealer"], deck=_deck_bytes(rd["deck"]))
                for m in rd["moves"]:
                    r.apply(m)
                g.rounds.append(r)
        return g


class Round(object):
    """One round: deal, legal moves, apply, score."""

    def __init__(self, game, dealer, deck=None, match=None):
        self.game = game
        self.dealer = dealer
        self.scores = game.totals  # each side's game score before it
        self._st = _lib.State()
        self._match = match  # the game's match when this round counts
        self._scores_c = None
        if match is not None:
            self._sync()
        else:
            msg = _lib.msgbuf()
            if L.scopa_state_deal(ctypes.byref(self._st),
                                  ctypes.byref(game._rules), dealer, deck, msg,
                                  _lib.MSG) != 0:
                raise ValueError(msg.value.decode())

    def _sync(self):
        """The match's round, mirrored into this round's state."""
        ctypes.memmove(ctypes.byref(self._st),
                       L.scopa_match_state(self._match),
                       ctypes.sizeof(_lib.State))

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
        _lib.int_arg("seat", seat, 0, self.game.players - 1)
        return cards.cards_of(self._st.hand[seat])

    def pile(self, side):
        _lib.int_arg("side", side, 0, self.game.sides - 1)
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
        other._match = None
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
        if self._match is not None:
            rc = L.scopa_match_apply(self._match, m, None, msg, _lib.MSG)
        else:
            rc = L.scopa_state_apply(ctypes.byref(self._st), m, msg, _lib.MSG)
        if rc != 0:
            raise ValueError(msg.value.decode() or "illegal move")
        self._after_move()

    def playout(self, seed=0):
        """Plays the round to its end, every move drawn uniformly from the
        legal ones (seeded: the same seed, the same round), in C at full
        speed: for Monte Carlo rollouts, usually on a copy().  Returns how
        many moves were played."""
        rng = _lib.Rng()
        L.scopa_rng_seed(ctypes.byref(rng), _lib.seed_arg("seed", seed))
        before = self._st.plays
        plays = L.scopa_state_playout(ctypes.byref(self._st), ctypes.byref(rng))
        if self._match is not None:  # the game plays the same moves
            for m in list(self._st.moves[before:before + plays]):
                L.scopa_match_apply(self._match, m, None, None, 0)
        self._after_move()
        return plays

    def _play_int(self, m):
        """Plays a move int known to be legal (from the action table)."""
        if self._match is not None:
            L.scopa_match_apply(self._match, m, None, None, 0)
        else:
            L.scopa_state_play(ctypes.byref(self._st), m)
        self._after_move()

    def _after_move(self):
        if self._match is not None:
            self._sync()

    # views and scores ----------------------------------------------------
    def _scores_arg(self):
        if self._scores_c is None:
            padded = (self.scores + [0] * _lib.MAX_SEATS)[:_lib.MAX_SEATS]
            self._scores_c = (ctypes.c_int * _lib.MAX_SEATS)(*padded)
        return self._scores_c

    def view_json(self, seat):
        _lib.int_arg("seat", seat, 0, self.game.players - 1)
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
