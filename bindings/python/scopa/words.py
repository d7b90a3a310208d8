"""words -- moves and what they do in words a person reads, the library's
(scopa.h "Moves in words, and what they do"): the same sentences as the
terminal's hints, `scopa review` and the server's hint and review
messages, in English or Italian ("it"), with the Italian suits or, with
deck="francesi", the French deck's.

    scopa.move_words("7cx7d")           "Take the 7 of coins with your 7 of cups"
    scopa.move_why(r, "7cx7d")          {"codes": ["settebello", ...], "cards": 2, ...}
    scopa.why_words(why, lang="it")     "prende il settebello, ..."
    scopa.loss_words(h["loss"], h["loss_margin"], h["mark"])
                                        what a hint's or review's loss means

A move is its record notation or a move int; a position is a Round (its
seat to play) or a view dict, as the bots take them.
"""
import ctypes
import json

from . import _lib, cards
from .bots import _view_of

L = _lib.lib
_TEXT = 1024  # every sentence here is far shorter
MARKS = ("", "?", "??")  # scopa_hint_mark_text of SCOPA_MARK_NONE..BLUNDER


def _lang(lang):
    """Italian for "it" (and "it_IT"...), else English, as card_name."""
    return _lib.text_arg("lang", lang)


def _deck(deck):
    return None if deck is None else _lib.text_arg("deck", deck)


def _move(move):
    """A move int from notation (the library's parser) or an int."""
    if isinstance(move, str):
        return cards.parse_move(move)
    cards.move_str(move)  # TypeError, ValueError for what is no move
    return move


def _said(f, *args):
    buf = ctypes.create_string_buffer(_TEXT)
    f(*args, buf, _TEXT)
    return buf.value.decode("utf-8")


def card_words(card, lang="en", deck=None):
    """A card for a sentence: "the 7 of coins", "l'asso di coppe"
    (scopa_card_words); card is 0..39 or its notation."""
    card = cards.card_parse(card) if isinstance(card, str) \
        else cards._card_int(card)
    return _said(L.scopa_card_words, card, _lang(lang), _deck(deck))


def move_words(move, lang="en", deck=None):
    """A move as an imperative sentence without a full stop
    (scopa_move_words): "Take the 7 of coins with your 7 of cups",
    "Cala il 5 di spade"."""
    return _said(L.scopa_move_words, _move(move), _lang(lang), _deck(deck))


def move_why(where, move):
    """What the legal move does for the seat to play, from its view
    (scopa_move_why): {"codes": [...], "cards", "coins", "sevens", "sum",
    "rank"}, the "why" of the server's hints and reviews; codes in order
    of importance ("scopa", "settebello", "gives_settebello", "opens",
    "safe", "sevens", "coins", "cards").  ValueError for a move that is
    not legal there."""
    view, m = _view_of(where), _move(move)
    out = _lib.Why()
    if L.scopa_move_why(view, m, ctypes.byref(out)) != 0:
        raise ValueError("%s is not a legal move of the seat to play"
                         % cards.move_str(m))
    return json.loads(_lib.take_string(L.scopa_move_why_json(view, m)))


def _why_struct(why):
    """move_why's dict back into a scopa_why."""
    if not isinstance(why, dict):
        raise TypeError("why must be a dict as move_why gives, not %s"
                        % type(why).__name__)
    bits = {}
    i = 0
    while L.scopa_why_code(i):
        bits[L.scopa_why_code(i).decode()] = i
        i += 1
    out = _lib.Why()
    for code in why.get("codes", []):
        if code not in bits:
            raise ValueError("unknown reason code: %r" % (code,))
        out.reasons |= 1 << bits[code]
    for field in ("cards", "coins", "sevens", "sum", "rank"):
        # the table's sum can pass 40 (forty cards of rank up to 10)
        setattr(out, field, _lib.int_arg(field, why.get(field, 0), 0, 400))
    return out


def why_words(why, max=2, lang="en", deck=None):
    """The reasons of move_why's dict in words (scopa_why_words): at most
    `max` of what the move does for its side, then its first risk after
    "but"; "" when there is none."""
    w = _why_struct(why)
    return _said(L.scopa_why_words, ctypes.byref(w),
                 _lib.int_arg("max", max, 0, 8), _lang(lang), _deck(deck))


def _card(card):
    return cards.card_parse(card) if isinstance(card, str) \
        else cards._card_int(card)


def _reason_codes():
    codes, i = {}, 0
    while L.scopa_card_reason_code(i):
        codes[L.scopa_card_reason_code(i).decode()] = i
        i += 1
    return codes


def card_reason(where, card):
    """Why `card` of the viewing seat's hand plays as it does now
    (scopa_view_card_reason): "lay", "must_take", "match_first", "sweep",
    "ace_taken", "choice" or "not_playable" (not to play, not in the hand,
    or no legal move), as the reasons of a seat's state in scopa serve."""
    code = L.scopa_card_reason_code(
        L.scopa_view_card_reason(_view_of(where), _card(card)))
    return code.decode()


def card_reason_words(reason, card, lang="en", deck=None):
    """card_reason's code as a sentence (scopa_card_reason_words): "No
    capture: this card is laid on the table.", naming the card where the
    sentence does.  ValueError for an unknown code."""
    codes = _reason_codes()
    if reason not in codes:
        raise ValueError("unknown card reason: %r" % (reason,))
    return _said(L.scopa_card_reason_words, codes[reason], _card(card),
                 _lang(lang), _deck(deck))


def points_words(points, lang="en"):
    """An amount of points as a person says it: "about half a point"
    (scopa_points_words)."""
    return _said(L.scopa_points_words, _number("points", points),
                 _lang(lang))


def _number(name, x):
    if type(x) not in (int, float):
        raise TypeError("%s must be a number, not %s"
                        % (name, type(x).__name__))
    return float(x)


def loss_words(loss, loss_margin, mark="", lang="en"):
    """What a move's loss means, with its honest doubt (scopa_loss_words):
    "A blunder (??): it almost surely cost a point or more, ...".  The
    three are a hint's "loss", "loss_margin" and "mark" (Bot.hint: "",
    "?", "??"; or 0..2); a nan loss is "No estimate for this move"."""
    if isinstance(mark, str):
        if mark not in MARKS:
            raise ValueError("mark must be one of %r, not %r" % (MARKS, mark))
        mark = MARKS.index(mark)
    else:
        mark = _lib.int_arg("mark", mark, 0, len(MARKS) - 1)
    return _said(L.scopa_loss_words, _number("loss", loss),
                 _number("loss_margin", loss_margin), mark, _lang(lang))
