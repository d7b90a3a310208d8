"""The learning environments (scopa.env, docs/env.md) against the rules
PettingZoo's api_test/seed_test/render_test and Gymnasium's check_env
check, written out here so that they run without the frameworks
(conformance tests); where pettingzoo and gymnasium import, the
frameworks' own checkers run too (the only skip: when they do not).

Names tie each test to the rule it checks: env-aec-* PettingZoo's AEC
rules, env-gym-* Gymnasium's, env-actions-* the action encoding."""
import math
import os
import random

import numpy as np
import pytest

from conftest import random_rules
import scopa
from scopa import _compat, env as senv

F, A = scopa.FEATURES, scopa.ACTIONS


def play_aec(env, seed, pick, check=None):
    """Plays one episode with PettingZoo's loop; returns the rewards summed
    from env.rewards after every step, per agent."""
    env.reset(seed=seed)
    summed = {a: 0.0 for a in env.possible_agents}
    since = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        # api_test: last()'s reward is what env.rewards gave since the
        # agent last acted
        assert reward == pytest.approx(since[agent])
        since[agent] = 0.0
        if check:
            check(env, agent, obs)
        env.step(None if term or trunc else pick(env, agent, obs))
        # api_test: finished agents leave every dict
        assert set(env.rewards) == set(env.agents) == set(env.terminations)
        assert set(env.infos) == set(env.truncations) == set(env.agents)
        assert env.num_agents == len(env.agents)
        for a, r in env.rewards.items():
            summed[a] += r
            since[a] += r
    return summed


def mask_pick(rng):
    def pick(env, agent, obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))
    return pick


def test_env_aec_1_rewards_counted_once():
    """api_test's reward bookkeeping: summing env.rewards after each step
    gives each agent its final reward once (it was counted once per
    remaining agent's dead step: 3 times in 2 players), and zero-sum."""
    rng = random.Random(3)
    for ep in range(20):
        rules = random_rules(rng)
        env = scopa.ScopaEnv(rules)
        summed = play_aec(env, ep, mask_pick(rng))
        score = env.round.score()
        totals = [s["round_total"] for s in score]
        for seat, agent in enumerate(env.possible_agents):
            own = totals[env.round.game.side_of(seat)]
            mean = (sum(totals) - own) / (len(totals) - 1)
            assert summed[agent] == pytest.approx(own - mean)
        assert abs(sum(summed.values())) < 1e-4


def test_env_aec_2_dtypes_bounds_spaces():
    """Observations are np.float32 (FEATURES,) in 0..1, masks np.int8
    (ACTIONS,) of 0/1, inside the (cached) observation space; spaces
    seed, contain and sample with an np.int8 mask."""
    rng = random.Random(4)

    def check(env, agent, obs):
        o, m = obs["observation"], obs["action_mask"]
        assert o.dtype == np.float32 and o.shape == (F,)
        assert m.dtype == np.int8 and m.shape == (A,)
        assert o.min() >= 0.0 and o.max() <= 1.0
        assert set(np.unique(m)) <= {0, 1}
        assert env.observation_space(agent).contains(obs)
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)

    for ep in range(10):
        env = scopa.ScopaEnv(random_rules(rng))
        play_aec(env, ep, mask_pick(rng), check)
        space = env.action_space("player_0")
        env.reset(seed=ep)
        mask = env.observe(env.agent_selection)["action_mask"]
        space.seed(7)
        first = [space.sample(mask) for _ in range(20)]
        space.seed(7)
        assert [space.sample(mask) for _ in range(20)] == first
        assert all(mask[a] == 1 and space.contains(a) for a in first)
        assert not space.contains(A) and not space.contains(-1)


def test_env_aec_3_scores_option_in_bounds():
    """reset(options={"scores": ...}) past the target stays in the
    observation space (3.636 for 40 against 11 before)."""
    for rules, scores in ((None, [30, 40]), ({"players": 3}, [5, 99, 11]),
                          ("scopone", [200, 0])):
        env = scopa.ScopaEnv(rules)
        env.reset(seed=1, options={"scores": scores})
        obs = env.observe(env.agent_selection)
        assert obs["observation"].max() <= 1.0
        assert env.observation_space(env.agent_selection).contains(obs)
        assert env.round.scores == scores
    with pytest.raises(ValueError):
        scopa.ScopaEnv().reset(options={"scores": [1, 2, 3]})


def test_env_aec_4_seeding():
    """seed_test: two environments reset with the same seed and given the
    same actions agree at every step; reset() after reset(seed) goes on
    with the same stream."""
    def trace(env, seed, n=3):
        out = []
        env.reset(seed=seed)
        for ep in range(n):
            if ep:
                env.reset()
            rng = random.Random(0)
            for agent in env.agent_iter():
                obs, r, term, trunc, info = env.last()
                out.append((agent, obs["observation"].tobytes(),
                            obs["action_mask"].tobytes(), r))
                env.step(None if term or trunc
                         else int(rng.choice(np.flatnonzero(
                             obs["action_mask"]))))
        return out

    for rules in (None, {"players": 4}, "scientifico"):
        a, b = scopa.ScopaEnv(rules), scopa.ScopaEnv(rules)
        assert trace(a, 42) == trace(b, 42)
        assert trace(a, 42) == trace(a, 42)
        assert trace(a, 43) != trace(a, 42)


def test_env_aec_5_illegal_action_ends_with_penalty():
    """An action off the mask (or out of range, or None for a live agent)
    ends the episode: the mover gets illegal_reward, the others 0, no
    exception (ValueError before)."""
    for bad in ("off-mask", A + 5, -1, None):
        env = scopa.ScopaEnv({"players": 3}, illegal_reward=-7.0)
        env.reset(seed=5)
        mover = env.agent_selection
        mask = env.observe(mover)["action_mask"]
        action = int(np.flatnonzero(mask == 0)[0]) if bad == "off-mask" \
            else bad
        env.step(action)
        assert all(env.terminations.values())
        assert env.rewards[mover] == -7.0
        assert env._cumulative_rewards[mover] == -7.0
        assert all(r == 0 for a, r in env.rewards.items() if a != mover)
        assert env.infos[mover]["illegal_action"] == mover
        for agent in env.agent_iter():
            env.step(None)
        assert env.agents == []


