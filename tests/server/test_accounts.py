"""Accounts, sessions and the ratings only they earn (issue 32; CONTRACTS.md
"Accounts, sessions and origins"; docs/serve.md "Accounts").

Every test drives the real `scopa serve` over loopback: the HTTP routes
with http.client, the WebSocket with a real client carrying the session
cookie.  acct-3.1 and acct-3.2 fail on the code before accounts (a shared
player token then rated a game against itself, and guests were rated)."""
import asyncio
import http.client
import json
import random
import sqlite3
import statistics
import subprocess
import time

import pytest
import websockets

from serverlib import (SHORT, STORE, Client, Server, play_to_end, run,
                       scopa_bin, sqlite_only)

FAST = ("--pwhash-ops", "1", "--pwhash-mib", "8")  # cheap hashes for tests


def call(server, method, path, body=None, cookie=None, headers=None):
    """(status, JSON body or None, headers) of one request."""
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    h = dict(headers or {})
    if cookie:
        h["Cookie"] = "scopa_session=" + cookie
    data = json.dumps(body) if isinstance(body, (dict, list)) else body
    if data is not None:
        h["Content-Type"] = "application/json"
    c.request(method, path, body=data, headers=h)
    r = c.getresponse()
    raw = r.read()
    c.close()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw
    return r.status, parsed, r.headers


def session_of(headers):
    """The scopa_session token a Set-Cookie header gives ("" to clear)."""
    value = headers.get("Set-Cookie") or ""
    assert value.startswith("scopa_session="), value
    return value.split(";")[0].split("=", 1)[1]


def signup(server, name, password="password1"):
    st, body, h = call(server, "POST", "/api/signup",
                       {"name": name, "password": password})
    assert st == 201, (st, body)
    return session_of(h)


async def connect(server, cookie=None, name="client", headers=None):
    headers = dict(headers or {})
    if cookie:
        headers["Cookie"] = "scopa_session=" + cookie
    ws = await websockets.connect(server.url, max_size=None,
                                  extra_headers=headers)
    c = Client(ws, name)
    c.hello = await c.next()
    assert c.hello["type"] == "hello"
    return c


@pytest.fixture
def srv(tmp_path):
    s = Server(str(tmp_path / "serve.db"), *FAST, "--away-timeout", "0").start()
    yield s
    s.stop()


def test_signup_login_logout(srv):
    """acct-1.1: sign up, log in, /api/me, log out; the cookie's flags."""
    st, body, h = call(srv, "POST", "/api/signup",
                       {"name": "Anna_1", "password": "password1"})
    assert st == 201 and body == {"name": "Anna_1"}
    flags = [f.strip().lower() for f in h["Set-Cookie"].split(";")]
    assert "httponly" in flags and "samesite=lax" in flags
    assert "path=/" in flags and "secure" not in flags  # plain http here
    first = session_of(h)
    assert len(first) == 64
    st, me, _ = call(srv, "GET", "/api/me", cookie=first)
    assert st == 200 and me["name"] == "Anna_1" and me["ratings"] == {}
    # Names compare without case; a taken name is 409.
    st, body, _ = call(srv, "POST", "/api/signup",
                       {"name": "anna_1", "password": "password2"})
    assert st == 409 and body["error"] == "name_taken"
    st, body, h = call(srv, "POST", "/api/login",
                       {"name": "ANNA_1", "password": "password1"})
    assert st == 200 and body == {"name": "Anna_1"}
    second = session_of(h)
    assert second != first
    st, body, h = call(srv, "POST", "/api/logout", cookie=first)
    assert st == 200 and session_of(h) == ""
    assert call(srv, "GET", "/api/me", cookie=first)[0] == 401
    assert call(srv, "GET", "/api/me", cookie=second)[0] == 200
    st, body, _ = call(srv, "GET", "/api/me")
    assert st == 401 and body["error"] == "not_signed_in"


