#!/usr/bin/env python3
"""play_test.py -- tests of `scopa play` (CONTRACTS.md "`scopa play` without a
terminal", issue 3), driven from outside like the checkers drive it.

    python3 play_test.py SCOPA_BINARY TEST_NAME

Each test name is one case below (play-line-1.1 ...).  A finished game is
checked twice: by `scopa replay --json` and by the independent reference
implementation in tests/oracle/refscopa.py.  Exit status 0 pass, 1 fail,
77 skipped (tmux missing).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REFSCOPA = os.path.join(HERE, "..", "oracle", "refscopa.py")
SCOPA = None
TMP = None
ENV = dict(os.environ, LANG="C.UTF-8", LC_ALL="", XDG_DATA_HOME="")


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def replay(path):
    out = subprocess.run([SCOPA, "replay", "--json", path], capture_output=True,
                         text=True, env=ENV)
    check(out.returncode == 0, "scopa replay rejects %s: %s" % (path, out.stdout))
    return json.loads(out.stdout)


def reference(path):
    """The independent implementation's reading of the record."""
    out = subprocess.run([sys.executable, REFSCOPA, "replay", "--json", path],
                         capture_output=True, text=True)
    check(out.returncode == 0, "refscopa rejects %s: %s %s" %
          (path, out.stdout, out.stderr))
    return json.loads(out.stdout)


def check_finished(path):
    ours, ref = replay(path), reference(path)
    check(ours["finished"] is True, "scopa replay: game not finished")
    check(ref["finished"] is True, "refscopa: game not finished")
    check(ours["totals"] == ref["totals"] and ours["winner"] == ref["winner"],
          "totals differ: %s vs %s" % (ours["totals"], ref["totals"]))
    return ours


def play_plain(args, lines, timeout=30):
    """A game in line mode; the opponent is greedy unless args say (fast)."""
    if "--opponent" not in args and "--resume" not in args:
        args = ["--opponent", "greedy"] + args
    out = subprocess.run([SCOPA, "play", "--plain", "--lang", "en"] + args,
                         input="".join(l + "\n" for l in lines),
                         capture_output=True, text=True, timeout=timeout,
                         env=ENV)
    return out


def ones(n=400):
    return ["1"] * n


# play-line-1.1: the bar of issue 3, exactly the checker's command.
def t_line_bar():
    rec = os.path.join(TMP, "bar.json")
    out = subprocess.run([SCOPA, "play", "--plain", "--seed", "7", "--opponent",
                          "greedy", "--record", rec], input="1\n" * 400,
                         capture_output=True, text=True, timeout=30, env=ENV)
    check(out.returncode == 0, "exit status %d: %s" % (out.returncode, out.stderr))
    check_finished(rec)
    check(re.search(r"^\s+1\. \S+", out.stdout, re.M), "no numbered move list")
    check("7" in out.stdout.splitlines()[-3] or "seed" in out.stdout.lower(),
          "the seed is not shown")
    # The same seed, the same game.
    rec2 = os.path.join(TMP, "bar2.json")
    subprocess.run([SCOPA, "play", "--plain", "--seed", "7", "--opponent",
                    "greedy", "--record", rec2], input="1\n" * 400,
                   capture_output=True, text=True, timeout=30, env=ENV)
    a, b = json.load(open(rec)), json.load(open(rec2))
    check(a["rounds"] == b["rounds"], "--seed 7 twice gave two games")


# play-line-1.2: the state, the numbered list, names of cards, the seed.
def t_line_format():
    rec = os.path.join(TMP, "fmt.json")
    out = play_plain(["--seed", "11", "--record", rec], ones())
    text = out.stdout
    check(out.returncode == 0, "exit status")
    for want in ["Table (", "Your hand (", "Legal moves:", "Stock:",
                 "Score of round 1", "Primiera", "Shuffle seed: 11",
                 "The game is over. Winner:"]:
        check(want in text, "missing %r in the output" % want)
    check(re.search(r"\b\d+[dcsb] \((\w+) of (coins|cups|swords|clubs)\)", text),
          "cards are not announced by name")


# play-line-2.1: a line it cannot use gets a message and the question again.
def t_line_bad_lines():
    rec = os.path.join(TMP, "bad.json")
    p = subprocess.Popen([SCOPA, "play", "--plain", "--lang", "en", "--seed", "5",
                          "--opponent", "greedy",
                          "--record", rec], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=ENV)

    def until_prompt():
        seen = []
        while True:
            line = p.stdout.readline()
            check(line, "output ended before a prompt")
            seen.append(line)
            if line.startswith("Your move?"):
                return seen

    first = until_prompt()
    moves = [m.group(1) for m in
             (re.match(r"\s+\d+\. (\S+)", l) for l in first) if m]
    check(moves, "no moves listed")
    for bad, want in [("hello", "Cannot read"), ("99", "There is no move 99"),
                      ("0", "There is no move 0"), ("11x", "Cannot read")]:
        p.stdin.write(bad + "\n")
        p.stdin.flush()
        seen = until_prompt()
        check(any(want in l for l in seen), "%r: no %r in %r" % (bad, want, seen))
    # A card not in the hand is refused with the engine's reason.
    hand = re.search(r"Your hand \(\d+\): (.*)", "".join(first)).group(1)
    held = set(re.findall(r"\b(\d+[dcsb]) \(", hand))
    stranger = next(c for c in ("%d%s" % (r, s) for r in range(1, 11)
                                for s in "dcsb") if c not in held)
    p.stdin.write(stranger + "\n")
    p.stdin.flush()
    seen = until_prompt()
    check(any("Not allowed" in l for l in seen), "no refusal for %s" % stranger)
    # A move in record notation is played.
    p.stdin.write(moves[-1] + "\n")
    p.stdin.flush()
    seen = until_prompt()
    check(any(l.startswith("You: ") for l in seen), "the move was not played")
    p.stdin.close()
    rc = p.wait(timeout=10)
    check(rc == 0, "end of input: exit %d" % rc)
    r = replay(rec)
    check(not r["finished"], "game finished?")
    got = json.load(open(rec))
    first_moves = got["rounds"][0]["moves"]
    check(moves[-1] in first_moves, "record lacks the move played")


