"""engine -- the `scopa engine` protocol (CONTRACTS.md) in-process: the
same answers as the command, without a pipe.

    e = Engine()
    e.request({"cmd": "go", "bot": "random", "seed": 1, **round.view(seat)})
    -> {"move": "..."}

For another process, run `scopa engine` and speak the same JSON lines.
"""
import ctypes
import json

from . import _lib

L = _lib.lib


class Engine(object):
    def __init__(self):
        self._e = ctypes.c_void_p()
        if L.scopa_engine_new(ctypes.byref(self._e)) != 0:
            raise MemoryError("scopa: out of memory")

    def __del__(self):
        if getattr(self, "_e", None):
            L.scopa_engine_free(self._e)
            self._e = None

    def answer(self, line):
        """The answer line (text) to one request line (text or bytes);
        None for "quit"."""
        raw = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        quit = ctypes.c_int(0)
        ptr = L.scopa_engine_answer(self._e, raw, len(raw), ctypes.byref(quit))
        if quit.value:
            return None
        return _lib.take_string(ptr)

    def request(self, obj):
        """The answer (a dict) to a request dict."""
        ans = self.answer(json.dumps(obj))
        return None if ans is None else json.loads(ans)
