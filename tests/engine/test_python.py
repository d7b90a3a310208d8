"""The Python package (bindings/python) against CONTRACTS.md "Python" and
an independent implementation of the rules (tests/oracle/refscopa.py).

Names tie each test to the contract or rule it checks.  Random rounds under
random rules compare, move by move, the legal moves and, at the end, the
score with the reference; the environment is checked for zero-sum rewards
and masks that match the legal moves.  Run with SCOPA_LIB pointing at the
library (CTest sets it)."""
import random

import pytest

from conftest import random_rules
import refscopa
import scopa


def ref_round(rules, dealer, deck):
    return refscopa.Round(refscopa.parse_rules(rules), dealer, deck)


def norm(moves):
    return sorted(refscopa.normalize_move(str(m)) for m in moves)


def random_round(rng):
    """A new round under random rules and a random deck (void deals are
    dealt again): (rules, dealer, deck, round)."""
    rules = random_rules(rng)
    g = scopa.Game(rules)
    deck = list(scopa.CARDS)
    while True:
        rng.shuffle(deck)
        dealer = rng.randrange(g.players)
        try:
            return rules, dealer, list(deck), g.new_round(dealer=dealer,
                                                           deck=deck)
        except ValueError:  # a void deal
            g = scopa.Game(rules)


def test_python_contract_1_random_rounds_agree_with_reference():
    """CONTRACTS.md Python: legal_moves, apply, current_seat, score()."""
    rng = random.Random(5)
    for n in range(120):
        rules, dealer, deck, r = random_round(rng)
        ref = ref_round(rules, dealer, deck)
        while True:
            assert r.current_seat == ref.seat_to_play()
            if r.current_seat is None:
                break
            mine = r.legal_moves()
            assert len(mine) == len(set(mine))
            assert norm(mine) == norm(ref.legal_moves()), (rules, r.moves)
            move = rng.choice(mine)
            r.apply(move)
            ref.apply(refscopa.parse_move(move))
        assert r.score() == ref.score(), (rules, r.moves)


def test_python_contract_2_illegal_move_raises():
    """CONTRACTS.md Python: apply raises ValueError with the message."""
    g = scopa.Game({"game": "scopa", "players": 2})
    r = g.new_round(dealer=0, seed=11)
    before = r.moves, r.legal_moves()
    hand = r.hand(r.current_seat)
    other = [c for c in scopa.CARDS if c not in hand][0]
    for bad in (other, "7dx3c+4s+4s", "11d", "", "x", 7):
        with pytest.raises(ValueError) as e:
            r.apply(bad)
        assert str(e.value)
    assert (r.moves, r.legal_moves()) == before


def test_python_contract_3_view_is_an_engine_request():
    """CONTRACTS.md: view(seat) is what an engine request carries."""
    e = scopa.Engine()
    rng = random.Random(9)
    for _ in range(20):
        g = scopa.Game(random_rules(rng))
        r = g.new_round(seed=rng.randrange(10 ** 6))
        while r.current_seat is not None:
            for seat in range(g.players):
                v = r.view(seat)
                assert set(v) == {"rules", "seat", "scores", "round"}
                assert set(v["round"]) == {"dealer", "table", "dealt",
                                           "moves"}
                ans = e.request(dict(v, cmd="legal", id=seat))
                assert ans["id"] == seat
                if seat == r.current_seat:
                    assert sorted(ans["moves"]) == sorted(r.legal_moves())
                else:
                    assert "error" in ans
            r.apply(rng.choice(r.legal_moves()))


def test_python_contract_4_score_before_end():
    r = scopa.Game().new_round(seed=1)
    with pytest.raises(ValueError):
        r.score()


def test_python_rules_1_presets_and_types():
    """RULES.md Game records: exact JSON types, unknown option = error."""
    assert scopa.preset("assi")["ace_sweeps"] is True
    assert scopa.preset("scopone")["players"] == 4
    assert scopa.preset("perdere")["lowest_wins"] is True
    assert scopa.preset("escoba")["deal_bonus"] == "fifteen"
    assert scopa.preset("trentuno")["all_coins_wins"] is True
    scopa.Game({"players": 6, "teams": True, "team_size": 3})
    for p in scopa.PRESETS:
        scopa.Game(p)
    for bad in ({"target": 11.0}, {"players": "2"}, {"teams": 1},
                {"bogus": True}, {"game": "scopone", "players": 2},
                {"refill": 1, "game": "scopone"}, {"players": 5},
                {"team_size": 3}, {"max_capture": 1},
                {"ace_empty_table": "taken"},
                {"lowest_wins": True, "cappotto": 7}):
        with pytest.raises(ValueError):
            scopa.Game(bad)


