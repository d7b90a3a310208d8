"""`scopa serve` against strangers, issue 32 (docs/serve.md "Security";
CONTRACTS.md "Accounts, sessions and origins"): each test failed on the
server before its fix (the commit that added it says how).

  guard-5.x   item 5: origins (a foreign page's WebSocket or POST: 403)
  guard-6.x   item 6: private tables stay private (code guessing), and
              every HTTP route has a per-address budget
  guard-7.x   item 7: rematches count against the creation budget;
              reactions are limited per seat; no symbolic link out of
              --web is followed
"""
import asyncio
import http.client
import json
import os
import random
import re
import socket
import time

import websockets
import websockets.exceptions

from serverlib import (SHORT, TIMEOUT, Client, Server, play_to_end, run,
                       store_execute)

CODE_LETTERS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"


def upgrade(port, origin=None, host=None, source="127.0.0.1", extra=""):
    """A raw WebSocket upgrade of /ws; the answer's status (101: open)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT,
                                 source_address=(source, 0))
    head = ("GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            % (host or "127.0.0.1:%d" % port))
    if origin is not None:
        head += "Origin: %s\r\n" % origin
    s.sendall((head + extra + "\r\n").encode())
    got = b""
    while b"\r\n" not in got:
        more = s.recv(4096)
        if not more:
            break
        got += more
    s.close()
    return int(got.split(b" ", 2)[1])


def request(port, method, path, headers=None, source="127.0.0.1", conn=None):
    """One HTTP request (on conn when given): status, headers, body."""
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT,
                                           source_address=(source, 0))
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    body = r.read()
    if not conn:
        c.close()
    return r.status, r.headers, body


def connections(server):
    return json.loads(server.http("/healthz")[1])["connections"]


async def connect_from(server, source, name, **kw):
    ws = await websockets.connect(server.url, max_size=None,
                                  local_addr=(source, 0), **kw)
    c = Client(ws, name)
    assert (await c.next())["type"] == "hello"
    return c


async def error_for(c, req):
    await c.send(req)
    return await c.until(lambda m: m["type"] == "error")


def random_code(n=10):
    return "".join(random.choice(CODE_LETTERS) for _ in range(n))


# ----------------------------------------------------------------------
# guard-5.x  Origins
# ----------------------------------------------------------------------

def test_guard_5_1_a_foreign_origin_is_refused_before_it_counts(server):
    """Item 5: an upgrade from http://evil.example, from `null`, or from a
    rebound name (Host and Origin both evil.example) gets 403 and is
    never a connection; the server's own origin and no Origin open (before:
    every Origin was let in)."""
    p = server.port
    for origin, host in (("http://evil.example", None), ("null", None),
                         ("http://evil.example:%d" % p,
                          "evil.example:%d" % p),
                         ("https://127.0.0.1:%d" % p, None),
                         ("http://127.0.0.1:%d.evil.example" % p, None)):
        assert upgrade(p, origin, host) == 403, (origin, host)
    assert connections(server) == 0
    assert upgrade(p, "http://127.0.0.1:%d" % p) == 101
    assert upgrade(p, "http://localhost:%d" % p, "localhost:%d" % p) == 101
    assert upgrade(p) == 101

    async def go():
        own = await connect_from(server, "127.0.0.1", "own",
                                 origin="http://127.0.0.1:%d" % p)
        await own.seated({"type": "create", "rules": SHORT,
                          "seats": ["me", "greedy"]})
        await own.close()
    run(go())


def test_guard_5_2_origin_flag_admits_its_url_only(tmp_path):
    """Item 5: with --origin https://scopa.example (given with a final /)
    that origin opens, and nothing else, not even the server's own."""
    s = Server(str(tmp_path / "serve.db"), "--origin",
               "https://Scopa.example/", "--origin",
               "http://127.0.0.1:9").start()
    try:
        p = s.port
        assert upgrade(p, "https://scopa.example") == 101
        assert upgrade(p, "http://127.0.0.1:9") == 101
        assert upgrade(p) == 101
        for origin in ("http://127.0.0.1:%d" % p, "http://scopa.example",
                       "https://scopa.example:444", "null",
                       "https://scopa.example.evil"):
            assert upgrade(p, origin) == 403, origin
    finally:
        s.stop()