def test_refusals(srv):
    """acct-1.2: bad names and passwords, and a wrong name or password
    answered alike."""
    for name in ["ab", "a" * 21, "anna bella", "anna!", "", 7, None]:
        st, body, _ = call(srv, "POST", "/api/signup",
                           {"name": name, "password": "password1"})
        assert st == 400 and body["error"] == "bad_name", name
    for pw in ["short", "", 12345678, "x" * 300]:
        st, body, _ = call(srv, "POST", "/api/signup",
                           {"name": "bruno", "password": pw})
        assert st == 400 and body["error"] == "bad_password", pw
    signup(srv, "bruno")
    wrong_pw = call(srv, "POST", "/api/login",
                    {"name": "bruno", "password": "password9"})
    no_name = call(srv, "POST", "/api/login",
                   {"name": "nobody", "password": "password9"})
    assert wrong_pw[0] == no_name[0] == 401
    assert wrong_pw[1] == no_name[1] == {"error": "bad_login",
                                         "message": "wrong name or password"}
    for bad in ["not json", "[]", '{"name": 1}', ""]:
        st, body, _ = call(srv, "POST", "/api/login", bad)
        assert st == 401 and body["error"] == "bad_login", bad
    assert call(srv, "GET", "/api/login")[0] == 405
    assert call(srv, "POST", "/api/login", "x" * 10000)[0] == 413
    # A body declared too large is refused before it is sent.
    import socket
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as so:
        so.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\n"
                   b"Content-Length: 1000000000\r\n\r\n")
        assert so.recv(100).startswith(b"HTTP/1.1 413")
    # A POST with no body and no Content-Length is answered, not dropped.
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as so:
        so.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\n\r\n")
        assert so.recv(100).startswith(b"HTTP/1.1 401")


def test_same_time_either_way(tmp_path):
    """acct-1.3: a login on a name with no account takes as long as one
    with a wrong password (the real Argon2id cost: the default)."""
    s = Server(str(tmp_path / "t.db")).start()
    try:
        signup(s, "carla")
        times = {"carla": [], "nobody": []}
        for _ in range(6):
            for name in times:
                t0 = time.perf_counter()
                st, _, _ = call(s, "POST", "/api/login",
                                {"name": name, "password": "wrong-pass"})
                times[name].append(time.perf_counter() - t0)
                assert st == 401
        a, b = (statistics.median(times[n]) for n in times)
        assert a > 0.005 and b > 0.005  # a real hash was checked
        assert 0.5 < a / b < 2.0, times
    finally:
        s.stop()


def test_login_flood_limited(srv):
    """acct-1.4: failed logins on one name and from one address get 429
    with Retry-After; the name's owner is not told more."""
    signup(srv, "dario")
    codes = []
    for _ in range(14):
        st, body, h = call(srv, "POST", "/api/login",
                           {"name": "dario", "password": "wrong-pass"})
        codes.append(st)
        if st == 429:
            assert body["error"] == "too_many"
            assert int(h["Retry-After"]) > 0
    assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}
    # Other names from the same address: at most 30 failures in all.
    more = [call(srv, "POST", "/api/login",
                 {"name": "x%02d" % i, "password": "wrong-pass"})[0]
            for i in range(25)]
    assert more.count(429) >= 5 and more[-1] == 429


def test_origin_refused_on_post(srv):
    """acct-1.5: a POST from another site is refused before anything."""
    st, _, _ = call(srv, "POST", "/api/signup",
                    {"name": "eva", "password": "password1"},
                    headers={"Origin": "http://evil.example"})
    assert st == 403
    st, _, _ = call(srv, "POST", "/api/login",
                    {"name": "eva", "password": "password1"})
    assert st == 401  # the signup never happened


def test_websocket_plays_as_the_account(srv):
    """acct-2.1: a WebSocket with the cookie plays as the account: hello
    names it, the seat takes its name whatever `name` says; a guest still
    plays, unrated."""
    cookie = signup(srv, "Franca")

    async def go():
        a = await connect(srv, cookie)
        assert a.hello.get("account") == "Franca"
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "open"], "name": "Impostor"})
        st = await a.next()
        assert st["seats"][0] == "Franca" and st["rated"] is False
        g = await connect(srv)
        assert g.hello.get("account") is None
        await g.seated({"type": "join", "code": a.code, "name": "Gino"})
        st = g.unread[0]  # seated() leaves the state for play_to_end
        assert st["seats"] == ["Franca", "Gino"] and st["rated"] is False
        await play_to_end([a, g], random.Random(1))
        await asyncio.sleep(0.3)  # the writer's commit of the end
        await a.close()
        await g.close()
    run(go())
    if STORE != "postgresql":  # both stayed to the end: nobody abandoned
        con = sqlite3.connect(srv.db)
        assert con.execute("SELECT finished, abandoned FROM games").fetchall() \
            == [(1, 0)]
        con.close()
    st, me, _ = call(srv, "GET", "/api/me", cookie=cookie)
    assert me["ratings"] == {}  # against a guest: unrated
    st, games, _ = call(srv, "GET", "/api/me/games", cookie=cookie)
    assert len(games["games"]) == 1 and games["games"][0]["finished"]
    assert games["stats"]["games"] == 1


