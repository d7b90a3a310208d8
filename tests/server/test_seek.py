"""Play now (CONTRACTS.md "The lobby": `seek`, `paired`, `unseek`;
docs/serve.md "Play now"), on SQLite and on PostgreSQL (test_relay.py
relay-4.2 pairs two seeks made through different nodes of a cluster).

  seek-1.1  two people who seek the same game and clock get `seeking`,
            then `paired` with one code, then `seated` at distinct seats
            of that table, which plays to the end and is never listed in
            the lobby
  seek-1.2  only the same game and clock are paired: another target, or
            another move clock, waits; the same rules spelled otherwise
            (a preset's name and its object, "players" said or not) pair
  seek-1.3  `unseek`, or closing the connection, withdraws a seek: the
            next seeker is not paired with it
  seek-1.4  a seek with bad rules or a bad clock is refused, naming what
            is wrong, and nothing waits
  seek-1.5  four seekers of Scopone are seated at one table of four
  seek-1.6  a seek that waits --seek-offer seconds is offered a bot level;
            a new seek replaces the connection's old one
  seek-1.8  a seek with a time bank ("bank", "increment" in its clock)
            pairs only with the same bank, and its table plays on that
            bank with no move clock; an increment without a bank is
            refused
  seek-1.7  a seek left by a server killed with -9 never pairs after the
            restart (SQLite: the file's seeks go at the start; PostgreSQL:
            a seek its node has not beaten for 1.5 s is never paired)
"""
import asyncio
import json
import random
import time

from serverlib import SHORT, Client, Server, play_to_end, run


def lobby(server):
    status, body, _ = server.http("/api/lobby")
    assert status == 200, body
    return json.loads(body)["tables"]


async def seeker(server, name, rules=SHORT, clock=None):
    """A connection that has sent a seek and read its `seeking`."""
    c = await Client.connect(server, name)
    msg = {"type": "seek", "rules": rules, "name": name, "id": name}
    if clock is not None:
        msg["clock"] = clock
    await c.send(msg)
    got = await c.until(lambda m: m["type"] in ("seeking", "error"))
    assert got["type"] == "seeking", got
    assert got["id"] == name
    return c


async def paired(c, timeout=10):
    """`paired`, then the `seated` and `state` of that table."""
    p = await c.until(lambda m: m["type"] in ("paired", "error"), timeout)
    assert p["type"] == "paired", p
    s = await c.until(lambda m: m["type"] in ("seated", "error"))
    assert s["type"] == "seated" and s["code"] == p["code"], s
    c.seat, c.token, c.code = s["seat"], s["token"], s["code"]
    return p["code"]


async def not_paired(c, seconds=1.6):
    """Nothing but waiting for `seconds` (three pairing passes)."""
    got = await c.quiet(seconds)
    assert not [m for m in got if m["type"] in ("paired", "seated")], got


def test_seek_1_1_two_seekers_play_one_table(server):
    async def go():
        a = await seeker(server, "Anna", clock={"move_clock": 30})
        b = await seeker(server, "Bruno", clock={"move_clock": 30})
        code_a, code_b = await paired(a), await paired(b)
        assert code_a == code_b
        assert {a.seat, b.seat} == {0, 1}
        st = await b.until(lambda m: m["type"] == "state" and
                           m["status"] == "playing")
        assert sorted(st["seats"]) == ["Anna", "Bruno"]
        assert st["move_clock"] == 30 and st["rules"]["target"] == 3
        assert lobby(server) == [], "a paired table is listed"
        over = await play_to_end([a, b], random.Random(7))
        assert over["type"] == "game_over"
        for c in (a, b):
            await c.close()
    run(go())


def test_seek_1_2_only_the_same_game_and_clock_pair(server):
    async def go():
        a = await seeker(server, "a", rules={"target": 3})
        b = await seeker(server, "b", rules={"target": 5})
        c = await seeker(server, "c", rules={"target": 3},
                         clock={"move_clock": 20})
        for x in (a, b, c):
            await not_paired(x, 1.0)
        # the same rules, "players" said: pairs with a
        d = await seeker(server, "d", rules={"target": 3, "players": 2})
        assert await paired(a) == await paired(d)
        # a preset's name and its own rules object are one game
        e = await seeker(server, "e", rules="scopone")
        f = await seeker(server, "f", rules="scopa")
        await not_paired(f, 1.0)
        status, body, _ = server.http("/api/rules")
        presets = json.loads(body)["presets"]
        scopa = next(p for p in presets if p["name"] == "scopa")
        g = await seeker(server, "g", rules=scopa["rules"])
        assert await paired(f) == await paired(g)
        for x in (a, b, c, d, e, f, g):
            await x.close()
    run(go())