# play-line-3.1: end of input mid-game: exit 0, record valid and unfinished;
# play-line-3.2: --resume goes on from there to the end.
def t_line_resume():
    rec = os.path.join(TMP, "cut.json")
    out = play_plain(["--seed", "21", "--opponent", "random", "--record", rec],
                     ["1"] * 5)
    check(out.returncode == 0, "exit status %d after end of input" % out.returncode)
    check("scopa play --resume" in out.stdout, "no word on how to go on")
    r = replay(rec)
    check(r["finished"] is False, "cut game is finished?")
    before = json.load(open(rec))
    n_before = sum(len(x["moves"]) for x in before["rounds"])
    check(n_before >= 5, "record holds %d moves, 5 plays or more expected"
          % n_before)
    out = play_plain(["--resume", rec], ones())
    check(out.returncode == 0, "resume exit %d: %s" % (out.returncode, out.stderr))
    check_finished(rec)
    after = json.load(open(rec))
    r0b, r0a = before["rounds"][0], after["rounds"][0]
    check(r0a["deck"] == r0b["deck"] and
          r0a["moves"][:len(r0b["moves"])] == r0b["moves"],
          "the resumed game does not continue the record")
    check(after["seats"] == before["seats"], "seats changed on resume")


# play-line-4.1: a signal (Ctrl-C) while waiting for a move: record written.
def t_line_sigint():
    rec = os.path.join(TMP, "int.json")
    p = subprocess.Popen([SCOPA, "play", "--plain", "--lang", "en", "--seed", "8",
                          "--opponent", "best",
                          "--record", rec], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=ENV)
    for _ in range(3):
        while not p.stdout.readline().startswith("Your move?"):
            pass
        p.stdin.write("1\n")
        p.stdin.flush()
    while not p.stdout.readline().startswith("Your move?"):
        pass
    p.send_signal(signal.SIGINT)
    rest = p.stdout.read()
    rc = p.wait(timeout=10)
    check(rc == 0, "exit %d after SIGINT" % rc)
    check("Stopped" in rest, "no word after the signal: %r" % rest[-300:])
    got = json.load(open(rec))
    check(len(got["rounds"][0]["moves"]) >= 3, "moves lost")
    check(replay(rec)["finished"] is False, "finished?")


# play-line-5.1: presets, players, teams, hot seat, options as flags.
def t_line_variants():
    cases = [
        ["--preset", "scopone"],
        ["--preset", "scientifico", "--partner", "random"],
        ["--preset", "assi", "--target", "5"],
        ["--preset", "quindici", "--target", "5"],
        ["--players", "3", "--target", "6", "--napola", "--re-bello", "true"],
        ["--players", "4", "--teams", "--humans", "2", "--target", "4"],
        ["--refill", "1", "--target", "4", "--primiera", "sevens"],
        ["--mandatory_capture=false", "--fewest-cards", "--target", "4",
         "--cappotto", "3"],
    ]
    for i, args in enumerate(cases):
        rec = os.path.join(TMP, "var%d.json" % i)
        out = play_plain(args + ["--seed", str(i), "--record", rec], ones(2000))
        check(out.returncode == 0, "%s: exit %d %s" % (args, out.returncode,
                                                       out.stderr))
        check_finished(rec)
    bad = play_plain(["--players", "5"], [])
    check(bad.returncode == 2 and "scopa play" in bad.stderr, "bad option accepted")
    bad = play_plain(["--win_by_two", "--tiebreak", "count_order"], [])
    check(bad.returncode == 2, "rules that cannot be played accepted")


# play-line-6.1: Italian, a forced capture explained, and moves refused
# in Italian (seed 7 deals us 4c 7d 7c against 1s 3c 9b 10c).
def t_line_italian():
    rec = os.path.join(TMP, "it.json")
    out = subprocess.run([SCOPA, "play", "--plain", "--lang", "it", "--seed", "7",
                          "--opponent", "greedy",
                          "--record", rec],
                         input="zz\n9dx1c\n7dx1s\n" + "1\n" * 400,
                         capture_output=True, text=True, timeout=30, env=ENV)
    check(out.returncode == 0, "exit")
    for want in ["Mosse possibili:", "Tavolo", "di denari", "Seme del mazzo: 7"]:
        check(want in out.stdout, "missing %r" % want)
    check("deve prendere" in out.stdout, "no forced capture explained")
    for want in ["Non capisco 'zz': 'zz' nella mossa 'zz' non è una carta.",
                 "Non si può: 9dx1c: 9d non è nella mano di chi gioca.",
                 "Non si può: 7dx1s: 7d non può prendere 1s: la somma fa 1, "
                 "non 7."]:
        check(want in out.stdout, "missing %r" % want)
    for english in ["is not a card", "not in the hand", "cannot capture"]:
        check(english not in out.stdout, "English words: %r" % english)


class Tmux:
    """A private tmux server for one test (exit 77, skipped, without tmux):
    start a command in a session, read its screen, send keys, wait for
    text; close() ends every server it started."""

    def __init__(self, name):
        self.tmux = shutil.which("tmux")
        if not self.tmux:
            print("SKIP: no tmux")
            sys.exit(77)
        self.socks = []
        self.new_server(name)

    def new_server(self, name):
        self.sock = "%s-%d" % (name, os.getpid())
        self.socks.append(self.sock)

    def run(self, *args, **kw):
        return subprocess.run([self.tmux, "-L", self.sock, "-f", "/dev/null"]
                              + list(args), **kw)

    def start(self, command, x=80, y=24):
        self.run("new-session", "-d", "-s", "t", "-x", str(x), "-y", str(y),
                 command, check=True)

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "t", capture_output=True,
                        text=True).stdout

    def keys(self, *k):
        self.run("send-keys", "-t", "t", *k)

    def wait_for(self, text, what, seconds=10):
        deadline = time.time() + seconds
        while text not in self.screen():
            check(time.time() < deadline, "%s:\n%s" % (what, self.screen()))
            time.sleep(0.05)

    def close(self):
        # The game gets a hung-up terminal and leaves by itself; but under
        # LeakSanitizer a game leaving then may hang in the sanitizer's own
        # exit (its tracer waiting on it) and spin a core for as long as
        # the machine runs.  So whatever the panes started and is still
        # there two seconds after the servers are gone is killed.
        pids = []
        for sock in self.socks:
            out = subprocess.run([self.tmux, "-L", sock, "list-panes", "-a",
                                  "-F", "#{pane_pid}"], capture_output=True,
                                 text=True).stdout.split()
            pids += descendants([int(p) for p in out if p.isdigit()])
            subprocess.run([self.tmux, "-L", sock, "kill-server"],
                           capture_output=True)
        deadline = time.time() + 2
        while pids and time.time() < deadline:
            pids = [p for p in pids if alive(p)]
            time.sleep(0.05)
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass


