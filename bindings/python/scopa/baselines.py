"""baselines -- the library's bots as policies for the learning
environments, and an evaluation on duplicate deals with `scopa arena`'s
statistics.

    from scopa import baselines
    greedy = baselines.BotPolicy("greedy")          # any bot or level
    action = greedy(env, agent, obs)                # in a ScopaEnv loop
    baselines.evaluate(my_policy, opponent="rules", deals=1000)
    baselines.evaluate_vec(batched, opponent="rules", deals=1000)
    -> {"a": ..., "b": "rules", "deals": 1000, "diff": -0.41,
        "ci95": 0.12, "sd": 1.9, "gain": -0.41, "a_wins": ...}

A policy is any callable policy(env, agent, obs) -> action for a
scopa.ScopaEnv (obs as env.last() gives it).  evaluate() plays each deal
once per seating with the same deck and dealer, the policy on one side
and the bot on the others (two sides swap; with three or more sides the
policy takes each side in turn), as `scopa arena` does: a deal's figure
is the policy's side's points minus the mean of the other sides', over
the seatings, so the luck of the cards cancels out.  evaluate_vec() is
the same for a batched policy(obs, mask) -> actions, on scopa.vector's
VecEnv: every deal of a seating stepped together (docs/env.md).
"""
import ctypes
import math

import numpy as np

from . import _lib
from .bots import Bot
from .env import ScopaEnv
from .game import Game

L = _lib.lib


class BotPolicy(object):
    """A library bot (a name as `scopa arena` takes it, or a level) as a
    policy.  Its seed for each move comes from `seed` and the round so
    far, so a deterministic bot plays the same moves in the same
    positions; movetime_ms / nodes as Bot.choose."""

    def __init__(self, name="greedy", movetime_ms=0, nodes=0, seed=0):
        bot, level_ms = ctypes.c_char_p(), ctypes.c_int()
        if L.scopa_bot_level(_lib.text_arg("name", name), ctypes.byref(bot),
                             ctypes.byref(level_ms)) == 0:
            self.bot = Bot(bot.value.decode())
            movetime_ms = movetime_ms or level_ms.value
        else:
            self.bot = Bot(name)
        self.name, self.movetime_ms, self.nodes = name, movetime_ms, nodes
        self.seed = _lib.seed_arg("seed", seed)

    def move(self, rnd):
        """The bot's move (record notation) in a scopa.Round."""
        seed = (self.seed * 1000003 + len(rnd.moves)) & (2 ** 64 - 1)
        return self.bot.choose(rnd, movetime_ms=self.movetime_ms,
                               nodes=self.nodes, seed=seed)

    def __call__(self, env, agent, obs=None):
        env = env.unwrapped
        move = self.move(env.round)
        try:
            return env.move_action(move)
        except ValueError:  # on a later page: show the next one
            for a in env.legal_actions():
                if env.action_move(int(a)) == "more":
                    return int(a)
            raise


def random_policy(seed=0):
    """A uniformly random legal action, read from the mask."""
    rng = np.random.default_rng(seed)

    def policy(env, agent, obs):
        legal = obs["action_mask"].view(np.bool_).nonzero()[0]
        return int(legal[rng.integers(len(legal))])
    policy.name = "random_policy"
    return policy


def _play(env, seed, choose):
    """One round; choose(agent) -> policy.  Returns each agent's reward."""
    env.reset(seed=seed)
    total = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            total[agent] = reward
            env.step(None)
            continue
        env.step(choose(agent)(env, agent, obs))
    return total


def _deal_seed(seed, d):
    return (seed * 1000003 + d) & (2 ** 63 - 1)


def _stats(policy, bot_name, figures, lowest):
    """scopa arena --json's statistics of the deals' figures."""
    f = np.array(figures)
    n = len(f)
    mean = float(f.mean())
    sd = float(f.std(ddof=1)) if n > 1 else 0.0
    return {"a": getattr(policy, "name", type(policy).__name__),
            "b": bot_name, "deals": n,
            "diff": mean, "ci95": 1.96 * sd / math.sqrt(n) if n > 1 else 0.0,
            "sd": sd, "gain": -mean if lowest else mean,
            "a_wins": int((f > 0).sum()), "b_wins": int((f < 0).sum()),
            "ties": int((f == 0).sum())}


