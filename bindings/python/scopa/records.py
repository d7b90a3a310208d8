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

from . import _lib

L = _lib.lib


class RecordError(ValueError):
    def __init__(self, message, round=None, move=None):
        ValueError.__init__(self, message)
        self.message, self.round, self.move = message, round, move


def check_text(text):
    """Checks a record's JSON text; raises RecordError at its first
    fault."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError("a record's text is a str or bytes, not %s" %
                        type(text).__name__)
    raw = text.encode("utf-8", "surrogateescape") if isinstance(text, str) \
        else bytes(text)
    buf = ctypes.create_string_buffer(_lib.SIZES["replay"])
    fault = _lib.Fault()
    rc = L.scopa_replay_text(raw, len(raw), buf, ctypes.byref(fault))
    if rc != 0:
        raise RecordError(fault.message.decode("utf-8", "replace"),
                          fault.round if fault.round >= 0 else None,
                          fault.move if fault.move >= 0 else None)
    L.scopa_replay_free(buf)


def read_file(path):
    """The text of a record file, read by the library: at most 4 MiB
    (RecordError past that), OSError with the library's message for a
    missing or unreadable file or a directory."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    raw = os.fsencode(path) if isinstance(path, str) else path
    if b"\0" in raw:
        raise ValueError("a file name must not contain a NUL character")
    ptr, n, msg = ctypes.c_void_p(), ctypes.c_size_t(), _lib.msgbuf()
    rc = L.scopa_record_read_file(raw, ctypes.byref(ptr), ctypes.byref(n),
                                  msg, _lib.MSG)
    if rc == -9:  # SCOPA_ERECORD: longer than any record
        raise RecordError(msg.value.decode("utf-8", "replace"))
    if rc == -11:
        raise MemoryError(msg.value.decode("utf-8", "replace"))
    if rc != 0:
        raise OSError(msg.value.decode("utf-8", "replace"))
    try:
        return ctypes.string_at(ptr, n.value)
    finally:
        L.scopa_free(ptr)


def load(source):
    """A checked record dict from a dict, JSON text (str or bytes) or a
    file path (str or os.PathLike).  Never a file descriptor: an int is a
    TypeError (open(1) would read, then close, standard output)."""
    if isinstance(source, dict):
        text = json.dumps(source)
    elif isinstance(source, (bytes, bytearray)):
        text = bytes(source)
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        text = source
    elif isinstance(source, (str, os.PathLike)):
        text = read_file(source)
    else:
        raise TypeError("a record is a dict, JSON text or a file path, not "
                        "%s" % type(source).__name__)
    check_text(text)
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(text)


def save(record, path):
    """Checks a record dict and writes it to path as the library saves
    every record (scopa_file_save): a fresh temporary file, fsync'd,
    renamed over path, the directory fsync'd, stale temporary files of
    the same record removed.  OSError with the library's message when the
    file cannot be written."""
    if not isinstance(record, dict):
        raise TypeError("a record is a dict, not %s" %
                        type(record).__name__)
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, (str, bytes)):
        raise TypeError("path must be a file path, not %s" %
                        type(path).__name__)
    raw_path = os.fsencode(path)
    if b"\0" in raw_path:
        raise ValueError("a file name must not contain a NUL character")
    text = (json.dumps(record, indent=1) + "\n").encode("utf-8")
    check_text(text)
    msg = _lib.msgbuf()
    rc = L.scopa_file_save(raw_path, text, len(text), msg, _lib.MSG)
    if rc == -11:
        raise MemoryError(msg.value.decode("utf-8", "replace"))
    if rc != 0:
        raise OSError(msg.value.decode("utf-8", "replace"))
