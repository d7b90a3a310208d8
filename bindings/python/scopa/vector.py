"""vector -- many single-seat environments stepped together in C
(scopa_vecenv): each call steps every environment on the library's
threads and writes observations, masks, rewards and flags into numpy
arrays made once.  The face is Gymnasium's VectorEnv (the class derives
from gymnasium.vector.VectorEnv when gymnasium imports).

    vec = scopa.vector.VecEnv(512, rules=None, seed=1, opponent="greedy")
    obs, info = vec.reset()
    actions = info["action_mask"].argmax(axis=1)       # any legal action
    obs, rewards, terminated, truncated, info = vec.step(actions)

Environment i is exactly scopa.ScopaGymEnv(rules, opponent, seat) reset
with seed + i and given the same actions; an environment whose episode
ended starts its next one at the following step (Gymnasium's next-step
auto-reset: the action is ignored, reward 0, flags False; the mask
of a terminal step is all zeros).  reset(seed=[...]) gives each
environment its own seed; info["score"] / info["_score"] hold the score
of each round just ended.  With copy=False the arrays returned are the
environment's own, overwritten by the next call (no copying: the
fastest).  With compact=True the observations are int8 (the same
features as small counts: obs / vec.obs_divisors is the float32 one),
written so by C: 4 times fewer bytes.  scores=False leaves
info["score"] out (the rewards have the points; the scores' JSON is
the Python part's main cost at 1,024 environments).  opponent may be a
batched callable (obs, mask) -> actions, called once for all the
environments where another seat is to play (vec.opponent_envs and
vec.opponent_seats name its rows); partner, in team rules, the same for
the learner's partners.  docs/env.md.
"""
import ctypes
import json
import os

import numpy as np

from . import _compat, _lib, env as senv
from ._compat import VectorEnv, spaces
from .env import (ACTIONS, FEATURES, ILLEGAL_REWARD, ResetNeeded,
                  _np_random)
from .game import Game, Round

L = _lib.lib


def _is_seed(seed):
    return isinstance(seed, (int, np.integer))


def _seed_arg(seed):
    if isinstance(seed, bool) or not _is_seed(seed) or seed < 0:
        raise TypeError("a seed is an int >= 0 (environment i gets seed + "
                        "i), or a list of num_envs of them")