def _play_batch(vec, seeds, policy):
    """The learner's rewards of the first episode of each environment,
    reset with seeds[i]."""
    n = len(seeds)
    obs, info = vec.reset(seed=seeds)
    live = np.ones(n, np.bool_)
    total = np.zeros(n)
    while live.any():
        actions = np.zeros(n, np.int64)
        actions[live] = policy(obs[live], info["action_mask"][live])
        obs, rewards, term, trunc, info = vec.step(actions)
        total[live] += rewards[live]
        live &= ~term
    return total


def evaluate_vec(policy, opponent="greedy", rules=None, deals=100, seed=0,
                 movetime_ms=0, nodes=0, threads=None, compact=False,
                 batch=1024):
    """evaluate() for a batched policy, on the vector environment: every
    deal of a seating at once, stepped in C.  policy(obs, mask) ->
    actions, as VecEnv's (obs (k, FEATURES) float32, or int8 with
    compact=True; mask (k, ACTIONS) int8).  The same deals as evaluate()
    (deal d's deck and dealer come from the same seed), each once per
    seating, and the same statistics.  opponent: a bot name or level,
    or a BotPolicy.  The policy plays the first seat
    of its side as VecEnv's learner and, in teams, its partners' seats
    as VecEnv's partner; the bot plays inside the C step (its moves'
    seeds are the environment's, not BotPolicy's: a bot that draws plays
    other moves than under evaluate(), from the same distribution).
    batch: the most environments at once (about 17 KB each), the deals
    taken batch by batch."""
    from .vector import VecEnv
    _lib.int_arg("deals", deals, 1, 10 ** 7)
    game = Game(rules)
    side_of = [game.side_of(i) for i in range(game.players)]
    seeds = [_deal_seed(seed, d) for d in range(deals)]
    figures = np.zeros(deals)
    if isinstance(opponent, BotPolicy):
        movetime_ms, nodes = opponent.movetime_ms, opponent.nodes
        opponent = opponent.name
    _lib.int_arg("batch", batch, 1, 1 << 20)
    for start in range(0, deals, batch):
        part = seeds[start:start + batch]
        for side in range(game.sides):
            seat = side_of.index(side)
            partner = policy if side_of.count(side) > 1 else None
            vec = VecEnv(len(part), rules, opponent=opponent, seat=seat,
                         threads=threads, movetime_ms=movetime_ms,
                         nodes=nodes, compact=compact, copy=False,
                         scores=False, partner=partner)
            figures[start:start + len(part)] += _play_batch(vec, part,
                                                            policy)
            vec.close()
    return _stats(policy, str(opponent), figures / game.sides,
                  bool(game.rules.get("lowest_wins")))


def evaluate(policy, opponent="greedy", rules=None, deals=100, seed=0,
             movetime_ms=0, nodes=0):
    """The policy against a library bot on `deals` duplicate deals (seed
    picks them): a dict with `scopa arena --json`'s statistics: "diff"
    (the mean deal figure), "ci95" (1.96 sd / sqrt(deals)), "sd", "gain"
    (-diff under lowest_wins, where points are what a side avoids),
    "a_wins" / "b_wins" / "ties" (deals with a figure > 0, < 0, = 0)."""
    _lib.int_arg("deals", deals, 1, 10 ** 7)
    env = ScopaEnv(rules)
    bot = opponent if callable(opponent) else \
        BotPolicy(opponent, movetime_ms=movetime_ms, nodes=nodes, seed=seed)
    game = env._core.game
    seats = {a: game.side_of(i) for i, a in enumerate(env.possible_agents)}
    figures = []
    for d in range(deals):
        deal_seed = _deal_seed(seed, d)
        figure = 0.0
        for side in range(env.sides):
            rewards = _play(env, deal_seed,
                            lambda a: policy if seats[a] == side else bot)
            mine = [a for a in env.possible_agents if seats[a] == side]
            figure += rewards[mine[0]]
        figures.append(figure / env.sides)
    return _stats(policy, getattr(bot, "name", str(opponent)), figures,
                  bool(game.rules.get("lowest_wins")))
