"""Helpers of the server tests: the real `scopa serve` on a free loopback
port with its own database, and a real WebSocket client (Debian's
python3-websockets) that keeps every message it receives, so each test can
check afterwards that no message named a card its seat could not know.

SCOPA_BIN names the `scopa` under test (CTest sets it to the sanitizer
build's).  SCOPA_TEST_STORE=postgresql runs every server on PostgreSQL
instead of its SQLite file: one PostgreSQL instance for the whole test
session, started here on loopback in a temporary folder (as `nobody`
when the tests run as root), and one database per file name a test
gives (so a restart on the same "file" finds its games).  Tests of what
only SQLite has (the file's lock, quick_check, its pages) are marked
@sqlite_only."""
import asyncio
import atexit
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
TIMEOUT = 30.0


SHORT = {"target": 3}  # short games keep the suites quick


def run(coro):
    return asyncio.run(coro)


def scopa_bin():
    return os.environ.get("SCOPA_BIN") or os.path.join(TOP, "build", "scopa")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


STORE = os.environ.get("SCOPA_TEST_STORE", "sqlite")
assert STORE in ("sqlite", "postgresql"), STORE
sqlite_only = pytest.mark.skipif(
    STORE != "sqlite", reason="what only an SQLite file has")
postgresql_only = pytest.mark.skipif(
    STORE != "postgresql", reason="runs with SCOPA_TEST_STORE=postgresql")
PG_BIN = "/usr/lib/postgresql/15/bin"


class Postgres:
    """A PostgreSQL instance of our own on loopback (Debian's binaries):
    initdb in a temporary folder, then pg_ctl; as `nobody` when root,
    since PostgreSQL refuses to run as root.  fsync is off: the tests
    kill scopa serve, never this server or its machine (scripts/cluster
    keeps fsync on)."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="scopa-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.made = set()
        if os.getuid() == 0:
            shutil.chown(self.dir, "nobody", "nogroup")
        self._as_owner([PG_BIN + "/initdb", "-D", self.data, "-U", "scopa",
                        "-A", "trust", "-E", "UTF8", "--no-sync"])
        self._as_owner([PG_BIN + "/pg_ctl", "-D", self.data, "-w", "-s",
                        "-l", os.path.join(self.dir, "log"), "-o",
                        "-h 127.0.0.1 -p %d -k %s -c fsync=off "
                        "-c max_connections=300" % (self.port, self.dir),
                        "start"])
        atexit.register(self.stop)

    def _as_owner(self, argv):
        if os.getuid() == 0:
            argv = ["runuser", "-u", "nobody", "--"] + argv
        p = subprocess.run(argv, capture_output=True, timeout=120,
                           cwd=self.dir)
        assert p.returncode == 0, (argv, p.stdout, p.stderr)

    def psql(self, sql, db="postgres"):
        p = subprocess.run(
            [PG_BIN + "/psql", "-X", "-q", "-A", "-t", "-v",
             "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "scopa", "-d", db, "-c", sql],
            capture_output=True, timeout=60)
        assert p.returncode == 0, (sql, p.stderr)
        return p.stdout.decode()

    def url(self, name):
        """The URL of the database for `name` (a file path a test chose),
        made on first use."""
        db = "t_" + hashlib.sha1(
            os.path.abspath(name).encode()).hexdigest()[:20]
        if db not in self.made:
            self.psql("CREATE DATABASE " + db)
            self.made.add(db)
        return "postgresql://scopa@127.0.0.1:%d/%s" % (self.port, db)

    def restart(self):
        """A fast restart (every connection cut), on the same port."""
        self._as_owner([PG_BIN + "/pg_ctl", "-D", self.data, "-w", "-s",
                        "-m", "fast", "-l", os.path.join(self.dir, "log"),
                        "restart"])

    def stop(self):
        if os.path.isdir(self.data):
            self._as_owner([PG_BIN + "/pg_ctl", "-D", self.data, "-s", "-m",
                            "immediate", "stop"])
        shutil.rmtree(self.dir, ignore_errors=True)


_postgres = None


def postgres():
    """The session's PostgreSQL, started on first use."""
    global _postgres
    if _postgres is None:
        _postgres = Postgres()
    return _postgres