def test_guard_5_3_a_bad_origin_flag_is_an_error(tmp_path):
    import subprocess
    from serverlib import scopa_bin
    for bad in ("scopa.example", "ftp://a.example", "https://a.example/x",
                "http://a.example:8x"):
        p = subprocess.run([scopa_bin(), "serve", "--db",
                            str(tmp_path / "x.db"), "--origin", bad],
                           capture_output=True, timeout=TIMEOUT)
        assert p.returncode == 2 and b"--origin" in p.stderr, (bad, p)


def test_guard_5_4_a_post_from_a_foreign_page_gets_403(server):
    """Item 5: a POST whose Origin is foreign gets 403 before anything,
    on an account route or elsewhere; without one, or from the server's
    own pages, the route answers (401 for a login with no body; 405 where
    no POST is taken)."""
    p = server.port
    own = {"Origin": "http://127.0.0.1:%d" % p}
    for path in ("/api/login", "/api/signup", "/nowhere"):
        assert request(p, "POST", path,
                       {"Origin": "http://evil.example"})[0] == 403
        assert request(p, "POST", path, {"Origin": "null"})[0] == 403
    assert request(p, "POST", "/api/login")[0] == 401
    assert request(p, "POST", "/api/login", own)[0] == 401
    assert request(p, "POST", "/nowhere", own)[0] == 405


def test_guard_5_5_https_only_from_a_trusted_proxy(tmp_path):
    """Item 5: https://HOST is the own origin only when a trusted proxy
    says it took TLS (X-Forwarded-Proto); from anyone else it is not."""
    s = Server(str(tmp_path / "serve.db"), "--trusted-proxy",
               "127.0.0.2").start()
    try:
        p = s.port
        tls = "X-Forwarded-Proto: https\r\nX-Forwarded-For: 192.0.2.1\r\n"
        assert upgrade(p, "https://127.0.0.1:%d" % p, source="127.0.0.2",
                       extra=tls) == 101
        assert upgrade(p, "https://127.0.0.1:%d" % p, extra=tls) == 403
        assert upgrade(p, "http://127.0.0.1:%d" % p, source="127.0.0.2",
                       extra=tls) == 403
    finally:
        s.stop()


# ----------------------------------------------------------------------
# guard-6.x  Table codes and HTTP budgets
# ----------------------------------------------------------------------

def test_guard_6_1_unknown_codes_over_http_are_limited(server):
    """Item 6a: 20 unknown codes answer 404, then every code (even a real
    one) 429 with Retry-After; another address still gets its 404s and
    the real record (before: 12,000 guesses a second, all answered)."""
    async def go():
        c = await Client.connect(server, "a")
        await c.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "open"]})
        http_guesses(server, "/api/tables/%s/record" % c.code)
        await c.close()
    run(go())


def http_guesses(server, real):
    """20 misses, then 429 for every code, real included, from this
    address only."""
    for _ in range(20):
        assert request(server.port, "GET",
                       "/api/tables/%s/record" % random_code())[0] == 404
    status, headers, body = request(server.port, "GET",
                                    "/api/tables/%s/record" % random_code())
    assert status == 429 and 1 <= int(headers["Retry-After"]) <= 6, headers
    assert json.loads(body)["error"] == "too_many"
    assert request(server.port, "GET", real)[0] == 429  # a hit looks the same
    assert request(server.port, "GET", real, source="127.0.0.2")[0] == 403
    assert request(server.port, "GET", "/api/tables/%s/record"
                   % random_code(), source="127.0.0.2")[0] == 404


def test_guard_6_2_unknown_codes_over_the_websocket_are_limited(server):
    """Item 6a: join, watch and resume of unknown codes answer no_table 20
    times, then `limit`, even for a real table; from another address
    the real table is there."""
    async def go():
        owner = await Client.connect(server, "owner")
        await owner.seated({"type": "create", "rules": SHORT,
                            "seats": ["me", "open"]})
        g = await connect_from(server, "127.0.0.1", "guesser")
        kinds = ("join", "watch", "resume")
        for i in range(20):
            req = {"type": kinds[i % 3], "code": random_code(), "id": i,
                   "token": "0" * 32}
            assert (await error_for(g, req))["code"] == "no_table"
        for i, kind in enumerate(kinds):
            err = await error_for(g, {"type": kind, "code": owner.code,
                                      "token": owner.token, "id": 100 + i})
            assert err["code"] == "limit" and err["id"] == 100 + i, err
        other = await connect_from(server, "127.0.0.3", "other")
        assert (await error_for(other, {"type": "watch",
                                        "code": random_code()}))["code"] == \
            "no_table"
        await other.send({"type": "watch", "code": owner.code})
        st = await other.until(lambda m: m["type"] in ("state", "error"))
        assert st["type"] == "state" and st["code"] == owner.code, st
        for x in (owner, g, other):
            await x.close()
    run(go())


