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
auto-reset: the action is ignored, reward 0, flags False).  With
copy=False the arrays returned are the environment's own, overwritten by
the next call (no copying: the fastest).  docs/env.md.
"""
import ctypes
import os

import numpy as np

from . import _compat, _lib
from ._compat import VectorEnv, spaces
from .env import (ACTIONS, FEATURES, ILLEGAL_REWARD, ResetNeeded,
                  _np_random)
from .game import Game

L = _lib.lib


class VecEnv(VectorEnv):
    def __init__(self, num_envs, rules=None, seed=None, opponent="random",
                 seat=0, threads=None, whole_game=False,
                 illegal_reward=ILLEGAL_REWARD, movetime_ms=0, nodes=0,
                 copy=True):
        _lib.int_arg("num_envs", num_envs, 1, 1 << 20)
        game = Game(rules)
        _lib.int_arg("seat", seat, 0, game.players - 1)
        if threads is None:
            threads = os.cpu_count() or 1
        _lib.int_arg("threads", threads, 1, 256)
        cfg = _lib.EnvConfig(learner=seat, movetime_ms=movetime_ms,
                             nodes=nodes, whole_game=1 if whole_game else 0,
                             illegal_reward=float(illegal_reward),
                             opponent=_lib.text_arg("opponent", opponent))
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
        self.single_observation_space = spaces.Box(0.0, 1.0, (FEATURES,),
                                                   np.float32)
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, FEATURES),
                                            np.float32)
        self.action_space = spaces.MultiDiscrete([ACTIONS] * num_envs)
        self._obs = np.zeros((num_envs, FEATURES), np.float32)
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
        self._seed = seed
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

    def _info(self):
        mask, = self._out(self._mask)
        return {"action_mask": mask, "_action_mask": self._info_mask.copy()}

    def reset(self, *, seed=None, options=None):
        """Starts every environment: environment i with seed + i (an int
        >= 0); without a seed, each goes on with its own stream (the first
        time: the seed given to the constructor, else one drawn at
        random)."""
        if seed is None and not self._reset_done:
            seed = self._seed if self._seed is not None else \
                int(self._np_random.integers(2 ** 62))
        if seed is not None:
            if isinstance(seed, bool) or \
                    not isinstance(seed, (int, np.integer)) or seed < 0:
                raise TypeError("seed is an int >= 0 (environment i gets "
                                "seed + i)")
            self._np_random = _np_random(int(seed))
            seed = int(seed) % _lib.ENV_NEXT
        else:
            seed = _lib.ENV_NEXT
        L.scopa_vecenv_reset(self._h, seed, self._p[0], self._p[1])
        self._reset_done = True
        obs, = self._out(self._obs)
        return obs, self._info()

    def step(self, actions):
        """Steps every environment; actions: one int per environment."""
        if not self._reset_done:
            raise ResetNeeded("call reset() before step()")
        if actions is not self._actions:
            self._actions[:] = actions
        obs, mask, rew, term, trunc = self._p
        L.scopa_vecenv_step(self._h, self._actions_p, obs, mask, rew, term,
                            trunc)
        out = self._out(self._obs, self._rewards, self._term, self._trunc)
        return out + (self._info(),)

    def close_extras(self, **kwargs):
        h = getattr(self, "_h", None)
        if h:
            L.scopa_vecenv_free(h)
            self._h = None

    def close(self, **kwargs):
        if not getattr(self, "closed", False):
            self.close_extras(**kwargs)
        self.closed = True
