"""spiel -- one round as an OpenSpiel-shaped game: states that can be
cloned, pickled, undone, dealt by explicit chance nodes, seen by any
seat as tensors, resampled from a seat's information, and solved
exactly.  The names follow OpenSpiel's (pyspiel.State) where they fit.

    game = scopa.spiel.load_game({"players": 2})
    state = game.new_initial_state()          # a chance node: the deck
    while state.is_chance_node():             # 40 chance actions, one
        cards, probs = zip(*state.chance_outcomes())   # per deck place
        state.apply_action(rng.choice(cards, p=probs))
    state.legal_actions()                     # the environments' action
    state.apply_action(a)                     # ids (docs/env.md)
    state.apply_move("7dx7c")                 # or a move
    child = state.clone(); state.undo_action()
    state.information_state_tensor(seat)      # as scopa_env_infostate
    world = state.resample_from_infostate(seat, seed=1)
    state.solve()                             # exact values (all cards)
    game.deserialize_state(state.serialize()) == state

A state is its history: the chance outcomes (the cards of the deck,
top first), then the moves and next-page actions.  Everything else is
the library's scopa_state of that history (dealt with scopa_state_deal
and played with scopa_state_play), so undo_action replays the history
but its last action from the deal: O(plays), a few microseconds, and
exact by construction.  docs/env.md "States".
"""
import ctypes
import json
import math

import numpy as np

from . import _lib, cards, rules as _rules

L = _lib.lib
CHANCE, TERMINAL = -1, -4  # OpenSpiel's kChancePlayerId, kTerminalPlayerId
SOLVER_BOT = "rules"  # the smallest bot with a solver's memory


def load_game(rules=None, scores=None):
    """The game of one round under these rules (a dict, a preset name or
    None); scores: each side's game score before it (shown in the
    tensors)."""
    return RoundGame(rules, scores)


class RoundGame(object):
    """OpenSpiel's Game for one round: the factory of states and their
    sizes."""

    def __init__(self, rules=None, scores=None):
        self._rules = _rules._checked(rules)
        self.rules = _rules.to_dict(self._rules)
        self.players = self._rules.players
        self.sides = L.scopa_rules_sides(ctypes.byref(self._rules))
        self.scores = [0] * self.sides if scores is None else \
            [_lib.int_arg("a game score", int(s), 0, 10 ** 6) for s in scores]
        if len(self.scores) != self.sides:
            raise ValueError("scores lists %d sides' game scores" % self.sides)
        self._table_slots = self._probe_table_slots()
        self._solver = None

    def _probe_table_slots(self):
        """The deck places dealt to the table (RULES.md "The deal"): a deck
        with the kings on top (never table places) dealt once."""
        order = list(range(36, 40)) + list(range(36))
        st = _lib.State()
        raw = (_lib.c_u8 * 40)(*order)
        if L.scopa_state_deal(ctypes.byref(st), ctypes.byref(self._rules), 0,
                              raw, None, 0) != 0:
            raise RuntimeError("scopa: cannot probe the deal")
        table = st.initial_table
        return frozenset(i for i, c in enumerate(order) if table >> c & 1)

    def side_of(self, seat):
        return L.scopa_rules_side_of(ctypes.byref(self._rules), seat)

    def num_players(self):
        return self.players

    def num_distinct_actions(self):
        """Player actions: the environments' ids, card * 32 + slot."""
        return _lib.ACTIONS

    def max_chance_outcomes(self):
        return 40

    def observation_tensor_shape(self):
        return [_lib.FEATURES]

    def information_state_tensor_shape(self):
        return [_lib.INFOSTATE]

    def max_game_length(self):
        return 40 + 40  # the deck, then at most 40 plays (pages aside)

    def new_initial_state(self, dealer=0, deck=None, seed=None):
        """A state at the start of the round.  Without deck or seed: the
        chance node of the deck's top card (40 chance nodes deal it).  deck
        (40 cards, notation or ints) or seed (an int: the deck as
        Game.new_round(seed=) shuffles it): the round dealt, its 40 chance
        actions in the history."""
        _lib.int_arg("dealer", dealer, 0, self.players - 1)
        state = State(self, dealer)
        if deck is not None and seed is not None:
            raise ValueError("give a deck or a seed, not both")
        if seed is not None:
            if type(seed) is not int:
                raise TypeError("seed must be an int")
            from .game import _seeded_deck
            deck = list(_seeded_deck(self._rules, seed))
        if deck is not None:
            if len(deck) != 40:
                raise ValueError("a deck has 40 cards, not %d" % len(deck))
            for c in deck:
                state.apply_action(c if type(c) is int
                                   else cards.card_parse(c))
        return state

    def state_of_round(self, rnd):
        """The state of a scopa.Round (its deck and moves) under this
        game's rules, with this game's scores."""
        state = State(self, rnd.dealer)
        deck = [cards.card_parse(c) for c in rnd.deck]
        state._replay(deck, [])
        for m in rnd.moves:
            state.apply_move(m)
        return state

    def deserialize_state(self, text):
        """The state of State.serialize() (its rules must be this
        game's)."""
        data = json.loads(text)
        if _rules.to_dict(_rules._checked(data["rules"])) != self.rules:
            raise ValueError("the state was serialized under other rules")
        return State._rebuild(self, data)

    def _solver_bot(self):
        if self._solver is None:
            from .bots import Bot
            self._solver = Bot(SOLVER_BOT)
        return self._solver

    def __eq__(self, other):
        return isinstance(other, RoundGame) and other.rules == self.rules \
            and other.scores == self.scores

    def __hash__(self):
        return hash(json.dumps(self.rules, sort_keys=True))

    def __reduce__(self):
        return (RoundGame, (self.rules, self.scores))


