"""`scopa serve --store postgresql://...` (issue 24): what only the
PostgreSQL store has; the rest of the suite runs on it too (CTest's
server/serve_pg, SCOPA_TEST_STORE=postgresql).

  pg-1.1  every move of a game is a row of PostgreSQL's moves, numbered
          from 0 without a gap, in the record's order; the game finished
  pg-1.2  two servers share one database (no lock, by design): both
          start, and a game one stored downloads from the other
  pg-1.3  the start refuses, with one line and exit status 1, a server
          that does not answer (the password never printed), another
          program's database and a newer scopa's schema
  pg-1.4  PostgreSQL restarted between moves: the server reconnects and
          the game goes on with no error and nothing lost
  pg-1.5  a database of schema version 1 as the first cluster wrote
          it (leases with a foreign key, the relay logged, no accounts)
          moves on to version 3 at the start: every step of the schema
          is a versioned migration, nothing of the game lost
  pg-2.1  leases: a node without the lease never writes a move
          (test_store_lease.c)
"""
import asyncio
import json
import os
import random
import subprocess

from serverlib import (Client, Server, free_port, my_turn, play_to_end,
                       postgres, postgresql_only, replay, scopa_bin)

pytestmark = postgresql_only
SHORT = {"target": 3}


def run(coro):
    return asyncio.run(coro)


def dbname(db):
    return postgres().url(db).rsplit("/", 1)[1]


async def game_vs_bot(server, seed):
    a = await Client.connect(server, "a")
    await a.seated({"type": "create", "rules": SHORT,
                    "seats": ["me", "greedy"], "name": "Anna"})
    await play_to_end([a], random.Random(seed))
    await a.close()
    return a.code


def test_pg_1_1_every_move_is_a_row(tmp_path):
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    try:
        code = run(game_vs_bot(s, 11))
        status, body, _ = s.http("/api/tables/%s/record" % code)
        assert status == 200, body
    finally:
        s.stop()
    record = json.loads(body)
    assert replay(body)["finished"]
    rows = postgres().psql("SELECT number, move FROM moves WHERE code = '%s'"
                           " ORDER BY number" % code, db=dbname(db)).split()
    numbers = [int(r.split("|")[0]) for r in rows]
    moves = [r.split("|")[1] for r in rows]
    assert numbers == list(range(len(rows))), numbers
    assert moves == [m for r in record["rounds"] for m in r["moves"]]
    assert postgres().psql("SELECT finished FROM games WHERE code = '%s'"
                           % code, db=dbname(db)).strip() == "1"


def test_pg_1_2_two_servers_share_one_database(tmp_path):
    db = str(tmp_path / "serve.db")
    a = Server(db).start()
    b = Server(db).start()  # SQLite would refuse: the file is a's
    try:
        code = run(game_vs_bot(a, 12))
        status, body, _ = b.http("/api/tables/%s/record" % code)
        assert status == 200, body
        assert replay(body)["finished"]
    finally:
        a.stop()
        b.stop()


def refused(url):
    p = subprocess.run([scopa_bin(), "serve", "--port", str(free_port()),
                        "--store", url, "--quiet"],
                       capture_output=True, timeout=60)
    err = p.stderr.decode()
    assert p.returncode == 1, err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_pg_1_3_refused_at_start(tmp_path):
    pg = postgres()
    err = refused("postgresql://scopa:s3cret@127.0.0.1:%d/x" % free_port())
    assert "cannot be reached" in err and "s3cret" not in err, err
    other = pg.url(str(tmp_path / "other"))
    pg.psql("CREATE TABLE invoices(n integer)", db=other.rsplit("/", 1)[1])
    assert "not a scopa database" in refused(other)
    newer = str(tmp_path / "newer")
    Server(newer).start().stop()  # the schema, version 1
    pg.psql("UPDATE scopa_schema SET version = 99", db=dbname(newer))
    assert "newer scopa" in refused(pg.url(newer))