def descendants(roots):
    """The processes under roots (from /proc), roots included."""
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], list(roots)
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def alive(pid):
    """pid runs (a zombie does not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# play-tty-1.1: a whole game through the full-screen table in tmux.
def t_tty():
    tm = Tmux("scopa-test")
    rec = os.path.join(TMP, "tty.json")
    tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang en "
             "--seed 4 --delay 0 --opponent random --record %s; "
             "echo EXIT=$?; sleep 60" % (SCOPA, rec))
    try:
        tm.wait_for("Table (", "no table drawn")
        s = tm.screen()
        check("Your hand" in s and "[ Play ]" in s, "no hand / play button:\n" + s)
        check(re.search("[\u2666\u2665\u2660\u2663]", s), "no suit symbols:\n" + s)
        check("Rules: scopa" in s, "the rules are not shown:\n" + s)
        # Arrow keys, a digit twice (pick again), then Enter, until the end.
        seen_panel = False
        deadline = time.time() + 40
        step = 0
        while "EXIT=" not in s:
            check(time.time() < deadline, "the game did not end:\n" + s)
            if "End of the round" in s:
                seen_panel = True
                check("Primiera" in s and "Settebello" in s,
                      "round score not itemised:\n" + s)
            if "End of the game" in s:
                check("Shuffle seed: 4" in s, "no seed at the end:\n" + s)
            step += 1
            if step % 3 == 0:
                tm.keys("Right")
            elif step % 3 == 1:
                tm.keys("1")
            tm.keys("Enter")
            time.sleep(0.03)
            s = tm.screen()
        check(seen_panel, "never saw an end-of-round panel")
        check("EXIT=0" in s, "exit status:\n" + s)
        check_finished(rec)
    finally:
        tm.close()


def card_index(text):
    """Card number of RULES.md notation, as scopa.h encodes it."""
    return (int(text[:-1]) - 1) * 4 + "dcsb".index(text[-1])


def first_choice_with_options(max_seed=300):
    """A seed whose first position for the person has a card with two or
    more legal captures: (seed, digit of that card, its moves in order)."""
    for seed in range(max_seed):
        # One file each: --record never overwrites a saved game.
        out = play_plain(["--seed", str(seed), "--record",
                          os.path.join(TMP, "probe%d.json" % seed)], [])
        text = out.stdout
        hand = re.search(r"Your hand \(\d+\): (.*)", text)
        if not hand:
            continue
        cards = sorted(re.findall(r"\b(\d+[dcsb]) \(", hand.group(1)),
                       key=card_index)
        listed = re.findall(r"^\s+\d+\. (\S+)", text, re.M)
        for i, card in enumerate(cards):
            mine = [m for m in listed if m.split("x")[0] == card]
            if len(mine) >= 2 and i < 9:
                return seed, str(i + 1), mine
    fail("no seed with a choice of captures")


def card_words_en(card):
    """"the 7 of coins", "the ace of cups": scopa_card_words in English."""
    rank = {"1": "ace", "8": "knave", "9": "horse", "10": "king"}
    suit = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}
    return "%s of %s" % (rank.get(card[:-1], card[:-1]), suit[card[-1]])


def move_words_en(move):
    """A move of the record's notation as scopa_move_words says it."""
    card, _, takes = move.partition("x")
    if not takes:
        return "Lay the %s on the table" % card_words_en(card)
    taken = ["the " + card_words_en(c)
             for c in sorted(takes.split("+"), key=card_index)]
    listed = ", ".join(taken[:-1]) + " and " + taken[-1] if len(taken) > 1 \
        else taken[0]
    return "Take %s with your %s" % (listed, card_words_en(card))


# play-tty-1.2: picking the same card again cycles through its captures
# (seed 004), and Enter plays the capture shown.
def t_tty_cycle():
    tm = Tmux("scopa-test3")
    seed, digit, options = first_choice_with_options()
    rec = os.path.join(TMP, "cycle.json")

    try:
        tm.start("env LANG=C.UTF-8 TERM=xterm %s play --lang en --seed %d "
                 "--opponent greedy --delay 0 --record %s; echo EXIT=$?; "
                 "sleep 60" % (SCOPA, seed, rec))
        tm.wait_for("[ Play ]", "no choice shown")
        tm.keys(digit)
        tm.wait_for("(1/%d" % len(options), "first capture not offered")
        # each capture in words, as the library says it (scopa_move_words)
        check(move_words_en(options[0]) in tm.screen(),
              "%s not shown:\n%s" % (options[0], tm.screen()))
        tm.keys(digit)
        tm.wait_for("(2/%d" % len(options), "picking again did not cycle")
        check(move_words_en(options[1]) in tm.screen(),
              "%s not shown" % options[1])
        tm.keys("Enter")
        time.sleep(0.3)
        tm.keys("q")
        tm.wait_for("EXIT=0", "q did not leave")
        got = json.load(open(rec))
        r0 = got["rounds"][0]
        mine = r0["moves"][1 if r0["dealer"] == 0 else 0]
        check(mine == options[1], "played %s, not %s" % (mine, options[1]))
    finally:
        tm.close()