class VecEnv(VectorEnv):
    def __init__(self, num_envs, rules=None, seed=None, opponent="random",
                 seat=0, threads=None, whole_game=False,
                 illegal_reward=ILLEGAL_REWARD, movetime_ms=0, nodes=0,
                 copy=True, compact=False, scores=True, partner=None):
        _lib.int_arg("num_envs", num_envs, 1, 1 << 20)
        game = Game(rules)
        self._players, self._sides = game.players, game.sides
        self._game = game
        _lib.int_arg("seat", seat, 0, game.players - 1)
        if threads is None:
            threads = os.cpu_count() or 1
        _lib.int_arg("threads", threads, 1, 256)
        self._policy = opponent if callable(opponent) else None
        if partner is not None and not callable(partner):
            raise TypeError("partner is a callable (obs, mask) -> actions")
        self._partner, self._side = partner, game.side_of(seat)
        self._seat_side = np.array([game.side_of(s)
                                    for s in range(game.players)])
        external = 0
        for s in range(game.players):
            ours = self._seat_side[s] == self._side
            if s != seat and (self._policy or (partner and ours)):
                external |= 1 << s
        cfg = _lib.EnvConfig(learner=seat, movetime_ms=movetime_ms,
                             nodes=nodes, whole_game=1 if whole_game else 0,
                             illegal_reward=float(illegal_reward),
                             external=external)
        if self._policy is None:
            cfg.opponent = _lib.text_arg("opponent", opponent)
        h = ctypes.c_void_p()
        rc = L.scopa_vecenv_new(ctypes.byref(game._rules), ctypes.byref(cfg),
                                num_envs, threads, ctypes.byref(h))
        if rc != 0:
            raise ValueError("cannot make the environments: %s" %
                             L.scopa_strerror(rc).decode())
        self._h = h.value
        self.num_envs, self.threads, self.copy = num_envs, threads, copy
        self.rules, self.seat, self.opponent = rules, seat, opponent
        self.metadata = {"render_modes": []}
        if _compat.AutoresetMode is not None:
            self.metadata["autoreset_mode"] = _compat.AutoresetMode.NEXT_STEP
        self.render_mode = None
        self.compact, self.scores = bool(compact), bool(scores)
        self.obs_divisors = np.empty(FEATURES, np.float32)
        L.scopa_features_divisors(ctypes.byref(game._rules),
                                  self.obs_divisors.ctypes.data)
        if self.compact:
            high = self.obs_divisors.astype(np.int8)
            self.single_observation_space = spaces.Box(
                np.zeros(FEATURES, np.int8), high, (FEATURES,), np.int8)
            self.observation_space = spaces.Box(
                np.zeros((num_envs, FEATURES), np.int8),
                np.broadcast_to(high, (num_envs, FEATURES)).copy(),
                (num_envs, FEATURES), np.int8)
            self._obs = np.zeros((num_envs, FEATURES), np.int8)
            self._reset_c = L.scopa_vecenv_reset_compact
            self._step_c = L.scopa_vecenv_step_compact
            self._observe_c = L.scopa_env_observe_compact
        else:
            self.single_observation_space = spaces.Box(
                0.0, 1.0, (FEATURES,), np.float32)
            self.observation_space = spaces.Box(
                0.0, 1.0, (num_envs, FEATURES), np.float32)
            self._obs = np.zeros((num_envs, FEATURES), np.float32)
            self._reset_c = L.scopa_vecenv_reset
            self._step_c = L.scopa_vecenv_step
            self._observe_c = L.scopa_env_observe
        self._row = self._obs.itemsize * FEATURES
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.action_space = spaces.MultiDiscrete([ACTIONS] * num_envs)
        self._mask = np.zeros((num_envs, ACTIONS), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._term = np.zeros(num_envs, np.bool_)
        self._trunc = np.zeros(num_envs, np.bool_)
        self._actions = np.zeros(num_envs, np.int64)
        self._actions_p = self._actions.ctypes.data
        self._info_mask = np.ones(num_envs, np.bool_)
        self._p = [a.ctypes.data for a in (self._obs, self._mask,
                                           self._rewards, self._term,
                                           self._trunc)]
        self._external = external != 0
        if self._external:
            self._opp_obs = np.zeros_like(self._obs)
            self._opp_mask = np.zeros_like(self._mask)
            self._opp_envs = np.zeros(num_envs, np.int32)
            self._opp_seats = np.zeros(num_envs, np.int32)
            self._opp_actions = np.zeros(num_envs, np.int64)
            self._opp_p = [a.ctypes.data for a in (
                self._opp_envs, self._opp_seats, self._opp_obs,
                self._opp_mask, self._opp_actions)]
            self._opponents_c = L.scopa_vecenv_opponents_compact if \
                self.compact else L.scopa_vecenv_opponents
            self._observe_all_c = L.scopa_vecenv_observe_compact if \
                self.compact else L.scopa_vecenv_observe
        self.opponent_envs = self.opponent_seats = None
        self._seed = seed
        self._moves_cap = 32
        self._np_random = _np_random(seed)
        self._reset_done = False

    @property
    def np_random(self):
        return self._np_random

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            L.scopa_vecenv_free(h)
            self._h = None

    def _out(self, *arrays):
        if self.copy:
            return tuple(a.copy() for a in arrays)
        return arrays

    def _info(self, scores=None):
        mask, = self._out(self._mask)
        info = {"action_mask": mask, "_action_mask": self._info_mask.copy()}
        if scores is not None:
            info["score"], info["_score"] = scores
        return info

    def _scores(self):
        """Gymnasium's info pair for "score": an object array with the
        full score of the round just ended (as ScopaGymEnv's
        info["score"], the "sides" of `scopa replay --json`) for each
        environment whose episode ended at this step with its round over
        (not by an illegal action), None elsewhere, and its mask; None
        when no environment has one, or with scores=False.  One C call
        and one JSON text for the batch."""
        if not self.scores or not self._term.any():
            return None
        got = json.loads(_lib.take_string(
            L.scopa_vecenv_scores_json(self._h, self._p[3])))
        scores = np.full(self.num_envs, None, object)
        has = np.zeros(self.num_envs, np.bool_)
        for i, score in zip(np.flatnonzero(self._term), got):
            if score is not None:
                scores[i], has[i] = score, True
        return (scores, has) if has.any() else None

    def _seeds(self, seed):
        """The per-environment streams of a list of seeds."""
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError("seed lists %d seeds, one per environment "
                             "(got %d)" % (self.num_envs, len(seeds)))
        for s in seeds:
            _seed_arg(s)
        return [int(s) % _lib.ENV_NEXT for s in seeds]

    def reset(self, *, seed=None, options=None):
        """Starts every environment: environment i with seed + i (an int
        >= 0), or with seed[i] (a list of num_envs ints >= 0); without a
        seed, each goes on with its own stream (the first time: the seed
        given to the constructor, else one drawn at random).  options:
        "dealer" and "scores" (scopa.env.RESET_OPTIONS) for every
        environment; any other key is a ValueError."""
        options = senv.reset_options(options)
        dealer, scores = senv.dealer_scores(options, self._players,
                                            self._sides)
        if seed is None and not self._reset_done:
            seed = self._seed if self._seed is not None else \
                int(self._np_random.integers(2 ** 62))
        streams = None
        if isinstance(seed, (list, tuple, range, np.ndarray)):
            streams = self._seeds(seed)
            self._np_random = _np_random(int(seed[0]))
            seed = _lib.ENV_NEXT
        elif seed is not None:
            _seed_arg(seed)
            self._np_random = _np_random(int(seed))
            seed = int(seed) % _lib.ENV_NEXT
        else:
            seed = _lib.ENV_NEXT
        self._reset_c(self._h, seed, self._p[0], self._p[1])
        if streams is not None or options:
            self._reset_each(streams, seed, dealer, scores)
        if self._external:
            self._rewards[:] = 0
            self._term[:] = False
            self._play_opponents()
            self._rewards[:] = 0
        self._reset_done = True
        obs, = self._out(self._obs)
        return obs, self._info()

    def _reset_each(self, streams, seed, dealer, scores):
        """Resets environment by environment, after scopa_vecenv_reset
        (which ends any pending auto-reset): with a stream each, or with
        the options.  Without a seed each environment's stream has then
        moved on by one episode (the one scopa_vecenv_reset dealt)."""
        for i in range(self.num_envs):
            if streams is not None:
                stream = streams[i]
            elif seed == _lib.ENV_NEXT:
                stream = seed
            else:
                stream = (seed + i) % _lib.ENV_NEXT
            env = L.scopa_vecenv_env(self._h, i)
            L.scopa_env_reset(env, stream, dealer, scores)
            self._observe_c(env, self.seat, self._p[0] + i * self._row,
                            self._p[1] + i * ACTIONS)

    def step(self, actions):
        """Steps every environment; actions: one int per environment."""
        if not self._reset_done:
            raise ResetNeeded("call reset() before step()")
        if actions is not self._actions:
            self._actions[:] = actions
        obs, mask, rew, term, trunc = self._p
        self._step_c(self._h, self._actions_p, obs, mask, rew, term, trunc)
        if self._external:
            self._play_opponents()
        out = self._out(self._obs, self._rewards, self._term, self._trunc)
        return out + (self._info(self._scores()),)

    def round(self, i):
        """Environment i's round now, as a scopa.Round over its C state
        (to read between calls, as ScopaGymEnv.round)."""
        _lib.int_arg("i", i, 0, self.num_envs - 1)
        env = L.scopa_vecenv_env(self._h, i)
        r = Round.__new__(Round)
        r.game = self._game
        r._st = _lib.State.from_address(L.scopa_env_state(env))
        r.dealer = r._st.dealer
        r.scores = list(L.scopa_env_scores(env)[:self._sides])
        r._match, r._scores_c = None, None
        r._owner = self  # the C state lives as long as this VecEnv
        return r

    def set_opponent(self, opponent):
        """Another Python opponent from the next call on (self-play: a
        frozen copy of the learner's policy); only for a VecEnv made with
        a callable opponent."""
        if self._policy is None or not callable(opponent):
            raise ValueError("set_opponent takes a callable, in a VecEnv "
                             "made with a callable opponent")
        self._policy = self.opponent = opponent

    def _ask(self, policy, envs, seats, obs, mask):
        """policy's actions for these rows, checked."""
        self.opponent_envs, self.opponent_seats = envs, seats
        acts = np.asarray(policy(obs, mask))
        k = len(envs)
        if acts.shape != (k,) or not (
                np.issubdtype(acts.dtype, np.integer) or
                (np.issubdtype(acts.dtype, np.floating) and
                 (acts == np.round(acts)).all())):
            raise ValueError("the opponent returns one whole action per "
                             "row: shape (%d,), got %r" % (k, acts.shape))
        return acts

    def set_partner(self, partner):
        """Another partner callable, for a VecEnv made with one."""
        if self._partner is None or not callable(partner):
            raise ValueError("set_partner takes a callable, in a VecEnv "
                             "made with a partner")
        self._partner = partner

    def _play_opponents(self):
        """The callables play every waiting seat of theirs (the partner's
        seats to partner, the others to the opponent), one call each for
        all the environments where one is to play, until every
        environment is at the learner's turn or over; then the learners'
        observations are written again (C wrote those of the step)."""
        envs_p, seats_p, obs_p, mask_p, acts_p = self._opp_p
        played = False
        while True:
            k = self._opponents_c(self._h, envs_p, seats_p, obs_p, mask_p)
            if not k:
                break
            played = True
            envs, seats = self._opp_envs[:k], self._opp_seats[:k]
            obs, mask = self._out(self._opp_obs[:k], self._opp_mask[:k])
            if self._partner is None:
                self._opp_actions[:k] = self._ask(self._policy, envs, seats,
                                                  obs, mask)
            else:
                ours = self._seat_side[seats] == self._side
                for who, rows in ((self._partner, ours),
                                  (self._policy, ~ours)):
                    if rows.any():
                        self._opp_actions[:k][rows] = self._ask(
                            who, envs[rows], seats[rows], obs[rows],
                            mask[rows])
            L.scopa_vecenv_play(self._h, k, envs_p, acts_p, self._p[2],
                                self._p[3])
        self.opponent_envs = self.opponent_seats = None
        if played:
            self._observe_all_c(self._h, self._p[0], self._p[1])

    def action_moves(self, actions):
        """The move of actions[i] in environment i now (np.uint64 (num_envs,)
        library move integers; MOVE_NONE where the action is not legal,
        ACTION_MORE for the next-page action): VecEnv's action_move.
        scopa.move_str(int(m)) gives the notation."""
        a = np.ascontiguousarray(actions, np.int64)
        if a.shape != (self.num_envs,):
            raise ValueError("one action per environment")
        out = np.empty(self.num_envs, np.uint64)
        L.scopa_vecenv_moves(self._h, a.ctypes.data, out.ctypes.data)
        return out

    def legal_moves(self, cap=None):
        """(actions, moves): each environment's legal actions (np.int64
        (num_envs, K), -1 after the last) and their moves (np.uint64,
        MOVE_NONE after the last), K the most any environment has (at
        least 1).  move_features(moves) gives their features."""
        cap = cap or self._moves_cap
        while True:
            actions = np.empty((self.num_envs, cap), np.int64)
            moves = np.empty((self.num_envs, cap), np.uint64)
            most = L.scopa_vecenv_legal_moves(self._h, cap,
                                              actions.ctypes.data,
                                              moves.ctypes.data)
            if most <= cap:
                k = max(most, 1)
                return actions[:, :k], moves[:, :k]
            cap = self._moves_cap = most

    def legal_move_features(self):
        """(actions, features): legal_moves() with each move's features
        (np.float32 (num_envs, K, 80); rows of zeros after the last):
        score every row, mask with actions >= 0, play the best's
        action."""
        actions, moves = self.legal_moves()
        return actions, senv.move_features(moves)

    def close_extras(self, **kwargs):
        h = getattr(self, "_h", None)
        if h:
            L.scopa_vecenv_free(h)
            self._h = None

    def close(self, **kwargs):
        if not getattr(self, "closed", False):
            self.close_extras(**kwargs)
        self.closed = True