def test_python_notation_1():
    """RULES.md Cards: canonical notation."""
    assert scopa.card_str(24) == "7d" and scopa.card_parse("10b") == 39
    assert scopa.normalize_move("10bx7b+3c") == "10bx3c+7b"
    assert scopa.move_card("7dx3c+4s") == "7d"
    assert scopa.move_captures("7dx4s+3c") == ["3c", "4s"]
    assert scopa.card_name("7d", "it") == "sette di denari"
    for bad in ("07d", "7D", "7dx", "7dx3c+3c", "7d ", "1e"):
        with pytest.raises(ValueError):
            scopa.parse_move(bad)


def test_python_records_1_save_load_replay(tmp_path):
    """RULES.md Game records: a game saved, loaded and replayed."""
    g = scopa.Game({"target": 4}, seats=["ann", "bob"])
    bot = scopa.Bot("random")
    seed = 0
    while not g.finished and len(g.rounds) < 20:
        r = g.new_round(seed=seed)
        while r.current_seat is not None:
            seed += 1
            r.apply(bot.choose(r, seed=seed))
    path = str(tmp_path / "game.json")
    g.save(path)
    g2 = scopa.Game.from_record(path)
    assert g2.totals == g.totals and g2.winner == g.winner
    assert scopa.load_record(path)["seats"] == ["ann", "bob"]
    rec = g.record()
    rec["rounds"][0]["moves"][3] = rec["rounds"][0]["moves"][2]
    with pytest.raises(scopa.RecordError) as e:
        scopa.load_record(rec)
    assert e.value.round == 0 and e.value.move in (2, 3)


def test_python_bots_1_every_bot_plays_legal_moves():
    """CONTRACTS.md engine: every bot by name, legal moves only."""
    rng = random.Random(3)
    for name in scopa.bot_names():
        bot = scopa.Bot(name)
        g = scopa.Game(random_rules(rng))
        r = g.new_round(seed=rng.randrange(1000))
        for _ in range(3):
            if r.current_seat is None:
                break
            m = bot.choose(r, movetime_ms=5, seed=1)
            assert m in r.legal_moves()
            vals = bot.evaluate(r.view(r.current_seat), movetime_ms=5)
            assert sorted(v[0] for v in vals) == sorted(r.legal_moves())
            r.apply(m)
    with pytest.raises(ValueError):
        scopa.Bot("nobody")


def test_python_bots_3_the_hint_is_the_library_s():
    """scopa.h scopa_bot_hint: Bot.hint gives the engine's hint for the
    same view (the seed of the position when none is given), every legal
    move once, best first, each with its uncertainty, loss and mark; the
    same with any thread count; hint_seed is the review's seed."""
    rng = random.Random(28)
    bot, e = scopa.Bot("best"), scopa.Engine()
    for k in range(6):
        g = scopa.Game({"players": 2})
        r = g.new_round(seed=rng.randrange(1000))
        for _ in range(rng.randrange(0, 30)):
            r.apply(rng.choice(r.legal_moves()))
        view = r.view(r.current_seat)
        h = bot.hint(r, nodes=10000)
        assert sorted(x["move"] for x in h) == sorted(r.legal_moves())
        assert [x["value"] for x in h] == sorted((x["value"] for x in h),
                                                 reverse=True)
        assert all(x["loss"] >= 0 and x["mark"] in ("", "?", "??")
                   for x in h)
        assert bot.hint(view, nodes=10000, threads=2) == h
        ans = e.request(dict(view, cmd="hint", nodes=10000))
        assert [(m["move"], m["value"], m["loss"]) for m in ans["moves"]] \
            == [(x["move"], x["value"], x["loss"]) for x in h]
        assert bot.hint(view, nodes=10000, seed=scopa.hint_seed(view)) == h
        assert scopa.hint_seed(view, "ab", 1) != scopa.hint_seed(view, "ab", 2)
    with pytest.raises(ValueError):
        bot.hint(dict(view, seat=1 - view["seat"]))