# play-pty-1.1: the mouse, through a pty opened here: a click picks a card,
# a second click on it plays its only move.
def t_pty_mouse():
    import fcntl
    import pty
    import select
    import struct
    import termios
    seed = None
    for probe in range(200):
        out = play_plain(["--seed", str(probe), "--record",
                          os.path.join(TMP, "probe%d.json" % probe)], [])
        hand = re.search(r"Your hand \(\d+\): (.*)", out.stdout)
        table = re.search(r"Table \((\d+)\)", out.stdout)
        if not hand or int(table.group(1)) > 11 or "Computer" in out.stdout:
            continue
        cards = sorted(re.findall(r"\b(\d+[dcsb]) \(", hand.group(1)),
                       key=card_index)
        listed = re.findall(r"^\s+\d+\. (\S+)", out.stdout, re.M)
        # The second card, with exactly one move.
        mine = [m for m in listed if m.split("x")[0] == cards[1]]
        if len(cards) == 3 and len(mine) == 1:
            seed, want = probe, mine[0]
            break
    check(seed is not None, "no seed for the mouse test")
    rec = os.path.join(TMP, "mouse.json")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(ENV, TERM="xterm")
    p = subprocess.Popen([SCOPA, "play", "--lang", "en", "--seed", str(seed),
                          "--opponent", "greedy", "--delay", "0", "--record",
                          rec], stdin=slave, stdout=slave, stderr=slave,
                         env=env, start_new_session=True)
    os.close(slave)
    seen = b""

    def drain(seconds):
        nonlocal seen
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([master], [], [], 0.05)
            if r:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    return

    def click(col, row):
        for end in "Mm":  # press, release (xterm's SGR mouse, 1-based)
            os.write(master, ("\x1b[<0;%d;%d%s" % (col + 1, row + 1, end))
                     .encode())
        drain(0.3)

    try:
        drain(1.0)
        check(b"Play" in seen, "no table drawn on the pty")
        # Layout at 80x24, 2 players: the hand's cards are rows 11..15,
        # card i at column 2 + 7 i.
        click(2 + 7 + 2, 13)
        click(2 + 7 + 2, 13)
        os.write(master, b"q")
        drain(0.5)
        p.wait(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    got = json.load(open(rec))
    r0 = got["rounds"][0]
    played = r0["moves"][1 if r0["dealer"] == 0 else 0]
    check(played == want, "the clicks played %s, not %s" % (played, want))


# play-tty-1.3: six players in 80x24: the top line keeps every side's
# score and the round, the target moving to the rules line alone; the
# round's score (25 lines) is cut to the width and scrolls.
def t_tty_six():
    tm = Tmux("scopa-six")
    rec = os.path.join(TMP, "six.json")
    try:
        for lang, rnd, rules, end, game in (
                ("en", "Round 1", "target 11", "End of the round", "Game:"),
                ("it", "Mano 1", "si gioca ai 11", "Fine della mano",
                 "Partita:")):
            tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang %s "
                     "--seed 11 --players 6 --opponent greedy --delay 0 "
                     "--record %s-%s; echo EXIT=$?; sleep 60"
                     % (SCOPA, lang, rec, lang))
            tm.wait_for("greedy 5", "no table drawn")
            top, second = tm.screen().splitlines()[:2]
            check(top.strip().startswith(rnd), "no round on top:\n" + top)
            check(re.search(r"greedy 5 0\s*$", top), "scores cut:\n" + top)
            check(len(top.rstrip()) <= 80, "too wide:\n" + top)
            check(rules in second, "no target:\n" + second)
            deadline = time.time() + 20
            while end not in tm.screen():
                check(time.time() < deadline, "no round score:\n" + tm.screen())
                tm.keys("Enter")
                time.sleep(0.15)
            s = tm.screen()
            check(all(len(l.rstrip()) <= 80 for l in s.splitlines()),
                  "wider than 80:\n" + s)
            m = re.search(r"\b1-(\d+)/(\d+) \((Up/Down|Su/Giu)\)", s)
            check(m and int(m.group(1)) < int(m.group(2)),
                  "a round score taller than 24 lines does not say so:\n" + s)
            check(game not in s, "all of it fits?\n" + s)
            for _ in range(int(m.group(2))):
                tm.keys("Down")
            tm.wait_for(game, "Down does not scroll to the game's score")
            check(end in tm.screen(), "Down left the round score")
            tm.keys("Enter")
            # "greedy 5" is on the panel's top line too: wait for the panel
            # to go, not for a name (under load the check ran before Enter
            # was read)
            deadline = time.time() + 10
            while end in tm.screen():
                check(time.time() < deadline, "the round score stays")
                time.sleep(0.05)
            tm.wait_for("greedy 5", "no next round")
            tm.keys("q")
            tm.wait_for("EXIT=", "q did not leave")
            tm.run("kill-server", capture_output=True)
            tm.new_server("scopa-six-" + lang)
    finally:
        tm.close()


# play-tty-2.1: TERM=dumb on a terminal falls back to line mode; Ctrl-C in
# the full-screen table keeps the record.
def t_tty_fallback():
    tm = Tmux("scopa-test2")
    rec, rec2 = os.path.join(TMP, "dumb.json"), os.path.join(TMP, "ctrlc.json")

    try:
        tm.start("env TERM=dumb %s play --lang en --seed 2 --opponent greedy "
                 "--record %s; echo EXIT=$?; sleep 60" % (SCOPA, rec))
        tm.wait_for("Legal moves:", "TERM=dumb did not give the line mode")
        tm.keys("C-d")
        tm.wait_for("EXIT=0", "end of input on a dumb terminal")
        tm.run("kill-server", capture_output=True)
        tm.new_server("scopa-test2b")  # the old server may still be leaving
        tm.start("env LANG=C.UTF-8 TERM=xterm %s play --lang en --seed 3 "
                 "--opponent best --delay 0 --record %s; echo EXIT=$?; sleep 60"
                 % (SCOPA, rec2), x=60, y=20)
        tm.wait_for("Table (", "no table on a 60x20 terminal")
        tm.run("resize-window", "-t", "t", "-x", "100", "-y", "30")
        time.sleep(0.3)
        wide = tm.screen().splitlines()
        check(len(wide) >= 29 and "Table (" in tm.screen() and
              len(wide[0].rstrip()) > 70, "no redraw at 100x30:\n" + tm.screen())
        tm.keys("Enter")
        time.sleep(0.3)
        tm.keys("C-c")
        tm.wait_for("EXIT=", "Ctrl-C did not stop the game")
        check("scopa play --resume" in tm.screen(), "no word on resuming")
        got = json.load(open(rec2))
        check(len(got["rounds"][0]["moves"]) >= 1, "the move before Ctrl-C is lost")
        check(replay(rec2)["finished"] is False, "finished?")
        # A closed terminal (SIGHUP): the game stops, the record stays.
        rec3 = os.path.join(TMP, "hup.json")
        tm.run("new-window", "-t", "t",
               "env LANG=C.UTF-8 TERM=xterm %s play --seed 6 --opponent greedy "
               "--delay 0 --record %s" % (SCOPA, rec3), check=True)
        tm.wait_for("[ Play ]", "no game in the new window")
        tm.keys("Enter")
        time.sleep(0.3)
        tm.run("kill-window", "-t", "t")
        deadline = time.time() + 5
        while subprocess.run(["pgrep", "-f", rec3],
                             capture_output=True).returncode == 0:
            check(time.time() < deadline, "still running after SIGHUP")
            time.sleep(0.1)
        got = json.load(open(rec3))
        check(len(got["rounds"][0]["moves"]) >= 1, "moves lost on SIGHUP")
    finally:
        tm.close()