def _from_text(text):
    """State.__setstate__'s helper for pickle."""
    data = json.loads(text)
    return State._rebuild(RoundGame(data["rules"], data["scores"]), data)


class State(object):
    """One round's state (OpenSpiel's State).  Make it with
    RoundGame.new_initial_state()."""

    def __init__(self, game, dealer=0):
        self.game = game
        self.dealer = dealer
        self._deck = []       # chance outcomes so far, top first
        self._history = []    # (action, move int or None for "more")
        self._page = 0
        self._st = None       # the scopa_state once dealt
        self._table = None    # action -> move of this position's page

    # ---- rebuilding ------------------------------------------------------
    @classmethod
    def _rebuild(cls, game, data):
        st = cls(game, data["dealer"])
        for c in data["deck"]:
            st.apply_action(cards.card_parse(c))
        for m in data["moves"]:
            if m == "more":
                st._apply_more()
            else:
                st.apply_move(m)
        return st

    def _replay(self, deck, history):
        """This state set to the given deck and history from scratch."""
        self._deck, self._history, self._page = list(deck), [], 0
        self._st, self._table = None, None
        if len(deck) == 40:  # a deck already checked: dealt at once
            self._deal()
        for action, move in history:
            if move is None:
                self._apply_more()
            else:
                self._play(move, action)

    def clone(self):
        other = State(self.game, self.dealer)
        other._deck = list(self._deck)
        other._history = list(self._history)
        other._page = self._page
        if self._st is not None:
            other._st = _lib.State.from_buffer_copy(self._st)
        return other

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    def serialize(self):
        """JSON text: the rules, dealer, scores, the deck dealt so far
        (the chance outcomes) and the moves ("more": a next-page
        action)."""
        return json.dumps({
            "rules": self.game.rules, "scores": self.game.scores,
            "dealer": self.dealer,
            "deck": [cards.CARDS[c] for c in self._deck],
            "moves": ["more" if m is None else cards.move_str(m)
                      for _, m in self._history]}, sort_keys=True)

    def __reduce__(self):
        return (_from_text, (self.serialize(),))

    def __eq__(self, other):
        return isinstance(other, State) and \
            other.serialize() == self.serialize()

    def __hash__(self):
        return hash(self.serialize())

    # ---- who plays -------------------------------------------------------
    def is_chance_node(self):
        return self._st is None

    def is_terminal(self):
        return self._st is not None and self._st.to_play == _lib.NO_SEAT

    def current_player(self):
        """The seat to play; CHANCE (-1) while dealing; TERMINAL (-4)."""
        if self._st is None:
            return CHANCE
        t = self._st.to_play
        return TERMINAL if t == _lib.NO_SEAT else t

    def is_player_node(self):
        return self.current_player() >= 0

    def move_number(self):
        return len(self._deck) + len(self._history)

    def history(self):
        """Every action so far: the 40 chance actions (cards), then the
        player actions (the environments' ids)."""
        return list(self._deck) + [a for a, _ in self._history]

    def history_str(self):
        return " ".join(str(a) for a in self.history())

    @property
    def moves(self):
        """The moves played, in record notation."""
        return [cards.move_str(m) for _, m in self._history if m is not None]

    @property
    def deck(self):
        """The deck dealt so far (all 40 cards once dealt), top first."""
        return [cards.CARDS[c] for c in self._deck]

    @property
    def page(self):
        """The page of actions shown (docs/env.md "Actions")."""
        return self._page

    # ---- chance ----------------------------------------------------------
    def chance_outcomes(self):
        """[(card, probability)] for the next deck place: every card not
        yet dealt, uniformly, except under kings_redeal, where each
        probability is that of a uniform deck among those that are not
        void (three or more kings on the table): a card that would make
        every completion void has none, and is left out."""
        if self._st is not None:
            return []
        left = [c for c in range(40) if c not in set(self._deck)]
        weights = [self._completions(c) for c in left]
        total = sum(weights)
        return [(c, w / total) for c, w in zip(left, weights) if w]

    def _void_rule(self):
        return self.game._rules.kings_redeal and self.game._table_slots

    def _completions(self, card):
        """How many whole decks that are not void begin with this deck
        and then `card` (any number when no deal can be void)."""
        if not self._void_rule():
            return 1
        deck = self._deck + [card]
        slots = self.game._table_slots
        kings = range(36, 40)
        on_table = sum(1 for i, c in enumerate(deck) if c in kings and
                       i in slots)
        left = 40 - len(deck)
        kings_left = 4 - sum(1 for c in deck if c in kings)
        table_left = sum(1 for i in range(len(deck), 40) if i in slots)
        ways = sum(math.comb(table_left, j) *
                   math.comb(left - table_left, kings_left - j)
                   for j in range(0, min(table_left, kings_left) + 1)
                   if on_table + j < 3)
        return ways * math.factorial(kings_left) * \
            math.factorial(left - kings_left)

    def _chance(self, card):
        if type(card) is not int and not isinstance(card, np.integer):
            raise TypeError("a chance action is a card 0..39")
        card = int(card)
        if not 0 <= card < 40 or card in self._deck:
            raise ValueError("card %r is not left to deal" % (card,))
        if self._completions(card) == 0:
            raise ValueError("%s there makes the deal void (kings_redeal)" %
                             cards.CARDS[card])
        self._deck.append(card)
        if len(self._deck) == 40:
            try:
                self._deal()
            except ValueError:
                self._deck.pop()
                raise

    def _deal(self):
        st, msg = _lib.State(), _lib.msgbuf()
        raw = (_lib.c_u8 * 40)(*self._deck)
        if L.scopa_state_deal(ctypes.byref(st), ctypes.byref(self.game._rules),
                              self.dealer, raw, msg, _lib.MSG) != 0:
            raise ValueError(msg.value.decode())
        self._st = st

    # ---- actions ---------------------------------------------------------
    def _actions_page(self):
        """(table, mask) of the position's page: table[a] the move of
        action a."""
        if self._table is None:
            work = np.zeros(_lib.ACTION_WORK, np.uint64)
            table = np.zeros(_lib.ACTIONS, np.uint64)
            mask = np.zeros(_lib.ACTIONS, np.uint8)
            L.scopa_state_actions_page(ctypes.byref(self._st), self._page,
                                       work.ctypes.data, table.ctypes.data,
                                       mask.ctypes.data, None)
            self._table = (table, mask)
        return self._table

    def legal_actions(self, player=None):
        """The legal actions, increasing: at a chance node the cards with
        a chance; else the environments' action ids of this page
        (docs/env.md "Actions"; ACTION_MORE's id shows the next page)."""
        if player is not None and player != self.current_player():
            return []
        if self._st is None:
            return [c for c, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return np.flatnonzero(self._actions_page()[1]).tolist()

    def legal_actions_mask(self, player=None):
        """np.int8 (ACTIONS,) of the player's legal actions (all zero at
        a chance node, a terminal one and for a seat not to play)."""
        mask = np.zeros(_lib.ACTIONS, np.int8)
        if self.is_player_node() and player in (None, self.current_player()):
            mask[:] = self._actions_page()[1]
        return mask

    def legal_moves(self):
        """The moves of legal_actions(), aligned with it (record
        notation; "more" for the next-page action)."""
        table = self._actions_page()[0] if self.is_player_node() else None
        return [] if table is None else \
            ["more" if int(table[a]) == _lib.ACTION_MORE
             else cards.move_str(int(table[a])) for a in self.legal_actions()]

    def legal_move_features(self):
        """(actions, features): legal_actions() and their moves' features
        (np.float32 (n, 80), scopa.env.move_features: the card played
        one-hot, the cards taken)."""
        from .env import move_features
        actions = self.legal_actions() if self.is_player_node() else []
        table = self._actions_page()[0] if actions else np.zeros(0, np.uint64)
        return np.array(actions, np.int64), \
            move_features(table[actions] if actions else table)

    def action_move(self, action):
        """The move of a legal action now ("more" for the next page)."""
        if not self.is_player_node():
            raise ValueError("no player acts here")
        table, mask = self._actions_page()
        a = int(action)
        if not 0 <= a < _lib.ACTIONS or not mask[a]:
            raise ValueError("action %r is not legal now" % (action,))
        m = int(table[a])
        return "more" if m == _lib.ACTION_MORE else cards.move_str(m)

    def action_to_string(self, player, action):
        if player == CHANCE:
            return "deal %s" % cards.CARDS[action]
        return self.action_move(action)

    def apply_action(self, action):
        """Plays a chance action (a card) or a player action (an id of
        legal_actions()); ValueError, the state unchanged, when it is not
        legal."""
        if self._st is None:
            self._chance(action)
            return
        if self.is_terminal():
            raise ValueError("the round is over")
        table, mask = self._actions_page()
        a = int(action)
        if not 0 <= a < _lib.ACTIONS or not mask[a]:
            raise ValueError("action %r is not legal now" % (action,))
        m = int(table[a])
        if m == _lib.ACTION_MORE:
            self._apply_more()
        else:
            self._play(m, a)

    def _apply_more(self):
        table, mask = self._actions_page()
        more = [a for a in np.flatnonzero(mask)
                if int(table[a]) == _lib.ACTION_MORE]
        if not more:
            raise ValueError("this page is the last one")
        self._history.append((int(more[0]), None))
        self._page += 1
        self._table = None

    def _play(self, move, action=None):
        if action is None:
            action = self._action_of(move)
        L.scopa_state_play(ctypes.byref(self._st), move)
        self._history.append((action, move))
        self._page, self._table = 0, None

    def _action_of(self, move):
        table, mask = self._actions_page()
        hit = np.flatnonzero((table == np.uint64(move)) & (mask == 1))
        return int(hit[0]) if len(hit) else -1  # on a later page

    def apply_move(self, move):
        """Plays a move (record notation or the library's move integer),
        whatever page shows it; ValueError when it is not legal."""
        if not self.is_player_node():
            raise ValueError("no player acts here")
        m = move if type(move) is int else cards.parse_move(move)
        msg = _lib.msgbuf()
        probe = _lib.State.from_buffer_copy(self._st)
        if L.scopa_state_apply(ctypes.byref(probe), m, msg, _lib.MSG) != 0:
            raise ValueError(msg.value.decode() or "illegal move")
        while self._action_of(m) < 0:  # shown on a later page
            self._apply_more()
        self._play(m)

    def undo_action(self, player=None, action=None):
        """Takes back the last action (OpenSpiel's undo_action(player,
        action), the arguments optional and checked when given): the
        history but its last action replayed from the deal."""
        hist = self.history()
        if not hist:
            raise ValueError("nothing to undo")
        if action is not None and int(action) != hist[-1]:
            raise ValueError("the last action was %d, not %r" %
                             (hist[-1], action))
        if self._history:
            self._replay(self._deck, self._history[:-1])
        else:
            self._replay(self._deck[:-1], [])
        if player is not None and player != self.current_player():
            raise ValueError("the last action was not seat %r's" % (player,))

    def child(self, action):
        c = self.clone()
        c.apply_action(action)
        return c

    # ---- results ---------------------------------------------------------
    def score(self):
        """The round's score once over (as Round.score())."""
        ptr = L.scopa_state_score_json(ctypes.byref(self._st)) \
            if self.is_terminal() else None
        if not ptr:
            raise ValueError("the round is not over")
        return json.loads(_lib.take_string(ptr))

    def returns(self):
        """Each seat's return: at the end, its side's round points minus
        the mean of the other sides' (the environments' reward); zeros
        before."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        totals = [s["round_total"] for s in self.score()]
        out = []
        for seat in range(self.game.players):
            own = totals[self.game.side_of(seat)]
            out.append(own - (sum(totals) - own) / (self.game.sides - 1))
        return out

    rewards = returns

    def scope_so_far(self, seat):
        """The scope of the seat's side minus the mean of the others' so
        far: with solve()'s value, the return under perfect play."""
        self._need_deal()
        sc = list(self._st.scope[:self.game.sides])
        own = sc[self.game.side_of(seat)]
        return own - (sum(sc) - own) / (self.game.sides - 1)

    # ---- what a seat sees ------------------------------------------------
    def _need_deal(self):
        if self._st is None:
            raise ValueError("the round is not dealt yet (a chance node)")

    def _scores_c(self):
        padded = (self.game.scores + [0] * _lib.MAX_SEATS)[:_lib.MAX_SEATS]
        return (ctypes.c_int * _lib.MAX_SEATS)(*padded)

    def _view(self, player):
        self._need_deal()
        _lib.int_arg("player", player, 0, self.game.players - 1)
        buf = _lib.view_buffer()
        L.scopa_view_of(ctypes.byref(self._st), player, self._scores_c(), buf)
        return buf

    def observation_tensor(self, player=None):
        """The seat's features (np.float32 (FEATURES,), docs/env.md
        "Features"): scopa_view_features of its view."""
        out = np.empty(_lib.FEATURES, np.float32)
        view = self._view(self._seat(player))
        L.scopa_view_features(view, out.ctypes.data_as(
            ctypes.POINTER(ctypes.c_float)), _lib.FEATURES)
        return out

    def observation_string(self, player=None):
        """The seat's view as JSON text (as Round.view_json)."""
        seat = self._seat(player)
        self._view(seat)
        return _lib.take_string(L.scopa_state_view_json(
            ctypes.byref(self._st), seat, self._scores_c()))

    def information_state_tensor(self, player=None):
        """The seat's perfect-recall information state (np.int8
        (INFOSTATE,), docs/env.md "Information state"), as
        scopa_env_infostate."""
        seat = self._seat(player)
        self._view(seat)
        out = np.empty(_lib.INFOSTATE, np.int8)
        if L.scopa_state_infostate(ctypes.byref(self._st), seat,
                                   self._scores_c(), out.ctypes.data) < 0:
            raise RuntimeError("scopa: no deal leads to this state")
        return out

    def information_state_string(self, player=None):
        """The same as text (equal iff the tensors are equal)."""
        seat = self._seat(player)
        self._view(seat)
        buf = ctypes.create_string_buffer(4096)
        L.scopa_state_infostate_text(ctypes.byref(self._st), seat,
                                     self._scores_c(), buf, 4096)
        return buf.value.decode()

    def _seat(self, player):
        if player is None:
            player = self.current_player()
            if player < 0:
                raise ValueError("give the player: no seat acts here")
        return player

    # ---- worlds ----------------------------------------------------------
    def resample_from_infostate(self, player, seed=0):
        """A state the seat cannot tell from this one: the cards it has
        not seen dealt at random to the other hands and the stock
        (scopa_view_sample, uniform given what it saw), with the same
        moves and page.  seed: an int (the same seed, the same world)."""
        view = self._view(player)
        rng = _lib.Rng()
        L.scopa_rng_seed(ctypes.byref(rng), _lib.seed_arg("seed", seed))
        world = _lib.State()
        L.scopa_view_sample(view, ctypes.byref(rng), ctypes.byref(world))
        return self._from_world(world)

    def world(self, player, hands, stock):
        """The state of one world (scopa_view_world): hands[seat] for every
        other seat (lists of cards; the player's own entry is ignored)
        and the stock top first; ValueError if it does not fit what the
        seat knows."""
        view = self._view(player)
        raw_hands = (_lib.c_u64 * _lib.MAX_SEATS)()
        for seat, hand in enumerate(hands):
            if seat != player:
                raw_hands[seat] = cards.mask_of(hand)
        raw_stock = (_lib.c_u8 * 40)(*[cards.card_parse(c) if
                                       isinstance(c, str) else c
                                       for c in stock])
        world = _lib.State()
        if L.scopa_view_world(view, raw_hands, raw_stock,
                              ctypes.byref(world)) != 0:
            raise ValueError("that world does not fit seat %d's view" %
                             player)
        return self._from_world(world)

    def _from_world(self, world):
        deck = (_lib.c_u8 * 40)()
        if L.scopa_state_deck(ctypes.byref(world), deck) != 0:
            raise RuntimeError("scopa: no deal leads to the sampled world")
        other = State(self.game, self.dealer)
        # the world's own action ids: another seat's hand there is another
        other._replay(list(deck), [(None, m) for _, m in self._history])
        return other

    # ---- the exact solver ------------------------------------------------
    def solve(self, movetime_ms=0):
        """Every legal move's exact value with every card known
        (scopa_bot_solve): [(move, value)] best first, in points for the
        side to play (its points still to come minus the mean of the
        others'; with three sides or more, each side against the rest).
        Not fair play: it reads every hand.  movetime_ms: a time limit
        (0: none); TimeoutError when it stops first."""
        if not self.is_player_node():
            raise ValueError("no player acts here")
        n, moves, values = 0, None, None
        cap = 64
        while True:
            moves = (ctypes.c_uint64 * cap)()
            values = (ctypes.c_double * cap)()
            lim = _lib.BotLimits(movetime_ms=_lib.int_arg(
                "movetime_ms", movetime_ms, 0, 10 ** 8))
            n = L.scopa_bot_solve(self.game._solver_bot()._bot,
                                  ctypes.byref(self._st), ctypes.byref(lim),
                                  moves, values, cap, None)
            if n == -14:
                raise TimeoutError("the solve took more than %d ms" %
                                   movetime_ms)
            if n < 0:
                raise RuntimeError(L.scopa_strerror(n).decode())
            if n <= cap:
                break
            cap = n
        return [(cards.move_str(moves[i]), values[i]) for i in range(n)]

    def value(self, movetime_ms=0):
        """The exact value of the state for the side to play (the best
        move's, solve())."""
        return self.solve(movetime_ms)[0][1]

    def __str__(self):
        if self._st is None:
            return "dealing: %d of 40 cards" % len(self._deck)
        st = self._st
        lines = ["table: " + (" ".join(cards.cards_of(st.table)) or "-")]
        for s in range(self.game.players):
            lines.append("seat %d%s: %s" % (
                s, " *" if s == st.to_play else "",
                " ".join(cards.cards_of(st.hand[s])) or "-"))
        lines.append("moves: " + " ".join(self.moves))
        return "\n".join(lines)

    __repr__ = __str__