def test_env_aec_6_order_errors():
    """step/observe/last before reset: a clear error (AttributeError
    before); render likewise."""
    env = scopa.ScopaEnv()
    for call in (lambda: env.step(0), lambda: env.last(),
                 lambda: env.observe("player_0"), env.render):
        with pytest.raises(senv.ResetNeeded, match="reset"):
            call()
    gym = scopa.ScopaGymEnv()
    with pytest.raises(senv.ResetNeeded, match="reset"):
        gym.step(0)


def test_env_aec_7_render_and_metadata():
    """render_test: every mode of metadata works, "ansi" returns text,
    "human" prints and returns None; num_agents; str(env) is the name."""
    env = scopa.ScopaEnv({"players": 4}, render_mode="ansi")
    env.reset(seed=1)
    assert "table:" in env.render() and env.num_agents == 4
    assert str(env.unwrapped) == env.metadata["name"]
    human = scopa.ScopaEnv(render_mode="human")
    human.reset()
    assert human.render() is None
    with pytest.raises(ValueError):
        scopa.ScopaEnv(render_mode="rgb_array")


def test_env_gym_1_reset_seed_reproduces():
    """A reused ScopaGymEnv gives the same episode for the same seed
    (the random opponent's seed counter ran on across episodes before:
    50 of 50 seeds differed), and reset() after reset(seed) too."""
    def episode(env, seed=None):
        obs, info = env.reset(seed=seed) if seed is not None else env.reset()
        out = [obs.tobytes()]
        done = False
        while not done:
            a = info["legal_actions"][len(out) % len(info["legal_actions"])]
            obs, r, done, trunc, info = env.step(a)
            out.append((obs.tobytes(), r, done))
        return out

    for opp in ("random", "greedy", "principiante"):
        env = scopa.ScopaGymEnv({"players": 3}, opponent=opp, seat=1)
        for s in range(10):
            first = episode(env, s)
            episode(env, s + 100)
            assert episode(env, s) == first
        a = [episode(env, 9), episode(env), episode(env)]
        assert [episode(env, 9), episode(env), episode(env)] == a
        assert a[1] != a[2]