# play-step-1.1: `scopa replay --step` walks a record without a terminal.
def t_step():
    rec = os.path.join(TMP, "step.json")
    play_plain(["--seed", "9", "--record", rec], ones())
    out = subprocess.run([SCOPA, "replay", "--step", rec], input="", text=True,
                         capture_output=True, env=dict(ENV, LANG="C"))
    check(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr))
    got = json.load(open(rec))
    first = got["rounds"][0]["moves"][0]
    check(first in out.stdout, "the first move is not shown")
    check("Table" in out.stdout and "Score of round 1" in out.stdout,
          "no table / no score:\n" + out.stdout[:500])


# play-seed-1.1: issue 10's bar: `--seed 42` stopped after ten moves and
# resumed deals the same decks (and plays the same game) as straight through;
# the record keeps the seed and every deck follows from it.
def t_seed_resume():
    straight = os.path.join(TMP, "straight.json")
    out = play_plain(["--seed", "42", "--record", straight], ones())
    check(out.returncode == 0, "straight game: %s" % out.stderr)
    a = json.load(open(straight))
    check(a.get("seed") == "42", "the record does not keep the seed")
    check(len(a["rounds"]) >= 2, "too short a game to test: %d rounds" %
          len(a["rounds"]))
    for stop in (10, 23):
        resumed = os.path.join(TMP, "resumed%d.json" % stop)
        play_plain(["--seed", "42", "--record", resumed], ones(stop))
        part = json.load(open(resumed))
        played = sum(len(r["moves"]) for r in part["rounds"])
        check(played >= stop, "stopped after %d moves, not %d" % (played, stop))
        out = play_plain(["--resume", resumed], ones())
        check(out.returncode == 0, "resumed game: %s" % out.stderr)
        b = json.load(open(resumed))
        check([r["deck"] for r in a["rounds"]] ==
              [r["deck"] for r in b["rounds"]],
              "resumed after %d moves, the decks differ" % stop)
        check(a["rounds"] == b["rounds"], "the resumed game plays otherwise")
        check(b.get("seed") == "42", "the resumed record lost its seed")
    check_finished(straight)


# review-1.1: `scopa review` (issue 13): every move with a choice valued
# from its player's view next to the best move; cost = best - played >= 0;
# marks follow the cost; Italian and JSON forms; a bad record is refused.
def t_review():
    rec = os.path.join(TMP, "review.json")
    out = play_plain(["--seed", "3", "--record", rec, "--target", "1"], ones())
    check(out.returncode == 0, "the game to review: %s" % out.stderr)
    r = subprocess.run([SCOPA, "review", "--json", "--movetime", "3", rec],
                       capture_output=True, text=True, env=ENV, timeout=60)
    check(r.returncode == 0, "review --json: %s" % r.stderr)
    doc = json.loads(r.stdout)
    game = json.load(open(rec))
    check(len(doc["rounds"]) == len(game["rounds"]), "a round is missing")
    seen = 0
    for rd, rr in zip(doc["rounds"], game["rounds"]):
        for mv in rd["moves"]:
            seen += 1
            check(rr["moves"][mv["ply"]] == mv["move"], "not the move played")
            # The cost is the hint's loss (scopa.h "Hints"): at least 0,
            # best - played where the values are exact.
            check(mv["cost"] >= 0 and mv["loss_margin"] >= 0 and
                  (not mv["exact"] or
                   abs(mv["cost"] - (mv["best_value"] - mv["value"])) < 1e-6),
                  "cost is not the loss: %s" % mv)
            # marked only when the loss is beyond its uncertainty
            sure = mv["cost"] - mv["loss_margin"]
            want = "??" if sure >= 1 else "?" if sure >= 0.3 else ""
            check(mv["mark"] == want, "mark %r for cost %.2f +- %.2f" %
                  (mv["mark"], mv["cost"], mv["loss_margin"]))
            check(mv["choices"] >= 1 and mv["loss"] == mv["cost"],
                  "choices or loss wrong: %s" % mv)
        check(len(rd["moves"]) == len(rr["moves"]), "a move is missing")
    check(seen >= 10, "only %d moves reviewed" % seen)
    total = [0.0] * 2
    for rd in doc["rounds"]:
        for mv in rd["moves"]:
            total[mv["seat"]] += mv["cost"]
    for s in doc["seats"]:
        check(abs(s["cost"] - total[s["seat"]]) < 1e-6, "seat totals differ")
    it = subprocess.run([SCOPA, "review", "--lang", "it", "--movetime", "3",
                         "--seat", "0", rec], capture_output=True, text=True,
                        env=ENV, timeout=60)
    check(it.returncode == 0 and "Mano 1" in it.stdout and
          "Punti persi" in it.stdout, "Italian review:\n" + it.stdout)
    check('"?" loses about 0.3 points or more on average' in
          subprocess.run([SCOPA, "review", "--movetime", "3", rec],
                         capture_output=True, text=True, env=ENV,
                         timeout=60).stdout, "the marks are not explained")
    bad = os.path.join(TMP, "bad.json")
    open(bad, "w").write('{"format": "scopa-record/1", "rules": {"x": 1}}')
    b = subprocess.run([SCOPA, "review", bad], capture_output=True, text=True,
                       env=ENV)
    check(b.returncode == 1 and "x" in b.stderr, "bad record: %s" % b.stderr)
    u = subprocess.run([SCOPA, "review", "--seat", "9", rec],
                       capture_output=True, text=True, env=ENV)
    check(u.returncode == 2, "--seat 9 accepted")


