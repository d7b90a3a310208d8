"""`scopa serve` and its database against strangers (issue 22, items 5 and
6): the real server of the sanitizer build, real SQLite faults, real
WebSocket clients.

  store-1.x  one server per database file, by any path or link; the lock
             dies with the process (kill -9 included)
  store-2.x  a file that cannot be written is refused at start, with one
             line naming it, never at the first move
  store-3.x  a damaged file is refused at start (PRAGMA quick_check); damage
             found later, or that quick_check cannot see, answers
             table_damaged and is logged, never no_table
  store-4.x  a failed write (a real SQLite failure: a trigger that refuses
             one table's rows) stops that table and no other; nothing it
             did not store is ever announced, not even to a spectator who
             arrives while the write is in flight (held there by another
             program's write lock), and kill -9 in that window loses
             nothing announced

As root (which file permissions do not bind) the read-only cases run the
server as the user nobody through setpriv (util-linux, in every Debian).

store-1.x to 3.x are SQLite's own (its file, its lock, its pages) and
run on the SQLite store only (sqlite_only); store-4.x run on both, the
faults injected with each store's own tools (a trigger, another
program's write lock: sqlite3, or psql with LOCK TABLE moves).
"""
import asyncio
import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
import time
import urllib.error

import pytest
import websockets

from serverlib import (PG_BIN, STORE, TIMEOUT, Client, Server, free_port,
                       my_turn, play_to_end, postgres, replay, scopa_bin,
                       sqlite_only)

SHORT = {"target": 3}
NOBODY = 65534


def run(coro):
    return asyncio.run(coro)


