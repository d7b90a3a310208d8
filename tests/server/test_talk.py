"""Table talk (docs/serve.md "Table talk"; issue 34 item 3), on SQLite
and on PostgreSQL.

  talk-1.1  a line said by a person seated reaches every person seated,
            cleaned (controls and bidirectional overrides left out, white
            space folded), numbered; a spectator gets none of it, ever
  talk-1.2  what was said is kept with the game: after a kill -9 a person
            who resumes gets the lines in order ("talk"), and the next
            line is numbered after them
  talk-1.3  a public table is quiet unless its create says "talk": true;
            "say" there is refused with talk_off, and the state says
            "talk": false; reactions still go
  talk-1.4  limits: at most 200 characters (refused naming the field, not
            cut), nothing empty, 5 lines at once then one every 3 s per
            seat however many connections it has; a spectator or a
            stranger cannot say anything
  talk-1.5  a report records who reported whom, why and what had been
            said by then; a second report of the same person changes
            nothing; `scopa serve --reports` lists it with the lines;
            reporting oneself, a bot or an empty seat is refused
"""
import asyncio
import json
import subprocess

from serverlib import (SHORT, Client, Server, run, scopa_bin, store_flags)


async def two_people(s, public=False, talk=None):
    """Anna creates a table with an open seat, Bruno joins it."""
    a = await Client.connect(s, "anna")
    create = {"type": "create", "rules": SHORT, "seats": ["me", "open"],
              "name": "Anna"}
    if public:
        create["public"] = True
    if talk is not None:
        create["talk"] = talk
    await a.seated(create)
    b = await Client.connect(s, "bruno")
    await b.seated({"type": "join", "code": a.code, "name": "Bruno"})
    return a, b


def said(m):
    return m["type"] == "said"


async def answer(c, msg):
    await c.send(msg)
    return await c.until(lambda m: m.get("id") == msg["id"])