def test_env_gym_2_step_contract():
    """check_env's rules: obs in the Box with its dtype, reward a float,
    terminated/truncated bools, info with an np.int8 mask; an illegal
    action ends the episode with the penalty; np_random from
    super().reset(seed)."""
    env = scopa.ScopaGymEnv(opponent="greedy", illegal_reward=-3.0)
    obs, info = env.reset(seed=123)
    state = env.np_random.bit_generator.state
    env.reset(seed=123)
    assert env.np_random.bit_generator.state == state
    assert env.observation_space.contains(obs) and obs.dtype == np.float32
    assert info["action_mask"].dtype == np.int8
    a = env.action_space.sample(info["action_mask"])
    obs, reward, term, trunc, info = env.step(a)
    assert isinstance(reward, float) and type(term) is bool
    assert trunc is False and env.observation_space.contains(obs)
    env.reset(seed=1)
    obs, reward, term, trunc, info = env.step(
        int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert term and reward == -3.0 and info["illegal_action"]
    with pytest.raises(senv.ResetNeeded):
        env.step(0)


def test_env_actions_1_every_move_once_over_pages():
    """Every legal move has exactly one action, over the pages, under
    random rules; and on tables grown by laying cards (mandatory_capture
    false, quindici: thousands of moves) pages appear and still lose
    nothing (a card's moves past 32 were left out before)."""
    rng = random.Random(6)
    paged = 0
    for ep in range(60):
        rules = random_rules(rng)
        lay = ep % 3 == 0
        if lay:
            rules.update(mandatory_capture=False,
                         capture=rng.choice(["match", "quindici"]))
        try:
            env = scopa.ScopaEnv(rules)
        except ValueError:  # an option the change does not go with
            continue
        env.reset(seed=ep)
        while env.agents and not env.terminations[env.agent_selection]:
            r = env.round
            pages = senv.action_pages(r)
            paged += len(pages) > 1
            seen = []
            for table in pages:
                seen += [m for m in table.values() if m != "more"]
            assert sorted(seen) == sorted(r.legal_moves())
            assert len(seen) == len(set(seen))
            mask = env.observe(env.agent_selection)["action_mask"]
            assert sorted(np.flatnonzero(mask)) == sorted(pages[0])
            legal = env.legal_actions()
            laid = [a for a in legal if a % 32 == 0 and
                    env.action_move(a).find("x") < 0]
            env.step(int(laid[0]) if lay and laid else int(rng.choice(legal)))
    assert paged > 0


def test_env_actions_2_slots_are_stable():
    """Slot 0 lays the card, slots 1..4 take one card of suit slot-1,
    whatever else is legal (the slot moved with the other moves before)."""
    rng = random.Random(7)
    for ep in range(40):
        env = scopa.ScopaEnv(random_rules(rng))
        env.reset(seed=ep)
        while not env.terminations[env.agent_selection]:
            for a in env.legal_actions():
                move, slot = env.action_move(a), a % 32
                card = scopa.CARDS[a // 32]
                if slot == 0:
                    assert move == card
                elif slot <= 4:
                    took = move.split("x")[1].split("+")
                    assert move.startswith(card + "x") and len(took) == 1
                    assert took[0][-1] == "dcsb"[slot - 1]
            env.step(int(rng.choice(env.legal_actions())))


def test_env_actions_3_next_page_action():
    """On a paged position the next-page action keeps the same agent and
    shows the next page; a move from it is played."""
    rules = {"mandatory_capture": False, "capture": "quindici"}
    for seed in range(40):
        env = scopa.ScopaEnv(rules)
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            pages = senv.action_pages(env.round)
            if len(pages) > 1:
                more = [a for a, m in pages[0].items() if m == "more"][0]
                agent, plays = env.agent_selection, env.round.moves
                env.step(more)
                assert env.agent_selection == agent
                assert env.round.moves == plays
                legal = env.legal_actions()
                assert sorted(legal) == sorted(pages[1])
                move = env.action_move(int(legal[0]))
                env.step(int(legal[0]))
                assert env.round.moves == plays + [move]
                return
            laid = [a for a in env.legal_actions() if a % 32 == 0 and
                    "x" not in env.action_move(a)]
            env.step(int(laid[0] if laid else env.legal_actions()[0]))
    pytest.fail("no paged position reached")


def hand_from_infostate(info, seat_played):
    """The seat's hand now, from its information state alone: the cards
    dealt and received, less those it played."""
    H, B = senv._lib.INFOSTATE_HEADER, senv._lib.INFOSTATE_PLAY
    hand = set(np.flatnonzero(info[40:80]))
    for t in range(40):
        block = info[H + t * B:H + (t + 1) * B]
        if block[:6].any() and block[0]:
            hand.discard(int(np.flatnonzero(block[6:46])[0]))
        hand |= set(np.flatnonzero(block[86:126]))
    return sorted(scopa.CARDS[c] for c in hand)


def test_env_info_1_perfect_recall():
    """The information state keeps every play in order, who played and
    captured what, and the cards the seat received: its hand can be
    rebuilt from it at every step; earlier plays never change (perfect
    recall); the text form is equal iff the tensor is."""
    rng = random.Random(8)
    texts = {}
    for ep in range(25):
        rules = random_rules(rng)
        env = scopa.ScopaEnv(rules, observation="infostate")
        env.reset(seed=ep)
        before = {}
        while not env.terminations[env.agent_selection]:
            for agent in env.possible_agents:
                seat = env._seat[agent]
                info = env.infostate(agent)
                assert info.dtype == np.int8 and info.shape == (
                    senv.INFOSTATE,)
                assert hand_from_infostate(info, seat) == \
                    sorted(env.round.hand(seat))
                if agent in before:
                    n = senv._lib.INFOSTATE_HEADER + senv._lib.INFOSTATE_PLAY \
                        * (len(env.round.moves) - 1)
                    assert (before[agent][:n] == info[:n]).all()
                before[agent] = info
                text = env.infostate_string(agent)
                assert texts.setdefault(text, info.tobytes()) == \
                    info.tobytes()
            obs = env.observe(env.agent_selection)
            assert (obs["observation"] == env.infostate(
                env.agent_selection)).all()
            assert env.observation_space(env.agent_selection).contains(obs)
            env.step(int(rng.choice(env.legal_actions())))
    assert len(texts) > 500


def test_env_info_2_state_for_critics():
    """state(): every hand, the table, the piles and the stock, in
    absolute seats, inside state_space."""
    rng = random.Random(9)
    for ep in range(10):
        env = scopa.ScopaEnv(random_rules(rng))
        env.reset(seed=ep)
        while not env.terminations[env.agent_selection]:
            st, r = env.state(), env.round
            assert st.dtype == np.float32 and env.state_space.contains(st)
            for seat in range(env.players):
                shown = [scopa.CARDS[c]
                         for c in np.flatnonzero(st[40 * seat:40 * seat + 40])]
                assert sorted(shown) == sorted(r.hand(seat))
            assert st[520:560].sum() == r.stock
            assert st[560 + r.current_seat] == 1
            env.step(int(rng.choice(env.legal_actions())))


def test_env_game_1_whole_game_episodes():
    """whole_game: one episode plays rounds until the game ends; rewards
    come at each round's end (zero-sum), termination only at the end."""
    for rules in ({"target": 11}, {"players": 4, "target": 6}):
        env = scopa.ScopaEnv(rules, whole_game=True)
        env.reset(seed=3)
        rounds, rng, summed = 0, random.Random(1), {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            env.step(None if term else int(rng.choice(env.legal_actions())))
            if any(env.rewards.values()) and not term:
                rounds += 1
                assert abs(sum(env.rewards.values())) < 1e-9
            for a, r in env.rewards.items():
                summed[a] = summed.get(a, 0) + r
        assert rounds >= 2 and abs(sum(summed.values())) < 1e-9
        gym = scopa.ScopaGymEnv(rules, whole_game=True, opponent="greedy")
        obs, info = gym.reset(seed=4)
        steps, done = 0, False
        while not done:
            obs, reward, done, trunc, info = gym.step(
                info["legal_actions"][0])
            steps += 1
        assert steps > 40 // gym._core.players


def test_env_vec_1_batched_episodes_are_the_single_envs():
    """scopa.vector.VecEnv: environment i is ScopaGymEnv reset with
    seed + i and the same actions, auto-reset at the next step going on
    with its stream; the same with 1 and 2 threads."""
    n, seed = 5, 11
    for rules, opp in ((None, "greedy"), ({"players": 4}, "random"),
                       ("scopone", "rules")):
        runs = []
        for threads in (1, 2):
            vec = scopa.vector.VecEnv(n, rules, seed=seed, opponent=opp,
                                      threads=threads)
            singles = [scopa.ScopaGymEnv(rules, opponent=opp)
                       for _ in range(n)]
            obs, info = vec.reset()
            want = [e.reset(seed=seed + i) for i, e in enumerate(singles)]
            assert obs.dtype == np.float32 and obs.shape == (n, F)
            assert info["action_mask"].dtype == np.int8
            for i in range(n):
                assert (obs[i] == want[i][0]).all()
                assert (info["action_mask"][i] ==
                        want[i][1]["action_mask"]).all()
            rng = np.random.default_rng(3)
            ended = [False] * n
            trace = []
            for step in range(150):
                acts = np.array([rng.choice(np.flatnonzero(m)) if m.any()
                                 else 0 for m in info["action_mask"]])
                if step == 40:
                    acts[1] = int(np.flatnonzero(
                        info["action_mask"][1] == 0)[0])  # illegal
                obs, rew, term, trunc, info = vec.step(acts)
                assert not trunc.any()
                for i, e in enumerate(singles):
                    if ended[i]:
                        o, inf = e.reset()
                        r, t = 0.0, False
                    else:
                        o, r, t, _, inf = e.step(int(acts[i]))
                    ended[i] = t
                    assert (obs[i] == o).all() and rew[i] == r
                    assert term[i] == t
                    assert (info["action_mask"][i] == inf["action_mask"]).all()
                trace.append((obs.tobytes(), rew.tobytes(), term.tobytes()))
            runs.append(trace)
            vec.close()
        assert runs[0] == runs[1]


def test_env_vec_2_vector_face():
    """Gymnasium's VectorEnv face: batched spaces, next-step auto-reset
    declared, reset(seed) reproduces, step before reset refused."""
    vec = scopa.vector.VecEnv(3, seed=None, threads=2)
    with pytest.raises(senv.ResetNeeded):
        vec.step(np.zeros(3, np.int64))
    assert vec.single_observation_space.shape == (F,)
    assert vec.observation_space.shape == (3, F)
    assert vec.action_space.shape == (3,) and vec.num_envs == 3
    if _compat.AutoresetMode is not None:
        assert vec.metadata["autoreset_mode"] == \
            _compat.AutoresetMode.NEXT_STEP
    a, _ = vec.reset(seed=5)
    b, _ = vec.reset(seed=5)
    c, _ = vec.reset()
    assert (a == b).all() and not (a == c).all()
    assert vec.observation_space.contains(a)
    with pytest.raises(TypeError):
        vec.reset(seed="5")
    vec.close()
    vec.close()


def compact_pair(n, rules, opp, seed, whole_game, scores=None):
    """The same environments twice, float32 and compact, reset alike."""
    kw = dict(seed=seed, opponent=opp, threads=2, whole_game=whole_game)
    vecs = [scopa.vector.VecEnv(n, rules, compact=c, **kw)
            for c in (False, True)]
    opts = {"scores": scores} if scores else None
    return vecs, [v.reset(options=opts) for v in vecs]


def test_env_vec_5_compact_observation_is_the_features():
    """VecEnv(compact=True): int8 observations written by C, each the
    float32 feature times its divisor (obs_divisors), exactly, on every
    step of random episodes under random rules and game scores; the same
    masks, rewards and flags; the spaces say int8 and hold every
    observation."""
    rng = random.Random(5)
    nrng = np.random.default_rng(5)
    checked = ratios = 0
    for trial in range(12):
        rules = random_rules(rng)
        rules["target"] = rng.choice([1, 11, 16, 21, 31, 40, 127])
        sides = scopa.Game(rules).sides
        scores = [rng.randrange(0, 45) for _ in range(sides)]
        n = rng.choice([1, 5, 16])
        (vf, vc), ((of, inf), (oc, inc)) = compact_pair(
            n, rules, rng.choice(["random", "greedy"]), trial,
            rng.random() < 0.5, scores)
        assert oc.dtype == np.int8 and oc.shape == (n, F)
        assert vc.observation_space.dtype == np.int8
        assert vc.single_observation_space.dtype == np.int8
        assert vc.observation_space.shape == (n, F)
        div = vc.obs_divisors
        assert div.dtype == np.float32 and (div >= 1).all()
        for step in range(120):
            assert vc.observation_space.contains(oc)
            assert np.array_equal(oc.astype(np.float32) / div, of)
            assert np.array_equal(inc["action_mask"], inf["action_mask"])
            ratios += int((oc[:, div > 1] > 1).sum())
            checked += n
            acts = np.array([nrng.choice(np.flatnonzero(m)) if m.any()
                             else 0 for m in inf["action_mask"]])
            of, rf, tf, _, inf = vf.step(acts)
            oc, rc, tc, _, inc = vc.step(acts)
            assert np.array_equal(rf, rc) and np.array_equal(tf, tc)
        vf.close()
        vc.close()
    assert checked > 5000 and ratios > 1000  # counts, not only 0/1 seen


def test_env_vec_6_compact_scores_past_127():
    """Under a target past 127 the compact game scores are scaled to
    score * 127 // target (docs/env.md); every other feature exact."""
    rules = {"target": 500}
    (vf, vc), ((of, _), (oc, _)) = compact_pair(
        4, rules, "random", 3, True, [0, 499])
    div = vc.obs_divisors
    assert div[450] == 127 and div[440] == 10
    got = oc.astype(np.float32) / div
    scores = [450, 451, 452, 453, 644, 645]
    rest = np.ones(F, bool)
    rest[scores] = False
    assert np.array_equal(got[:, rest], of[:, rest])
    assert oc[0, 451] == 499 * 127 // 500 and of[0, 451] == \
        np.float32(499) / np.float32(500)
    assert np.abs(got[:, scores] - of[:, scores]).max() <= 1 / 127
    vf.close()
    vc.close()


class GreedyRows(object):
    """A batched Python opponent for VecEnv that plays the library's
    greedy bot's move in each row, and checks what it is given: each row
    is a waiting seat's own observation and mask, never the learner's."""

    def __init__(self, seat):
        self.vec, self.seat, self.calls, self.rows = None, seat, 0, 0
        self.bot = scopa.Bot("greedy")

    def __call__(self, obs, mask):
        vec = self.vec
        envs, seats = vec.opponent_envs, vec.opponent_seats
        assert len(envs) == len(seats) == len(obs) == len(mask) > 0
        assert (np.diff(envs) > 0).all() and (seats != self.seat).all()
        self.calls += 1
        self.rows += len(envs)
        out = []
        for j, (i, seat) in enumerate(zip(envs, seats)):
            env = senv.L.scopa_vecenv_env(vec._h, int(i))
            assert senv.L.scopa_env_to_play(env) == seat
            want_obs = np.zeros(F, np.float32)
            want_mask = np.zeros(A, np.int8)
            senv.L.scopa_env_observe(env, int(seat), want_obs.ctypes.data,
                                     want_mask.ctypes.data)
            got = obs[j].astype(np.float32) / vec.obs_divisors \
                if vec.compact else obs[j]
            assert obs.dtype == (np.int8 if vec.compact else np.float32)
            assert np.array_equal(got, want_obs)
            assert np.array_equal(mask[j], want_mask) and mask[j].any()
            m = scopa.cards.parse_move(self.bot.choose(vec.round(int(i))))
            acts = np.zeros(A, np.int32)
            moves = np.zeros(A, np.uint64)
            k = senv.L.scopa_env_legal_moves(env, acts.ctypes.data,
                                             moves.ctypes.data, A)
            a = [int(acts[t]) for t in range(k) if int(moves[t]) == m]
            assert len(a) == 1 and mask[j][a[0]]
            out.append(a[0])
        return np.array(out)


@pytest.mark.parametrize("rules,seat,compact", [
    (None, 0, False), (None, 1, True), ({"players": 4}, 2, False),
    ("scopone", 0, True), ({"players": 3}, 1, False)])
def test_env_vec_7_python_opponent_is_the_bot(rules, seat, compact):
    """env-vec-7: VecEnv(opponent=callable) asks the callable once per
    round of waiting opponent seats, for all the environments where one
    is to play, with those seats' observations and masks; a callable
    playing greedy's moves gives exactly the batches of
    opponent="greedy": observations, masks, rewards, ends, scores."""
    n, seed = 6, 21
    opp = GreedyRows(seat)
    mine = scopa.vector.VecEnv(n, rules, seed=seed, opponent=opp, seat=seat,
                               compact=compact, whole_game=seat == 1)
    opp.vec = mine
    lib = scopa.vector.VecEnv(n, rules, seed=seed, opponent="greedy",
                              seat=seat, compact=compact,
                              whole_game=seat == 1)
    (a_obs, a_info), (b_obs, b_info) = mine.reset(), lib.reset()
    rng = np.random.default_rng(seat)
    ends = 0
    for step in range(90):
        assert np.array_equal(a_obs, b_obs)
        assert np.array_equal(a_info["action_mask"], b_info["action_mask"])
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                         for m in b_info["action_mask"]])
        a_obs, ra, ta, _, a_info = mine.step(acts)
        b_obs, rb, tb, _, b_info = lib.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert ("score" in a_info) == ("score" in b_info)
        if "score" in b_info:
            assert list(a_info["score"]) == list(b_info["score"])
        ends += int(tb.sum())
    assert ends >= n and opp.calls > 90 and opp.rows > 90 * n // 2
    mine.close()
    lib.close()


def test_env_vec_8_opponent_swap_and_illegal():
    """env-vec-8: set_opponent swaps the callable (refused for a bot
    opponent); an opponent's illegal action ends that episode with the
    learner's reward 0, and the next step auto-resets it; a wrong shape
    of actions is a ValueError."""
    vec = scopa.vector.VecEnv(4, seed=3, opponent=lambda o, m: m.argmax(1))
    obs, info = vec.reset()
    vec.set_opponent(lambda o, m: np.full(len(o), A + 5))
    acts = info["action_mask"].argmax(axis=1)
    waiting = info["action_mask"].any(axis=1)
    obs, r, t, _, info = vec.step(acts)
    assert t[waiting].all() and (r == 0).all()
    assert not info["action_mask"][t].any()
    vec.set_opponent(lambda o, m: m.argmax(1))
    obs, r, t, _, info = vec.step(acts)  # auto-reset, reward 0
    assert not t.any() and (r == 0).all() and info["action_mask"].any(1).all()
    vec.set_opponent(lambda o, m: [0])
    with pytest.raises(ValueError):
        for _ in range(3):
            vec.step(info["action_mask"].argmax(axis=1))
    with pytest.raises(ValueError):
        scopa.vector.VecEnv(2, opponent="greedy").set_opponent(len)
    vec.close()


def test_env_opts_1_unknown_reset_options_refused():
    """Every env's reset takes "dealer" and "scores" only: an unknown key
    (a misspelling, or "deck", which the seed stream decides) is a
    ValueError naming it and the accepted keys, never ignored."""
    vec = scopa.vector.VecEnv(2, seed=1, threads=1)
    resets = [senv.raw_env().reset, senv.env().reset,
              scopa.ScopaGymEnv().reset, vec.reset]
    for reset in resets:
        for key in ("deck", "scroes"):
            with pytest.raises(ValueError) as err:
                reset(seed=1, options={key: 0})
            text = str(err.value)
            assert repr(key) in text and "'dealer'" in text and \
                "'scores'" in text
        reset(seed=1, options={"dealer": 1, "scores": [3, 5]})
    vec.close()


def test_env_opts_2_vector_options_apply_to_every_env():
    """VecEnv.reset(options=...) gives every environment the options, as
    ScopaGymEnv.reset(seed + i, options) would."""
    n, seed, opts = 3, 7, {"dealer": 1, "scores": [4, 9]}
    vec = scopa.vector.VecEnv(n, seed=seed, opponent="greedy", threads=1)
    obs, info = vec.reset(seed=seed, options=opts)
    plain, _ = vec.reset(seed=seed)
    assert not (obs == plain).all()
    for i in range(n):
        e = scopa.ScopaGymEnv(opponent="greedy")
        o, inf = e.reset(seed=seed + i, options=opts)
        assert (obs[i] == o).all()
        assert (info["action_mask"][i] == inf["action_mask"]).all()
        assert e.round.dealer == 1
    vec.close()


def test_env_vec_3_seed_list():
    """reset(seed=[...]): environment i starts the stream seed[i], as
    ScopaGymEnv.reset(seed=seed[i]), and goes on with it after an
    auto-reset; a list of the wrong length or with a non-seed is
    refused."""
    seeds = [40, 3, 3, 17]
    vec = scopa.vector.VecEnv(len(seeds), seed=0, opponent="random",
                              threads=2)
    singles = [scopa.ScopaGymEnv(opponent="random") for _ in seeds]
    obs, info = vec.reset(seed=seeds)
    want = [e.reset(seed=s) for e, s in zip(singles, seeds)]
    for i in range(len(seeds)):
        assert (obs[i] == want[i][0]).all()
        assert (info["action_mask"][i] == want[i][1]["action_mask"]).all()
    assert (obs[1] == obs[2]).all() and not (obs[0] == obs[1]).all()
    ended = [False] * len(seeds)
    for step in range(60):
        acts = info["action_mask"].argmax(axis=1)
        obs, rew, term, _, info = vec.step(acts)
        for i, e in enumerate(singles):
            if ended[i]:
                o, inf = e.reset()
                r, t = 0.0, False
            else:
                o, r, t, _, inf = e.step(int(acts[i]))
            ended[i] = t
            assert (obs[i] == o).all() and rew[i] == r and term[i] == t
    for bad in ([1, 2, 3], [1, 2, 3, 4, 5]):
        with pytest.raises(ValueError, match="4 seeds"):
            vec.reset(seed=bad)
    with pytest.raises(TypeError):
        vec.reset(seed=[1, 2, -3, 4])
    with pytest.raises(TypeError):
        vec.reset(seed=[1, 2, "3", 4])
    vec.close()


def test_env_vec_4_info_score():
    """info["score"] at a terminal step is the ended round's score, the
    single env's info["score"] for the same episode; "_score" marks the
    environments that have one (none at other steps, none for an
    illegal action's end); scores=False leaves them out."""
    n, seed = 4, 21
    vec = scopa.vector.VecEnv(n, seed=seed, opponent="greedy", threads=1)
    singles = [scopa.ScopaGymEnv(opponent="greedy") for _ in range(n)]
    _, info = vec.reset()
    for i, e in enumerate(singles):
        e.reset(seed=seed + i)
    seen, ended = 0, [False] * n
    for step in range(80):
        acts = info["action_mask"].argmax(axis=1)
        if step == 2:
            acts[3] = int(np.flatnonzero(info["action_mask"][3] == 0)[0])
        _, rew, term, _, info = vec.step(acts)
        want = [None] * n
        for i, e in enumerate(singles):
            if ended[i]:
                e.reset()
                ended[i] = False
                continue
            _, _, ended[i], _, inf = e.step(int(acts[i]))
            want[i] = inf.get("score")
        if not any(w is not None for w in want):
            assert "score" not in info
            continue
        assert list(info["_score"]) == [w is not None for w in want]
        for i in range(n):
            assert info["score"][i] == want[i]
            if want[i] is not None:
                points = [side["round_total"] for side in want[i]]
                assert rew[i] == pytest.approx(points[0] - points[1])
                seen += 1
        if step == 2:
            assert term[3] and not info["_score"][3]
    assert seen >= n
    vec.close()
    quiet = scopa.vector.VecEnv(n, seed=seed, opponent="greedy",
                                scores=False)
    _, info = quiet.reset()
    for step in range(80):
        _, _, term, _, info = quiet.step(info["action_mask"].argmax(axis=1))
        assert "score" not in info and "_score" not in info
        ended = ended or term.any()
    assert ended
    quiet.close()


def test_env_mask_1_terminal_mask_recipe():
    """docs/env.md "The terminal step's mask": the mask of a terminal
    step is all zeros (single and vector envs), and the recipe there, run
    as written, samples no NaN and only legal actions, and keeps every
    transition but the auto-reset steps."""
    e = scopa.ScopaGymEnv(opponent="greedy")
    _, info = e.reset(seed=2)
    done = False
    while not done:
        _, _, done, _, info = e.step(info["legal_actions"][0])
    assert info["action_mask"].dtype == np.int8
    assert not info["action_mask"].any()
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                            "env.md")).read()
    block = doc.split("<!-- env-mask-1: begin -->\n")[1]
    block = block.split("<!-- env-mask-1: end -->")[0]
    code = "\n".join(line[4:] for line in block.splitlines())
    ns = {}
    exec(compile(code, "docs/env.md env-mask-1", "exec"), ns)
    vec, transitions, ended = ns["vec"], ns["transitions"], ns["ended"]
    probs = ns["masked_probs"](np.zeros((2, A)), np.zeros((2, A), np.int8))
    assert np.isfinite(probs).all() and np.allclose(probs.sum(axis=1), 1)
    mask = np.zeros((1, A), np.int8)
    mask[0, [3, 70]] = 1
    probs = ns["masked_probs"](np.zeros((1, A)), mask)
    assert set(np.flatnonzero(probs[0])) == {3, 70}
    episodes = sum(bool(t[4]) for t in transitions)
    assert episodes >= vec.num_envs
    # one dropped auto-reset step after each ended episode but the last
    # step's
    assert len(transitions) == vec.num_envs * 200 - episodes + ended.sum()
    for _, action, reward, _, term in transitions:
        assert reward == 0 or term  # one round: rewards at its end only
        assert reward != senv.ILLEGAL_REWARD or not term
    vec.close()


