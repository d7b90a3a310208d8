#!/usr/bin/env python3
"""harden_test.py -- issue 14's reproductions, each a named case, driven
from outside as a hostile user (and the independent checker) would.

    python3 harden_test.py SCOPA_BINARY CASE

CASE is one of the names below (harden-cli-1.1 ...): the number after
"cli-" or "py-" is the item of issue 14 ("s" for its "Smaller" list).
Every case checks, besides its own point, that nothing crashed (the binary
under test is the sanitizer build).  Exit status 0 pass, 1 fail.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "data", "examples")
SCOPA = None
TMP = None
ENV = dict(os.environ, LANG="C.UTF-8", LC_ALL="", XDG_DATA_HOME="")

# What must never reach a terminal from a file or a request: C0 controls
# but newline (and tab in our own layout), DEL, C1 controls, bidi
# overrides and isolates (as UTF-8 bytes).
HOSTILE_NAME = "\u001b]0;pwned\u0007\u001b[31mAnna\u202e"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def no_control(data, what):
    """data (bytes) holds no byte that drives a terminal."""
    for i, b in enumerate(data):
        if (b < 0x20 and b not in (0x0A, 0x09)) or b == 0x7F:
            fail("%s: control byte 0x%02x at %d: %r" %
                 (what, b, i, data[max(0, i - 30):i + 30]))
    text = data.decode("utf-8", "replace")
    for ch in text:
        if 0x80 <= ord(ch) <= 0x9F or 0x202A <= ord(ch) <= 0x202E or \
                0x2066 <= ord(ch) <= 0x2069:
            fail("%s: control character U+%04X" % (what, ord(ch)))


def no_crash(run, what):
    err = run.stderr if isinstance(run.stderr, bytes) else \
        run.stderr.encode()
    check(run.returncode >= 0 and run.returncode < 128,
          "%s: killed by signal / exit %d" % (what, run.returncode))
    check(b"Sanitizer" not in err and b"runtime error" not in err,
          "%s: sanitizer report: %r" % (what, err[:400]))


def scopa(args, stdin=b"", timeout=60):
    run = subprocess.run([SCOPA] + args, input=stdin, capture_output=True,
                         timeout=timeout, env=ENV)
    no_crash(run, "scopa " + " ".join(args)[:80])
    return run


def example(name="scopa-default.json"):
    with open(os.path.join(EXAMPLES, name)) as f:
        return json.load(f)


def write(name, obj):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(obj if isinstance(obj, str) else json.dumps(obj))
    return path


def usage_error(run, *words):
    """Exit status 2, one line on stderr naming the words."""
    err = run.stderr.decode("utf-8", "replace").strip()
    check(run.returncode == 2, "exit %d, not 2: %r" % (run.returncode, err))
    check(err and "\n" not in err, "not one line: %r" % err)
    for w in words:
        check(w in err, "%r not named in %r" % (w, err))
    check(run.stdout == b"", "output on stdout: %r" % run.stdout[:200])


# ---- 1: engine errors carry no control byte ----------------------------

def t_engine_del():
    """harden-cli-1.1: the issue's reproduction, DEL in a rules key."""
    req = b'{"cmd":"legal","rules":{"play\\u007frs":2}}\n'
    run = scopa(["engine"], req)
    no_control(run.stdout, "engine answer")
    ans = json.loads(run.stdout)
    check("error" in ans, "no error: %r" % ans)
    no_control(ans["error"].encode(), "engine error, decoded")
    check("play\\x7frs" in ans["error"], "key not named: %r" % ans["error"])


def t_engine_escapes():
    """harden-cli-1.2: ESC, C1 and bidi controls in any quoted value."""
    lines = [
        '{"cmd":"legal","rules":{"\\u001b[2J\\u009b\\u202e":2}}',
        '{"cmd":"go\\u001b[31m"}',
        '{"cmd":"legal","rules":{},"seat":0,"scores":[0,0],'
        '"round":{"dealer":1,"table":["1\\u001bc"],"dealt":[],"moves":[]}}',
        '{"cmd":"legal","rules":{},"seat":0,"scores":[0,0],'
        '"round":{"dealer":1,"table":["1c","5c","6s","9d"],'
        '"dealt":["2d","5s","7b"],"moves":["\\u202e9bx9d"]}}',
    ]
    run = scopa(["engine"], ("\n".join(lines) + "\n").encode())
    answers = run.stdout.decode().splitlines()
    check(len(answers) == len(lines), "answers: %r" % answers)
    for a in answers:
        err = json.loads(a).get("error")
        check(err, "no error in %r" % a)
        no_control(err.encode(), "engine error %r" % err)


