"""env -- environments for learning agents: a PettingZoo AEC environment
(every seat an agent) and a Gymnasium environment (one seat; the others
played by a library bot), both over the library's scopa_env, so a step is
one call into C that writes the observation and the mask into numpy
arrays.  The API, the tensors index by index and the action encoding are
in docs/env.md.

    env = scopa.env.env(rules={"players": 2})    # PettingZoo AEC
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

    env = scopa.ScopaGymEnv(opponent="greedy")    # Gymnasium, one seat
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)

The classes are pettingzoo.AECEnv and gymnasium.Env, with gymnasium's
spaces, when those packages import; otherwise small stand-ins with the
same API (_compat.py).  Observations are np.float32 arrays of FEATURES
values in 0..1; masks np.int8 arrays of ACTIONS zeros and ones.  An
episode is one round, or a whole game with whole_game=True.  Rewards come
at each round's end: the side's round points minus the mean of the other
sides' (zero-sum).  An illegal action ends the episode: its agent gets
illegal_reward (default -10), the others 0.
"""
import ctypes

import numpy as np

from . import _compat, _lib, cards
from ._compat import AECEnv, Env, spaces
from .game import Game, Round

L = _lib.lib
FEATURES, ACTION_SLOTS, ACTIONS = _lib.FEATURES, _lib.ACTION_SLOTS, \
    _lib.ACTIONS
INFOSTATE, GLOBAL = _lib.INFOSTATE, _lib.GLOBAL
OBSERVATIONS = ("features", "infostate")
ILLEGAL_REWARD = -10.0
RESET_OPTIONS = ("dealer", "scores")
MOVE_FEATURES = 80  # the played card one-hot (40), the cards taken (40)

_step = L.scopa_env_step
_observe = L.scopa_env_observe
_to_play = L.scopa_env_to_play


class ResetNeeded(RuntimeError):
    """step(), observe() or last() before reset()."""


def action_of(card, slot):
    return cards.card_parse(card) * ACTION_SLOTS + slot


def action_pages(rnd):
    """The actions of a round's position (a scopa.Round), page by page: a
    list of {action: move in record notation, or "more" for the next-page
    action}; one page unless the position has more moves than the actions
    can show (docs/env.md)."""
    work = np.zeros(_lib.ACTION_WORK, np.uint64)
    table = np.zeros(ACTIONS, np.uint64)
    mask = np.zeros(ACTIONS, np.uint8)
    pages = []
    while True:
        n = L.scopa_state_actions_page(ctypes.byref(rnd._st), len(pages),
                                       work.ctypes.data, table.ctypes.data,
                                       mask.ctypes.data, None)
        if n == 0:
            return pages
        page = {}
        for a in np.flatnonzero(mask):
            m = int(table[a])
            page[int(a)] = "more" if m == _lib.ACTION_MORE else \
                cards.move_str(m)
        pages.append(page)
        if "more" not in page.values():
            return pages


def move_features(moves):
    """The features of moves (library move integers, any shape): float32
    of shape moves.shape + (80,): 0-39 the card played (one-hot), 40-79
    the cards it takes, in card order.  One move, one row, in every
    position.  The next-page action and "no move" (ACTION_MORE,
    MOVE_NONE) are all zeros.  docs/env.md "Moves as features"."""
    m = np.asarray(moves, np.uint64)
    real = (m != np.uint64(_lib.ACTION_MORE)) & \
        (m != np.uint64(_lib.MOVE_NONE))
    out = np.zeros(m.shape + (MOVE_FEATURES,), np.float32)
    card = ((m >> np.uint64(48)) & np.uint64(63)).astype(np.int64)
    bits = (m[..., None] >> np.arange(40, dtype=np.uint64)) & np.uint64(1)
    out[..., 40:] = bits * real[..., None]
    idx = np.nonzero(real)
    out[idx + (card[idx],)] = 1.0
    return out