def test_guard_6_3_new_codes_are_ten_letters_and_old_ones_still_load(
        tmp_path):
    """Item 6b: a new table's code is 10 of the 32 letters; a 6-letter
    code stored before (copied here in the store, as another program
    would) still resumes and its record route still answers."""
    db = str(tmp_path / "serve.db")
    s = Server(db).start()

    async def make():
        c = await Client.connect(s, "a")
        await c.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "open"]})
        await c.close()
        return c
    try:
        c = run(make())
    finally:
        s.stop()
    assert re.fullmatch("[%s]{10}" % CODE_LETTERS, c.code), c.code
    store_execute(db, "INSERT INTO games (code, seed, rules, away_s, clock_s,"
                  " created, finished, rated) SELECT ?, seed, rules, away_s,"
                  " clock_s, created, finished, rated FROM games WHERE code = ?",
                  [("K7QX2M", c.code)])
    store_execute(db, "INSERT INTO seats (code, seat, kind, name, bot,"
                  " token_sha256, player) SELECT ?, seat, kind, name, bot,"
                  " token_sha256, player FROM seats WHERE code = ?",
                  [("K7QX2M", c.code)])
    s = Server(db).start()

    async def back():
        r = await Client.connect(s, "r")
        seated = await r.seated({"type": "resume", "code": "k7qx2m",
                                 "token": c.token})
        assert seated["code"] == "K7QX2M" and seated["seat"] == 0
        await r.close()
    try:
        run(back())
        assert s.http("/api/tables/K7QX2M/record")[0] == 403  # waiting
    finally:
        s.stop()


def test_guard_6_4_guessing_at_full_speed_finds_nothing(server):
    """Item 6: 200 waiting tables; one client guesses 10-letter codes as
    fast as it can for 10 s over HTTP (keep-alive) and a WebSocket: no
    guess finds a table, and all but the first 20 misses are throttled
    (429, `limit`)."""
    async def maker(k):  # 4 addresses make 50 tables each
        c = await connect_from(server, "127.0.%d.1" % (10 + k), "m%d" % k)
        for _ in range(50):
            await c.seated({"type": "create", "rules": SHORT,
                            "seats": ["me", "open"]})
        return c

    async def ws_guesses():
        g = await connect_from(server, "127.0.0.6", "g")
        got, end = {}, time.time() + 5
        while time.time() < end:  # as fast as a connection may send
            await asyncio.sleep(0.04)
            await g.send({"type": "watch", "code": random_code()})
            m = await g.until(lambda m: m["type"] in ("error", "state"))
            key = m.get("code") if m["type"] == "error" else "state"
            got[key] = got.get(key, 0) + 1
        await g.close()
        return got

    async def go():
        makers = await asyncio.gather(*(maker(k) for k in range(4)))
        assert json.loads(server.http("/healthz")[1])["tables"] >= 200
        counts = http_full_speed(server, 5)
        got = await ws_guesses()
        print("http guesses:", counts, "websocket guesses:", got)
        assert set(counts) <= {404, 429} and 20 <= counts[404] <= 21, counts
        assert counts[429] > 100, counts
        assert "state" not in got and 20 <= got["no_table"] <= 21, got
        assert got.get("limit", 0) > 20, got
        for c in makers:
            await c.close()
    run(go())


def http_full_speed(server, seconds):
    """Random codes' records on one keep-alive connection: the statuses."""
    counts = {}
    conn = http.client.HTTPConnection("127.0.0.1", server.port,
                                      timeout=TIMEOUT,
                                      source_address=("127.0.0.5", 0))
    end = time.time() + seconds
    while time.time() < end:
        st = request(server.port, "GET", "/api/tables/%s/record"
                     % random_code(), conn=conn)[0]
        counts[st] = counts.get(st, 0) + 1
    conn.close()
    return counts


