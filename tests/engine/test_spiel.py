"""OpenSpiel-shaped states (scopa.spiel, docs/env.md "States"): clone,
pickle, undo, the deck as chance nodes, tensors of any state for any
seat, worlds resampled from a seat's information, and the exact solver.

Names: spiel-1.* copies and undo, spiel-2.* chance, spiel-3.* what a
seat sees, spiel-4.* worlds, spiel-5.* the solver.  Random play under
random rules (conftest.random_rules), every invariant checked at every
step."""
import copy
import itertools
import pickle
import random

import numpy as np
import pytest

from conftest import random_rules
import scopa
from scopa import spiel


def dealt_state(rng, rules=None, seed=None):
    game = spiel.load_game(rules if rules is not None else random_rules(rng))
    return game.new_initial_state(dealer=rng.randrange(game.players),
                                  seed=rng.randrange(10 ** 9)
                                  if seed is None else seed)


def random_states(rng, games, rules=None):
    """Every state of `games` rounds of random play."""
    for _ in range(games):
        s = dealt_state(rng, rules)
        yield s
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            yield s


def c_bytes(s):
    return bytes(s._st)


def test_spiel_1_1_clone_diverges_from_the_original():
    rng = random.Random(11)
    for s in random_states(rng, 20):
        if s.is_terminal():
            continue
        before = (s.serialize(), c_bytes(s))
        for c in (s.clone(), copy.deepcopy(s), copy.copy(s)):
            c.apply_action(rng.choice(c.legal_actions()))
            assert c.serialize() != before[0]
            assert c_bytes(c) != before[1]
            assert (s.serialize(), c_bytes(s)) == before  # untouched


def test_spiel_1_2_pickle_and_serialize_round_trip():
    rng = random.Random(12)
    n = 0
    for s in random_states(rng, 12):
        for back in (pickle.loads(pickle.dumps(s)),
                     s.game.deserialize_state(s.serialize())):
            assert back == s
            assert c_bytes(back) == c_bytes(s)
            assert back.legal_actions() == s.legal_actions()
            assert back.history() == s.history()
        n += 1
    assert n > 200
    # a state being dealt too
    g = spiel.load_game("scopone")
    s = g.new_initial_state()
    for c in range(17):
        s.apply_action(c)
    back = pickle.loads(pickle.dumps(s))
    assert back.is_chance_node() and back.history() == list(range(17))
    assert back.chance_outcomes() == s.chance_outcomes()


def test_spiel_1_3_undo_restores_the_exact_state():
    rng = random.Random(13)
    for s in random_states(rng, 25):
        if s.is_terminal():
            continue
        seat = s.current_player()
        views = [(s.observation_tensor(p), s.information_state_tensor(p))
                 for p in range(s.game.players)]
        before = (s.serialize(), c_bytes(s), s.legal_actions(), s.history())
        a = rng.choice(s.legal_actions())
        c = s.child(a)
        c.undo_action(seat, a)
        assert (c.serialize(), c_bytes(c), c.legal_actions(),
                c.history()) == before
        for p in range(s.game.players):
            assert (c.observation_tensor(p) == views[p][0]).all()
            assert (c.information_state_tensor(p) == views[p][1]).all()
    with pytest.raises(ValueError):
        s.clone().undo_action(action=-5)  # not the last action


def test_spiel_1_4_undo_through_the_deal():
    g = spiel.load_game({"players": 2})
    s = g.new_initial_state(seed=4)
    s.undo_action()
    assert s.is_chance_node() and len(s.history()) == 39
    s.apply_action(s.chance_outcomes()[0][0])
    assert s.current_player() >= 0


def test_spiel_1_5_move_and_action_agree():
    """apply_move and apply_action of the same move give the same state;
    legal_moves is aligned with legal_actions."""
    rng = random.Random(15)
    for s in random_states(rng, 10):
        if s.is_terminal():
            continue
        for a, m in zip(s.legal_actions(), s.legal_moves()):
            if m == "more":
                continue
            x, y = s.child(a), s.clone()
            y.apply_move(m)
            assert x == y and c_bytes(x) == c_bytes(y)
        with pytest.raises(ValueError):
            s.clone().apply_action(scopa.ACTIONS)


def kings_on_table(g, deck):
    return sum(1 for i in g._table_slots if deck[i] >= 36)