def store_flags(db):
    """The flags that give a server the store for file name `db`."""
    if STORE == "postgresql":
        return ["--store", postgres().url(db)]
    return ["--db", db]


def _literal(v):
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def store_execute(db, sql, rows):
    """Runs `sql` (? for each value) once per row of `rows` on the store
    of file name `db`, as another program would: sqlite3, or psql."""
    if STORE == "postgresql":
        pg = postgres()
        text = ";".join(sql.replace("?", "{}").format(*map(_literal, row))
                        for row in rows)
        pg.psql(text, db=pg.url(db).rsplit("/", 1)[1])
        return
    import sqlite3
    with sqlite3.connect(db) as c:
        c.executemany(sql, rows)
    c.close()


class Server:
    """`scopa serve` as a child process; start() waits for /healthz."""

    def __init__(self, db, *flags, port=None, quiet=True):
        self.db = db
        self.flags = list(flags) + (["--quiet"] if quiet else [])
        self.port = port or free_port()
        self.proc = None

    def start(self):
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        self.proc = subprocess.Popen(
            [scopa_bin(), "serve", "--port", str(self.port)] +
            store_flags(self.db) + self.flags,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: " +
                                   self.proc.stderr.read().decode())
            try:
                if self.http("/healthz")[0] == 200:
                    return self
            except (urllib.error.URLError, ConnectionError):
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    @property
    def url(self):
        return "ws://127.0.0.1:%d/ws" % self.port

    def http(self, path):
        try:
            with urllib.request.urlopen(
                    "http://127.0.0.1:%d%s" % (self.port, path),
                    timeout=TIMEOUT) as r:
                return r.status, r.read(), r.headers
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        """SIGTERM, and the exit status must be 0 (ASan's leak check runs
        at exit)."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise
        err = self.proc.stderr.read().decode()
        assert self.proc.returncode == 0, err
        return err


class Client:
    """One WebSocket connection that records everything it receives."""

    def __init__(self, ws, name):
        self.ws = ws
        self.name = name
        self.log = []       # every message received, in order
        self.unread = []    # received, not yet taken by next()
        self.seat = None
        self.token = None
        self.code = None
        self.state = None   # the last state

    @classmethod
    async def connect(cls, server, name="client"):
        ws = await websockets.connect(server.url, max_size=None)
        c = cls(ws, name)
        hello = await c.next()
        assert hello["type"] == "hello" and hello["protocol"] == 1
        return c

    async def send(self, obj):
        await self.ws.send(obj if isinstance(obj, (str, bytes))
                           else json.dumps(obj))

    async def _recv(self, timeout):
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(text)
        self.log.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg

    async def next(self, timeout=TIMEOUT):
        if self.unread:
            return self.unread.pop(0)
        return await self._recv(timeout)

    async def until(self, pred, timeout=TIMEOUT):
        """Reads until a message satisfies pred; returns it."""
        deadline = time.time() + timeout
        while True:
            msg = await self.next(max(0.01, deadline - time.time()))
            if pred(msg):
                return msg

    async def quiet(self, seconds=0.3):
        """Whatever arrives within `seconds` (kept in the log)."""
        got = []
        try:
            while True:
                got.append(await self._recv(seconds))
        except asyncio.TimeoutError:
            return got

    async def seated(self, request):
        await self.send(request)
        msg = await self.until(lambda m: m["type"] in ("seated", "error"))
        assert msg["type"] == "seated", msg
        self.seat, self.token, self.code = msg["seat"], msg["token"], msg["code"]
        st = await self.until(lambda m: m["type"] == "state")
        self.unread.insert(0, st)  # left for whoever reads next
        return msg

    async def close(self):
        await self.ws.close()


def my_turn(msg, seat):
    return (msg["type"] == "state" and msg["status"] == "playing"
            and msg["to_play"] == seat and "legal" in msg)


async def play_to_end(clients, rng, timeout=120):
    """Every seated client plays a random legal move when its state says it
    is to play, until each has seen game_over.  Returns game_over."""
    over = {}

    async def run(c):
        deadline = time.time() + timeout
        while True:
            msg = await c.next(max(0.01, deadline - time.time()))
            if msg["type"] == "game_over":
                over[c.name] = msg
                return
            if c.seat is not None and my_turn(msg, c.seat):
                move = rng.choice(msg["legal"])
                await c.send({"type": "move", "move": move,
                              "ply": len(msg["round"]["moves"])})

    await asyncio.gather(*(run(c) for c in clients))
    return next(iter(over.values()))


# ----------------------------------------------------------------------
# What a seat may know (RULES.md "The deal"), from the full record
# ----------------------------------------------------------------------

CARD = re.compile(r"(?<![0-9a-z])(10|[1-9])[dcsb](?![0-9a-z])")
MOVE = re.compile(r"(10|[1-9])[dcsb](x(10|[1-9])[dcsb](\+(10|[1-9])[dcsb])*)?")


def cards_named(obj):
    """Every card named anywhere in a message, moves split into cards."""
    out = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= cards_named(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_named(v)
    elif isinstance(obj, str):
        if MOVE.fullmatch(obj):
            out |= set(re.split(r"[x+]", obj))
        else:
            out |= {m.group(0) for m in CARD.finditer(obj)}
    return out


def move_cards(move):
    return set(re.split(r"[x+]", move))


def public_cards(rules, rnd, ply):
    """What everybody knows after `ply` moves of round `rnd`: the table as
    dealt and every card played or taken."""
    n = rules["players"]
    known = set(rnd["deck"][3 * n:3 * n + 4])
    for m in rnd["moves"][:ply]:
        known |= move_cards(m)
    return known


def dealt_cards(rules, rnd, seat, ply):
    """The cards dealt to `seat` by ply `ply` under scopa's deal of 3 (a
    new hand once every hand is empty)."""
    n = rules["players"]
    deck, dealer = rnd["deck"], rnd["dealer"]
    dealt = set()
    for j in range(min(1 + ply // (3 * n), 36 // (3 * n))):
        base = 0 if j == 0 else 3 * n + 4 + (j - 1) * 3 * n
        for i in range(3 * n):
            if (dealer + 1 + i) % n == seat:
                dealt.add(deck[base + i])
    return dealt


def played_cards(rnd, ply):
    return {re.split(r"[x+]", m)[0] for m in rnd["moves"][:ply]}


def find_round(record, msg):
    """The record's round a state shows: same dealer, table as dealt and
    moves so far."""
    n = record["rules"]["players"]
    ply = len(msg["round"]["moves"])
    for rnd in record["rounds"]:
        if (rnd["dealer"] == msg["round"]["dealer"]
                and set(rnd["deck"][3 * n:3 * n + 4]) == set(msg["round"]["table"])
                and rnd["moves"][:ply] == msg["round"]["moves"]):
            return rnd
    raise AssertionError("no round of the record matches %r" % msg)


def check_redaction(client, record, seat):
    """Every message `client` received names only cards its seat (None:
    a spectator) could know at that moment, and its hand is exactly the
    seat's cards.  Returns how many states were checked."""
    rules = record["rules"]
    checked = 0
    for msg in client.log:
        named = cards_named(msg)
        if msg["type"] != "state":
            assert not named, msg
            continue
        rnd = find_round(record, msg)
        ply = len(msg["round"]["moves"])
        known = public_cards(rules, rnd, ply)
        if seat is None:
            assert "hand" not in msg and "legal" not in msg, msg
            assert "dealt" not in msg["round"], msg
        else:
            dealt = dealt_cards(rules, rnd, seat, ply)
            known |= dealt
            assert set(msg["hand"]) == dealt - played_cards(rnd, ply), msg
            assert set(msg["round"]["dealt"]) == dealt, msg
        assert named <= known, (named - known, msg)
        checked += 1
    return checked
