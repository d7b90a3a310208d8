"""The lobby (CONTRACTS.md "The lobby"; docs/serve.md "The lobby"): the
public tables that wait for people, read from the store by
`GET /api/lobby` (test_relay.py relay-4.1 reads them through another node
of a cluster).

  lobby-1.1  a table created with "public": true is listed with its code,
             rules, seats, open seats and people; a private one never is;
             a table leaves the list when its last open seat is taken
  lobby-1.2  "public" that is not a boolean is refused, naming the field
  lobby-1.3  a listed table is still listed after kill -9 and a restart,
             and leaves the list when it fills there
"""
import asyncio
import json
import time

from serverlib import SHORT, Client, Server, run


def lobby(server):
    status, body, headers = server.http("/api/lobby")
    assert status == 200, body
    assert headers["Content-Type"].startswith("application/json")
    return json.loads(body)["tables"]


def codes(server):
    return [t["code"] for t in lobby(server)]


def test_lobby_1_1_public_tables_listed_until_full(server):
    async def go():
        assert lobby(server) == []
        a = await Client.connect(server, "a")
        await a.seated({"type": "create", "rules": SHORT, "public": True,
                        "seats": ["me", "open", "open"], "name": "Anna",
                        "move_clock": 30})
        p = await Client.connect(server, "p")
        await p.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "open"], "name": "Piero"})
        tables = lobby(server)
        assert [t["code"] for t in tables] == [a.code], tables
        t = tables[0]
        assert t["seats"] == ["Anna", "open", "open"] and t["open"] == 2
        assert t["players"] == 3 and t["move_clock"] == 30
        assert t["rules"]["target"] == SHORT["target"]
        assert t["people"] == [{"seat": 0, "name": "Anna", "account": False,
                                "rating": None, "provisional": True}]
        b = await Client.connect(server, "b")
        await b.seated({"type": "join", "code": a.code, "name": "Bruno"})
        t = lobby(server)[0]
        assert t["seats"] == ["Anna", "Bruno", "open"] and t["open"] == 1
        c = await Client.connect(server, "c")
        await c.seated({"type": "join", "code": a.code, "name": "Carla"})
        assert codes(server) == [], "a full table is still listed"
        for x in (a, p, b, c):
            await x.close()
    run(go())


def test_lobby_1_2_public_must_be_a_boolean(server):
    async def go():
        a = await Client.connect(server, "a")
        await a.send({"type": "create", "rules": SHORT, "public": "yes",
                      "seats": ["me", "open"]})
        err = await a.until(lambda m: m["type"] == "error")
        assert err["code"] == "bad_message" and "public" in err["message"]
        assert codes(server) == []
        await a.close()
    run(go())


def test_lobby_1_3_listed_across_a_kill9(tmp_path):
    db = str(tmp_path / "serve.db")
    s = Server(db).start()

    async def make():
        a = await Client.connect(s, "a")
        await a.seated({"type": "create", "rules": SHORT, "public": True,
                        "seats": ["me", "open"], "name": "Anna"})
        g = await Client.connect(s, "g")
        await g.seated({"type": "create", "rules": SHORT, "public": True,
                        "seats": ["me", "open"], "name": "Gino"})
        return a, g
    a, g = run(make())
    assert sorted(codes(s)) == sorted([a.code, g.code])
    s.kill9()
    s2 = Server(db, port=s.port).start()
    try:
        assert sorted(codes(s2)) == sorted([a.code, g.code])

        async def fill():
            # On PostgreSQL the killed process's leases live on for their
            # term (RELAY_LEASE_S): a join meanwhile is refused, so try
            # again until the table is free.
            deadline = time.time() + 30
            while True:
                b = await Client.connect(s2, "b")
                await b.send({"type": "join", "code": g.code, "name": "B"})
                got = await b.until(lambda m: m["type"] in ("seated",
                                                            "error"))
                await b.close()
                if got["type"] == "seated" or time.time() > deadline:
                    break
                await asyncio.sleep(1)
            assert got["type"] == "seated", got
        run(fill())
        assert codes(s2) == [a.code]
    finally:
        s2.stop()
