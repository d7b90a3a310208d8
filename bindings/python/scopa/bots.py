"""bots -- the library's computer players (scopa_bot_*), by name.

A bot chooses from a seat's view only.  Give it a Round (it plays for the
seat to play) or a view dict as in an engine request (Round.view(seat),
or what a GUI sends).  Same view, limits and seed: same move.
"""
import ctypes
import json

from . import _lib, cards

L = _lib.lib


def names():
    """The bots this build has, weakest first; "best" is the strongest."""
    out, arr, i = [], L.scopa_bot_names(), 0
    while arr[i]:
        out.append(arr[i].decode())
        i += 1
    return out


def describe(name):
    d = L.scopa_bot_describe(name.encode())
    return d.decode() if d else None


def _view_of(where):
    """A filled scopa_view buffer for a Round (seat to play) or a view
    dict / JSON text; ValueError for a view that cannot happen."""
    from .game import Round
    if isinstance(where, Round):
        seat = where.current_seat
        if seat is None:
            raise ValueError("the round is over")
        return where._view_buffer(seat)
    text = where if isinstance(where, str) else json.dumps(where)
    raw = text.encode("utf-8")
    buf, msg = _lib.view_buffer(), _lib.msgbuf()
    if L.scopa_view_from_json(buf, raw, len(raw), msg, _lib.MSG) != 0:
        raise ValueError(msg.value.decode())
    return buf


class Bot(object):
    """A bot by name ("random", ..., "best")."""

    def __init__(self, name="best"):
        self._bot = ctypes.c_void_p()
        if L.scopa_bot_new(name.encode(), ctypes.byref(self._bot)) != 0:
            raise ValueError("unknown bot %r (one of %s)" %
                             (name, ", ".join(names())))
        self.name = L.scopa_bot_name(self._bot).decode()

    def __del__(self):
        if getattr(self, "_bot", None):
            L.scopa_bot_free(self._bot)
            self._bot = None

    @staticmethod
    def _limits(movetime_ms, seed, threads):
        return _lib.BotLimits(int(movetime_ms), int(seed) & (2 ** 64 - 1),
                              int(threads))

    def choose(self, where, movetime_ms=0, seed=0, threads=1):
        """The bot's move (record notation) for the seat to play."""
        view = _view_of(where)
        out = ctypes.c_uint64()
        lim = self._limits(movetime_ms, seed, threads)
        if L.scopa_bot_choose(self._bot, view, ctypes.byref(lim),
                              ctypes.byref(out)) != 0:
            raise ValueError("the view's seat is not the one to play")
        return cards.move_str(out.value)

    def evaluate(self, where, movetime_ms=0, seed=0, threads=1):
        """[(move, value), ...] best first, values in expected points for
        the seat's side."""
        view = _view_of(where)
        lim = self._limits(movetime_ms, seed, threads)
        cap = 256
        while True:
            moves = (ctypes.c_uint64 * cap)()
            values = (ctypes.c_double * cap)()
            n = L.scopa_bot_evaluate(self._bot, view, ctypes.byref(lim),
                                     moves, values, cap)
            if n < 0:
                raise ValueError("the view's seat is not the one to play")
            if n <= cap:
                return [(cards.move_str(moves[i]), values[i])
                        for i in range(n)]
            cap = n