def test_talk_1_1_reaches_the_seated_not_the_spectators(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        a, b = await two_people(s)
        w = await Client.connect(s, "watcher")
        await w.send({"type": "watch", "code": a.code})
        st = await w.until(lambda m: m["type"] == "state")
        assert st["talk"] is True  # a private table talks
        got = await answer(a, {"type": "say", "id": 1,
                               "text": "  ciao\u202e\x1b[31m  a\ttutti\n "})
        assert got["type"] == "said", got
        assert got["text"] == "ciao a tutti" and got["n"] == 0
        assert got["seat"] == a.seat and got["code"] == a.code
        other = await b.until(said)
        assert other["text"] == "ciao a tutti" and "id" not in other
        await answer(b, {"type": "say", "id": 2, "text": "buona partita"})
        assert (await a.until(said))["n"] == 1
        await asyncio.sleep(0.3)
        await w.quiet(0.5)
        assert not any(m["type"] in ("said", "talk") for m in w.log), w.log
        for c in (a, b, w):
            await c.close()
    try:
        run(go())
    finally:
        s.stop()


def test_talk_1_2_kept_through_a_kill9(tmp_path):
    db = str(tmp_path / "serve.db")
    s = Server(db).start()

    async def before():
        a, b = await two_people(s)
        for i, text in enumerate(["uno", "due", "tre"]):
            got = await answer(a if i % 2 == 0 else b,
                               {"type": "say", "id": i, "text": text})
            assert got["type"] == "said", got
        return a.code, a.token, a.seat
    code, token, seat = run(before())
    s.kill9()
    s = Server(db, port=s.port).start()

    async def after():
        a = await Client.connect(s, "anna again")
        await a.send({"type": "resume", "code": code, "token": token})
        log = await a.until(lambda m: m["type"] == "talk")
        assert [(x["n"], x["text"]) for x in log["lines"]] == \
            [(0, "uno"), (1, "due"), (2, "tre")]
        assert [x["seat"] for x in log["lines"]] == [seat, 1 - seat, seat]
        got = await answer(a, {"type": "say", "id": 9, "text": "quattro"})
        assert got["n"] == 3, got
        await a.close()
    try:
        run(after())
    finally:
        s.stop()


def test_talk_1_3_public_tables_are_quiet_by_default(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        a, b = await two_people(s, public=True)
        st = await b.until(lambda m: m["type"] == "state")
        assert st["talk"] is False
        got = await answer(a, {"type": "say", "id": 1, "text": "ciao"})
        assert got["type"] == "error" and got["code"] == "talk_off", got
        await a.send({"type": "react", "reaction": "bella"})
        got = await b.until(lambda m: m["type"] == "reaction")
        assert got["reaction"] == "bella" and got["seat"] == a.seat
        c, d = await two_people(s, public=True, talk=True)
        got = await answer(c, {"type": "say", "id": 3, "text": "ciao"})
        assert got["type"] == "said", got
        e, f = await two_people(s, talk=False)
        got = await answer(e, {"type": "say", "id": 4, "text": "ciao"})
        assert got["code"] == "talk_off", got
        bad = await Client.connect(s, "bad")
        got = await answer(bad, {"type": "create", "id": 5, "rules": SHORT,
                                 "seats": ["me", "open"], "talk": "yes"})
        assert got["code"] == "bad_message" and "talk" in got["message"]
        for x in (a, b, c, d, e, f, bad):
            await x.close()
    try:
        run(go())
    finally:
        s.stop()


def test_talk_1_4_limits(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        a, b = await two_people(s)
        got = await answer(a, {"type": "say", "id": 1, "text": "è" * 201})
        assert got["code"] == "bad_talk" and "200" in got["message"], got
        got = await answer(a, {"type": "say", "id": 2, "text": "è" * 200})
        assert got["type"] == "said" and len(got["text"]) == 200
        got = await answer(a, {"type": "say", "id": 3, "text": " \x07\n "})
        assert got["code"] == "bad_talk", got
        got = await answer(a, {"type": "say", "id": 4, "text": 5})
        assert got["code"] == "bad_message", got
        # a second connection of Anna's seat shares its bucket
        a2 = await Client.connect(s, "anna 2")
        await a2.send({"type": "resume", "code": a.code, "token": a.token})
        await a2.until(lambda m: m["type"] == "state")
        answers = []
        for i in range(6):
            who = a if i % 2 else a2
            answers.append(await answer(who, {"type": "say", "id": 10 + i,
                                              "text": "x%d" % i}))
        kinds = [x["type"] for x in answers]
        # one line was said already: four more, then too fast
        assert kinds == ["said"] * 4 + ["error"] * 2, answers
        assert answers[-1]["code"] == "too_fast"
        await asyncio.sleep(3.2)
        got = await answer(a, {"type": "say", "id": 20, "text": "again"})
        assert got["type"] == "said", got
        w = await Client.connect(s, "watcher")
        await w.send({"type": "watch", "code": a.code})
        await w.until(lambda m: m["type"] == "state")
        got = await answer(w, {"type": "say", "id": 21, "text": "hi"})
        assert got["code"] == "not_seated", got
        x = await Client.connect(s, "stranger")
        got = await answer(x, {"type": "say", "id": 22, "text": "hi"})
        assert got["code"] == "not_seated", got
        for c in (a, a2, b, w, x):
            await c.close()
    try:
        run(go())
    finally:
        s.stop()


def test_talk_1_5_reports(tmp_path):
    db = str(tmp_path / "serve.db")
    s = Server(db).start()

    async def go():
        a, b = await two_people(s)
        await answer(b, {"type": "say", "id": 1, "text": "sei scarso"})
        await a.until(said)
        got = await answer(a, {"type": "report", "id": 2, "seat": b.seat,
                               "reason": "rude\nwords"})
        assert got["type"] == "reported" and got["seat"] == b.seat, got
        assert "Bruno" in got["message"]
        await answer(b, {"type": "say", "id": 3, "text": "dopo"})
        got = await answer(a, {"type": "report", "id": 4, "seat": b.seat,
                               "reason": "again"})
        assert got["type"] == "reported", got
        for seat in (a.seat, 7):
            got = await answer(a, {"type": "report", "id": 5, "seat": seat})
            assert got["type"] == "error", got
        bot = await Client.connect(s, "solo")
        await bot.seated({"type": "create", "rules": SHORT,
                          "seats": ["me", "greedy"]})
        got = await answer(bot, {"type": "report", "id": 6,
                                 "seat": 1 - bot.seat})
        assert got["code"] == "bad_message", got
        for c in (a, b, bot):
            await c.close()
        return a.code, a.seat, b.seat
    code, by, seat = run(go())
    s.stop()
    out = subprocess.run([scopa_bin(), "serve", "--reports"] +
                         store_flags(db), capture_output=True, check=True)
    reports = json.loads(out.stdout)
    assert len(reports) == 1, reports  # the second changed nothing
    r = reports[0]
    assert (r["code"], r["by"], r["seat"]) == (code, by, seat)
    assert r["reason"] == "rude words"
    assert [x["text"] for x in r["talk"]] == ["sei scarso"]
    assert r["talk"][0]["seat"] == seat
    assert r["seats"][seat]["name"] == "Bruno"