def check_drawn(client):
    """Every state's "drawn" (issue 33: what a client draws, with no rules
    of its own) agrees with the round it shows and with the library's
    score: each seat's hand count (the seat's own is its hand), the 40
    cards all in a hand, the stock, the table or a pile; the table and the
    piles are the cards dealt to the table and played, nothing else; each
    scopa card lies in its side's pile; the last move is the round's last
    with its seat (RULES.md "Seats": the seat after the dealer leads);
    and the state before a round_over has each side's cards and scope as
    that round_over counts them.  Returns how many states were checked."""
    checked = 0
    before = None
    for msg in client.log:
        if msg["type"] == "round_over" and before is not None:
            d = before["drawn"]
            assert [len(p) for p in d["piles"]] == \
                [s["cards"] for s in msg["sides"]], (d, msg)
            assert [len(s) for s in d["scope"]] == \
                [s["scope"] for s in msg["sides"]], (d, msg)
            assert [sum(c.endswith("d") for c in p) for p in d["piles"]] == \
                [s["denari"] for s in msg["sides"]], (d, msg)
            # the categories' cards, as the library counts them
            cats = d["categories"]
            assert [len(c["denari"]) for c in cats] == \
                [s["denari"] for s in msg["sides"]], (d, msg)
            assert [len(c["sevens"]) for c in cats] == \
                [s["sevens"] for s in msg["sides"]], (d, msg)
            for side, c in enumerate(cats):
                assert set(c["denari"]) | set(c["sevens"]) <= \
                    set(d["piles"][side]), d
                best = [p for p in c["primiera"] if p]
                assert all(p["card"] in d["piles"][side] for p in best), d
                assert [p["card"][-1] for p in best] == \
                    [s for s in "dcsb" if any(
                        x.endswith(s) for x in d["piles"][side])], d
                if len(best) == 4:  # a side lacking a suit may score 0
                    assert sum(p["value"] for p in best) == \
                        msg["sides"][side]["primiera"], (c, msg)
        if msg["type"] != "state":
            continue
        before = msg
        d, rnd = msg["drawn"], msg["round"]
        n = msg["rules"]["players"]
        moves = rnd["moves"]
        assert len(d["hands"]) == n, d
        if msg["seat"] is not None:
            assert d["hands"][msg["seat"]] == len(msg["hand"]), msg
        piles = [c for p in d["piles"] for c in p]
        assert sum(d["hands"]) + d["stock"] + len(d["table"]) + \
            len(piles) == 40, d
        seen = set(rnd["table"])
        for m in moves:
            seen |= move_cards(m)
        assert len(set(d["table"]) | set(piles)) == \
            len(d["table"]) + len(piles), d
        assert set(d["table"]) | set(piles) == seen, (d, rnd)
        for side, cards in enumerate(d["scope"]):
            assert set(cards) <= set(d["piles"][side]), d
        over = sum(d["hands"]) == 0 and d["stock"] == 0
        assert ("categories" in d) == over, d
        if moves:
            # the last move as played, in the connection's words (English
            # until it says its language): "takes ...", "lays ..."
            words = d["last"].pop("words")
            assert words.startswith("takes " if "x" in moves[-1]
                                    else "lays "), (words, d)
            assert d["last"] == {"move": moves[-1],
                                 "seat": (rnd["dealer"] + len(moves)) % n}, d
        else:
            assert d["last"] is None, d
        checked += 1
    return checked