async def rated_game(server, cookies, rng, quit_seat=None):
    """One game between the accounts of `cookies` (seat order); the seat
    quit_seat leaves at once (a bot plays for it: --away-timeout 0)."""
    a = await connect(server, cookies[0], "a")
    await a.seated({"type": "create", "rules": SHORT, "seats": ["me", "open"]})
    b = await connect(server, cookies[1], "b")
    await b.seated({"type": "join", "code": a.code})
    st = b.unread[0]  # seated() leaves the state for play_to_end
    players = [a, b]
    if quit_seat is not None:
        await players[quit_seat].close()
        players.pop(quit_seat)
    over = await play_to_end(players, rng)
    await asyncio.sleep(0.3)  # the writer's commit of the ratings
    for c in players:
        await c.close()
    return st, over


def test_self_play_gains_nothing(srv):
    """acct-3.1: one account in both seats (two connections, one quitting
    at once) changes no rating, however often: the bug of issue 32, where
    a shared player token rated 1662 -> 1985 in four games."""
    cookie = signup(srv, "gina")
    other = call(srv, "POST", "/api/login",
                 {"name": "gina", "password": "password1"})[2]
    second = session_of(other)
    rng = random.Random(2)
    for _ in range(3):
        st, _ = run(rated_game(srv, [cookie, second], rng, quit_seat=0))
        assert st["rated"] is False
    me = call(srv, "GET", "/api/me", cookie=cookie)[1]
    assert me["ratings"] == {}
    board = json.loads(srv.http("/api/leaderboard?pool=2p")[1])
    assert board["players"] == []


def test_shared_player_token_unrated(srv):
    """acct-3.2: guests who send one `player` token in both seats (the
    farm of issue 32) are not rated at all, and nothing is listed."""
    async def go():
        a = await Client.connect(srv, "a")
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "open"], "player": "f" * 32})
        b = await Client.connect(srv, "b")
        await b.seated({"type": "join", "code": a.code, "player": "f" * 32})
        await a.close()
        await play_to_end([b], random.Random(3))
        await b.close()
    for _ in range(2):
        run(go())
    time.sleep(0.3)
    board = json.loads(srv.http("/api/leaderboard?pool=2p")[1])
    assert board["players"] == []


def test_rated_between_accounts(srv):
    """acct-3.3: two accounts rate each other once a game; the third game
    of the pair in a day is the last that counts; the leaderboard lists
    the accounts, provisional."""
    ca, cb = signup(srv, "hana"), signup(srv, "ivo")
    rng = random.Random(4)
    history = []
    for i in range(4):
        st, over = run(rated_game(srv, [ca, cb], rng))
        assert st["rated"] is True
        me = call(srv, "GET", "/api/me", cookie=ca)[1]
        history.append(me["ratings"]["2p"]["games"])
    assert history == [1, 2, 3, 3]  # the fourth changed nothing
    board = json.loads(srv.http("/api/leaderboard?pool=2p")[1])["players"]
    assert sorted(p["name"] for p in board) == ["hana", "ivo"]
    assert all(p["provisional"] and p["games"] == 3 for p in board)
    h = call(srv, "GET", "/api/me/history", cookie=ca)[1]["ratings"]["2p"]
    assert len(h) == 3 and all(set(x) == {"at", "rating", "rd", "code"}
                               for x in h)