@pytest.mark.parametrize("rules", [{"players": 2}, "scopone",
                                   {"players": 2, "kings_redeal": False},
                                   "scientifico"])
def test_spiel_2_1_chance_outcomes_are_the_deal(rules):
    """Probabilities add up to 1 at every chance node; drawn by them, the
    deck is never void; under kings_redeal, the probabilities of the last
    four places are those of counting the decks that are not void."""
    g = spiel.load_game(rules)
    rng = random.Random(21)
    for _ in range(30):
        s = g.new_initial_state()
        while s.is_chance_node():
            outs = s.chance_outcomes()
            assert sum(p for _, p in outs) == pytest.approx(1.0)
            if len(s.history()) == 36:
                left = [c for c, _ in outs] if not g.rules["kings_redeal"] \
                    else [c for c in range(40) if c not in s.history()]
                counts = {c: 0 for c in left}
                for rest in itertools.permutations(left):
                    deck = s.history() + list(rest)
                    if not g.rules["kings_redeal"] or \
                            kings_on_table(g, deck) < 3:
                        counts[rest[0]] += 1
                total = sum(counts.values())
                want = {c: k / total for c, k in counts.items() if k}
                assert dict(outs) == pytest.approx(want)
            cs, ps = zip(*outs)
            s.apply_action(rng.choices(cs, ps)[0])
        assert s.current_player() >= 0  # dealt: never void


def test_spiel_2_2_void_deck_places_refused():
    g = spiel.load_game({"players": 2})
    slots = sorted(g._table_slots)
    s = g.new_initial_state()
    pool = list(range(36))  # then the kings left
    kings = [36, 37, 38, 39]
    for i in range(40):
        if i in slots[:2]:
            s.apply_action(kings.pop())
        elif i == slots[2] or i == slots[3]:
            assert kings[0] not in dict(s.chance_outcomes())
            with pytest.raises(ValueError):
                s.apply_action(kings[0])
            s.apply_action(pool.pop())
        else:
            s.apply_action(pool.pop() if pool else kings.pop())
    assert not s.is_chance_node()


def test_spiel_3_1_tensors_are_the_environments():
    """The observation and information state of a state, for every seat,
    are the environment's of the same round (scopa_env_observe,
    scopa_env_infostate, its text)."""
    from scopa import env as senv
    rng = random.Random(31)
    for _ in range(8):
        rules = random_rules(rng)
        e = senv.ScopaEnv(rules)
        e.reset(seed=rng.randrange(1000))
        g = spiel.load_game(rules)
        while True:
            s = g.state_of_round(e.round)
            for agent in e.possible_agents:
                p = e._seat[agent]
                assert (s.observation_tensor(p) ==
                        e.observe(agent)["observation"]).all()
                assert (s.information_state_tensor(p) ==
                        e.infostate(agent)).all()
                assert s.information_state_string(p) == \
                    e.infostate_string(agent)
            if s.is_terminal() or e.terminations[e.agent_selection]:
                break
            mask = s.legal_actions_mask()
            assert (mask == e.observe(e.agent_selection)["action_mask"]).all()
            e.step(rng.choice(s.legal_actions()))


def test_spiel_3_2_returns_are_the_rewards():
    rng = random.Random(32)
    for s in random_states(rng, 30):
        if s.is_terminal():
            r = s.returns()
            assert sum(r) == pytest.approx(0.0)
            if s.game.sides == 2:
                t = [x["round_total"] for x in s.score()]
                assert r[0] == t[s.game.side_of(0)] - t[1 - s.game.side_of(0)]


def test_spiel_4_1_resampled_worlds_fit_the_information_state():
    """A world resampled for a seat is one it cannot tell apart: the same
    information state (tensor and text), the same observation and legal
    actions when it plays, the same public cards, its own hand; every
    other hand as large, and the round goes on from it."""
    rng = random.Random(41)
    n = 0
    for s in random_states(rng, 16):
        for p in range(s.game.players):
            w = s.resample_from_infostate(p, seed=rng.randrange(2 ** 32))
            assert (w.information_state_tensor(p) ==
                    s.information_state_tensor(p)).all()
            assert w.information_state_string(p) == \
                s.information_state_string(p)
            assert (w.observation_tensor(p) == s.observation_tensor(p)).all()
            assert w.moves == s.moves and w.page == s.page
            a, b = w._st, s._st
            assert a.hand[p] == b.hand[p] and a.table == b.table
            assert list(a.pile) == list(b.pile) and a.next == b.next
            for q in range(s.game.players):
                assert bin(a.hand[q]).count("1") == bin(b.hand[q]).count("1")
            if s.current_player() == p:
                assert w.legal_actions() == s.legal_actions()
            assert pickle.loads(pickle.dumps(w)) == w
            n += 1
    assert n > 400


