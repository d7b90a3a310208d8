"""env -- environments for learning agents, in the shapes of PettingZoo's
AEC API and of Gymnasium, without requiring either package.

One episode is one round.  Observations are a seat's view only, as
FEATURES floats (layout: docs/engine.md), with a mask over ACTIONS fixed
actions: action = card * ACTION_SLOTS + slot, the slot numbering that
card's legal moves in increasing order of the library's move integer
(laying the card, when legal, is slot 0).  Rewards come at the end of the
round: each seat gets its side's round points minus the mean of the other
sides' (zero-sum; for two sides, the point difference).

    env = ScopaEnv({"players": 2})          # PettingZoo AEC style
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else env.sample_action()
        env.step(action)

    env = ScopaGymEnv(opponent="random")     # Gymnasium style, one seat
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)

Spaces are small descriptors (shape / n) with a sample(); observations and
masks are Python lists (numpy is not required).
"""
import ctypes
import random

from . import _lib, cards
from .bots import Bot
from .game import Game

L = _lib.lib
FEATURES, ACTION_SLOTS, ACTIONS = _lib.FEATURES, _lib.ACTION_SLOTS, \
    _lib.ACTIONS


class Box(object):
    def __init__(self, low, high, shape):
        self.low, self.high, self.shape = low, high, shape

    def __repr__(self):
        return "Box(%r, %r, %r)" % (self.low, self.high, self.shape)


class Discrete(object):
    def __init__(self, n, rng=None):
        self.n, self._rng = n, rng or random.Random()

    def sample(self, mask=None):
        if mask is None:
            return self._rng.randrange(self.n)
        legal = [i for i, m in enumerate(mask) if m]
        return self._rng.choice(legal)

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Dict(object):
    def __init__(self, spaces):
        self.spaces = spaces

    def __getitem__(self, key):
        return self.spaces[key]


def action_of(card, slot):
    return cards.card_parse(card) * ACTION_SLOTS + slot


class _Table(object):
    """The legal actions of the seat to play in a round, computed once per
    position."""

    def __init__(self):
        self.moves = (ctypes.c_uint64 * ACTIONS)()
        self.mask = (ctypes.c_uint8 * ACTIONS)()
        self.actions = (ctypes.c_int * ACTIONS)()
        self.features = (ctypes.c_float * FEATURES)()
        self.count = 0

    def fill(self, rnd):
        self.count = L.scopa_state_actions(ctypes.byref(rnd._st), self.moves,
                                           self.mask, self.actions)

    def legal(self):
        return self.actions[:self.count]


def _features(rnd, seat, table):
    L.scopa_view_features(rnd._view_buffer(seat), table.features, FEATURES)
    return memoryview(table.features).cast("B").cast("f").tolist()


def _round_rewards(rnd):
    sides = rnd.game.sides
    totals = [s["round_total"] for s in rnd.score()]
    return [totals[i] - (sum(totals) - totals[i]) / float(sides - 1)
            for i in range(sides)]