# ---- 2: text from a record never drives the terminal -------------------

def hostile_record():
    rec = example()
    rec["seats"] = [HOSTILE_NAME, "Bruno\u0085\u2066x"]
    return write("hostile.json", rec)


def t_replay_names():
    """harden-cli-2.1: `scopa replay` (text) with a seat named to retitle
    and recolour the terminal."""
    run = scopa(["replay", "--summary", hostile_record()])
    check(run.returncode == 0, "exit %d" % run.returncode)
    no_control(run.stdout, "replay summary")
    check(b"\\x1b]0;pwned" in run.stdout, "name not shown escaped: %r" %
          run.stdout[:400])


def t_replay_step_names():
    """harden-cli-2.2: `scopa replay --step` with the same names."""
    run = scopa(["replay", "--step", hostile_record()])
    check(run.returncode == 0, "exit %d" % run.returncode)
    no_control(run.stdout, "replay --step")
    check(b"\\x1b]0;pwned" in run.stdout, "name not shown escaped")


def t_replay_fault_text():
    """harden-cli-2.3: a fault that quotes a rules key or a move, in text
    and in JSON."""
    rec = example()
    rec["rules"]["\u001b[2Jplayers\u202e"] = 2
    path = write("badkey.json", rec)
    run = scopa(["replay", "--summary", path])
    check(run.returncode == 1, "exit %d" % run.returncode)
    no_control(run.stdout, "replay fault (text)")
    run = scopa(["replay", "--json", path])
    msg = json.loads(run.stdout)["error"]["message"]
    no_control(msg.encode(), "replay fault (json, decoded)")
    rec = example()
    rec["rounds"][0]["moves"][0] = "\u001b[31m7d"
    run = scopa(["replay", "--summary", write("badmove.json", rec)])
    check(run.returncode == 1, "exit %d" % run.returncode)
    no_control(run.stdout, "replay fault in a move")


def t_play_names():
    """harden-cli-2.4: `scopa play` shows a resumed record's names
    escaped (line mode); typed lines are echoed escaped too."""
    rec = example()
    rec["rounds"] = rec["rounds"][:1]
    rec["rounds"][0]["moves"] = rec["rounds"][0]["moves"][:3]
    rec["seats"] = [HOSTILE_NAME, "greedy"]
    path = write("resume-hostile.json", rec)
    run = scopa(["play", "--plain", "--lang", "en", "--resume", path],
                b"\x1b[2J\x07\n\xe2\x80\xaeq\nq\n")
    no_control(run.stdout, "play --resume output")
    check(b"\\x1b]0;pwned" in run.stdout, "name not shown escaped")


# ---- 3: a long line is one line ----------------------------------------

def t_long_line():
    """harden-cli-3.1: 'a'*4096 + '1' is one bad line, not 'a...' and a
    move 1."""
    rec = os.path.join(TMP, "long.json")
    line = b"a" * 4096 + b"1\n"
    run = scopa(["play", "--plain", "--seed", "7", "--opponent", "greedy",
                 "--record", rec], line)
    check(run.returncode == 0, "exit %d" % run.returncode)
    out = json.load(open(rec))
    moves = out["rounds"][0]["moves"] if out["rounds"] else []
    check(len(moves) <= 1, "a move of the person was played: %r" % moves)
    # Whoever was to play first, the person made no move: with the bot
    # first there is exactly its one move.
    check(b"too long" in run.stdout, "no message for the long line")
    for size in (1023, 1024, 1500, 4095, 5000, 100000):
        run = scopa(["play", "--plain", "--seed", "7", "--opponent",
                     "greedy", "--record", os.path.join(TMP, "l%d.json" %
                                                        size)],
                    b" " * size + b"1\n")
        out = json.load(open(os.path.join(TMP, "l%d.json" % size)))
        moves = out["rounds"][0]["moves"]
        check(len(moves) <= 1, "%d spaces then 1 played a move" % size)


# ---- 6: arena numbers ----------------------------------------------------

