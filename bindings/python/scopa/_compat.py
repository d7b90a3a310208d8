"""_compat -- the framework classes the environments build on: the real
ones when Gymnasium and PettingZoo import (researchers pip-install them),
else small stand-ins with the same API, so the package works with numpy
alone.

    Env, spaces (Box, Discrete, Dict)   gymnasium's, or the stand-ins
    AECEnv                              pettingzoo's, or the stand-in
    VectorEnv, AutoresetMode            gymnasium.vector's, or stand-ins

The stand-ins keep the frameworks' rules that the environments rely on,
and only those: spaces with seed/contains/sample/dtype/shape and a
sample(mask) that takes an np.int8 mask; Env.reset(seed=) seeding
np_random as gymnasium.utils.seeding does (PCG64 from the seed); AECEnv's
dead-step, reward and iteration helpers, with pettingzoo's semantics.
HAVE_GYMNASIUM and HAVE_PETTINGZOO say which are in use.
"""
import numpy as np

try:
    import gymnasium
    import gymnasium.vector
    HAVE_GYMNASIUM = True
except ImportError:
    gymnasium = None
    HAVE_GYMNASIUM = False

try:
    import pettingzoo
    HAVE_PETTINGZOO = True
except ImportError:
    pettingzoo = None
    HAVE_PETTINGZOO = False


def _rng(seed):
    if seed is not None and (not isinstance(seed, (int, np.integer)) or
                             seed < 0):
        raise ValueError("seed must be a non-negative int, not %r" % (seed,))
    return np.random.Generator(np.random.PCG64(
        np.random.SeedSequence(None if seed is None else int(seed))))


class _Space(object):
    """What a space has: shape, dtype, seed(), contains(), sample()."""

    def __init__(self, shape, dtype, seed=None):
        self.shape = None if shape is None else tuple(shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self):
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        self._np_random = _rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class _Box(_Space):
    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        super().__init__(shape, dtype, seed)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and
                    x.shape == self.shape and np.all(x >= self.low) and
                    np.all(x <= self.high))

    def sample(self, mask=None):
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(
                self.low, self.high.astype(np.int64) + 1,
                dtype=self.dtype)
        return self.np_random.uniform(self.low, self.high).astype(self.dtype)

    def __eq__(self, other):
        return isinstance(other, _Box) and self.shape == other.shape and \
            self.dtype == other.dtype and np.array_equal(self.low, other.low) \
            and np.array_equal(self.high, other.high)

    def __repr__(self):
        return "Box(%s, %s, %s, %s)" % (self.low.min(), self.high.max(),
                                        self.shape, self.dtype)


class _Discrete(_Space):
    def __init__(self, n, seed=None, start=0):
        super().__init__((), np.int64, seed)
        self.n, self.start = int(n), int(start)

    def contains(self, x):
        if isinstance(x, int) or (isinstance(x, np.ndarray) and x.shape == ()
                                  and np.issubdtype(x.dtype, np.integer)) or \
                isinstance(x, np.integer):
            return bool(self.start <= int(x) < self.start + self.n)
        return False

    def sample(self, mask=None):
        """A uniform draw; with mask (np.int8, shape (n,)) among its ones
        (start when none is set, as gymnasium does)."""
        if mask is None:
            return self.start + int(self.np_random.integers(self.n))
        if not isinstance(mask, np.ndarray) or mask.dtype != np.int8 or \
                mask.shape != (self.n,):
            raise ValueError("the mask must be an np.int8 array of shape "
                             "(%d,)" % self.n)
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            return self.start
        return self.start + int(self.np_random.choice(legal))

    def __eq__(self, other):
        return isinstance(other, _Discrete) and self.n == other.n and \
            self.start == other.start

    def __repr__(self):
        return "Discrete(%d)" % self.n