def test_account_page_data(srv):
    """acct-4.1: the games list with results and statistics, the export
    (records `scopa replay` accepts), a new password, log out everywhere,
    and deleting the account (the games stay, the name anonymised)."""
    ca, cb = signup(srv, "luca"), signup(srv, "mara")
    run(rated_game(srv, [ca, cb], random.Random(5)))
    games = call(srv, "GET", "/api/me/games", cookie=ca)[1]
    g = games["games"][0]
    assert g["seats"] == ["luca", "mara"] and g["seat"] == 0 and g["rated"]
    assert len(g["totals"]) == 2 and g["winner"] in (0, 1, None)
    s = games["stats"]
    assert s["games"] == 1 and s["points"] == g["totals"][0]
    assert s["won"] == (1 if g["winner"] == 0 else 0)
    st, export, h = call(srv, "GET", "/api/me/export", cookie=ca)
    assert st == 200 and "attachment" in h["Content-Disposition"]
    assert export["name"] == "luca" and len(export["games"]) == 1
    rec = json.dumps(export["games"][0]).encode()
    p = subprocess.run([scopa_bin(), "replay", "-"], input=rec,
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    # A new password: the other sessions end, this one stays.
    other = session_of(call(srv, "POST", "/api/login",
                            {"name": "luca", "password": "password1"})[2])
    st, body, _ = call(srv, "POST", "/api/password",
                       {"old": "wrong-pass", "new": "password2"}, cookie=ca)
    assert st == 401 and body["error"] == "bad_login"
    st, _, _ = call(srv, "POST", "/api/password",
                    {"old": "password1", "new": "password2"}, cookie=ca)
    assert st == 200
    assert call(srv, "GET", "/api/me", cookie=other)[0] == 401
    assert call(srv, "GET", "/api/me", cookie=ca)[0] == 200
    assert call(srv, "POST", "/api/login",
                {"name": "luca", "password": "password1"})[0] == 401
    # Log out everywhere.
    again = session_of(call(srv, "POST", "/api/login",
                            {"name": "luca", "password": "password2"})[2])
    assert call(srv, "POST", "/api/logout_all", cookie=ca)[0] == 200
    assert call(srv, "GET", "/api/me", cookie=again)[0] == 401
    # Delete: the password first; then the name is free and anonymised.
    ca = session_of(call(srv, "POST", "/api/login",
                         {"name": "luca", "password": "password2"})[2])
    assert call(srv, "POST", "/api/delete", {"password": "nope-nope"},
                cookie=ca)[0] == 401
    assert call(srv, "POST", "/api/delete", {"password": "password2"},
                cookie=ca)[0] == 200
    assert call(srv, "GET", "/api/me", cookie=ca)[0] == 401
    code = g["code"]
    record = json.loads(srv.http("/api/tables/%s/record" % code)[1])
    assert "luca" not in json.dumps(record)
    board = json.loads(srv.http("/api/leaderboard?pool=2p")[1])["players"]
    assert [p["name"] for p in board] == ["mara"]
    signup(srv, "luca")  # the name may be taken again


def test_session_valid_after_restart(tmp_path):
    """acct-4.2: sessions are in the store: a restart (kill -9) keeps
    them."""
    s = Server(str(tmp_path / "r.db"), *FAST).start()
    cookie = signup(s, "nina")
    s.kill9()
    s = Server(str(tmp_path / "r.db"), *FAST).start()
    try:
        assert call(s, "GET", "/api/me", cookie=cookie)[1]["name"] == "nina"
    finally:
        s.stop()


@sqlite_only
def test_migration_from_version_1(tmp_path):
    """acct-5.1: a database of schema version 1 (before accounts) moves on
    to version 3 (the lobby's table came with 3) at the start with nothing
    lost: its game still gives its
    record, its guest rating row is kept (and not listed)."""
    db = str(tmp_path / "old.db")
    s = Server(db, *FAST).start()
    async def go():
        a = await Client.connect(s)
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "random"]})
        await play_to_end([a], random.Random(6))
        await a.close()
        return a.code
    code = run(go())
    s.stop()
    con = sqlite3.connect(db)
    record_moves = con.execute("SELECT count(*) FROM moves").fetchone()[0]
    # Back to version 1: the columns and tables accounts added go.
    con.executescript(
        "DROP TABLE accounts; DROP TABLE sessions; DROP TABLE tries;"
        "DROP TABLE rating_log; DROP INDEX seats_by_account;"
        "DROP TABLE lobby; DROP TABLE seeks; DROP TABLE talk;"
        "DROP TABLE reports; ALTER TABLE games DROP COLUMN talk;"
        "DROP TABLE tourneys; ALTER TABLE games DROP COLUMN tourney;"
        "ALTER TABLE games DROP COLUMN abandoned;"
        "ALTER TABLE seats DROP COLUMN account;"
        "ALTER TABLE ratings DROP COLUMN account;"
        "ALTER TABLE moves DROP COLUMN at_ms;"
        "ALTER TABLE moves DROP COLUMN took_ms;"
        "ALTER TABLE games DROP COLUMN bank_s;"
        "ALTER TABLE games DROP COLUMN inc_s;"
        "INSERT INTO ratings VALUES ('2p', 'p1', 'Old', 1700, 80, 0.06, 5);"
        "PRAGMA user_version = 1;")
    con.close()
    s = Server(db, *FAST).start()
    try:
        st, body, _ = s.http("/api/tables/%s/record" % code)
        assert st == 200
        con = sqlite3.connect(db)
        assert con.execute("PRAGMA user_version").fetchone()[0] == 7
        # the time bank's columns (version 5), old moves timed 0
        assert con.execute(
            "SELECT count(*) FROM moves WHERE at_ms = 0 AND took_ms = 0"
        ).fetchone()[0] == record_moves
        assert con.execute(
            "SELECT count(*) FROM games WHERE bank_s = 0").fetchone()[0] >= 1
        assert con.execute("SELECT count(*) FROM lobby").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM seeks").fetchone()[0] == 0
        # table talk's (version 6): old games quiet, nothing said
        assert con.execute("SELECT count(*) FROM games WHERE talk = 1"
                           ).fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM talk").fetchone()[0] == 0
        # tournaments' (version 7): old games of none, abandoned by none
        assert con.execute("SELECT count(*) FROM games WHERE tourney = '' "
                           "AND abandoned = 0").fetchone()[0] == \
            con.execute("SELECT count(*) FROM games").fetchone()[0]
        assert con.execute("SELECT count(*) FROM tourneys").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM moves").fetchone()[0] == \
            record_moves
        assert con.execute(
            "SELECT name FROM ratings WHERE player = 'p1'").fetchone() == \
            ("Old",)
        con.close()
        board = json.loads(s.http("/api/leaderboard?pool=2p")[1])
        assert board["players"] == []
        signup(s, "olga")
    finally:
        s.stop()


