"""The Python package's moves in words (bindings/python/scopa/words.py)
against the library's own front end: every move of a whole game reviewed
by `scopa review` (its JSON and its text, English and Italian) says, in
Python, the same "why" for the move and the best move, the same
sentences and the same words for the loss.  And the sentences scopa.h
documents, the French deck's names, and bad arguments refused with a
Python error, never a crash.  Run with SCOPA_LIB pointing at the library
(CTest sets it)."""
import json
import math
import os
import random
import subprocess

import pytest

from conftest import scopa_bin
import scopa


def played_game(tmp_path, seed):
    """A whole game to 1 of random moves: its record's path and, for
    every move, the round as it was before it, by (round, ply)."""
    rng = random.Random(seed)
    g = scopa.Game({"players": 2, "target": 1}, seed="5eed%d" % seed)
    before, k = {}, 0
    while not g.finished:
        r = g.new_round()
        ply = 0
        while r.current_seat is not None:
            before[(k, ply)] = r.copy()
            r.apply(rng.choice(r.legal_moves()))
            ply += 1
        k += 1
    path = str(tmp_path / "game.json")
    g.save(path)
    return path, before


def review(path, *args):
    out = subprocess.run([scopa_bin(), "review", "--movetime", "5"] +
                         list(args) + [path], capture_output=True, text=True,
                         env=dict(os.environ, LANG="C.UTF-8"))
    assert out.returncode == 0, out.stderr
    return out.stdout


def sentence(move, why, lang):
    """A reviewed move as `scopa review` prints it (review.c)."""
    said = scopa.why_words(why, 2, lang=lang)
    return scopa.move_words(move, lang) + (": " + said if said else "")


def test_python_words_1_agree_with_scopa_review(tmp_path):
    path, before = played_game(tmp_path, 3)
    doc = json.loads(review(path, "--json"))
    texts = {lang: review(path, "--lang", lang) for lang in ("en", "it")}
    checked = losses = 0
    for k, rnd in enumerate(doc["rounds"]):
        for mv in rnd["moves"]:
            r = before[(k, mv["ply"])]
            assert scopa.move_why(r, mv["move"]) == mv["why"], mv
            assert scopa.move_why(r, mv["best"]) == mv["best_why"], mv
            # the view dict gives the same as the Round
            assert scopa.move_why(r.view(r.current_seat), mv["move"]) \
                == mv["why"]
            if mv["choices"] < 2:
                continue
            for lang, text in texts.items():
                assert sentence(mv["move"], mv["why"], lang) + "." in text
                shown = mv["move"] != mv["best"] and \
                    (mv["cost"] >= 0.1 or mv["mark"])
                if shown:
                    loss = scopa.loss_words(mv["cost"], mv["loss_margin"],
                                            mv["mark"], lang)
                    assert loss + "." in text, (loss, text)
                    assert sentence(mv["best"], mv["best_why"], lang) + \
                        "." in text
                    losses += lang == "en"
            checked += 1
    assert checked >= 10 and losses >= 1, (checked, losses)


def test_python_words_2_the_sentences_of_scopa_h():
    assert scopa.move_words("7cx7d") == \
        "Take the 7 of coins with your 7 of cups"
    assert scopa.move_words("7cx7d", "it") == \
        "Prendi il 7 di denari con il tuo 7 di coppe"
    assert scopa.move_words("5s") == "Lay the 5 of swords on the table"
    assert scopa.move_words("5s", "it") == "Cala il 5 di spade"
    assert scopa.move_words("7bx3c+4s", "it") == \
        "Prendi il 3 di coppe e il 4 di spade con il tuo 7 di bastoni"
    # a move int says the same as its notation
    assert scopa.move_words(scopa.parse_move("10bx3c+7b")) == \
        scopa.move_words("10bx3c+7b")
    # the French deck's names
    assert scopa.move_words("9cx9d", "it", "francesi") == \
        "Prendi la donna di quadri con la tua donna di cuori"
    assert scopa.card_words("1c", "it") == "l'asso di coppe"
    assert scopa.card_words(24) == "the 7 of coins"
    assert scopa.points_words(0.5) == "about half a point"
    assert scopa.loss_words(float("nan"), 0.0) == "No estimate for this move"
    assert scopa.loss_words(0.0, 0.1, "") == "As good as the best move"
    assert scopa.loss_words(1.3, 0.2, "??").startswith("A blunder (??)")
    assert scopa.loss_words(1.3, 0.2, 2, "it").startswith("Un errore grave")