class ScopaEnv(object):
    """PettingZoo-AEC-style environment: agents "player_0".."player_{n-1}",
    one per seat, taking turns; one round per episode."""

    metadata = {"name": "scopa_v0", "is_parallelizable": False,
                "render_modes": ["ansi"]}

    def __init__(self, rules=None, render_mode=None):
        self.rules = rules
        probe = Game(rules)
        self.players, self.sides = probe.players, probe.sides
        self.possible_agents = ["player_%d" % i for i in range(self.players)]
        self.render_mode = render_mode
        self._rng = random.Random()
        self._table = _Table()
        self.round = None
        self.agents = []

    # spaces --------------------------------------------------------------
    def observation_space(self, agent):
        return Dict({"observation": Box(0.0, 1.0, (FEATURES,)),
                     "action_mask": Box(0, 1, (ACTIONS,))})

    def action_space(self, agent):
        return Discrete(ACTIONS, self._rng)

    # episode -------------------------------------------------------------
    def reset(self, seed=None, options=None):
        """Deals a new round.  options: "dealer" (default: random), "scores"
        (each side's game score, shown in observations)."""
        options = options or {}
        if seed is not None:
            self._rng.seed(seed)
        dealer = options.get("dealer", self._rng.randrange(self.players))
        game = Game(self.rules, first_dealer=dealer)
        self.round = game.new_round(dealer=dealer,
                                    seed=self._rng.getrandbits(64))
        if "scores" in options:  # the game score the observations show
            self.round.scores = [int(s) for s in options["scores"]]
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        seat = self.round.current_seat
        if seat is not None:
            self._table.fill(self.round)
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = _features(self.round, seat, self._table)
        if seat == self.round.current_seat:
            mask = list(bytes(self._table.mask))
        else:
            mask = [0] * ACTIONS
        return {"observation": obs, "action_mask": mask}

    def last(self, observe=True):
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return (obs, self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def legal_actions(self):
        """The legal actions of the agent to act (a list of ints)."""
        return self._table.legal() if self.round.current_seat is not None \
            else []

    def sample_action(self):
        return self._rng.choice(self.legal_actions())

    def action_move(self, action):
        """The move (record notation) of a legal action now."""
        if not self._table.mask[action]:
            raise ValueError("action %d is not legal now" % action)
        return cards.move_str(self._table.moves[action])

    def move_action(self, move):
        """The action of a legal move (record notation) now."""
        m = cards.parse_move(move)
        for a in range(ACTIONS):
            if self._table.mask[a] and self._table.moves[a] == m:
                return a
        raise ValueError("%s is not a legal move now" % move)

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise ValueError("a finished agent steps with None")
            self.agents.remove(a)
            self._select()
            return
        if action is None or not 0 <= action < ACTIONS or \
                not self._table.mask[action]:
            raise ValueError("action %r is not legal for %s" % (action, a))
        self._cumulative_rewards[a] = 0.0
        self.round._play_int(self._table.moves[action])
        if self.round.over:
            per_side = _round_rewards(self.round)
            for seat, agent in enumerate(self.possible_agents):
                r = per_side[self.round.game.side_of(seat)]
                self.rewards[agent] = r
                self._cumulative_rewards[agent] += r
                self.terminations[agent] = True
                self.infos[agent] = {"score": self.round.score()}
        self._select()

    def render(self):
        r = self.round
        lines = ["table: " + " ".join(r.table)]
        for s in range(self.players):
            lines.append("seat %d: %s" % (s, " ".join(r.hand(s))))
        text = "\n".join(lines)
        if self.render_mode == "ansi":
            return text
        print(text)

    def close(self):
        pass


class ScopaGymEnv(object):
    """Gymnasium-style environment for one seat; the other seats are played
    by a bot.  reset(seed) -> (obs, info); step(action) -> (obs, reward,
    terminated, truncated, info).  obs is the FEATURES list; info carries
    "action_mask" and "legal_actions"."""

    def __init__(self, rules=None, opponent="random", seat=0):
        self.env = ScopaEnv(rules)
        self.seat = seat
        self.opponent = Bot(opponent)
        self.observation_space = Box(0.0, 1.0, (FEATURES,))
        self.action_space = Discrete(ACTIONS, self.env._rng)
        self._n = 0

    def _others(self):
        env = self.env
        while env.round.current_seat not in (None, self.seat):
            self._n += 1
            move = self.opponent.choose(env.round, seed=self._n)
            env.round.apply(move)
            env._select()

    def _result(self, reward=0.0):
        env, done = self.env, self.env.round.over
        obs = _features(env.round, self.seat, env._table)
        legal = [] if done else env.legal_actions()
        mask = [0] * ACTIONS
        for a in legal:
            mask[a] = 1
        info = {"action_mask": mask, "legal_actions": legal}
        if done:
            per_side = _round_rewards(env.round)
            reward = per_side[env.round.game.side_of(self.seat)]
            info["score"] = env.round.score()
        return obs, reward, done, False, info

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)
        self._others()
        obs, _, _, _, info = self._result()
        return obs, info

    def step(self, action):
        env = self.env
        if env.round.over:
            raise ValueError("the episode is over: reset()")
        if not 0 <= action < ACTIONS or not env._table.mask[action]:
            raise ValueError("action %r is not legal" % (action,))
        env.round._play_int(env._table.moves[action])
        env._select()
        self._others()
        return self._result()