def test_quitters_raise_nobody(srv):
    """acct-3.4: fresh accounts that quit every game (the farm of issue
    32 with accounts instead of guests) lose rating themselves, and the
    account they played gains nothing: a win by abandonment counts only
    against the one who left."""
    main = signup(srv, "pietro")
    rng = random.Random(8)
    for i in range(3):
        quitter = signup(srv, "quit%d" % i)
        run(rated_game(srv, [main, quitter], rng, quit_seat=1))
        q = call(srv, "GET", "/api/me", cookie=quitter)[1]["ratings"]["2p"]
        assert q["games"] == 1 and q["rating"] < 1500
    me = call(srv, "GET", "/api/me", cookie=main)[1]
    assert me["ratings"] == {}
    # the store keeps who abandoned each game (seat 1's side: bit 2),
    # which a tournament reads as a loss (docs/serve.md "Tournaments")
    if STORE != "postgresql":
        con = sqlite3.connect(srv.db)
        got = con.execute("SELECT abandoned, count(*) FROM games WHERE "
                          "finished = 1 GROUP BY abandoned").fetchall()
        con.close()
        assert got == [(2, 3)], got


def test_cookie_secure_behind_tls(tmp_path):
    """acct-1.6: behind a trusted proxy that took TLS (X-Forwarded-Proto:
    https) the cookie is Secure; the same header from anyone else is not
    believed."""
    s = Server(str(tmp_path / "p.db"), *FAST,
               "--trusted-proxy", "127.0.0.1").start()
    try:
        st, _, h = call(s, "POST", "/api/signup",
                        {"name": "tls_user", "password": "password1"},
                        headers={"X-Forwarded-For": "10.0.0.7",
                                 "X-Forwarded-Proto": "https"})
        assert st == 201 and "secure" in h["Set-Cookie"].lower()
    finally:
        s.stop()
    s = Server(str(tmp_path / "q.db"), *FAST).start()  # no proxy trusted
    try:
        st, _, h = call(s, "POST", "/api/signup",
                        {"name": "tls_user", "password": "password1"},
                        headers={"X-Forwarded-Proto": "https"})
        assert st == 201 and "secure" not in h["Set-Cookie"].lower()
    finally:
        s.stop()
