"""Issue 14, item 10 and the Python side of items 2 and 8: the package
checks what it is given at its edge, with the library's words, as
TypeError or ValueError; load_record never takes a file descriptor; saves
are the library's durable saves.  Test names cite the issue's items."""
import json
import os
import stat
import subprocess
import sys

import pytest

import scopa
from scopa import _lib, records

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "data", "examples", "scopa-default.json")


def test_harden_py_10_1_load_record_int_is_not_a_descriptor():
    """harden-py-10.1: scopa.load_record(1) is a TypeError; stdout stays
    open (run in a child, whose stdout we read afterwards)."""
    code = ("import sys, scopa\n"
            "try:\n"
            "    scopa.load_record(1)\n"
            "except TypeError as e:\n"
            "    print('TypeError', e)\n"
            "print('still open')\n")
    env = dict(os.environ,
               PYTHONPATH=os.path.join(HERE, "..", "..", "bindings",
                                       "python"))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, env=env, timeout=60)
    assert "TypeError" in run.stdout and "still open" in run.stdout, \
        run.stdout + run.stderr
    for bad in (1, 2.5, None, [1]):
        with pytest.raises(TypeError):
            scopa.load_record(bad)


def test_harden_py_10_2_load_record_path_and_text():
    """harden-py-10.2: a path (str or PathLike), JSON text, bytes, a dict;
    a directory, a missing file and a file over 4 MiB get the library's
    clear message."""
    import pathlib
    rec = scopa.load_record(EXAMPLE)
    assert scopa.load_record(pathlib.Path(EXAMPLE)) == rec
    assert scopa.load_record(json.dumps(rec)) == rec
    assert scopa.load_record(json.dumps(rec).encode()) == rec
    assert scopa.load_record(rec) == rec
    with pytest.raises(OSError, match="is a directory"):
        scopa.load_record(HERE)
    with pytest.raises(OSError, match="No such file"):
        scopa.load_record(os.path.join(HERE, "no-such-record.json"))


def test_harden_py_s_2_size_cap(tmp_path):
    """harden-py-s.2: a record file over 4 MiB is refused before parsing."""
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (4 * 1024 * 1024 + 1))
    with pytest.raises(scopa.RecordError, match="4 MiB"):
        scopa.load_record(str(big))
    with pytest.raises(scopa.RecordError, match="4 MiB"):
        scopa.load_record(b"{" + b" " * (4 * 1024 * 1024))


def test_harden_py_s_1_duplicate_keys():
    """harden-py-s.1: a record with a key twice is a RecordError."""
    text = open(EXAMPLE).read().replace('"rounds"', '"rules": {}, "rounds"',
                                        1)
    with pytest.raises(scopa.RecordError, match="duplicate"):
        scopa.load_record(text)


def test_harden_py_10_3_seats_and_sides_in_range():
    """harden-py-10.3: Round.hand(-1) and friends are ValueErrors with the
    library's message, not [] or another seat's cards."""
    g = scopa.Game({"game": "scopa", "players": 2})
    r = g.new_round(dealer=0, seed=1)
    for bad in (-1, 2, 99):
        with pytest.raises(ValueError, match="seat must be a whole number "
                                             "from 0 to 1"):
            r.hand(bad)
        with pytest.raises(ValueError):
            r.view(bad)
        with pytest.raises(ValueError):
            r.pile(bad)
    with pytest.raises(TypeError):
        r.hand("0")
    with pytest.raises(TypeError):
        r.hand(True)
    with pytest.raises(ValueError):
        g.new_round(dealer=5)
    with pytest.raises(TypeError):
        g.new_round(dealer="0")
    with pytest.raises(TypeError):
        g.new_round(seed="7")
    with pytest.raises(TypeError):
        g.new_round(deck=5)
    with pytest.raises(TypeError):
        scopa.Game({"game": "scopa"}, first_dealer="x")
    with pytest.raises(TypeError):
        r.playout(seed=1.5)