# A hint in words (issue 25, point 5): the move as a sentence, its reasons
# after ": ", how it stands against the others; never notation.
HINT = re.compile(r"^(Hint|Consiglio): ([^.:\n]+)(?:: ([^\n]*?))?\.( [^\n]*)$",
                  re.M)
NOTATION = re.compile(r"\b\d{1,2}[dcsb](x|\b)")



# review-1.2 (issue 28): the review of one record is the same on every run:
# its values are seeded by the record's seed, the round and the ply, or by
# the position itself when the record has no seed.
def t_review_again():
    rec = os.path.join(TMP, "again.json")
    out = play_plain(["--seed", "5", "--record", rec, "--target", "1"], ones())
    check(out.returncode == 0, "the game to review: %s" % out.stderr)
    game = json.load(open(rec))
    unseeded = os.path.join(TMP, "unseeded.json")
    json.dump({k: v for k, v in game.items()
               if k not in ("seed", "seed_sha256")}, open(unseeded, "w"))
    for path in (rec, unseeded):
        runs = [subprocess.run([SCOPA, "review", "--json", "--movetime", "10",
                                path], capture_output=True, text=True,
                               env=ENV, timeout=120) for _ in range(3)]
        check(all(r.returncode == 0 for r in runs), "review failed: %s" %
              runs[0].stderr)
        check(runs[0].stdout == runs[1].stdout == runs[2].stdout,
              "%s: three reviews differ" % os.path.basename(path))

def listed_moves(block):
    """The listed moves' sentences, each with its notation."""
    return dict((w.strip(), m) for m, w in
                re.findall(r"^\s+\d+\. (\S+) +([^\n]*?)(?: - scopa!)?$",
                           block, re.M))


# play-hint-1.1 (issue 13): `hint` in line mode shows a legal move and its
# value; typing it plays it; moves and numbers work as before; off at
# level campione unless --hints; --no-hints; the end offers the review.
def t_hint_line():
    rec = os.path.join(TMP, "hint.json")
    lines = ["hint", "1"] * 4 + ones()
    out = play_plain(["--seed", "3", "--record", rec, "--target", "1"], lines)
    check(out.returncode == 0, "exit status %d" % out.returncode)
    text = out.stdout
    hints = list(HINT.finditer(text))
    check(len(hints) == 4, "%d hints for 4 requests:\n%s" % (len(hints), text))
    notations = []
    for h in hints:
        before = text[:h.start()]
        block = before[before.rfind("Legal moves:"):]
        listed = listed_moves(block)
        check(h.group(2) in listed,
              "hint %r is not a listed move: %s" % (h.group(2), listed))
        notations.append(listed.get(h.group(2)))
        check(not NOTATION.search(h.group(0)), "notation: " + h.group(0))
        check(re.search(r"only move|as good|costs (about|almost)|"
                        r"No estimate", h.group(4)),
              "no comparison in words: " + h.group(0))
    check_finished(rec)
    check("hint suggests one" in text, "the prompt does not offer hints")
    # The review is offered with the record's path, and works.
    want = "Review the game, move by move: scopa review %s" % rec
    check(want in text, "no review offer:\n" + text[-600:])
    r = subprocess.run([SCOPA, "review", "--movetime", "2", rec],
                       capture_output=True, text=True, env=ENV, timeout=60)
    check(r.returncode == 0 and "Round 1" in r.stdout, "review failed")
    # The same position gives the same hint, and typing the hinted move
    # (in record notation) plays it.
    first = notations[0]
    rec2 = os.path.join(TMP, "hint2.json")
    out2 = play_plain(["--seed", "3", "--record", rec2, "--target", "1"],
                      ["hint", first] + ones())
    h2 = HINT.search(out2.stdout)
    check(h2 and h2.group(0) == hints[0].group(0),
          "the same position gave another hint")
    game = json.load(open(rec2))
    human = [m for m in game["rounds"][0]["moves"]]
    check(human[0] == first or human[1] == first,
          "the hinted move was not played: %s" % human[:2])
    # Off at the strongest level, unless asked for; --no-hints.
    for k, (args, on) in enumerate(((["--level", "campione"], False),
                                    (["--level", "4", "--hints"], True),
                                    (["--no-hints"], False),
                                    (["--level", "esperto"], True))):
        # Each probe its own record: --record refuses a saved game's file.
        o = play_plain(["--seed", "3", "--target", "1", "--record",
                        os.path.join(TMP, "h3-%d.json" % k)] + args,
                       ["hint"] + ones())
        got = HINT.search(o.stdout) is not None
        check(o.returncode == 0 and got == on,
              "%s: hint shown %s" % (args, got))
        if not on:
            check("Hints are off" in o.stdout, "%s: no word on hints" % args)
    # Italian: `consiglio`, and the review offered in Italian.
    it = subprocess.run([SCOPA, "play", "--plain", "--lang", "it", "--seed",
                         "3", "--opponent", "greedy", "--target", "1",
                         "--record", os.path.join(TMP, "h4.json")],
                        input="consiglio\n" + "1\n" * 400,
                        capture_output=True, text=True, timeout=60, env=ENV)
    check(re.search(r"^Consiglio: ", it.stdout, re.M), "no Italian hint")
    check("Rivedi la partita, mossa per mossa: scopa review" in it.stdout,
          "no Italian review offer")