def test_spiel_4_2_worlds_differ_and_the_true_world_is_itself():
    rng = random.Random(42)
    s = dealt_state(rng, {"players": 2}, seed=7)
    for _ in range(5):
        s.apply_action(s.legal_actions()[0])
    p = s.current_player()
    worlds = {bytes(s.resample_from_infostate(p, seed=k)._st)
              for k in range(20)}
    assert len(worlds) > 10  # the unseen cards really are redrawn
    hands = [scopa.cards.cards_of(s._st.hand[q]) for q in range(2)]
    stock = [scopa.CARDS[c] for c in s._st.deck[s._st.next:]]
    w = s.world(p, hands, stock)
    assert list(w._st.hand) == list(s._st.hand)
    assert list(w._st.deck[w._st.next:]) == list(s._st.deck[s._st.next:])
    with pytest.raises(ValueError):
        s.world(p, [hands[1], hands[0]], stock)


SOLVER_RULES = [{"players": 2}, "assi", "quindici",
                {"players": 2, "napola": True, "re_bello": True},
                {"players": 3}, "scopone"]


@pytest.mark.parametrize("rules", SOLVER_RULES)
def test_spiel_5_1_solver_value_is_what_its_moves_make(rules):
    """Playing the solver's best move for every seat to the end makes
    exactly the value it gave (two sides: the return is the scope so far
    plus the value), and each move's value is the value of the state it
    leads to, plus the scopa it makes."""
    rng = random.Random(51)
    g = spiel.load_game(rules)
    start = 26 if g.players >= 4 else 0
    for _ in range(4):
        s = g.new_initial_state(dealer=rng.randrange(g.players),
                                seed=rng.randrange(10 ** 6))
        while len(s.moves) < start + rng.randrange(6):
            s.apply_action(rng.choice(s.legal_actions()))
        seat = s.current_player()
        value = s.value()
        so_far = s.scope_so_far(seat)
        line = s.clone()
        while not line.is_terminal():
            best = line.solve()
            assert [v for _, v in best] == sorted((v for _, v in best),
                                                  reverse=True)
            line.apply_move(best[0][0])
        if g.sides == 2:
            assert line.returns()[seat] == pytest.approx(so_far + value)
        else:  # the paranoid value: the others together did no better
            assert line.returns()[seat] >= so_far + value - 1e-9


def test_spiel_5_2_move_values_are_their_children():
    rng = random.Random(52)
    g = spiel.load_game({"players": 2})
    for _ in range(6):
        s = g.new_initial_state(seed=rng.randrange(10 ** 6))
        while len(s.moves) < rng.randrange(30):
            s.apply_action(rng.choice(s.legal_actions()))
        seat = s.current_player()
        for move, v in s.solve():
            c = s.clone()
            c.apply_move(move)
            gain = c.scope_so_far(seat) - s.scope_so_far(seat)
            if c.is_terminal():
                rest = c.returns()[seat] - c.scope_so_far(seat)
            else:
                rest = c.value()
                if g.side_of(c.current_player()) != g.side_of(seat):
                    rest = -rest
            assert v == pytest.approx(gain + rest)


def test_spiel_5_3_solver_clock_stops():
    g = spiel.load_game("scopone")
    s = g.new_initial_state(seed=3)
    with pytest.raises(TimeoutError):
        s.solve(movetime_ms=20)


def test_spiel_5_4_solver_reads_every_card():
    """Two states a seat cannot tell apart can have different exact
    values: the solver is not a fair player (documented)."""
    rng = random.Random(54)
    g = spiel.load_game({"players": 2})
    seen = 0
    for k in range(20):
        s = g.new_initial_state(seed=k)
        while len(s.moves) < 20:
            s.apply_action(rng.choice(s.legal_actions()))
        p = s.current_player()
        values = {s.resample_from_infostate(p, seed=j).value()
                  for j in range(6)}
        seen += len(values) > 1
    assert seen > 0
    assert np.isfinite(s.value())