def features_move(features):
    """The move integers of move features (the inverse of move_features;
    MOVE_NONE for a row of zeros)."""
    f = np.asarray(features) > 0.5
    card = f[..., :40].argmax(axis=-1).astype(np.uint64)
    taken = (f[..., 40:].astype(np.uint64) <<
             np.arange(40, dtype=np.uint64)).sum(axis=-1, dtype=np.uint64)
    moves = (card << np.uint64(48)) | taken
    return np.where(f[..., :40].any(axis=-1), moves,
                    np.uint64(_lib.MOVE_NONE)).astype(np.uint64)


def reset_options(options):
    """The reset options as a dict, every key one of RESET_OPTIONS: an
    unknown key is refused, not ignored (a misspelt "scores" would
    otherwise start episodes other than those asked for).  "deck" is
    refused too: scopa_env_reset deals from the seed stream and takes no
    deck (scopa.Game.new_round(deck=...) plays a given deck)."""
    if options is None:
        return {}
    unknown = [k for k in options if k not in RESET_OPTIONS]
    if unknown:
        why = "; a deck cannot be set: the environment deals from its " \
            "seed stream" if "deck" in unknown else ""
        raise ValueError("unknown reset option %r (the options are %s%s)" %
                         (unknown[0], ", ".join(map(repr, RESET_OPTIONS)),
                          why))
    return dict(options)


def dealer_scores(options, players, sides):
    """The "dealer" and "scores" options as scopa_env_reset takes them."""
    dealer = options.get("dealer", -1)
    if dealer != -1:
        _lib.int_arg("dealer", dealer, 0, players - 1)
    scores = None
    if options.get("scores") is not None:
        given = list(options["scores"])
        if len(given) != sides:
            raise ValueError("scores lists %d sides' game scores" % sides)
        for s in given:
            _lib.int_arg("a game score", int(s), 0, 10 ** 6)
        scores = (ctypes.c_int * _lib.MAX_SEATS)(*[int(s) for s in given])
    return dealer, scores


def _np_random(seed):
    if _compat.HAVE_GYMNASIUM:
        from gymnasium.utils import seeding
        return seeding.np_random(seed)[0]
    return _compat._rng(seed)