def test_env_base_1_bot_policies():
    """A library bot as a policy plays the bot's own move in every
    position; the same deterministic bot on both sides of duplicate deals
    scores exactly 0."""
    from scopa import baselines
    rng = random.Random(10)
    for name in ("greedy", "rules", "principiante"):
        pol = baselines.BotPolicy(name, seed=3)
        env = scopa.env.env(rules=random_rules(rng))
        env.reset(seed=2)
        for agent in env.agent_iter():
            obs, r, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = pol(env, agent, obs)
            assert env.unwrapped.action_move(a) == pol.move(
                env.unwrapped.round)
            env.step(a)
    res = baselines.evaluate(baselines.BotPolicy("greedy"), "greedy",
                             deals=20, rules={"players": 3})
    assert res["diff"] == 0 and res["ties"] == 20 and res["ci95"] == 0


def test_env_base_2_evaluate_agrees_with_arena():
    """evaluate() on duplicate deals gives `scopa arena`'s statistics:
    random against greedy, within 4 standard errors of the arena's own
    figure (different deals: the same distribution)."""
    import json
    import subprocess
    from conftest import scopa_bin
    from scopa import baselines
    ours = baselines.evaluate(baselines.BotPolicy("random"), "greedy",
                              deals=300, seed=4)
    out = subprocess.run([scopa_bin(), "arena", "--a", "random", "--b",
                          "greedy", "--deals", "300", "--seed", "9",
                          "--json"], capture_output=True, text=True,
                         check=True)
    arena = json.loads(out.stdout)
    for key in ("diff", "ci95", "sd", "gain"):
        assert key in ours
    se = math.hypot(ours["ci95"], arena["ci95"]) / 1.96
    assert ours["diff"] < -ours["ci95"]
    assert abs(ours["diff"] - arena["diff"]) < 4 * se