def test_python_words_3_a_hint_in_words():
    """Bot.hint's moves, losses and marks say themselves in words."""
    g = scopa.Game({"players": 2})
    r = g.new_round(dealer=0, seed=3)
    for h in scopa.Bot("best").hint(r, nodes=3000):
        why = scopa.move_why(r, h["move"])
        assert scopa.why_words(why, lang="it") == \
            scopa.why_words(json.loads(json.dumps(why)), lang="it")
        words = scopa.loss_words(h["loss"], h["loss_margin"], h["mark"])
        assert words and not math.isnan(h["loss"])
        assert scopa.move_words(h["move"]).startswith(("Take ", "Lay "))


def test_python_words_4_bad_arguments_are_python_errors():
    g = scopa.Game({"players": 2})
    r = g.new_round(dealer=0, seed=3)
    illegal = next(scopa.card_str(c) for c in range(40)
                   if scopa.card_str(c) not in r.hand(r.current_seat))
    with pytest.raises(ValueError):
        scopa.move_why(r, illegal)
    with pytest.raises(ValueError):
        scopa.move_words("11x")
    with pytest.raises(ValueError):
        scopa.move_words(1 << 60)
    with pytest.raises(TypeError):
        scopa.move_words(2.5)
    with pytest.raises(ValueError):
        scopa.move_words("5s", "it\0")
    with pytest.raises(ValueError):
        scopa.why_words({"codes": ["nonsense"]})
    with pytest.raises(TypeError):
        scopa.why_words(["scopa"])
    with pytest.raises(ValueError):
        scopa.why_words({"codes": [], "cards": 401})
    with pytest.raises(ValueError):
        scopa.why_words({"codes": [], "sum": -1})
    # a table's sum past 40 is a sum, not an error
    assert "55" in scopa.why_words({"codes": ["opens"], "sum": 55, "rank": 5})
    with pytest.raises(ValueError):
        scopa.loss_words(0.5, 0.1, "???")
    with pytest.raises(ValueError):
        scopa.loss_words(0.5, 0.1, 3)
    with pytest.raises(TypeError):
        scopa.loss_words("0.5", 0.1)
    with pytest.raises(ValueError):
        scopa.card_words("7x")


def test_python_words_5_why_a_card_plays_so():
    """scopa.h scopa_view_card_reason and its words (issue 33): every
    card of the hand has a reason agreeing with its legal moves, a card
    out of the hand is not playable, and each reason has its words."""
    g = scopa.Game({"players": 2})
    r = g.new_round(dealer=0, seed=3)
    legal = r.legal_moves()
    for card in r.hand(r.current_seat):
        mine = [m for m in legal if m.split("x")[0] == card]
        why = scopa.card_reason(r, card)
        if len(mine) > 1:
            assert why == "choice"
        elif "x" in mine[0]:
            assert why in ("must_take", "match_first", "sweep")
        else:
            assert why in ("lay", "ace_taken")
        said = scopa.card_reason_words(why, card, "it")
        assert said.endswith(".") and said != scopa.card_reason_words(why,
                                                                      card)
    other = next(scopa.card_str(c) for c in range(40)
                 if scopa.card_str(c) not in r.hand(r.current_seat))
    assert scopa.card_reason(r, other) == "not_playable"
    assert scopa.card_reason_words("match_first", "5s") == \
        "A card of the same rank is on the table: the 5 of swords must " \
        "take it, not a sum."
    with pytest.raises(ValueError):
        scopa.card_reason_words("nothing", "5s")