V1 = """
CREATE TABLE scopa_schema(version integer NOT NULL);
INSERT INTO scopa_schema VALUES (1);
CREATE TABLE games(code text PRIMARY KEY, seed text NOT NULL,
  rules text NOT NULL, away_s integer NOT NULL, clock_s integer NOT NULL,
  created bigint NOT NULL, finished integer NOT NULL DEFAULT 0,
  rated integer NOT NULL DEFAULT 0);
CREATE TABLE seats(code text NOT NULL REFERENCES games(code),
  seat integer NOT NULL, kind integer NOT NULL, name text NOT NULL,
  bot text NOT NULL, token_sha256 text NOT NULL, player text NOT NULL,
  PRIMARY KEY (code, seat));
CREATE TABLE moves(code text NOT NULL REFERENCES games(code),
  number integer NOT NULL, move text NOT NULL, PRIMARY KEY (code, number));
CREATE TABLE ratings(pool text NOT NULL, player text NOT NULL,
  name text NOT NULL, rating double precision NOT NULL,
  rd double precision NOT NULL, vol double precision NOT NULL,
  games integer NOT NULL, PRIMARY KEY (pool, player));
CREATE TABLE leases(code text PRIMARY KEY REFERENCES games(code),
  node text NOT NULL, epoch bigint NOT NULL, expires timestamptz NOT NULL);
CREATE TABLE nodes(node text PRIMARY KEY, seen timestamptz NOT NULL);
CREATE TABLE relay(id bigserial PRIMARY KEY, dst text NOT NULL,
  src text NOT NULL, conn bigint NOT NULL, kind integer NOT NULL,
  addr text NOT NULL, body text NOT NULL);
INSERT INTO games VALUES ('OLD001', 'seed', '{}', 60, 0, 1, 1, 0);
INSERT INTO seats VALUES ('OLD001', 0, 1, 'Anna', '', 'x', 'y');
"""


def test_pg_1_5_a_version_1_database_moves_on(tmp_path):
    pg = postgres()
    db = str(tmp_path / "v1")
    assert pg.url(db)  # the database, made
    name = dbname(db)
    pg.psql(V1, db=name)
    Server(db).start().stop()
    assert pg.psql("SELECT version FROM scopa_schema", db=name).strip() == "8"
    assert pg.psql("SELECT count(*) FROM information_schema.columns WHERE "
                   "table_name = 'moves' AND column_name IN ('at_ms', "
                   "'took_ms')", db=name).strip() == "2"
    assert pg.psql("SELECT count(*) FROM seeks", db=name).strip() == "0"
    assert pg.psql("SELECT count(*) FROM tourneys", db=name).strip() == "0"
    assert pg.psql("SELECT count(*) FROM games WHERE tourney = '' AND "
                   "abandoned = 0", db=name).strip() == "1"
    assert pg.psql("SELECT relpersistence FROM pg_class WHERE relname = "
                   "'relay'", db=name).strip() == "u"
    assert pg.psql("SELECT count(*) FROM information_schema."
                   "table_constraints WHERE table_name = 'leases' AND "
                   "constraint_type = 'FOREIGN KEY'", db=name).strip() == "0"
    assert pg.psql("SELECT name || ':' || account FROM seats WHERE code = "
                   "'OLD001'", db=name).strip() == "Anna:0"
    assert pg.psql("SELECT count(*) FROM accounts", db=name).strip() == "0"


def test_pg_1_4_postgres_restarted_between_moves(tmp_path):
    """Every connection of the server (the writer's, the loop's) is cut
    by a restart while no batch is in flight; the next moves are stored
    and announced as if nothing happened.  Before the reconnection was
    retried, the first write after the restart failed (store_failed)."""
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    rng = random.Random(14)

    async def go():
        a = await Client.connect(s, "a")
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "greedy"], "name": "Anna"})
        played = 0
        while True:
            msg = await a.next()
            if my_turn(msg, a.seat):
                if played == 3:  # stored and announced: nothing in flight
                    a.unread.insert(0, msg)
                    break
                await a.send({"type": "move", "move": rng.choice(msg["legal"]),
                              "ply": len(msg["round"]["moves"])})
                played += 1
        postgres().restart()
        over = await play_to_end([a], rng)
        await a.close()
        assert not [m for m in a.log if m["type"] == "error"], a.log
        return a.code, over
    try:
        code, over = run(go())
        status, body, _ = s.http("/api/tables/%s/record" % code)
        assert status == 200 and replay(body)["totals"] == over["totals"]
    finally:
        err = s.stop()
    assert "reconnected to PostgreSQL" in err, err


def test_pg_2_1_leases_fence_the_writes_of_a_node_without_one(tmp_path):
    """The first piece of "any node serves any table": the lease table
    and fenced move writes, on a fresh database (test_store_lease.c)."""
    binary = os.path.join(os.path.dirname(scopa_bin()), "tests", "server",
                          "test_store_lease")
    p = subprocess.run([binary, postgres().url(str(tmp_path / "lease"))],
                       capture_output=True, timeout=120)
    out = (p.stdout + p.stderr).decode()
    assert p.returncode == 0, out
    assert " 0 failed" in out, out
