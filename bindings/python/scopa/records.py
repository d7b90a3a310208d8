"""records -- game records (RULES.md "Game records") loaded, checked by the
library (the same checks as `scopa replay`) and saved.

load() accepts a dict, JSON text or a path, and returns the record dict;
an invalid record raises RecordError (a ValueError) with the library's
message and where the fault is (round, move: 0-based, None when not in a
round or a move).  save() checks before writing, and writes atomically.
"""
import ctypes
import json
import os
import tempfile

from . import _lib

L = _lib.lib


class RecordError(ValueError):
    def __init__(self, message, round=None, move=None):
        ValueError.__init__(self, message)
        self.message, self.round, self.move = message, round, move


def check_text(text):
    """Checks a record's JSON text; raises RecordError at its first
    fault."""
    raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    buf = ctypes.create_string_buffer(_lib.SIZES["replay"])
    fault = _lib.Fault()
    rc = L.scopa_replay_text(raw, len(raw), buf, ctypes.byref(fault))
    if rc != 0:
        raise RecordError(fault.message.decode("utf-8", "replace"),
                          fault.round if fault.round >= 0 else None,
                          fault.move if fault.move >= 0 else None)
    L.scopa_replay_free(buf)


def load(source):
    """A checked record dict from a dict, JSON text or a file path."""
    if isinstance(source, dict):
        text = json.dumps(source)
    elif isinstance(source, (bytes, bytearray)):
        text = bytes(source).decode("utf-8")
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        text = source
    else:
        with open(source, "rb") as f:
            text = f.read().decode("utf-8")
    check_text(text)
    return json.loads(text)


def save(record, path):
    """Checks a record dict and writes it to path atomically."""
    text = json.dumps(record, indent=1)
    check_text(text)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".scopa-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