def t_arena_numbers():
    """harden-cli-6.1: --deals 99999999999999999999, --deals 3x, and other
    bad numbers: one line naming the flag and the value, exit 2."""
    base = ["arena", "--a", "greedy", "--b", "random"]
    for flag, value in (("--deals", "99999999999999999999"),
                        ("--deals", "3x"), ("--deals", "-1"),
                        ("--deals", "0"), ("--games", ""),
                        ("--seed", "1.5"), ("--threads", "two"),
                        ("--movetime", "1e3"), ("--bot-threads", "-2"),
                        ("--movetime-a", " 5")):
        run = scopa(base + [flag, value] +
                    (["--deals", "1"] if flag not in ("--deals", "--games")
                     else []))
        usage_error(run, flag, value.strip() or '""')


def t_arena_usage():
    """harden-cli-6.2: usage errors name what is wrong in one line."""
    run = scopa(["arena", "--a", "greedy", "--b", "random", "--deals"])
    usage_error(run, "--deals")
    run = scopa(["arena", "--a", "greedy", "--b", "random", "--deals", "1",
                 "--frobnicate", "1"])
    usage_error(run, "--frobnicate")
    run = scopa(["arena", "--a", "greedy", "--deals", "1"])
    usage_error(run, "--b")
    run = scopa(["arena", "--a", "nobot\u001b[2J", "--b", "random",
                 "--deals", "1"])
    usage_error(run, "nobot")
    no_control(run.stderr, "arena stderr")
    run = scopa(["arena", "--a", "random", "--b", "random", "--deals", "2",
                 "--json"])
    check(run.returncode == 0 and json.loads(run.stdout)["deals"] == 2,
          "a good arena run fails: %r" % run.stdout)


def t_flags_everywhere():
    """harden-cli-6.3: every verb's numeric flags are strict."""
    for args, flag in ((["play", "--plain", "--seed", "12x"], "--seed"),
                       (["play", "--plain", "--movetime", "99999999999"],
                        "--movetime"),
                       (["play", "--plain", "--humans", "0"], "--humans"),
                       (["play", "--plain", "--delay=5ms"], "--delay"),
                       (["bench", "--seconds", "nan"], "--seconds"),
                       (["bench", "--deals", "1k"], "--deals"),
                       (["bench", "--seed", "-3"], "--seed")):
        usage_error(scopa(args, b""), flag)
    run = scopa(["play", "--plain", "--target", " 11"], b"")
    check(run.returncode == 2, "--target ' 11' accepted")
    no_control(scopa(["play", "--plain", "--seats", "a\u001b[2J,b"]).stderr,
               "play --seats")
    # a computer player this build does not have, and more people than
    # seats: refused by name, never played by another bot or dropped
    for args, words in ((["--opponent", "bogus"], ("--opponent", "bogus")),
                        (["--players", "4", "--teams", "--partner", "nobot"],
                         ("--partner", "nobot")),
                        (["--seats", "human,foo"], ("--seats", "foo")),
                        (["--humans", "3"], ("--humans", "2 seats"))):
        usage_error(scopa(["play", "--plain"] + args, b""), *words)


# ---- 7: where a fault is -------------------------------------------------

def t_replay_round_naming():
    """harden-cli-7.1: a duplicate card in round 1's deck is "at round 1",
    not "round 10"."""
    rec = example()
    rec["rounds"][0]["deck"][5] = rec["rounds"][0]["deck"][6]
    run = scopa(["replay", "--summary", write("dupcard.json", rec)])
    check(run.returncode == 1, "exit %d" % run.returncode)
    out = run.stdout.decode()
    check("at round 1\n" in out and "round 10" not in out,
          "wrong place: %r" % out)
    run = scopa(["replay", "--json", write("dupcard.json", rec)])
    err = json.loads(run.stdout)["error"]
    check(err["round"] == 0 and err["move"] is None, "json: %r" % err)


# ---- smaller ones ---------------------------------------------------------

def t_duplicate_keys():
    """harden-cli-s.1: a record with a key twice is invalid (exit 1)."""
    text = json.dumps(example())
    text = text.replace('"rounds":', '"rules": {"game": "scopone"}, '
                        '"rounds":', 1)
    run = scopa(["replay", "--json", write("dupkey.json", text)])
    check(run.returncode == 1, "exit %d" % run.returncode)
    msg = json.loads(run.stdout)["error"]["message"]
    check("duplicate" in msg, "message %r" % msg)