def test_seek_1_3_unseek_and_close_withdraw(server):
    async def go():
        a = await seeker(server, "a")
        await a.send({"type": "unseek", "id": 5})
        ack = await a.until(lambda m: m["type"] == "unseeked")
        assert ack["id"] == 5
        b = await seeker(server, "b")
        await not_paired(b)  # not with a's withdrawn seek
        await not_paired(a, 0.1)
        await b.close()  # b's seek goes with its connection
        await asyncio.sleep(0.2)
        d = await seeker(server, "d")
        await not_paired(d)
        e = await seeker(server, "e")
        assert await paired(d) == await paired(e)
        for x in (a, d, e):
            await x.close()
    run(go())


def test_seek_1_4_bad_seeks_are_refused(server):
    async def go():
        a = await Client.connect(server, "a")
        for msg, code, word in (
                ({"rules": "nonsense"}, "bad_rules", "nonsense"),
                ({"rules": 7}, "bad_rules", "rules"),
                ({"rules": {"target": -1}}, "bad_rules", ""),
                ({"clock": "fast"}, "bad_message", "clock"),
                ({"clock": {"move_clock": -1}}, "bad_message", "move_clock"),
                ({"clock": {"away_timeout": "x"}}, "bad_message",
                 "away_timeout")):
            await a.send(dict(msg, type="seek", id=code))
            err = await a.until(lambda m: m["type"] in ("error", "seeking"))
            assert err["type"] == "error" and err["code"] == code, (msg, err)
            assert word in err["message"], (msg, err)
        b = await seeker(server, "b")
        await not_paired(b)
        for x in (a, b):
            await x.close()
    run(go())


def test_seek_1_5_scopone_seats_four(server):
    async def go():
        rules = {"target": 3, "players": 4}
        cs = [await seeker(server, "p%d" % i, rules=rules) for i in range(3)]
        for x in cs:
            await not_paired(x, 0.6)
        cs.append(await seeker(server, "p3", rules=rules))
        codes = [await paired(x) for x in cs]
        assert len(set(codes)) == 1
        assert sorted(x.seat for x in cs) == [0, 1, 2, 3]
        st = await cs[0].until(lambda m: m["type"] == "state" and
                               m["status"] == "playing")
        assert len(st["seats"]) == 4
        for x in cs:
            await x.close()
    run(go())


def test_seek_1_6_a_bot_is_offered_after_the_wait(tmp_path):
    s = Server(str(tmp_path / "serve.db"), "--seek-offer", "1").start()

    async def go():
        a = await seeker(s, "a")
        offer = await a.until(lambda m: m["type"] == "seeking", 5)
        assert offer["offer"] == "intermedio", offer  # a guest: 1500
        assert offer["waited"] >= 1 and offer["players"] == 2
        # a new seek replaces the old one: b pairs with a's second seek
        await a.send({"type": "seek", "rules": {"target": 5}})
        await a.until(lambda m: m["type"] == "seeking")
        b = await seeker(s, "b", rules=SHORT)
        await not_paired(b, 1.0)
        c = await seeker(s, "c", rules={"target": 5})
        assert await paired(a) == await paired(c)
        for x in (a, b, c):
            await x.close()
    try:
        run(go())
    finally:
        s.stop()


def test_seek_1_7_no_ghost_after_a_kill9(tmp_path):
    db = str(tmp_path / "serve.db")
    s = Server(db).start()

    async def before():
        await seeker(s, "ghost")
        await asyncio.sleep(0.8)  # its row is in the store
    run(before())
    s.kill9()
    time.sleep(1.6)  # PAIRER_STALE_MS: a dead node's seeks stop pairing
    s = Server(db, port=s.port).start()

    async def after():
        b = await seeker(s, "b")
        await not_paired(b)
        c = await seeker(s, "c")
        assert await paired(b) == await paired(c)
        for x in (b, c):
            await x.close()
    try:
        run(after())
    finally:
        s.stop()


def test_seek_1_8_a_time_bank(server):
    async def go():
        a = await seeker(server, "Anna", clock={"bank": 180, "increment": 2})
        c = await seeker(server, "Carla", clock={"move_clock": 30})
        await not_paired(c)
        b = await seeker(server, "Bruno", clock={"bank": 180, "increment": 2})
        code = await paired(a)
        assert await paired(b) == code
        st = await b.until(lambda m: m["type"] == "state" and
                           m["status"] == "playing")
        assert st["bank"] == 180 and st["increment"] == 2
        assert st["move_clock"] == 0 and len(st["bank_ms"]) == 2
        await not_paired(c, 0.6)  # the move clock's seeker still waits
        bad = await Client.connect(server, "bad")
        await bad.send({"type": "seek", "rules": SHORT, "id": 1,
                        "clock": {"increment": 2}})
        got = await bad.until(lambda m: m["type"] in ("seeking", "error"))
        assert got["code"] == "bad_message" and "bank" in got["message"]
        for x in (a, b, c, bad):
            await x.close()
    run(go())
