"""The time bank (docs/serve.md "The time bank"; issue 34 item 4), on
SQLite and on PostgreSQL.

  bank-1.1  a table created with "bank" and "increment" says them in every
            state, with every seat's time left ("bank_ms"); the seat to
            play's bank runs, the others' stand; a move takes its time
            from its seat's bank and adds the increment
  bank-1.2  the banks survive a kill -9: after the restart every seat's
            bank is what the stored moves' times make it, the seat to
            play's having run on by the time that passed, the other's
            exactly as before
  bank-1.3  a bank that runs out: the strongest bot moves for the seat at
            once, its bank stays at zero and gains the increment
  bank-1.4  bad banks are refused, naming the field; a table without one
            says bank 0 and sends no bank_ms
"""
import asyncio
import json
import random
import time

from serverlib import SHORT, Client, Server, my_turn, run


async def bank_table(s, bank, inc=None, seats=("me", "greedy")):
    c = await Client.connect(s, "anna")
    msg = {"type": "create", "rules": SHORT, "seats": list(seats),
           "name": "Anna", "bank": bank}
    if inc is not None:
        msg["increment"] = inc
    await c.seated(msg)
    st = await c.until(lambda m: m["type"] == "state")
    return c, st


async def my_state(c):
    m = await c.until(lambda m: my_turn(m, c.seat) or m["type"] == "error", 30)
    assert m["type"] == "state", m
    return m


def test_bank_1_1_runs_for_the_seat_to_play(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        c, st = await bank_table(s, 60, 5)
        assert st["bank"] == 60 and st["increment"] == 5
        assert st["move_clock"] == 0  # the bank replaces the move clock
        st = await my_state(c) if not my_turn(st, c.seat) else st
        other = 1 - c.seat
        assert len(st["bank_ms"]) == 2
        assert st["bank_wait_ms"] == 0  # only a later round's first turn waits
        assert 0 < st["bank_ms"][c.seat] <= 60000
        assert st["clock_left"] == (st["bank_ms"][c.seat] + 999) // 1000
        mine, theirs = st["bank_ms"][c.seat], st["bank_ms"][other]
        t0 = time.time()
        await asyncio.sleep(1.5)
        await c.send({"type": "move", "move": st["legal"][0],
                      "ply": len(st["round"]["moves"])})
        after = await c.until(lambda m: m["type"] == "state" and
                              m["to_play"] != c.seat)
        # 1.5 s or more of our turn gone, 5 s added back
        took = mine - (after["bank_ms"][c.seat] - 5000)
        assert 1400 <= took <= (time.time() - t0) * 1000 + 500, took
        # the bot's bank stood while we thought
        assert abs(after["bank_ms"][other] - theirs) <= 300
        await c.close()
    try:
        run(go())
    finally:
        s.stop()


def test_bank_1_2_survives_a_kill9(tmp_path):
    db = str(tmp_path / "serve.db")
    s = Server(db).start()
    rng = random.Random(5)

    async def before():
        c, st = await bank_table(s, 120, 2)
        for i in range(3):  # three of our moves, the bot's in between
            if i or not my_turn(st, c.seat):
                st = await my_state(c)
            await asyncio.sleep(rng.uniform(0.2, 0.6))
            await c.send({"type": "move", "move": rng.choice(st["legal"]),
                          "ply": len(st["round"]["moves"])})
        st = await my_state(c)
        got = time.time()  # when the state said what it says
        await asyncio.sleep(0.8)  # everything stored (the batch commits)
        await c.close()
        return c.code, c.token, st, got
    code, token, was, at = run(before())
    s.kill9()
    s = Server(db, port=s.port).start()

    async def after():
        c = await Client.connect(s, "anna")
        await c.send({"type": "resume", "code": code, "token": token})
        st = await c.until(lambda m: m["type"] == "state")
        return st, time.time()
    try:
        now, then = run(after())
    finally:
        s.stop()
    seat = was["to_play"]
    assert now["to_play"] == seat and now["round"]["moves"] == was["round"]["moves"]
    assert now["bank"] == 120 and now["increment"] == 2
    other = 1 - seat
    assert now["bank_ms"][other] == was["bank_ms"][other], (now, was)
    ran = was["bank_ms"][seat] - now["bank_ms"][seat]
    assert (then - at) * 1000 - 400 <= ran <= (then - at) * 1000 + 400, ran


def test_bank_1_3_runs_out(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        c, st = await bank_table(s, 10, 3)
        st = await my_state(c) if not my_turn(st, c.seat) else st
        ply = len(st["round"]["moves"])
        t0 = time.time()
        # we never move: the bot plays for us once the 10 s are gone
        played = await c.until(
            lambda m: m["type"] == "state" and m["round"] and
            len(m["round"]["moves"]) > ply and
            m["drawn"]["last"]["seat"] == c.seat, 25)
        assert time.time() - t0 >= st["bank_ms"][c.seat] / 1000 - 0.5
        # zero, then the increment
        assert 2500 <= played["bank_ms"][c.seat] <= 3000, played["bank_ms"]
        await c.close()
    try:
        run(go())
    finally:
        s.stop()


def test_bank_1_4_bad_banks_refused(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        c = await Client.connect(s, "anna")
        for extra, field in (({"bank": 5}, '"bank"'),
                             ({"bank": "3m"}, '"bank"'),
                             ({"bank": 60, "increment": -1}, '"increment"'),
                             ({"increment": 5}, '"increment"')):
            msg = {"type": "create", "rules": SHORT, "seats": ["me", "greedy"],
                   "name": "Anna", **extra}
            await c.send(msg)
            e = await c.until(lambda m: m["type"] in ("error", "seated"))
            assert e["type"] == "error" and e["code"] == "bad_message", e
            assert field in e["message"], e
        await c.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "greedy"], "name": "Anna"})
        st = await c.until(lambda m: m["type"] == "state")
        assert st["bank"] == 0 and "bank_ms" not in st
        await c.close()
    try:
        run(go())
    finally:
        s.stop()


def test_bank_1_5_listed_with_its_bank(tmp_path):
    """The lobby says what clock a public table plays with."""
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        c = await Client.connect(s, "anna")
        await c.seated({"type": "create", "rules": SHORT, "public": True,
                        "seats": ["me", "open"], "name": "Anna",
                        "bank": 300, "increment": 5})
        status, body, _ = s.http("/api/lobby")
        assert status == 200, body
        (t,) = json.loads(body)["tables"]
        assert (t["bank"], t["increment"], t["move_clock"]) == (300, 5, 0), t
        await c.close()
    try:
        run(go())
    finally:
        s.stop()