def t_size_cap():
    """harden-cli-s.2: 5 MB of empty rounds is refused at once, clearly."""
    text = '{"format": "scopa-record/1", "rules": {}, "rounds": [' + \
        ",".join(["{}"] * 1700000) + "]}"
    path = write("huge.json", text)
    run = scopa(["replay", "--json", path], timeout=20)
    check(run.returncode == 1, "exit %d" % run.returncode)
    msg = json.loads(run.stdout)["error"]["message"]
    check("4 MiB" in msg, "message %r" % msg)
    with open(path, "rb") as f:
        run = subprocess.run([SCOPA, "replay", "--json", "-"], stdin=f,
                             capture_output=True, timeout=20, env=ENV)
    no_crash(run, "replay - (huge)")
    check(run.returncode == 1 and b"4 MiB" in run.stdout,
          "stdin: %r" % run.stdout[:200])


def t_replay_unreadable():
    """harden-cli-4.3: `scopa replay` of a directory or a missing file:
    one clear line, exit 2."""
    run = scopa(["replay", TMP])
    usage_error(run, "is a directory")
    run = scopa(["replay", os.path.join(TMP, "nope.json")])
    usage_error(run, "nope.json", "No such file")


# ---- 4, 5, 9: saved games ------------------------------------------------

def saved_game(name="saved.json", moves=21):
    """A game of `moves` moves played in line mode and saved to name."""
    path = os.path.join(TMP, name)
    run = scopa(["play", "--plain", "--seed", "7", "--opponent", "greedy",
                 "--record", path], b"1\n" * (moves // 2 + 2))
    check(run.returncode == 0, "could not play a game: %r" % run.stderr)
    rec = json.load(open(path))
    n = sum(len(r["moves"]) for r in rec["rounds"])
    check(n >= moves - 2, "only %d moves saved" % n)
    return path


def t_resume_unreadable():
    """harden-cli-4.1: --resume of a directory, a missing file, a file
    over 4 MiB: one clear line, exit 2, nothing written."""
    before = sorted(os.listdir(TMP))
    for target, words in ((TMP, "is a directory"),
                          (os.path.join(TMP, "nope.json"), "No such file")):
        run = scopa(["play", "--plain", "--resume", target])
        usage_error(run, words)
    big = os.path.join(TMP, "big.json")
    with open(big, "w") as f:
        f.write(" " * (4 * 1024 * 1024 + 10))
    usage_error(scopa(["play", "--plain", "--resume", big]), "4 MiB")
    check(sorted(os.listdir(TMP)) == sorted(before + ["big.json"]),
          "files appeared: %r" % os.listdir(TMP))


def t_resume_pipe():
    """harden-cli-4.2: --resume from a pipe reads the record (it used to
    read as empty); with nowhere to save it is refused clearly."""
    path = saved_game("piped.json", 5)
    text = open(path, "rb").read()
    out = os.path.join(TMP, "from-pipe.json")
    r, w = os.pipe()
    os.write(w, text)
    os.close(w)
    run = subprocess.run([SCOPA, "play", "--plain", "--resume",
                          "/dev/fd/%d" % r, "--record", out],
                         input=b"q\n", capture_output=True, timeout=60,
                         env=ENV, pass_fds=(r,))
    os.close(r)
    no_crash(run, "play --resume pipe")
    check(run.returncode == 0, "exit %d: %r" % (run.returncode, run.stderr))
    check(json.load(open(out))["rounds"] == json.loads(text)["rounds"],
          "the resumed record differs")
    r, w = os.pipe()
    os.write(w, text)
    os.close(w)
    run = subprocess.run([SCOPA, "play", "--plain", "--resume",
                          "/dev/fd/%d" % r], input=b"q\n",
                         capture_output=True, timeout=60, env=ENV,
                         pass_fds=(r,))
    os.close(r)
    usage_error(run, "regular file")


def t_record_refuses_saved_game():
    """harden-cli-5.1: `scopa play --record saved.json < /dev/null` on a
    21-move game refuses, says how to continue, and leaves it whole."""
    path = saved_game()
    before = open(path, "rb").read()
    run = scopa(["play", "--plain", "--record", path], b"")
    usage_error(run, "--resume", "saved.json")
    check(open(path, "rb").read() == before, "the saved game changed")
    check(sorted(os.listdir(TMP)) == ["saved.json"],
          "files left: %r" % os.listdir(TMP))


def t_record_same_game_resumed():
    """harden-cli-5.2: the same file resumed (--resume F, or --resume F
    --record F) goes on; an empty file may be used for a new game."""
    path = saved_game("again.json", 5)
    n0 = sum(len(r["moves"]) for r in json.load(open(path))["rounds"])
    run = scopa(["play", "--plain", "--resume", path, "--record", path],
                b"1\n1\n")
    check(run.returncode == 0, "exit %d: %r" % (run.returncode, run.stderr))
    n1 = sum(len(r["moves"]) for r in json.load(open(path))["rounds"])
    check(n1 > n0, "no move added (%d -> %d)" % (n0, n1))
    empty = os.path.join(TMP, "empty.json")
    open(empty, "w").close()
    run = scopa(["play", "--plain", "--seed", "3", "--opponent", "greedy",
                 "--record", empty], b"1\n")
    check(run.returncode == 0, "an empty file refused: %r" % run.stderr)
    check(json.load(open(empty))["rounds"], "nothing recorded")


def t_resume_keeps_everything():
    """harden-cli-9.1: a resumed game rewrites its record without losing
    unknown top-level fields or a seat name with a NUL ("An\\u0000na"),
    even with no move played."""
    path = saved_game("keep.json", 5)
    rec = json.load(open(path))
    rec["seats"][0] = "An\u0000na"
    rec["event"] = {"where": "Napoli", "table": [1, 2.5, None]}
    rec["x-note"] = "kept"
    with open(path, "w") as f:
        json.dump(rec, f)
    for lines in (b"q\n", b"1\n1\n"):
        run = scopa(["play", "--plain", "--resume", path], lines)
        check(run.returncode == 0, "exit %d: %r" % (run.returncode,
                                                     run.stderr))
        back = json.load(open(path))
        check(back["seats"][0] == "An\u0000na", "name: %r" % back["seats"])
        check(back.get("event") == rec["event"] and
              back.get("x-note") == "kept", "fields lost: %r" %
              sorted(back))
        no_control(run.stdout, "play --resume with a NUL name")


def t_resume_seed():
    """harden-cli-s.3: a resumed game does not print a "Shuffle seed" that
    has nothing to do with the game."""
    path = saved_game("game-s3.json", 5)
    rec = json.load(open(path))
    run = scopa(["play", "--plain", "--resume", path], b"q\n")
    out = run.stdout.decode()
    seed = rec.get("seed")
    for line in out.splitlines():
        if "seed" in line.lower() and not line.startswith("Record:"):
            check(seed and seed in line or "not" in line.lower(),
                  "a seed unrelated to the game: %r (record: %r)" %
                  (line, seed))


CASES = {
    "harden-cli-1.1": t_engine_del,
    "harden-cli-1.2": t_engine_escapes,
    "harden-cli-2.1": t_replay_names,
    "harden-cli-2.2": t_replay_step_names,
    "harden-cli-2.3": t_replay_fault_text,
    "harden-cli-2.4": t_play_names,
    "harden-cli-3.1": t_long_line,
    "harden-cli-4.3": t_replay_unreadable,
    "harden-cli-6.1": t_arena_numbers,
    "harden-cli-6.2": t_arena_usage,
    "harden-cli-6.3": t_flags_everywhere,
    "harden-cli-7.1": t_replay_round_naming,
    "harden-cli-s.1": t_duplicate_keys,
    "harden-cli-s.2": t_size_cap,
    "harden-cli-4.1": t_resume_unreadable,
    "harden-cli-4.2": t_resume_pipe,
    "harden-cli-5.1": t_record_refuses_saved_game,
    "harden-cli-5.2": t_record_same_game_resumed,
    "harden-cli-9.1": t_resume_keeps_everything,
    "harden-cli-s.3": t_resume_seed,
}


def main():
    global SCOPA, TMP
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print("usage: harden_test.py SCOPA CASE\ncases: " +
              " ".join(sorted(CASES)))
        return 2
    SCOPA = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="scopa-harden-") as tmp:
        TMP = tmp
        CASES[sys.argv[2]]()
    print("ok", sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