# play-hint-1.2: '?' on the full-screen table shows the hint.
def t_hint_tty():
    tm = Tmux("scopa-hint")
    rec = os.path.join(TMP, "hint-tty.json")
    tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang en "
             "--seed 4 --delay 0 --opponent greedy --record %s; "
             "echo EXIT=$?; sleep 60" % (SCOPA, rec), x=120)
    try:
        tm.wait_for("Table (", "no table drawn")
        check("?: hint" in tm.screen(), "the keys line has no hint")
        tm.keys("?")
        tm.wait_for("Hint: ", "no hint after '?'")
        check(re.search(r"Hint: (Take|Lay) the ", tm.screen()),
              "hint:\n" + tm.screen())
        check(not NOTATION.search(tm.screen().split("Hint: ")[1]),
              "notation in the hint:\n" + tm.screen())
        tm.keys("q")
        tm.wait_for("EXIT=0", "q did not leave")
    finally:
        tm.close()


# play-tty-3.1: the full-screen table says moves and cards in words, in
# the player's language, wherever a player reads them (the move being
# chosen, the moves before the last, why a card must capture, the round
# score, the rules line's players and target): never notation ("9bx9s",
# "7d", "players=3 target=1"), which stays in the record.  The
# selection line showed "3b  three of clubs, ..." and the round score
# "You: 5d 7d 9d", "Settebello 7d", "7d 21 + 1c 16 ...".
def t_tty_words():
    tm = Tmux("scopa-words")
    rec = os.path.join(TMP, "words.json")
    try:
        for lang, play, verbs, before, end, rules in (
                ("en", "[ Play ]", ("Take the ", "Lay the "), "Before: ",
                 "End of the round", "Rules: scopa, 3 players, target 1"),
                ("it", "[ Gioca ]", ("Prendi ", "Cala "), "Prima: ",
                 "Fine della mano",
                 "Regole: scopa, 3 giocatori, si gioca ai 1")):
            tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang %s "
                     "--seed 5 --players 3 --target 1 --opponent greedy "
                     "--delay 0 --record %s-%s; echo EXIT=$?; sleep 60"
                     % (SCOPA, lang, rec, lang), x=100, y=30)
            tm.wait_for(play, "no table drawn")
            # the rules in words, the target once (not "players=3 target=1")
            second = tm.screen().splitlines()[1]
            check(second.strip() == rules, "rules line:\n" + second)
            seen = {"choice": 0, "before": 0, "panel": 0}
            deadline = time.time() + 60
            step = 0
            s = tm.screen()
            while "EXIT=" not in s:
                check(time.time() < deadline, "the game did not end:\n" + s)
                # the record's path is the one place a file name shows
                shown = "\n".join(l for l in s.splitlines() if rec not in l)
                check(not NOTATION.search(shown), "notation on screen:\n" + s)
                for line in s.splitlines():
                    if play in line:
                        seen["choice"] += 1
                        words = re.sub(r"^\(\d+/\d+\) ", "", line)
                        check(words.startswith(verbs), "choice:\n" + line)
                    if line.startswith(before):
                        seen["before"] += 1
                        check(": " in line[len(before):], "before:\n" + line)
                if end in s:
                    seen["panel"] += 1
                step += 1
                if step % 3 == 0:
                    tm.keys("Right")
                tm.keys("Enter")
                time.sleep(0.05)
                s = tm.screen()
            check(all(seen.values()), "not every place was seen: %s" % seen)
            check("EXIT=0" in s, "exit status:\n" + s)
            check_finished("%s-%s" % (rec, lang))
            tm.run("kill-server", capture_output=True)
            tm.new_server("scopa-words-" + lang)
    finally:
        tm.close()


# play-tty-3.2: every other seat's name whole on its line: two bots of
# level principiante are "principiante 1" and "principiante 2" (their
# names were cut to 12 characters: "principiante" twice, which is which?).
def t_tty_names():
    tm = Tmux("scopa-names")
    rec = os.path.join(TMP, "names.json")
    try:
        tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang it "
                 "--seed 5 --players 3 --level principiante --delay 0 "
                 "--record %s; echo EXIT=$?; sleep 60" % (SCOPA, rec))
        tm.wait_for("[ Gioca ]", "no table drawn")
        seats = tm.screen().splitlines()[2:4]
        for k, line in enumerate(seats):
            check(re.match(r"[ >] principiante %d \u2592" % (k + 1), line),
                  "seat line:\n" + "\n".join(seats))
            check(len(line.rstrip()) <= 80, "too wide:\n" + line)
        tm.keys("q")
        tm.wait_for("EXIT=0", "q did not leave")
    finally:
        tm.close()


# play-tty-3.6 (issue 34): an English screen says the level in English
# ("intermediate", not "intermedio") and its cards in English: a court
# card's box names its face beside its rank, as the words do ("the
# knave of clubs" beside an 8); an Italian screen says them in Italian.
def t_tty_language():
    for lang, level, faces, suits in (
            ("en", "intermediate", ("knav", "hors", "king"),
             ("coin", "cups", "swrd", "club")),
            ("it", "intermedio", ("fant", "cav.", " re "),
             (" den", " cop", " spa", " bas"))):
        tm = Tmux("scopa-lang-" + lang)
        try:
            # each its own record: q saves the game, and a second run of
            # the same seed in the same second would name the same file
            rec = os.path.join(TMP, "lang-%s.json" % lang)
            tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang %s "
                     "--seed 5 --level 2 --delay 0 --record %s; echo EXIT=$?; "
                     "sleep 60" % (SCOPA, lang, rec))
            tm.wait_for("[ Play ]" if lang == "en" else "[ Gioca ]",
                        "no table drawn")
            text = tm.screen()
            check(re.search(r"^  %s +\u2592" % level, text, re.M),
                  "level not in %s:\n%s" % (lang, text))
            cards = list(re.finditer(r"\u2502([1-9]|10) {1,2}\S\u2502", text))
            check(cards, "no card drawn:\n" + text)
            for m in cards:  # the box's second line, under its first
                rank = int(m.group(1))
                col = m.start() - text.rfind("\n", 0, m.start()) - 1
                below = text[text.index("\n", m.end()) + 1:].split("\n")[0]
                inner = below[col + 1:col + 5]
                ok = inner == faces[rank - 8] if rank >= 8 else inner in suits
                check(ok, "card %d says %r:\n%s" % (rank, inner, text))
            tm.keys("q")
            tm.wait_for("EXIT=0", "q did not leave")
        finally:
            tm.close()


