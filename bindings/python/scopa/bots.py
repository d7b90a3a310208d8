"""bots -- the library's computer players (scopa_bot_*), by name.

A bot chooses from a seat's view only.  Give it a Round (it plays for the
seat to play) or a view dict as in an engine request (Round.view(seat),
or what a GUI sends).

Time (scopa.h "Time"): movetime_ms is a wall-clock budget (0: the bot's
default, Bot.movetime_ms); deadline_ns an absolute time on clock_ns()
(time.monotonic_ns() on Linux); a Cancel flag set from another thread
stops the search.  The call releases the GIL, and comes back within a few
milliseconds of any of them with a legal move.  With nodes set, the work
is a node budget instead and the same view, limits and seed give the same
move on any machine.

Memory: a bot holds its tables and worlds from its creation on (4 MiB for
the searching bots); Bot(name, memory=bytes) or bot.set_memory(bytes) sets
another limit (at least 256 KiB), bot.memory says what it holds.
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
    d = L.scopa_bot_describe(_lib.text_arg("bot name", name))
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
    if not isinstance(where, (str, dict)):
        raise TypeError("a bot plays from a Round, a view dict or its JSON "
                        "text, not %s" % type(where).__name__)
    text = where if isinstance(where, str) else json.dumps(where)
    raw = text.encode("utf-8", "surrogateescape")
    buf, msg = _lib.view_buffer(), _lib.msgbuf()
    if L.scopa_view_from_json(buf, raw, len(raw), msg, _lib.MSG) != 0:
        raise ValueError(msg.value.decode())
    return buf


def clock_ns():
    """CLOCK_MONOTONIC now, in nanoseconds: the clock of deadline_ns."""
    return L.scopa_clock_ns()


class Cancel(object):
    """A flag another thread sets to stop a bot's search:

        flag = scopa.Cancel()
        threading.Timer(0.05, flag.set).start()
        bot.choose(r, nodes=10**12, cancel=flag)   # back ~50 ms later

    The C side reads it atomically while the call runs (the GIL is
    released); clear() it before reusing it."""

    def __init__(self):
        self._flag = ctypes.c_int(0)

    def set(self):
        self._flag.value = 1

    def clear(self):
        self._flag.value = 0

    def is_set(self):
        return bool(self._flag.value)


class Bot(object):
    """A bot by name ("random", ..., "best"); memory: a limit in bytes
    (None: the bot's default)."""

    def __init__(self, name="best", memory=None):
        self._bot = ctypes.c_void_p()
        raw = _lib.text_arg("bot name", name)
        rc = L.scopa_bot_new(raw, ctypes.byref(self._bot))
        if rc == -11:
            raise MemoryError("scopa: out of memory")
        if rc != 0:
            raise ValueError("unknown bot %s (one of %s)" %
                             (_lib.safe_text(repr(name)), ", ".join(names())))
        self.name = L.scopa_bot_name(self._bot).decode()
        self.movetime_ms = L.scopa_bot_movetime(self._bot)
        if memory is not None:
            self.set_memory(memory)

    def set_memory(self, nbytes):
        """Gives the bot at most nbytes of memory (0: its default),
        allocated now; ValueError below 256 KiB."""
        rc = L.scopa_bot_set_memory(
            self._bot, _lib.int_arg("memory", nbytes, 0, 2 ** 62))
        if rc == -11:
            raise MemoryError("scopa: out of memory")
        if rc != 0:
            raise ValueError("memory limit too small: %d bytes" % nbytes)

    @property
    def memory(self):
        """The bytes of memory the bot holds."""
        return L.scopa_bot_memory(self._bot)

    def __del__(self):
        if getattr(self, "_bot", None):
            L.scopa_bot_free(self._bot)
            self._bot = None

    @staticmethod
    def _limits(movetime_ms, seed, threads, nodes=0, deadline_ns=0,
                cancel=None):
        lim = _lib.BotLimits(
            _lib.int_arg("movetime_ms", movetime_ms, 0, 600000),
            _lib.seed_arg("seed", seed),
            _lib.int_arg("threads", threads, 0, 256),
            _lib.int_arg("nodes", nodes, 0, 2 ** 63 - 1),
            _lib.int_arg("deadline_ns", deadline_ns, 0, 2 ** 63 - 1))
        if cancel is not None:
            if not isinstance(cancel, Cancel):
                raise TypeError("cancel must be a scopa.Cancel")
            lim.cancel = ctypes.pointer(cancel._flag)
        return lim

    def choose(self, where, movetime_ms=0, seed=0, threads=1, nodes=0,
               deadline_ns=0, cancel=None):
        """The bot's move (record notation) for the seat to play."""
        view = _view_of(where)
        out = ctypes.c_uint64()
        lim = self._limits(movetime_ms, seed, threads, nodes, deadline_ns,
                           cancel)
        if L.scopa_bot_choose(self._bot, view, ctypes.byref(lim),
                              ctypes.byref(out)) != 0:
            raise ValueError("the view's seat is not the one to play")
        return cards.move_str(out.value)

    def evaluate(self, where, movetime_ms=0, seed=0, threads=1, nodes=0,
                 deadline_ns=0, cancel=None):
        """[(move, value), ...] best first, values in expected points for
        the seat's side; every value is nan where the bot gives no
        estimate (a bot without values, or out of time before any world
        was valued), the moves still in its order of preference."""
        view = _view_of(where)
        lim = self._limits(movetime_ms, seed, threads, nodes, deadline_ns,
                           cancel)
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

    def hint(self, where, nodes=0, movetime_ms=0, seed=None, threads=1,
             deadline_ns=0, cancel=None):
        """The library's hint (scopa_bot_hint, the terminal's and the
        server's): [{"move", "value", "margin", "loss", "loss_margin",
        "mark"}, ...] best first, in expected points for the seat's side,
        each with its uncertainty (95%), the loss against the best move
        and the review's mark ("", "?", "??").  The work is nodes (else
        movetime_ms, else the default, as nodes: never the clock), the
        seed the given one or else the position's (hint_seed), so the same
        call gives the same answer on any machine and thread count.  The
        numbers are nan where there is no estimate.  This bot lends its
        memory: a searching one (pimc, infer, best)."""
        view = _view_of(where)
        if seed is None:
            seed = L.scopa_hint_seed(None, 0, view)
        lim = self._limits(movetime_ms, seed, threads, nodes, deadline_ns,
                           cancel)
        cap = 64
        out = (_lib.Hint * cap)()
        n = L.scopa_bot_hint(self._bot, view, ctypes.byref(lim), out, cap,
                             None)
        if n < 0:
            raise ValueError("the view's seat is not the one to play")
        return [{"move": cards.move_str(h.move), "value": h.value,
                 "margin": h.margin, "loss": h.loss,
                 "loss_margin": h.loss_margin,
                 "mark": L.scopa_hint_mark_text(h.mark).decode()}
                for h in out[:min(n, cap)]]


def hint_seed(where, game_seed=None, round=0):
    """The seed of a hint at a position (scopa_hint_seed): of the game's
    seed (hex), the round and the ply, or of the position itself when
    game_seed is None, as the review and the server derive it."""
    view = _view_of(where)
    raw = None if game_seed is None else _lib.text_arg("seed", game_seed)
    return L.scopa_hint_seed(raw, _lib.int_arg("round", round, 0, 1000000),
                             view)