def test_python_bots_2_keep_the_clock():
    """scopa.h "Time" from Python: movetime_ms is a wall-clock budget (1 ms
    comes back in a few ms, not the hundreds a full search takes), a Cancel
    set from another thread stops a search of seconds, and a node budget
    gives the same move twice.  Bounds are loose: sanitizers, loaded
    machine."""
    import threading
    import time
    bot = scopa.Bot("best")
    assert bot.movetime_ms == 100
    # The fifth deal of 2-player scopa: best lists and solves up to 1,680
    # worlds there (hundreds of ms of work).
    r5 = scopa.Game(scopa.preset("scopa")).new_round(dealer=0, seed=5)
    for _ in range(25):
        r5.apply(r5.legal_moves()[-1])
    for ms in (1, 20):
        t = time.monotonic()
        m = bot.choose(r5, movetime_ms=ms)
        assert time.monotonic() - t < ms / 1000.0 + 0.5
        assert m in r5.legal_moves()
    r = scopa.Game(scopa.preset("scientifico")).new_round(dealer=0, seed=5)
    flag = scopa.Cancel()
    timer = threading.Timer(0.03, flag.set)
    timer.start()
    t = time.monotonic()
    m = bot.choose(r, nodes=10 ** 12, cancel=flag)
    assert time.monotonic() - t < 0.03 + 0.5
    assert flag.is_set() and m in r.legal_moves()
    timer.join()
    t = time.monotonic()
    m = bot.choose(r, nodes=10 ** 12, deadline_ns=scopa.clock_ns() + 20000000)
    assert time.monotonic() - t < 0.02 + 0.5
    with pytest.raises(TypeError):
        bot.choose(r, cancel=True)
    r2 = scopa.Game(scopa.preset("scopone")).new_round(dealer=1, seed=9)
    for _ in range(22):
        r2.apply(r2.legal_moves()[0])
    a = scopa.Bot("pimc").choose(r2, nodes=50000, seed=3, movetime_ms=1)
    b = scopa.Bot("pimc").choose(r2, nodes=50000, seed=3, movetime_ms=900)
    assert a == b
    small = scopa.Bot("best", memory=1 << 20)
    assert 0 < small.memory <= 1 << 20 < scopa.Bot("best").memory
    assert small.choose(r2, movetime_ms=5) in r2.legal_moves()
    with pytest.raises(ValueError):
        small.set_memory(1000)
    assert scopa.Bot("greedy").memory == 0


def test_python_env_1_aec_episodes():
    """Environment: masks match the legal moves, rewards are zero-sum."""
    rng = random.Random(2)
    for ep in range(30):
        env = scopa.ScopaEnv(random_rules(rng))
        env.reset(seed=ep)
        total = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert len(obs["observation"]) == scopa.FEATURES
            assert len(obs["action_mask"]) == scopa.ACTIONS
            if term or trunc:
                total[agent] = reward
                env.step(None)
                continue
            legal = env.legal_actions()
            assert sum(obs["action_mask"]) == len(legal)
            moves = env.round.legal_moves()
            shown = [m for page in scopa.env.action_pages(env.round)
                     for m in page.values() if m != "more"]
            assert sorted(shown) == sorted(moves)  # every move, once
            env.step(rng.choice(legal))
        sides = {}
        for seat, agent in enumerate(env.possible_agents):
            sides[env.round.game.side_of(seat)] = total[agent]
        assert abs(sum(sides.values())) < 1e-9


def test_python_env_2_gym_style():
    env = scopa.ScopaGymEnv({"players": 2}, opponent="random", seat=1)
    obs, info = env.reset(seed=4)
    done = False
    while not done:
        a = random.Random(len(obs)).choice(info["legal_actions"])
        obs, reward, done, trunc, info = env.step(a)
    assert isinstance(reward, float)


def test_python_env_3_reset_seed_repeats():
    a, b = scopa.ScopaEnv(), scopa.ScopaEnv()
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.round.deck == b.round.deck and a.round.dealer == b.round.dealer


def test_python_contract_5_rounds_in_any_order():
    """A Game deals any number of rounds with any dealer (experiments);
    the views and scores stay right."""
    g = scopa.Game({"players": 3, "target": 1})
    for i in range(12):
        r = g.new_round(dealer=(i * 7) % 3, seed=i)
        assert r.view(0)["round"]["dealer"] == (i * 7) % 3
        if i % 3 == 2:
            continue  # abandoned
        while r.current_seat is not None:
            r.apply(r.legal_moves()[-1])
        assert len(r.score()) == 3


def test_python_playout_1_random_rounds_are_legal_and_seeded():
    """Round.playout (scopa_state_playout): every move legal by the
    reference, the reference's score, the same seed the same round, and
    the round it was copied from untouched."""
    rng = random.Random(8)
    for n in range(60):
        rules, dealer, deck, r = random_round(rng)
        a, b = r.copy(), r.copy()
        played = a.playout(seed=n)
        assert b.playout(seed=n) == played and b.moves == a.moves
        assert a.over and played == len(a.moves) > 0
        assert r.moves == [] and not r.over
        ref = ref_round(rules, dealer, deck)
        for move in a.moves:
            assert refscopa.normalize_move(str(move)) in norm(ref.legal_moves())
            ref.apply(refscopa.parse_move(str(move)))
        assert a.score() == ref.score(), (rules, a.moves)