# play-tty-3.3: a narrow terminal still says the whole move being chosen
# (on two rows), how to play and how to leave, and a tiny one how big it
# must be.  At 45 columns the move was cut ("Take the ace of coins and th")
# and the keys line lost "Enter: play" and "q"; at 30 columns "40x14 at
# least" was cut.
def t_tty_narrow():
    tm = Tmux("scopa-narrow")
    rec = os.path.join(TMP, "narrow.json")
    try:
        tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang en "
                 "--seed 44 --level principiante --delay 0 --record %s; "
                 "echo EXIT=$?; sleep 60" % (SCOPA, rec))
        tm.wait_for("[ Play ]", "no table drawn")
        line = next(l for l in tm.screen().splitlines() if "[ Play ]" in l)
        full = line.split("[ Play ]")[0].strip()
        full = full.replace("  (pick again for the next)", "")
        check(len(full) > 40, "a move too short for this test: " + full)
        tm.run("resize-window", "-t", "t", "-x", "45", "-y", "16")
        tm.wait_for("q quit", "the short keys line")
        rows = tm.screen().splitlines()
        k = next(i for i, l in enumerate(rows) if "[ Play ]" in l)
        said = rows[k].split("[ Play ]")[0].strip() + " " + rows[k + 1].strip()
        check(said == full, "the move cut:\n%s\nnot\n%s" % (said, full))
        check("Enter play" in rows[-1] or "Enter play" in tm.screen(),
              "no Enter in the keys:\n" + tm.screen())
        tm.run("resize-window", "-t", "t", "-x", "30", "-y", "10")
        tm.wait_for("least.", "the too-small message cut")
        check("40x14" in tm.screen(), "no size:\n" + tm.screen())
        tm.run("resize-window", "-t", "t", "-x", "80", "-y", "24")
        tm.wait_for("[ Play ]", "no table after growing again")
        tm.keys("q")
        tm.wait_for("EXIT=0", "q did not leave")
    finally:
        tm.close()


# play-tty-3.5: hot seat on a 40x14 terminal: the handover says whole
# which key to press ("Passa il terminale a Giocatore 1: premi" lost
# "Invio quando sei pronto."), and Enter shows the hand.
def t_tty_handover():
    tm = Tmux("scopa-handover")
    rec = os.path.join(TMP, "handover.json")
    try:
        tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang it "
                 "--humans 2 --seed 51 --delay 0 --record %s; echo EXIT=$?; "
                 "sleep 60" % (SCOPA, rec), x=40, y=14)
        tm.wait_for("Passa il terminale", "no handover")
        said = " ".join(l.strip() for l in tm.screen().splitlines())
        check("premi Invio quando sei pronto." in said,
              "the key to press cut:\n" + tm.screen())
        tm.keys("Enter")
        tm.wait_for("[ Gioca ]", "Enter did not show the hand")
        tm.keys("q")
        tm.wait_for("EXIT=0", "q did not leave")
    finally:
        tm.close()


# play-tty-3.4: the last move is never cut: at 80 columns in Italian,
# with three players, "Ultima: principiante 2: sei di denari prende due di
# denari e quattro" lost its last card; it now goes on under itself, so
# the line (and its continuation) ends with a suit or "tavolo".
def t_tty_last():
    tm = Tmux("scopa-last")
    rec = os.path.join(TMP, "last.json")
    try:
        tm.start("env LANG=C.UTF-8 TERM=xterm-256color %s play --lang it "
                 "--seed 42 --players 3 --level principiante --delay 0 "
                 "--record %s; echo EXIT=$?; sleep 60" % (SCOPA, rec))
        tm.wait_for("[ Gioca ]", "no table drawn")
        ends = re.compile(r"(denari|coppe|spade|bastoni|tavolo)( +SCOPA!)?$")
        seen = 0
        deadline = time.time() + 30
        while "Fine della mano" not in tm.screen():
            check(time.time() < deadline, "no round end:\n" + tm.screen())
            rows = tm.screen().splitlines()
            for k, row in enumerate(rows):
                if row.startswith("Mazzo: ") and "Ultima: " in row:
                    said = row.rstrip()
                    if not rows[k + 1].startswith("Tavolo"):
                        said += " " + rows[k + 1].strip()
                    check(ends.search(said), "the last move cut:\n" +
                          "\n".join(rows))
                    seen += 1
            tm.keys("Enter")
            time.sleep(0.1)
        check(seen >= 3, "the last move seen %d times" % seen)
        tm.keys("q")
    finally:
        tm.close()


TESTS = {
    "play-hint-1.1": t_hint_line,
    "play-hint-1.2": t_hint_tty,
    "review-1.1": t_review,
    "review-1.2": t_review_again,
    "play-seed-1.1": t_seed_resume,
    "play-line-1.1": t_line_bar,
    "play-line-1.2": t_line_format,
    "play-line-2.1": t_line_bad_lines,
    "play-line-3.1": t_line_resume,
    "play-line-4.1": t_line_sigint,
    "play-line-5.1": t_line_variants,
    "play-line-6.1": t_line_italian,
    "play-tty-1.1": t_tty,
    "play-tty-1.2": t_tty_cycle,
    "play-tty-1.3": t_tty_six,
    "play-tty-2.1": t_tty_fallback,
    "play-tty-3.1": t_tty_words,
    "play-tty-3.2": t_tty_names,
    "play-tty-3.3": t_tty_narrow,
    "play-tty-3.4": t_tty_last,
    "play-tty-3.5": t_tty_handover,
    "play-tty-3.6": t_tty_language,
    "play-pty-1.1": t_pty_mouse,
    "play-step-1.1": t_step,
}


def main():
    global SCOPA, TMP
    if len(sys.argv) != 3 or sys.argv[2] not in TESTS:
        print("usage: play_test.py SCOPA TEST (%s)" % " ".join(TESTS))
        return 2
    SCOPA = os.path.abspath(sys.argv[1])
    TMP = tempfile.mkdtemp(prefix="scopa-play-")
    try:
        TESTS[sys.argv[2]]()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print("ok", sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