class _Core(object):
    """A scopa_env and its numpy buffers."""

    def __init__(self, rules, learner=-1, opponent=None, movetime_ms=0,
                 nodes=0, whole_game=False, illegal_reward=ILLEGAL_REWARD,
                 observation="features"):
        if observation not in OBSERVATIONS:
            raise ValueError("observation is one of %s" % (OBSERVATIONS,))
        self.infostates = observation == "infostate"
        self.game = Game(rules)
        self.players, self.sides = self.game.players, self.game.sides
        cfg = _lib.EnvConfig(learner=learner, movetime_ms=movetime_ms,
                             nodes=nodes, whole_game=1 if whole_game else 0,
                             illegal_reward=float(illegal_reward))
        if opponent is not None:
            cfg.opponent = _lib.text_arg("opponent", opponent)
        self.h = ctypes.c_void_p()
        rc = L.scopa_env_new(ctypes.byref(self.game._rules), ctypes.byref(cfg),
                             ctypes.byref(self.h))
        if rc != 0:
            raise ValueError("cannot make the environment: %s" %
                             (L.scopa_strerror(rc).decode() if learner < 0
                              else "unknown opponent %r" % (opponent,)))
        self.h = self.h.value
        self.obs = np.zeros(FEATURES, np.float32)
        self.mask = np.zeros(ACTIONS, np.int8)
        self.rewards = np.zeros(_lib.MAX_SEATS, np.float64)
        self.obs_p, self.mask_p = self.obs.ctypes.data, self.mask.ctypes.data
        self.rewards_p = self.rewards.ctypes.data
        self.seeded = False

    def __del__(self):
        h = getattr(self, "h", None)
        if h:
            L.scopa_env_free(h)
            self.h = None

    def reset(self, seed, np_random, options):
        options = reset_options(options)
        dealer, scores = dealer_scores(options, self.players, self.sides)
        if seed is not None:
            stream = int(seed) % _lib.ENV_NEXT
        elif not self.seeded:
            stream = int(np_random.integers(2 ** 63))
        else:
            stream = _lib.ENV_NEXT
        self.seeded = True
        L.scopa_env_reset(self.h, stream, dealer, scores)

    def observe(self, seat):
        """Fresh arrays: the seat's observation and mask."""
        if self.infostates:
            _observe(self.h, seat, None, self.mask_p)
            return self.infostate(seat), self.mask.copy()
        _observe(self.h, seat, self.obs_p, self.mask_p)
        return self.obs.copy(), self.mask.copy()

    def infostate(self, seat):
        out = np.empty(INFOSTATE, np.int8)
        L.scopa_env_infostate(self.h, seat, out.ctypes.data)
        return out

    def infostate_text(self, seat):
        buf = ctypes.create_string_buffer(4096)
        L.scopa_env_infostate_text(self.h, seat, buf, 4096)
        return buf.value.decode()

    def global_state(self):
        out = np.empty(GLOBAL, np.float32)
        L.scopa_env_global(self.h, out.ctypes.data)
        return out

    def round(self):
        """The round being played, as a Round over the C state (read it;
        playing on it would bypass the environment)."""
        r = Round.__new__(Round)
        r.game = self.game
        r._st = _lib.State.from_address(L.scopa_env_state(self.h))
        r.dealer = r._st.dealer
        r.scores = list(L.scopa_env_scores(self.h)[:self.sides])
        r._match, r._scores_c = None, None
        r._owner = self  # the C state lives as long as this environment
        return r

    def legal_actions(self):
        _observe(self.h, _to_play(self.h), None, self.mask_p)
        return self.mask.view(np.bool_).nonzero()[0]

    def legal_moves(self):
        """(actions, moves): the legal actions of the seat to play
        (np.int64, increasing) and their moves (np.uint64 library move
        integers; ACTION_MORE for the next-page action)."""
        actions = np.zeros(ACTIONS, np.int32)
        moves = np.zeros(ACTIONS, np.uint64)
        n = L.scopa_env_legal_moves(self.h, actions.ctypes.data,
                                    moves.ctypes.data, ACTIONS)
        return actions[:n].astype(np.int64), moves[:n]

    def move_of(self, action):
        m = _lib.c_u64()
        a = _action_int(action)
        if a is None or L.scopa_env_move(self.h, a, ctypes.byref(m)) != 0:
            raise ValueError("action %r is not legal now" % (action,))
        return m.value

    def action_move(self, action):
        m = self.move_of(action)
        return "more" if m == _lib.ACTION_MORE else cards.move_str(m)

    def move_action(self, move):
        m = cards.parse_move(move)
        for a in self.legal_actions():
            if self.move_of(a) == m:
                return int(a)
        raise ValueError("%s is not a legal move on this page" % move)

    def render(self, mode, to_play):
        r = self.round()
        lines = ["table: " + (" ".join(r.table) or "-")]
        for s in range(self.players):
            lines.append("seat %d%s: %s" % (s, " *" if s == to_play else "",
                                             " ".join(r.hand(s)) or "-"))
        lines.append("scores: %s  scope: %s" % (r.scores, r.scope))
        text = "\n".join(lines)
        if mode == "ansi":
            return text
        if mode == "human":
            print(text)
        return None


def _observation_space(observation):
    if observation == "infostate":
        return spaces.Box(0, 127, (INFOSTATE,), np.int8)
    return spaces.Box(0.0, 1.0, (FEATURES,), np.float32)