# ---- issue 10: the whole game, seeds ------------------------------------
import seed_deck as ref_seed  # noqa: E402


def test_python_seed_1_decks_as_documented():
    """RULES.md Game records, seed: round k's deck from the seed and k alone,
    as include/scopa.h documents it (tests/oracle/seed_deck.py, written
    from those words, agrees with the library)."""
    rng = random.Random(10)
    for n in range(40):
        seed = "%x" % rng.getrandbits(rng.choice([4, 64, 128, 256]))
        rules = rng.choice([{}, {"players": 3}, {"game": "scopone"},
                            {"game": "scopone_scientifico"},
                            {"kings_redeal": False}])
        k = rng.randrange(12)
        assert scopa.seed_deck(seed, k, rules) == \
            ref_seed.seed_deck(seed, k, rules), (seed, k, rules)
        players = scopa.Game(rules).players
        assert scopa.seed_dealer(seed, players) == \
            ref_seed.seed_dealer(seed, players)
    for bad in ("", "XY", "a" * 65, "12 "):
        with pytest.raises(ValueError):
            scopa.seed_deck(bad, 0)
    with pytest.raises(TypeError):
        scopa.seed_deck(42, 0)


def test_python_game_1_seeded_game_resumes_identically(tmp_path):
    """A seeded game stopped at any move and restored from its record deals
    and plays on exactly as the straight game (issue 10)."""
    def play(stop_every):
        g = scopa.Game({"target": 6}, seed="c0ffee")
        bot = scopa.Bot("greedy")
        k = 0
        while not g.finished:
            if g.rounds and g.rounds[-1].current_seat is not None:
                r = g.rounds[-1]
            else:
                r = g.new_round()
            r.apply(bot.choose(r, seed=k))
            k += 1
            if stop_every and k % stop_every == 0:
                path = str(tmp_path / "g.json")
                g.save(path)
                g = scopa.Game.from_record(path)
        return g.record()
    straight = play(0)
    assert straight["seed"] == "c0ffee"
    for i, rd in enumerate(straight["rounds"]):
        assert rd["deck"] == scopa.seed_deck("c0ffee", i, {"target": 6})
    for every in (7, 13):
        assert play(every) == straight


def test_python_game_2_views_and_public_records():
    """Views and records for readers other than the full record hold no card
    the reader may not know (issue 10)."""
    g = scopa.Game(seed="5eed")
    r = g.new_round()
    r.apply(r.legal_moves()[0])
    public = g.view(None)
    assert public["seat"] is None and "dealt" not in public["round"]
    assert g.view(0) == r.view(0)
    for viewer in ("public", "seen", 0, 1):
        rec = g.record(viewer)
        assert "seed" not in rec and "seed_sha256" in rec
        deck = rec["rounds"][-1]["deck"]
        known = set(c for c in deck if c is not None)
        hidden = set(r.hand(1 - viewer)) if viewer in (0, 1) else set()
        assert not (known & hidden)
        assert not (known & set(r.deck[40 - r.stock:]))
    assert g.record()["seed"] == "5eed"


NO_NUMPY = r'''
import sys


class NoNumpy(object):
    """Makes numpy unimportable, as on a machine without it."""

    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("numpy is blocked for this test")
        return None


sys.meta_path.insert(0, NoNumpy())
import scopa

g = scopa.Game({"players": 2}, seed="0123456789abcdef")
rounds = 0
while not g.finished:
    r = g.new_round()
    while not r.over:
        r.apply(scopa.Bot("greedy").choose(r))
    assert len(r.score()) == 2
    rounds += 1
assert rounds > 1 and max(g.totals) >= 11 and g.winner is not None
print(g.totals, scopa.FEATURES, "numpy" in sys.modules)
try:
    scopa.vector
except ImportError:
    print("env needs numpy")
'''


def test_python_import_1_game_api_without_numpy(tmp_path):
    """CONTRACTS.md "Python": the game API (Game, Round, bots, cards) is
    the standard library's over libscopa: `import scopa` and a whole game
    work with numpy unimportable, and numpy is not imported; only the
    environments need it (imported on first use)."""
    import os
    import subprocess
    import sys
    script = tmp_path / "no_numpy.py"
    script.write_text(NO_NUMPY)
    env = dict(os.environ)
    here = os.path.dirname(os.path.abspath(__file__))
    env["PYTHONPATH"] = os.path.join(here, "..", "..", "bindings", "python")
    out = subprocess.run([sys.executable, str(script)], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].endswith("%d False" % scopa.FEATURES)
    assert lines[1] == "env needs numpy"
