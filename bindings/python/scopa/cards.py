"""cards -- card and move notation (RULES.md "Cards", "Game records").

A card is an int 0..39, rank-major: card = (rank - 1) * 4 + suit, suits
d c s b; so "7d" is 24.  A move is a string in record notation ("10bx3c+7b",
"7s") or, inside the library, an int: card << 48 | captured mask.  The
helpers here agree with the library's parser, which is strict (canonical
cards only); parse_move goes through the library itself.
"""
import ctypes

from . import _lib

SUITS = "dcsb"
SUIT_NAMES = ("denari", "coppe", "spade", "bastoni")
CARDS = ["%d%s" % (c // 4 + 1, SUITS[c % 4]) for c in range(40)]
_INDEX = {text: i for i, text in enumerate(CARDS)}
ALL = (1 << 40) - 1


def _card_int(card):
    """card checked: an int 0..39 (TypeError, ValueError otherwise)."""
    return _lib.int_arg("card", card, 0, 39)


def card_str(card):
    """The canonical notation of card 0..39: card_str(24) == "7d"."""
    return CARDS[_card_int(card)]


def card_parse(text):
    """The card 0..39 of a canonical card text; ValueError otherwise."""
    try:
        return _INDEX[text]
    except (KeyError, TypeError):
        raise ValueError("not a card: %r" % (text,))


def is_card(text):
    return text in _INDEX


def rank(card):
    return _card_int(card) // 4 + 1


def suit(card):
    return SUITS[_card_int(card) % 4]


def card_name(card, lang="en"):
    """"seven of coins", or "sette di denari" with lang="it"."""
    card = card_parse(card) if isinstance(card, str) else _card_int(card)
    buf = ctypes.create_string_buffer(48)
    raw = _lib.text_arg("lang", lang)
    return _lib.lib.scopa_card_name(card, raw, buf, 48).decode()


def cards_of(mask):
    """The cards of a 64-bit card set, in card order, as notation."""
    return [CARDS[c] for c in range(40) if mask >> c & 1]


def mask_of(cards):
    m = 0
    for c in cards:
        m |= 1 << (card_parse(c) if isinstance(c, str) else c)
    return m


def move_str(move):
    """Record notation of a move int: the card, then x and the captured
    cards in card order when it captures."""
    if type(move) is not int:
        raise TypeError("a move int must be an int, not %s" %
                        type(move).__name__)
    card = (move >> 48) & 0x3F
    taken = move & ALL
    if card >= 40 or move >> 54 or move >> 40 & 0xFF:
        raise ValueError("not a move int: %#x" % move)
    if not taken:
        return CARDS[card]
    return CARDS[card] + "x" + "+".join(cards_of(taken))


def parse_move(text):
    """The move int of a move in record notation (the library's strict
    parser); ValueError with its message otherwise."""
    if not isinstance(text, str):
        raise ValueError("a move is a string in record notation")
    out = ctypes.c_uint64()
    msg = _lib.msgbuf()
    raw = text.encode("utf-8", "replace")
    if b"\0" in raw or _lib.lib.scopa_move_parse(raw, None, ctypes.byref(out),
                                                 msg, _lib.MSG) != 0:
        raise ValueError(msg.value.decode() or "bad move notation: %r" % text)
    return out.value


def move_card(move):
    """The played card of a move (int or text), as notation."""
    if isinstance(move, str):
        move = parse_move(move)
    return CARDS[(move >> 48) & 0x3F]


def move_captures(move):
    """The captured cards of a move (int or text), in card order."""
    if isinstance(move, str):
        move = parse_move(move)
    return cards_of(move & ALL)


def normalize_move(text):
    """A move's canonical text (captured cards in card order)."""
    return move_str(parse_move(text))