def _action_int(action):
    """An action as an int, or None when it is not a whole number (which
    counts as illegal)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and \
            np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None


class ScopaEnv(AECEnv):
    """PettingZoo AEC environment: agents "player_0".."player_{n-1}", one
    per seat, taking turns.  rules: a dict as a record's "rules", a preset
    name or None.  whole_game: an episode is a game, not one round.
    observation: "features" (np.float32 summary, FEATURES) or "infostate"
    (np.int8 perfect recall, INFOSTATE); state() is the whole state for
    centralised critics (np.float32, GLOBAL)."""

    metadata = {"name": "scopa_v1", "is_parallelizable": False,
                "render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules=None, render_mode=None, whole_game=False,
                 illegal_reward=ILLEGAL_REWARD, observation="features"):
        super().__init__()
        if render_mode is not None and \
                render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode is one of %s" %
                             self.metadata["render_modes"])
        self.rules = rules
        self._core = _Core(rules, whole_game=whole_game,
                           illegal_reward=illegal_reward,
                           observation=observation)
        self.players, self.sides = self._core.players, self._core.sides
        self.possible_agents = ["player_%d" % i for i in range(self.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.render_mode = render_mode
        self.whole_game = whole_game
        self.illegal_reward = float(illegal_reward)
        obs = spaces.Dict({
            "observation": _observation_space(observation),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8)})
        self.state_space = spaces.Box(0.0, 1.0, (GLOBAL,), np.float32)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTIONS)
                              for a in self.possible_agents}
        self.np_random = _np_random(None)
        self.agents = []
        self._reset_done = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # episode -------------------------------------------------------------
    def reset(self, seed=None, options=None):
        """Deals the first round.  seed: an int >= 0 (the same seed, the
        same episodes); options: "dealer" (default: drawn), "scores" (each
        side's game score before it); any other key is a ValueError
        (RESET_OPTIONS)."""
        if seed is not None:
            self.np_random = _np_random(seed)
        self._core.reset(seed, self.np_random, options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[_to_play(self._core.h)]
        self._reset_done = True

    def _check_reset(self):
        if not self._reset_done:
            raise ResetNeeded("call reset() before step(), observe() or "
                              "last()")

    def observe(self, agent):
        if not self._reset_done:
            self._check_reset()
        obs, mask = self._core.observe(self._seat[agent])
        return {"observation": obs, "action_mask": mask}

    def last(self, observe=True):
        """As pettingzoo's AECEnv.last (written out: it runs every step)."""
        if not self._reset_done:
            self._check_reset()
        agent = self.agent_selection
        return (self.observe(agent) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action):
        if not self._reset_done:
            self._check_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = _action_int(action)
        core = self._core
        rc = _step(core.h, -1 if a is None else a, core.rewards_p)
        self._cumulative_rewards[agent] = 0
        if rc <= _lib.ENV_PAGE:  # the episode goes on
            rewards = self.rewards
            for ag in rewards:
                rewards[ag] = 0
            if rc == _lib.ENV_ROUND:
                self._set_rewards()
            self.agent_selection = self.possible_agents[_to_play(core.h)]
            return
        self._set_rewards()
        info = {"score": self._core.round().score()} \
            if rc == _lib.ENV_OVER else {"illegal_action": agent}
        for ag in self.agents:
            self.terminations[ag] = True
            self.infos[ag] = dict(info)
        self._deads_step_first()

    def _set_rewards(self):
        rew = self._core.rewards
        for ag in self.agents:
            self.rewards[ag] = float(rew[self._seat[ag]])
        self._accumulate_rewards()

    # for researchers -----------------------------------------------------
    @property
    def round(self):
        """The round being played (a scopa.Round over the C state: read
        it; playing on it would bypass the environment)."""
        self._check_reset()
        return self._core.round()

    def legal_actions(self):
        """The legal actions of the agent to act (np.int64 array)."""
        self._check_reset()
        return self._core.legal_actions()

    def state(self):
        """The whole state (every hand, the stock), for centralised
        critics: np.float32 (GLOBAL,) in 0..1, in state_space."""
        self._check_reset()
        return self._core.global_state()

    def infostate(self, agent):
        """The agent's perfect-recall information state (np.int8
        (INFOSTATE,); docs/env.md)."""
        self._check_reset()
        return self._core.infostate(self._seat[agent])

    def infostate_string(self, agent):
        """The same as text, for tabular methods (equal iff equal)."""
        self._check_reset()
        return self._core.infostate_text(self._seat[agent])

    def sample_action(self):
        return int(self.np_random.choice(self.legal_actions()))

    def legal_moves(self):
        """(actions, moves) of the agent to act: np.int64 actions and
        their np.uint64 move integers, aligned (docs/env.md "Moves as
        features")."""
        self._check_reset()
        return self._core.legal_moves()

    def legal_move_features(self):
        """(actions, features): the legal actions and their moves'
        features (np.float32 (n, 80), move_features): score each row
        with a network and play the action of the best."""
        actions, moves = self.legal_moves()
        return actions, move_features(moves)

    def action_move(self, action):
        """The move (record notation) of a legal action now; "more" for
        the next-page action."""
        self._check_reset()
        return self._core.action_move(action)

    def move_action(self, move):
        """The action of a legal move (record notation) now."""
        self._check_reset()
        return self._core.move_action(move)

    def render(self):
        if not self._reset_done:
            raise ResetNeeded("call reset() before render()")
        return self._core.render(self.render_mode or "human",
                                 _to_play(self._core.h))

    def close(self):
        pass


class ScopaGymEnv(Env):
    """Gymnasium environment for one seat; the other seats are played by
    a library bot (a name or a level: "random", "greedy", "rules", "best",
    "principiante", ...) inside the step.  reset(seed) -> (obs, info);
    step(action) -> (obs, reward, terminated, truncated, info).  info
    carries "action_mask" (np.int8) and "legal_actions"."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules=None, opponent="random", seat=0,
                 render_mode=None, whole_game=False,
                 illegal_reward=ILLEGAL_REWARD, movetime_ms=0, nodes=0,
                 observation="features", move_features=False):
        if render_mode is not None and \
                render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode is one of %s" %
                             self.metadata["render_modes"])
        self.move_features = bool(move_features)
        probe = Game(rules)
        _lib.int_arg("seat", seat, 0, probe.players - 1)
        # A Python opponent: the environment's every-seat face, the other
        # seats' moves asked of the callable between the learner's steps.
        self._policy = opponent if callable(opponent) else None
        self._core = _Core(rules, learner=-1 if self._policy else seat,
                           opponent=None if self._policy else opponent,
                           movetime_ms=movetime_ms, nodes=nodes,
                           whole_game=whole_game,
                           illegal_reward=illegal_reward,
                           observation=observation)
        self.rules, self.seat, self.opponent = rules, seat, opponent
        self.render_mode = render_mode
        self.observation_space = _observation_space(observation)
        self.action_space = spaces.Discrete(ACTIONS)
        self._reset_done = False

    def _check_reset(self):
        if not self._reset_done:
            raise ResetNeeded("call reset() before step() or reading the "
                              "environment")

    @property
    def round(self):
        """The round being played (a scopa.Round over the C state)."""
        self._check_reset()
        return self._core.round()

    def state(self):
        """The whole state (np.float32 (GLOBAL,)), as ScopaEnv.state()."""
        self._check_reset()
        return self._core.global_state()

    def infostate_string(self):
        """The learner's information state as text."""
        self._check_reset()
        return self._core.infostate_text(self.seat)

    def action_move(self, action):
        """The move (record notation) of a legal action now."""
        self._check_reset()
        return self._core.action_move(action)

    def legal_moves(self):
        """(actions, moves) of the learner now, as ScopaEnv.legal_moves."""
        self._check_reset()
        return self._core.legal_moves()

    def _result(self, reward, rc):
        core = self._core
        obs, mask = core.observe(self.seat)
        info = {"action_mask": mask,
                "legal_actions": mask.view(np.bool_).nonzero()[0].tolist()}
        if self.move_features:
            _, moves = core.legal_moves()
            info["legal_moves"] = moves
            info["move_features"] = move_features(moves)
        done = rc >= _lib.ENV_OVER
        if rc == _lib.ENV_OVER:
            info["score"] = core.round().score()
        elif rc == _lib.ENV_ILLEGAL:
            info["illegal_action"] = "opponent" if \
                self._opponent_illegal else True
        return obs, reward, done, False, info

    def set_opponent(self, opponent):
        """Another Python opponent from the next step on (self-play: a
        frozen copy of the learner's policy); only for an environment
        made with a callable opponent."""
        if self._policy is None or not callable(opponent):
            raise ValueError("set_opponent takes a callable, in an "
                             "environment made with a callable opponent")
        self._policy = self.opponent = opponent

    def _play_others(self, rc, reward):
        """The callable plays every other seat until the learner's turn or
        the episode's end; returns (rc, the learner's rewards on the way).
        An illegal action of the callable ends the episode (the learner
        gets 0, info["illegal_action"] says "opponent")."""
        core = self._core
        while rc < _lib.ENV_OVER:
            seat = _to_play(core.h)
            if seat == self.seat:
                break
            obs, mask = core.observe(seat)
            a = _action_int(self._policy(obs, mask))
            rc = _step(core.h, -1 if a is None else a, core.rewards_p)
            if rc == _lib.ENV_ILLEGAL:
                self._opponent_illegal = True
                return rc, 0.0
            reward += float(core.rewards[self.seat])
        return rc, reward

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._core.reset(seed, self.np_random, options)
        self._reset_done = True
        self._opponent_illegal = False
        rc, reward = _lib.ENV_PLAYED, 0.0
        if self._policy is not None:
            rc, reward = self._play_others(rc, reward)
        obs, _, _, _, info = self._result(reward, rc)
        return obs, info

    def step(self, action):
        if not self._reset_done:
            self._check_reset()
        a = _action_int(action)
        core = self._core
        rc = _step(core.h, -1 if a is None else a, core.rewards_p)
        if rc < 0:
            raise ResetNeeded("the episode is over: call reset()")
        reward = float(core.rewards[self.seat])
        if self._policy is not None and rc != _lib.ENV_ILLEGAL:
            rc, reward = self._play_others(rc, reward)
        return self._result(reward, rc)

    def render(self):
        self._check_reset()
        return self._core.render(self.render_mode or "human",
                                 _to_play(self._core.h))

    def close(self):
        pass


def raw_env(**kwargs):
    """PettingZoo's raw_env(): the ScopaEnv itself."""
    return ScopaEnv(**kwargs)


def env(**kwargs):
    """PettingZoo's env(): the ScopaEnv in PettingZoo's standard wrappers
    (AssertOutOfBoundsWrapper, OrderEnforcingWrapper) when pettingzoo is
    installed; the raw environment otherwise (it checks the order of
    calls itself)."""
    e = raw_env(**kwargs)
    if _compat.HAVE_PETTINGZOO:
        from pettingzoo.utils import wrappers
        e = wrappers.AssertOutOfBoundsWrapper(e)
        e = wrappers.OrderEnforcingWrapper(e)
    return e


GYM_IDS = {
    "scopa/Scopa-v0": {},
    "scopa/Scopone-v0": {"rules": "scopone"},
    "scopa/Scientifico-v0": {"rules": "scientifico"},
    "scopa/ScopaGame-v0": {"whole_game": True},
}


def register():
    """Registers GYM_IDS with gymnasium (done on import when gymnasium is
    installed): gymnasium.make("scopa/Scopa-v0", opponent="greedy")."""
    if not _compat.HAVE_GYMNASIUM:
        return
    import gymnasium
    for name, kwargs in GYM_IDS.items():
        if name not in gymnasium.registry:
            gymnasium.register(id=name,
                               entry_point="scopa.env:ScopaGymEnv",
                               kwargs=dict(kwargs))


register()