class _MultiDiscrete(_Space):
    def __init__(self, nvec, dtype=np.int64, seed=None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        super().__init__(self.nvec.shape, dtype, seed)

    def contains(self, x):
        x = np.asarray(x)
        return bool(x.shape == self.shape and
                    np.issubdtype(x.dtype, np.integer) and
                    np.all(x >= 0) and np.all(x < self.nvec))

    def sample(self, mask=None):
        return self.np_random.integers(self.nvec, dtype=self.dtype)

    def __repr__(self):
        return "MultiDiscrete(%s)" % (self.nvec,)


class _Dict(_Space):
    def __init__(self, spaces_, seed=None):
        super().__init__(None, None)
        self.spaces = dict(spaces_)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed=None):
        out = super().seed(seed)
        for i, sub in enumerate(self.spaces.values()):
            sub.seed(None if seed is None else int(seed) + i)
        return out

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and \
            all(self.spaces[k].contains(x[k]) for k in self.spaces)

    def sample(self, mask=None):
        return {k: s.sample() for k, s in self.spaces.items()}

    def __eq__(self, other):
        return isinstance(other, _Dict) and self.spaces == other.spaces

    def __repr__(self):
        return "Dict(%r)" % (self.spaces,)


class _Spaces(object):
    Box, Discrete, Dict, Space = _Box, _Discrete, _Dict, _Space
    MultiDiscrete = _MultiDiscrete


class _Env(object):
    """gymnasium.Env's shape: np_random seeded by reset(seed=...)."""
    metadata = {"render_modes": []}
    render_mode = None
    spec = None
    _np_random = None
    _np_random_seed = None

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = _rng(None)
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random = value

    @property
    def np_random_seed(self):
        return self._np_random_seed

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random = _rng(seed)
            self._np_random_seed = int(seed)

    def close(self):
        pass

    @property
    def unwrapped(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()
        return False


class _AECEnv(object):
    """pettingzoo.AECEnv's helpers, with its semantics."""

    def __init__(self):
        pass

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def _deads_step_first(self):
        dead = [a for a in self.agents
                if self.terminations[a] or self.truncations[a]]
        if dead:
            self._skip_agent_selection = self.agent_selection
            self.agent_selection = dead[0]
        return self.agent_selection

    def _clear_rewards(self):
        for agent in self.rewards:
            self.rewards[agent] = 0

    def _accumulate_rewards(self):
        for agent, reward in self.rewards.items():
            self._cumulative_rewards[agent] += reward

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe=True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def _was_dead_step(self, action):
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action "
                             "is None")
        agent = self.agent_selection
        assert self.terminations[agent] or self.truncations[agent]
        for d in (self.terminations, self.truncations, self.rewards,
                  self._cumulative_rewards, self.infos):
            del d[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents
                if self.terminations[a] or self.truncations[a]]
        if dead:
            if getattr(self, "_skip_agent_selection", None) is None:
                self._skip_agent_selection = self.agent_selection
            self.agent_selection = dead[0]
        else:
            if getattr(self, "_skip_agent_selection", None) is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self._clear_rewards()

    def state(self):
        raise NotImplementedError

    def close(self):
        pass

    def __str__(self):
        return self.metadata.get("name", type(self).__name__)

    @property
    def unwrapped(self):
        return self


class _VectorEnv(object):
    """gymnasium.vector.VectorEnv's shape."""
    metadata = {}
    render_mode = None
    spec = None
    closed = False

    def close(self, **kwargs):
        if not self.closed:
            self.close_extras(**kwargs)
        self.closed = True

    def close_extras(self, **kwargs):
        pass

    @property
    def unwrapped(self):
        return self


if HAVE_GYMNASIUM:
    Env, spaces = gymnasium.Env, gymnasium.spaces
    VectorEnv = gymnasium.vector.VectorEnv
    # AutoresetMode is 1.1's and later
    AutoresetMode = getattr(gymnasium.vector, "AutoresetMode", None)
else:
    Env, spaces, VectorEnv, AutoresetMode = _Env, _Spaces, _VectorEnv, None
AECEnv = pettingzoo.AECEnv if HAVE_PETTINGZOO else _AECEnv