def test_harden_py_10_4_bot_names_and_limits():
    """harden-py-10.4: a bot name with a NUL inside is refused (C would
    read "greedy"); limits are checked ints."""
    with pytest.raises(ValueError, match="NUL"):
        scopa.Bot("greedy\0evil")
    with pytest.raises(TypeError):
        scopa.Bot(3)
    with pytest.raises(ValueError, match="unknown bot"):
        scopa.Bot("\x1b[2Jnobot")
    with pytest.raises(ValueError, match="NUL"):
        scopa.describe_bot("random\0")
    g = scopa.Game({"game": "scopa", "players": 2})
    r = g.new_round(dealer=0, seed=1)
    b = scopa.Bot("greedy")
    with pytest.raises(ValueError, match="movetime_ms"):
        b.choose(r, movetime_ms=-5)
    with pytest.raises(TypeError):
        b.choose(r, movetime_ms="fast")
    with pytest.raises(TypeError):
        b.choose(42)
    assert b.choose(r) in r.legal_moves()


def test_harden_py_10_5_wrong_types_give_library_messages():
    """harden-py-10.5: wrong types are TypeErrors, not ctypes errors."""
    with pytest.raises(TypeError):
        records.check_text(42)
    with pytest.raises(TypeError):
        scopa.save_record("not a dict", "/tmp/x.json")


def test_harden_py_2_1_safe_text():
    """harden-py-2.1: the library's safe text, for front ends in Python."""
    name = "\x1b]0;pwned\x07\x1b[31mAnna\u202e"
    assert scopa.safe_text(name) == "\\x1b]0;pwned\\x07\\x1b[31mAnna\\u202e"
    assert _lib.safe_text("Niccolò") == "Niccolò"
    assert _lib.safe_text("Niccolò", ascii=True) == "Niccol\\u00f2"
    assert _lib.safe_text(b"\xff") == "\\xff"


def test_harden_py_8_1_save_is_durable(tmp_path):
    """harden-py-8.1: records.save goes through the library's durable save:
    the file's mode kept, stale temporary files of the record removed,
    nothing left behind, a clear OSError when it cannot write."""
    rec = scopa.load_record(EXAMPLE)
    path = tmp_path / "game.json"
    path.write_text("{}")
    os.chmod(path, 0o640)
    (tmp_path / "game.json.tmp1234").write_text("{\"half")
    (tmp_path / "game.json.tmpAbC123").write_text("{")
    scopa.save_record(rec, str(path))
    assert sorted(os.listdir(tmp_path)) == ["game.json"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert scopa.load_record(str(path)) == rec
    with pytest.raises(OSError, match="no-such-dir"):
        scopa.save_record(rec, str(tmp_path / "no-such-dir" / "g.json"))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        scopa.save_record(rec, str(fifo))
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_harden_py_9_1_names_with_nul_kept(tmp_path):
    """harden-py-9.1: a record whose seat name holds a NUL loads and saves
    with the name whole."""
    rec = scopa.load_record(EXAMPLE)
    rec["seats"] = ["An\u0000na", "Bruno"]
    path = tmp_path / "nul.json"
    scopa.save_record(rec, str(path))
    assert scopa.load_record(str(path))["seats"][0] == "An\u0000na"
    g = scopa.Game.from_record(str(path))
    assert g.seats[0] == "An\u0000na"


def test_harden_py_10_6_cards_in_range():
    """harden-py-10.6: card_str(-1) was "10b" (Python's negative index);
    a card is an int 0..39, a lang a string without NUL."""
    for bad in (-1, 40, 1000):
        with pytest.raises(ValueError, match="card must be a whole number "
                                             "from 0 to 39"):
            scopa.card_str(bad)
        with pytest.raises(ValueError):
            scopa.card_name(bad)
        with pytest.raises(ValueError):
            scopa.rank(bad)
    with pytest.raises(TypeError):
        scopa.card_str("7d")
    with pytest.raises(TypeError):
        scopa.card_name(24, lang=None)
    with pytest.raises(ValueError):
        scopa.move_str(-1)
    assert scopa.card_str(24) == "7d" and scopa.rank(24) == 7
    assert scopa.move_str(scopa.parse_move("7dx3c+4s")) == "7dx3c+4s"