@pytest.mark.parametrize("rules,deals", [(None, 40), ({"players": 3}, 20),
                                         ("scopone", 12)])
def test_env_base_3_evaluate_vec_is_evaluate(rules, deals):
    """env-base-3: evaluate_vec (a batched policy on VecEnv) plays the
    same duplicate deals as evaluate (the same seed gives each deal's
    deck and dealer): with a deterministic policy (the first legal
    action) against the deterministic greedy bot, every statistic is
    the same, in 2- and 3-seat rules and in teams (the policy's partner
    through VecEnv's partner), in one batch or in batches of 7."""
    from scopa import baselines

    def first(env, agent, obs):
        return int(obs["action_mask"].argmax())
    first.name = "first"

    def first_rows(obs, mask):
        return mask.argmax(axis=1)
    first_rows.name = "first"
    old = baselines.evaluate(first, "greedy", rules=rules, deals=deals,
                             seed=3)
    for compact in (False, True):
        new = baselines.evaluate_vec(first_rows, "greedy", rules=rules,
                                     deals=deals, seed=3, compact=compact,
                                     batch=7 if compact else 1024)
        assert new == old
    assert old["a_wins"] + old["b_wins"] + old["ties"] == deals
    assert old["diff"] != 0
    other = baselines.evaluate_vec(first_rows, "greedy", rules=rules,
                                   deals=deals, seed=4)
    assert other != old  # other deals


