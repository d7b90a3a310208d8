"""scopa -- Scopa and its family (Scopone, Scopone Scientifico, Scopa
d'Assi, Scopa a Quindici) over libscopa, with ctypes and the standard
library only.

    import scopa
    g = scopa.Game({"game": "scopa", "players": 2})
    r = g.new_round(dealer=0, seed=1)
    r.current_seat, r.legal_moves(), r.apply("7dx3c+4s"), r.view(0)
    r.score()

    scopa.preset("assi")                 rules presets as dicts
    scopa.card_str(24) == "7d"           notation helpers
    scopa.Bot("best").choose(r)          the library's bots (movetime_ms,
                                         nodes, deadline_ns, scopa.Cancel)
    scopa.Bot("best").hint(r)            the one hint procedure (values,
                                         uncertainty, loss, mark)
    scopa.move_words("7cx7d", "it")      moves, what they do and what a
    scopa.move_why(r, m), why_words,     loss means, in words a person
    scopa.loss_words(loss, margin, mark) reads (the library's)
    scopa.load_record(path) / g.save(p)  game records
    scopa.ScopaEnv / ScopaGymEnv         environments for learning agents
                                         (PettingZoo AEC / Gymnasium;
                                         scopa.env.env() wrapped)
    scopa.spiel.load_game(rules)         OpenSpiel-shaped states: clone,
                                         undo, chance, tensors, resample,
                                         the exact solver
    scopa.Engine().request({...})        `scopa engine` in-process
    scopa.safe_text(name)                outside text, safe to print

The library is SCOPA_LIB when set, else the build's build/libscopa.so.
The game API needs the standard library only; the environments
(scopa.env, scopa.vector, scopa.baselines, scopa.spiel) need numpy and are imported
on first use.
"""
from . import _lib
from .cards import (CARDS, SUITS, card_str, card_parse, card_name, is_card,
                    move_str, parse_move, move_card, move_captures,
                    normalize_move, rank, suit)
from .rules import PRESETS, preset, check as check_rules
from .game import Game, Round, seed_deck, seed_dealer
from .bots import (Bot, Cancel, clock_ns, hint_seed, names as bot_names,
                   describe as describe_bot)
from .words import (card_words, move_words, move_why, why_words,
                    points_words, loss_words, card_reason,
                    card_reason_words)
from .records import RecordError, load as load_record, save as save_record
from .engine import Engine
from ._lib import safe_text, FEATURES, ACTIONS, ACTION_SLOTS
import importlib
import importlib.util

# The environments need numpy; the game API above does not.  So env,
# vector and baselines (and the env classes) are imported on first use,
# and `import scopa` works without numpy.  When gymnasium is installed
# (numpy with it) env is imported now, as before, so that its ids are
# registered for gymnasium.make as soon as scopa is imported.
_LAZY_MODULES = ("env", "vector", "baselines", "spiel")
_ENV_NAMES = ("ScopaEnv", "ScopaGymEnv", "ResetNeeded")


def __getattr__(name):
    if name in _LAZY_MODULES:
        return importlib.import_module("." + name, __name__)
    if name in _ENV_NAMES:
        return getattr(importlib.import_module(".env", __name__), name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


try:
    _gymnasium = importlib.util.find_spec("gymnasium")
except (ImportError, ValueError):
    _gymnasium = None
if _gymnasium is not None:
    from . import env  # noqa: F401 (registers the gymnasium ids)

__version__ = Engine().request({"cmd": "hello"})["version"]
library_path = _lib.path

__all__ = ["Game", "Round", "Bot", "Cancel", "clock_ns", "Engine", "ScopaEnv",
           "ScopaGymEnv", "ResetNeeded",
           "RecordError", "CARDS", "SUITS", "PRESETS", "FEATURES", "ACTIONS",
           "ACTION_SLOTS", "card_str", "card_parse", "card_name", "is_card",
           "move_str", "parse_move", "move_card", "move_captures",
           "normalize_move", "rank", "suit", "preset", "check_rules",
           "bot_names", "describe_bot", "load_record", "save_record",
           "seed_deck", "seed_dealer", "safe_text", "hint_seed",
           "card_words", "move_words", "move_why", "why_words",
           "points_words", "loss_words", "card_reason",
           "card_reason_words", "env", "vector", "baselines", "spiel"]