def replay(record_bytes):
    """`scopa replay --json` of a record; its parsed answer."""
    p = subprocess.run([scopa_bin(), "replay", "--json", "-"],
                       input=record_bytes, capture_output=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)


WHY_CODES = ("scopa", "settebello", "gives_settebello", "opens", "safe",
             "sevens", "coins", "cards")


def check_why(move, why):
    """A move's "why" (scopa.h scopa_move_why_json) agrees with the move:
    the cards, coins and sevens it puts in the pile, the settebello, and
    only known reason codes, in the library's order."""
    assert isinstance(why, dict), why
    codes = why["codes"]
    assert [c for c in WHY_CODES if c in codes] == codes, why
    card, _, takes = move.partition("x")
    pile = [card] + takes.split("+") if takes else []
    assert why["cards"] == len(pile), (move, why)
    assert why["coins"] == sum(c.endswith("d") for c in pile), (move, why)
    assert why["sevens"] == sum(c[:-1] == "7" for c in pile), (move, why)
    assert ("settebello" in codes) == ("7d" in pile), (move, why)
    risky = "opens" in codes or "gives_settebello" in codes
    assert (1 <= why["rank"] <= 10 and why["sum"] > 0) if risky else \
        why["rank"] == 0, (move, why)
    assert not ("opens" in codes and "safe" in codes), (move, why)