# The frameworks' own checkers -------------------------------------------

def frameworks():
    if not (_compat.HAVE_PETTINGZOO and _compat.HAVE_GYMNASIUM):
        print("SKIP reason: pettingzoo and gymnasium do not import here "
              "(PYTHONPATH=... to their sources runs their checkers)")
        pytest.skip("pettingzoo and gymnasium are not importable")


@pytest.mark.parametrize("rules", [None, {"players": 4}, "scientifico",
                                   {"players": 3}])
def test_env_frameworks_1_pettingzoo(rules):
    frameworks()
    from pettingzoo.test import api_test, render_test, seed_test
    from pettingzoo.utils import wrappers
    api_test(scopa.ScopaEnv(rules), num_cycles=500)
    api_test(senv.env(rules=rules), num_cycles=500)
    stack = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        wrappers.TerminateIllegalWrapper(senv.raw_env(rules=rules), -1)))
    api_test(stack, num_cycles=500)
    seed_test(lambda: scopa.ScopaEnv(rules))
    seed_test(lambda: senv.env(rules=rules))
    render_test(lambda render_mode=None: senv.env(rules=rules,
                                                  render_mode=render_mode))
    api_test(senv.env(rules=rules, observation="infostate",
                      whole_game=True), num_cycles=300)


def test_env_frameworks_2_gymnasium():
    frameworks()
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from gymnasium.vector import SyncVectorEnv
    check_env(scopa.ScopaGymEnv())
    check_env(scopa.ScopaGymEnv({"players": 4}, opponent="greedy", seat=2))
    check_env(gymnasium.make("scopa/Scopa-v0").unwrapped)
    check_env(scopa.ScopaGymEnv("scopone", observation="infostate",
                                whole_game=True))
    vec = SyncVectorEnv([lambda: scopa.ScopaGymEnv(opponent="greedy")
                         for _ in range(3)])
    obs, info = vec.reset(seed=1)
    assert obs.shape == (3, F) and obs.dtype == np.float32
    for _ in range(100):
        acts = [int(np.flatnonzero(m)[0]) if m.any() else 0
                for m in info["action_mask"]]
        obs, rew, term, trunc, info = vec.step(np.array(acts))
    vec.close()