def test_guard_6_5_every_http_route_has_a_per_address_budget(tmp_path):
    """Item 6c: 200 requests of one address at once are answered, then
    429 with Retry-After; another address is not touched; credits come
    back (50 a second)."""
    s = Server(str(tmp_path / "serve.db")).start()
    try:
        time.sleep(1)  # start()'s own /healthz polls: refilled
        conn = http.client.HTTPConnection("127.0.0.1", s.port,
                                          timeout=TIMEOUT,
                                          source_address=("127.0.0.7", 0))
        seen, start = [], time.time()
        for i in range(260):
            path = ("/api/rules", "/", "/healthz", "/t/ABCDEFGHJK")[i % 4]
            st, headers, _ = request(s.port, "GET", path, conn=conn)
            seen.append(st)
            if st == 429:
                assert int(headers["Retry-After"]) >= 1
        took = time.time() - start
        assert 429 not in seen[:200] and 429 in seen, seen
        # 200 at once, then no more than 50 a second came back
        assert 260 - seen.count(429) <= 200 + 50 * took + 1, (seen, took)
        assert request(s.port, "GET", "/api/rules",
                       source="127.0.0.8")[0] == 200
        time.sleep(0.5)
        assert request(s.port, "GET", "/api/rules", conn=conn)[0] == 200
        conn.close()
    finally:
        s.stop()


# ----------------------------------------------------------------------
# guard-7.x  Rematches, reactions, --web
# ----------------------------------------------------------------------

def test_guard_7_1_a_rematch_takes_from_the_table_budget(tmp_path):
    """Item 3 of issue 32: with --max-tables-per-minute 1, a table made,
    played to the end against a bot: the rematch that would make a second
    table gets `limit` and the offer stays as it was (before: a new table
    every time, 20 a second)."""
    s = Server(str(tmp_path / "serve.db"), "--max-tables-per-minute",
               "1").start()

    async def go():
        c = await Client.connect(s, "a")
        await c.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "greedy"]})
        await play_to_end([c], random.Random(7))
        err = await error_for(c, {"type": "rematch", "accept": True,
                                  "id": 5})
        assert err["code"] == "limit" and err["id"] == 5, err
        late = await c.quiet(0.5)
        assert not [m for m in late if m["type"] in ("rematch", "seated")]
        await c.close()
    try:
        run(go())
    finally:
        s.stop()


def test_guard_7_2_reactions_are_limited_per_seat(server):
    """Item 4: 20 connections resume the same seat and each sends a
    reaction at once, then again 2.2 s later: at most one goes out per
    2 s (before: 20, one per connection)."""
    async def go():
        a = await Client.connect(server, "a")
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "open"]})
        b = await Client.connect(server, "b")
        await b.seated({"type": "join", "code": a.code})
        many = []
        for i in range(20):
            m = await Client.connect(server, "m%d" % i)
            await m.seated({"type": "resume", "code": a.code,
                            "token": a.token})
            many.append(m)
        await b.quiet(0.3)
        for _ in range(2):
            for m in many:
                await m.send({"type": "react", "reaction": "bella"})
            await asyncio.sleep(2.2)
        got = [m for m in await b.quiet(0.5) if m["type"] == "reaction"]
        assert len(got) == 2, got
        for x in [a, b] + many:
            await x.close()
    run(go())


def test_guard_7_3_no_symlink_out_of_web_is_followed(tmp_path):
    """Item 5 of the list: --web with a link to /etc/passwd, a link to
    /etc, and a .gz beside a file that links to /etc/passwd: 404 (or the
    plain file), never the linked file's bytes; a link that stays inside
    --web is served (before: /passwd was /etc/passwd)."""
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>x</title>")
    (web / "app.js").write_text("console.log(1);\n")
    os.symlink("/etc/passwd", str(web / "passwd"))
    os.symlink("/etc", str(web / "etc"))
    os.symlink("/etc/passwd", str(web / "app.js.gz"))
    os.symlink("index.html", str(web / "inside.html"))
    s = Server(str(tmp_path / "serve.db"), "--web", str(web)).start()
    try:
        secret = open("/etc/passwd", "rb").read()[:20]
        for path in ("/passwd", "/etc/passwd", "/etc/hostname"):
            st, _, body = request(s.port, "GET", path)
            assert st == 404 and secret not in body, (path, st)
        st, headers, body = request(s.port, "GET", "/app.js",
                                    {"Accept-Encoding": "gzip"})
        assert st == 200 and body == b"console.log(1);\n", (st, body)
        assert "content-encoding" not in {k.lower() for k in headers}
        st, _, body = request(s.port, "GET", "/inside.html")
        assert st == 200 and b"<title>x</title>" in body
    finally:
        s.stop()