def refused(db, prefix=()):
    """Starts `scopa serve --db db` and expects a refusal: exit status 1,
    before it ever listens, with one line on stderr naming the file.
    Returns that line.  A server that starts instead fails the test."""
    port = free_port()
    p = subprocess.Popen(list(prefix) + [scopa_bin(), "serve", "--port",
                                         str(port), "--db", db, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    probe = Server(db, port=port)
    deadline = time.time() + TIMEOUT
    while p.poll() is None and time.time() < deadline:
        try:
            probe.http("/healthz")
            p.kill()
            p.wait()
            raise AssertionError("the server started on %s: %s" %
                                 (db, p.stderr.read().decode()))
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.05)
    if p.poll() is None:
        p.kill()
    p.wait()
    err = p.stderr.read().decode()
    assert p.returncode == 1, (p.returncode, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("scopa serve: "), err
    assert db in lines[0], err
    return lines[0]


async def table_vs_bot(server, name, rng, moves):
    """A table of a person against greedy, `moves` of the person's moves
    played; returns the client, its turn's state left unread."""
    c = await Client.connect(server, name)
    await c.seated({"type": "create", "rules": SHORT,
                    "seats": ["me", "greedy"], "name": name})
    for _ in range(moves):
        st = await c.until(lambda m: my_turn(m, 0))
        await c.send({"type": "move", "move": rng.choice(st["legal"]),
                      "ply": len(st["round"]["moves"])})
    st = await c.until(lambda m: my_turn(m, 0))
    c.unread.insert(0, st)
    return c


async def resume_at(server, code, token, last):
    """Resumes a seat by its token and checks that it is where the state
    `last` left it; returns the client."""
    c = await Client.connect(server, "again")
    await c.seated({"type": "resume", "code": code, "token": token})
    for key in ("round", "hand", "scores"):
        assert c.state[key] == last[key], key
    return c


def resumes(server, a):
    """The seat of client `a` resumes where `a` last saw it."""
    async def go():
        c = await resume_at(server, a.code, a.token, a.unread[0])
        await c.close()
    run(go())


async def answer(server, code):
    """What `watch` of a code answers: a state or an error."""
    c = await Client.connect(server, "watch-" + code)
    await c.send({"type": "watch", "code": code})
    msg = await c.until(lambda m: m["type"] in ("state", "error"))
    await c.close()
    return msg


async def drain(client, seconds):
    """What arrives within `seconds`, until the connection closes."""
    try:
        await client.quiet(seconds)
    except websockets.exceptions.ConnectionClosed:
        pass


def states_of(client, code):
    return [m for m in client.log if m["type"] == "state" and
            m["code"] == code]


# ----------------------------------------------------------------------
# A database with 30 tables, made once by the server itself
# ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def thirty(tmp_path_factory):
    """A database file holding 30 tables of 6 moves each or more, written
    by the server and closed cleanly (its WAL folded into the file), and
    their codes with the last state each person saw."""
    db = str(tmp_path_factory.mktemp("thirty") / "serve.db")
    s = Server(db).start()
    rng = random.Random(30)

    async def make():
        clients = await asyncio.gather(*(table_vs_bot(s, "p%d" % i, rng, 3)
                                         for i in range(30)))
        seen = {c.code: c.unread[0] for c in clients}
        for c in clients:
            await c.close()
        return seen
    try:
        seen = run(make())
    finally:
        s.stop()
    assert not os.path.exists(db + "-wal") or os.path.getsize(db + "-wal") == 0
    return db, seen


def copy_db(src, tmp_path):
    db = str(tmp_path / "serve.db")
    shutil.copyfile(src, db)
    return db


# ----------------------------------------------------------------------
# store-1: one server per file
# ----------------------------------------------------------------------

@sqlite_only
def test_store_1_1_a_second_server_on_the_same_file_is_refused(tmp_path):
    """While a server serves a file, another `scopa serve` on it, by the
    same path, another spelling of it, a symbolic or a hard link, exits 1
    naming the file and the first server's pid; the first goes on."""
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    rng = random.Random(51)
    try:
        a = run(table_vs_bot(s, "a", rng, 2))
        os.symlink(db, str(tmp_path / "link.db"))
        os.link(db, str(tmp_path / "hard.db"))
        os.mkdir(str(tmp_path / "sub"))
        for other in (db, os.path.join(str(tmp_path), "sub", "..", "serve.db"),
                      str(tmp_path / "link.db"), str(tmp_path / "hard.db")):
            line = refused(other)
            assert ("is already served by another process (pid %d)" %
                    s.proc.pid) in line, line

        resumes(s, a)
    finally:
        s.stop()


@sqlite_only
def test_store_1_2_the_lock_lives_as_long_as_the_process(tmp_path):
    """The lock goes with the process: after a clean stop and after
    kill -9 a new server starts on the file at once, and the table is
    where it was."""
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    a = run(table_vs_bot(s, "a", random.Random(52), 2))
    s.stop()
    s2 = Server(db).start()
    s2.kill9()
    s3 = Server(db).start()
    try:
        resumes(s3, a)
    finally:
        s3.stop()


# ----------------------------------------------------------------------
# store-2: files that cannot be written
# ----------------------------------------------------------------------

def unprivileged():
    """The prefix that runs a command as a user the file permissions
    bind: nothing for an ordinary user, setpriv to nobody for root."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
            "--clear-groups"]


def give_away(path):
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)


@pytest.fixture
def open_dir(thirty):
    """A folder the unprivileged user can reach (pytest's are 0700)
    holding a copy of the thirty-table database."""
    d = tempfile.mkdtemp(prefix="scopa-store-")
    os.chmod(d, 0o755)
    db = os.path.join(d, "serve.db")
    shutil.copyfile(thirty[0], db)
    yield d, db
    shutil.rmtree(d)


@sqlite_only
def test_store_1_3_store_names_the_file_as_db_does(tmp_path):
    """`--store FILE` and `--store sqlite:FILE` are the SQLite store at
    FILE, as `--db FILE` (and the later flag wins): the moves land in
    that file, claimed by its lock."""
    for i, spell in enumerate(("%s", "sqlite:%s")):
        path = str(tmp_path / ("s%d.db" % i))
        unused = str(tmp_path / ("unused%d.db" % i))
        s = Server(unused, "--store", spell % path).start()
        try:
            assert "already served" in refused(path)

            async def one_move():
                c = await table_vs_bot(s, "a", random.Random(i), 1)
                await c.close()
                return c.code
            code = run(one_move())
        finally:
            s.stop()
        with sqlite3.connect(path) as con:
            n = con.execute("SELECT count(*) FROM moves WHERE code = ?",
                            (code,)).fetchone()[0]
        con.close()
        assert n >= 2, n  # the person's move and the bot's answer
        assert not os.path.exists(unused)


@sqlite_only
def test_store_2_1_a_read_only_file_is_refused_at_start(open_dir):
    """A database file the server may not write (mode 0444, its folder
    writable) is refused at start with one line naming it, and left as it
    was; it used to be accepted, and the first create killed the
    server."""
    d, db = open_dir
    give_away(d)
    give_away(db)
    os.chmod(db, 0o444)
    before = open(db, "rb").read()
    line = refused(db, unprivileged())
    assert "is read-only" in line, line
    assert open(db, "rb").read() == before


@sqlite_only
def test_store_2_2_a_folder_without_room_for_the_wal_is_refused(open_dir):
    """The file is writable but its folder is not, so SQLite cannot make
    the WAL beside it: refused at start, naming the file."""
    d, db = open_dir
    give_away(db)
    line = refused(db, unprivileged())
    assert "is read-only" in line and "folder" in line, line


# ----------------------------------------------------------------------
# store-3: damaged files
# ----------------------------------------------------------------------

def garbage_in_the_middle(db, aligned):
    """8 KB of garbage in the middle of the file's pages of moves (at a
    page boundary when aligned: then every damaged page's header is
    garbage too).  The pages are the moves' (SQLite's dbstat), so that
    tables added to the schema do not move the garbage off the games."""
    con = sqlite3.connect(db)
    pages = sorted(p for (p,) in con.execute(
        "SELECT pageno FROM dbstat WHERE name = 'moves'"))
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    at = (pages[len(pages) // 2] - 1) * size
    if not aligned:
        at += size // 2
    junk = random.Random(22).randbytes(8192)
    assert junk[0] not in (2, 5, 10, 13) and junk[4096] not in (2, 5, 10, 13)
    with open(db, "r+b") as f:
        f.seek(at)
        f.write(junk)


@sqlite_only
def test_store_3_1_a_damaged_file_is_refused_at_start(thirty, tmp_path):
    """8 KB of garbage in the middle of a file of 30 tables: the server
    refuses to start, saying the file is damaged and what quick_check
    found, and writes nothing to it.  It used to start and answer
    no_table for most of the tables, logging nothing."""
    db = copy_db(thirty[0], tmp_path)
    garbage_in_the_middle(db, aligned=False)
    before = open(db, "rb").read()
    line = refused(db)
    # what quick_check found, or SQLite's own word when the damage keeps
    # quick_check from running (where the garbage lands depends on the
    # file's layout, so on the seeds' length)
    assert "is damaged (PRAGMA quick_check: " in line or \
        "is damaged: database disk image is malformed" in line, line
    assert open(db, "rb").read() == before


@sqlite_only
def test_store_3_2_damage_found_while_serving_is_never_unknown(thirty,
                                                              tmp_path):
    """The same garbage written while the server runs (after its start's
    check): every table answers its state or table_damaged, never
    no_table; each damaged one is logged with its code; the others are
    exactly as stored; and the next start refuses the file."""
    db = copy_db(thirty[0], tmp_path)
    seen = thirty[1]
    s = Server(db).start()
    try:
        garbage_in_the_middle(db, aligned=True)

        async def ask():
            return {code: await answer(s, code) for code in seen}
        got = run(ask())
    finally:
        err = s.stop()
    errors = {m["code"] for m in got.values() if m["type"] == "error"}
    assert errors <= {"table_damaged"}, errors
    damaged = [c for c, m in got.items() if m["type"] == "error"]
    assert damaged, "the garbage hit no table's rows"
    for code, m in got.items():
        if m["type"] == "error":
            assert code in m["message"] and "danneggiato" in m["message_it"]
            assert "table %s cannot be loaded (table_damaged)" % code in err
        else:
            assert m["round"]["moves"] == seen[code]["round"]["moves"]
    assert "is damaged" in refused(db)


@sqlite_only
def test_store_3_3_rows_that_quick_check_passes_but_do_not_load(thirty,
                                                              tmp_path):
    """Rows whose pages are sound but whose content is wrong (a move that
    cannot be read, a move against the rules, a missing move: quick_check
    says ok) answer table_damaged to join, resume and watch, and 500 to
    the record, each logged; the other tables load."""
    db = copy_db(thirty[0], tmp_path)
    codes = sorted(thirty[1])
    a, b, c, ok = codes[:4]
    with sqlite3.connect(db) as con:
        first = con.execute("SELECT move FROM moves WHERE code = ? AND "
                            "number = 0", (b,)).fetchone()[0]
        con.execute("UPDATE moves SET move = 'zz' WHERE code = ? AND "
                    "number = 2", (a,))
        con.execute("UPDATE moves SET move = ? WHERE code = ? AND "
                    "number = 2", (first, b))  # a card played already
        con.execute("DELETE FROM moves WHERE code = ? AND number = 1", (c,))
        assert con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    con.close()
    s = Server(db).start()
    try:
        async def ask():
            out = {}
            for code in (a, b, c, ok):
                out[code] = (await answer(s, code))
            x = await Client.connect(s, "x")
            await x.send({"type": "join", "code": a, "name": "x"})
            out["join"] = await x.until(lambda m: m["type"] == "error")
            await x.send({"type": "resume", "code": b, "token": "0" * 32})
            out["resume"] = await x.until(lambda m: m["type"] == "error")
            await x.close()
            return out
        got = run(ask())
        status, body, _ = s.http("/api/tables/%s/record" % c)
        assert status == 500 and b"table_damaged" in body, (status, body)
        assert s.http("/api/tables/ZZZZZZ/record")[0] == 404
    finally:
        err = s.stop()
    for code in (a, b, c):
        assert got[code]["code"] == "table_damaged", got[code]
    assert got["join"]["code"] == got["resume"]["code"] == "table_damaged"
    assert got[ok]["type"] == "state"
    assert "table %s cannot be loaded (table_damaged): move 2 cannot be " \
        "read" % a in err, err
    assert "table %s cannot be loaded (table_damaged): stored move 2 does " \
        "not replay" % b in err, err
    assert "table %s cannot be loaded (table_damaged): move 1 is " \
        "missing" % c in err, err


# ----------------------------------------------------------------------
# store-4: failed writes
# ----------------------------------------------------------------------

def pg_db(db):
    return postgres().url(db).rsplit("/", 1)[1]


def refuse_moves(db, code):
    """A trigger that makes every insert of a move of table `code` fail: a
    real failed write of the store (SQLite's RAISE(ABORT), PostgreSQL's
    check_violation: a constraint's, the write's own), touching that
    table only.  Added by another connection while the server runs, as
    an operator's tool could."""
    if STORE == "postgresql":
        postgres().psql(
            "CREATE FUNCTION refuse_%s() RETURNS trigger LANGUAGE plpgsql AS "
            "$$BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = "
            "'check_violation'; END$$; CREATE TRIGGER refuse_%s BEFORE "
            "INSERT ON moves FOR EACH ROW WHEN (NEW.code = '%s') EXECUTE "
            "FUNCTION refuse_%s()" % (code, code, code, code), db=pg_db(db))
        return
    with sqlite3.connect(db, timeout=30) as con:
        con.execute("CREATE TRIGGER refuse_%s BEFORE INSERT ON moves WHEN "
                    "NEW.code = '%s' BEGIN SELECT RAISE(ABORT, 'refused by "
                    "the test'); END" % (code, code))
    con.close()


def allow_moves(db, code):
    if STORE == "postgresql":
        postgres().psql("DROP TRIGGER refuse_%s ON moves" % code,
                        db=pg_db(db))
        return
    with sqlite3.connect(db, timeout=30) as con:
        con.execute("DROP TRIGGER refuse_%s" % code)
    con.close()


class WriteLock:
    """Another program holding the database's write lock for a moment
    (well under the server's 5 s busy timeout): the server's next write
    waits for it, so a move stays in flight, unstored, for as long as the
    test needs, whatever the machine's speed."""

    def __init__(self, db):
        self.con = self.psql = None
        if STORE == "postgresql":  # reads go on, as beside SQLite's lock
            pg = postgres()
            self.psql = subprocess.Popen(
                [PG_BIN + "/psql", "-X", "-q", "-A", "-t", "-h", "127.0.0.1",
                 "-p", str(pg.port), "-U", "scopa", "-d", pg_db(db)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.psql.stdin.write("BEGIN; LOCK TABLE moves IN EXCLUSIVE "
                                  "MODE; SELECT 'locked';\n")
            self.psql.stdin.flush()
            assert self.psql.stdout.readline().strip() == "locked"
            return
        self.con = sqlite3.connect(db, timeout=30, isolation_level=None)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self):
        if self.psql:
            self.psql.communicate("ROLLBACK;\n", timeout=30)
            self.psql = None
        if self.con:
            self.con.execute("ROLLBACK")
            self.con.close()
            self.con = None


def never_past(client, code, last):
    """No state of table `code` that `client` received shows a move after
    `last` (the last stored position) in its round."""
    for m in states_of(client, code):
        if m["round"]["dealer"] == last["round"]["dealer"] and \
                m["scores"] == last["scores"]:
            assert len(m["round"]["moves"]) <= len(last["round"]["moves"]), m


def test_store_4_1_a_failed_write_stops_its_table_only(tmp_path):
    """Two tables playing; table A's next move cannot be stored (the
    database refuses its row).  A's person and its spectators, one of
    them arriving while the write is in flight, get store_failed and
    never a state with that move; A takes no more moves; B plays to the
    end; the server stays up and exits 0; A, resumed on the same server
    and after a restart, is at its last stored move and plays to the end.
    It used to stop the whole server."""
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    rng = random.Random(41)
    state = {}

    async def first():
        a = await table_vs_bot(s, "a", rng, 3)
        b = await table_vs_bot(s, "b", rng, 3)
        w = await Client.connect(s, "w")
        await w.send({"type": "watch", "code": a.code})
        await w.until(lambda m: m["type"] == "state")
        last = await a.next()
        refuse_moves(db, a.code)
        lock = WriteLock(db)
        try:
            await a.send({"type": "move", "move": rng.choice(last["legal"]),
                          "ply": len(last["round"]["moves"]), "id": 9})
            await asyncio.sleep(0.3)
            late = await Client.connect(s, "late")
            await late.send({"type": "watch", "code": a.code})
            await late.quiet(0.3)
        finally:
            lock.release()
        for c in (a, w, late):
            e = await c.until(lambda m: m["type"] == "error")
            assert e["code"] == "store_failed", e
            assert a.code in e["message"] and a.code in e["message_it"], e
            await c.quiet(0.3)
            never_past(c, a.code, last)
        assert not states_of(late, a.code)
        await a.send({"type": "move", "move": last["legal"][0],
                      "ply": len(last["round"]["moves"])})
        e = await a.until(lambda m: m["type"] == "error")
        assert e["code"] == "not_seated", e
        over = await play_to_end([b], rng)
        status, body, _ = s.http("/api/tables/%s/record" % b.code)
        assert status == 200 and replay(body)["totals"] == over["totals"]
        assert s.http("/healthz")[0] == 200
        allow_moves(db, a.code)
        again = await resume_at(s, a.code, a.token, last)
        for c in (a, b, w, late, again):
            await c.close()
        state.update(code=a.code, token=a.token, last=last)
    try:
        run(first())
    finally:
        err = s.stop()
    assert "table %s stopped: a write failed (the database refused the " \
        "write)" % state["code"] in err, err
    s2 = Server(db).start()
    try:
        async def second():
            a = await resume_at(s2, state["code"], state["token"],
                                state["last"])
            over = await play_to_end([a], rng)
            status, body, _ = s2.http("/api/tables/%s/record" %
                                      state["code"])
            assert status == 200 and replay(body)["totals"] == over["totals"]
            await a.close()
        run(second())
    finally:
        s2.stop()


def test_store_4_2_a_late_spectator_and_kill9_mid_write(tmp_path):
    """A move whose write waits (another program holds the write lock): a
    spectator who arrives meanwhile hears nothing of the table before the
    move is stored; kill -9 during the wait, restart: everything the
    spectator and the mover were told is stored.  The spectator used to
    get the unstored move at once, and lose it to the kill."""
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    rng = random.Random(42)

    async def first():
        a = await table_vs_bot(s, "a", rng, 2)
        last = await a.next()
        lock = WriteLock(db)
        try:
            await a.send({"type": "move", "move": rng.choice(last["legal"]),
                          "ply": len(last["round"]["moves"])})
            await asyncio.sleep(0.3)
            late = await Client.connect(s, "late")
            await late.send({"type": "watch", "code": a.code})
            await late.quiet(1.0)
            s.kill9()
        finally:
            lock.release()
        await drain(a, 0.2)
        await drain(late, 0.2)
        return a, late, last
    a, late, last = run(first())
    assert not states_of(late, a.code), late.log
    s2 = Server(db).start()
    try:
        async def second():
            stored = await answer(s2, a.code)
            assert stored["round"]["moves"] == last["round"]["moves"], stored
            never_past(a, a.code, stored)
        run(second())
    finally:
        s2.stop()