def test_env_moves_1_features_decode_to_the_move():
    """env-moves-1: every legal move's features (the card played one-hot,
    the cards taken) decode back to that move, name it (action_move),
    and differ from every other legal move's, over random games under
    random rules; the same move has the same features everywhere."""
    rng = random.Random(91)
    seen = {}
    for _ in range(20):
        e = senv.ScopaEnv(random_rules(rng))
        e.reset(seed=rng.randrange(10 ** 6))
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            actions, feats = e.legal_move_features()
            a2, moves = e.legal_moves()
            assert (actions == a2).all()
            assert (actions == np.flatnonzero(obs["action_mask"])).all()
            assert feats.shape == (len(actions), senv.MOVE_FEATURES)
            back = senv.features_move(feats)
            for a, m, f, b in zip(actions, moves, feats, back):
                if int(m) == scopa._lib.ACTION_MORE:
                    assert not f.any()
                    continue
                assert int(b) == int(m)
                assert e.action_move(int(a)) == scopa.move_str(int(m))
                assert f[:40].sum() == 1 and f[int(m) >> 48] == 1
                key = int(m)
                assert seen.setdefault(key, f.tobytes()) == f.tobytes()
            assert len({f.tobytes() for f in feats}) == len(feats)
            e.step(int(rng.choice(actions)))
    assert len(seen) > 500


def test_env_moves_2_gym_info_and_spiel_agree():
    """env-moves-2: ScopaGymEnv(move_features=True) puts each legal
    action's move and features in info, aligned with legal_actions;
    scopa.spiel's state of the same round lists the same."""
    from scopa import spiel
    rng = random.Random(92)
    e = scopa.ScopaGymEnv(opponent="greedy", move_features=True)
    obs, info = e.reset(seed=3)
    g = spiel.load_game(None)
    for _ in range(200):
        moves = info["legal_moves"]
        assert len(moves) == len(info["legal_actions"])
        assert (senv.features_move(info["move_features"]) == moves).all()
        for a, m in zip(info["legal_actions"], moves):
            assert e.action_move(a) == scopa.move_str(int(m))
        s = g.state_of_round(e.round)
        acts, feats = s.legal_move_features()
        assert acts.tolist() == info["legal_actions"]
        assert (feats == info["move_features"]).all()
        obs, r, term, trunc, info = e.step(int(rng.choice(
            info["legal_actions"])))
        if term:
            assert len(info["legal_moves"]) == 0
            obs, info = e.reset()


def test_env_moves_3_vector_decode():
    """env-moves-3: VecEnv.legal_moves lists each environment's legal
    actions (the mask) and their moves, the same as the single
    environment i; action_moves decodes a batch (MOVE_NONE for an
    illegal action)."""
    n = 6
    vec = scopa.vector.VecEnv(n, seed=5, opponent="random", threads=1)
    singles = [scopa.ScopaGymEnv(opponent="random") for _ in range(n)]
    obs, info = vec.reset()
    for i, s in enumerate(singles):
        s.reset(seed=5 + i)
    rng = random.Random(93)
    for _ in range(60):
        actions, moves = vec.legal_moves()
        feats = vec.legal_move_features()[1]
        assert feats.shape == actions.shape + (senv.MOVE_FEATURES,)
        pick = np.zeros(n, np.int64)
        for i, s in enumerate(singles):
            row = actions[i][actions[i] >= 0]
            assert (row == np.flatnonzero(info["action_mask"][i])).all()
            sa, sm = s.legal_moves()
            assert (row == sa).all() and (moves[i][:len(row)] == sm).all()
            assert (moves[i][len(row):] == scopa._lib.MOVE_NONE).all()
            pick[i] = rng.choice(row) if len(row) else 0
        decoded = vec.action_moves(pick)
        for i in range(n):
            row = actions[i].tolist()
            if pick[i] in row:
                assert decoded[i] == moves[i][row.index(pick[i])]
            else:
                assert decoded[i] == scopa._lib.MOVE_NONE
        assert (vec.action_moves(np.full(n, -1)) ==
                scopa._lib.MOVE_NONE).all()
        obs, rew, term, trunc, info = vec.step(pick)
        for i, s in enumerate(singles):
            if len(singles[i].legal_moves()[0]):
                s.step(int(pick[i]))
            else:
                s.reset()


def greedy_policy(env_ref):
    """A Python opponent that plays the library's greedy bot's move, read
    through the round of the environment it plays in."""
    bot = scopa.Bot("greedy")

    def policy(obs, mask):
        e = env_ref[0]
        return e._core.move_action(bot.choose(e.round))
    return policy


@pytest.mark.parametrize("rules", [None, "scopone", {"players": 3}])
def test_env_opp_1_callable_opponent_is_the_bot(rules):
    """env-opp-1: a callable opponent (obs, mask) -> action that plays as
    the greedy bot gives exactly the episodes of opponent="greedy"
    (same seeds, same learner actions): observations, masks, rewards,
    ends and scores."""
    ref = [None]
    mine = scopa.ScopaGymEnv(rules, opponent=greedy_policy(ref), seat=1)
    ref[0] = mine
    lib = scopa.ScopaGymEnv(rules, opponent="greedy", seat=1)
    calls = []
    for seed in range(4):
        a_obs, a_info = mine.reset(seed=seed)
        b_obs, b_info = lib.reset(seed=seed)
        while True:
            assert (a_obs == b_obs).all()
            assert (a_info["action_mask"] == b_info["action_mask"]).all()
            if not b_info["legal_actions"]:
                break
            act = b_info["legal_actions"][seed % len(b_info["legal_actions"])]
            a_obs, ra, ta, _, a_info = mine.step(act)
            b_obs, rb, tb, _, b_info = lib.step(act)
            assert (ra, ta) == (rb, tb)
            calls.append(ta)
            if tb:
                assert a_info["score"] == b_info["score"]
    assert any(calls)


def test_env_opp_2_self_play_and_illegal_opponent():
    """env-opp-2: set_opponent swaps the Python opponent (self-play with
    the learner's own policy); an illegal action of the opponent ends
    the episode with reward 0 and info["illegal_action"] "opponent"."""
    rng = np.random.default_rng(7)

    def policy(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))
    e = scopa.ScopaGymEnv(opponent=policy)
    obs, info = e.reset(seed=1)
    total, done = 0.0, False
    while not done:
        obs, r, done, _, info = e.step(policy(obs, info["action_mask"]))
        total += r
    assert "score" in info
    e.set_opponent(lambda obs, mask: scopa.ACTIONS + 5)  # always illegal
    for seed in range(2, 8):
        obs, info = e.reset(seed=seed)
        if info["legal_actions"]:  # the learner leads: its move, then theirs
            obs, r, done, _, info = e.step(info["legal_actions"][0])
            assert done and r == 0.0
        assert info["illegal_action"] == "opponent"
        assert not info["legal_actions"]
    with pytest.raises(ValueError):
        scopa.ScopaGymEnv(opponent="greedy").set_opponent(policy)
