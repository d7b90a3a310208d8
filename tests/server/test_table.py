"""`scopa serve` end to end, the table players expect (issue 25): play
again (rematch), the move clock, who is watching, reactions.  The real server on loopback, under
the sanitizers in the test build, driven by a real WebSocket client.

  serve-6.x  play again: accepted (seats, the first dealer moving on, a
             new seed and commitment, records that replay), declined, by
             a person leaving, at once against bots
  serve-7.x  the move clock: shown, a move by the best level at expiry
             with a notice naming the person, never two moves for a turn
  serve-8.x  who is watching: counted and named in the state
  serve-9.x  reactions: rate-limited, never from or to spectators, bad
             ids refused
"""
import asyncio
import random

from serverlib import SHORT, Client, Server, my_turn, play_to_end, replay, run
from test_serve import record_of


async def two_people(server, rules=SHORT, **create):
    a = await Client.connect(server, "a")
    await a.seated(dict({"type": "create", "rules": rules, "name": "Anna",
                         "seats": ["me", "open"]}, **create))
    b = await Client.connect(server, "b")
    await b.seated({"type": "join", "code": a.code, "name": "Bruno"})
    first = await b.until(lambda m: m["type"] == "state"
                          and m["status"] == "playing")
    # read again by whoever plays on: b may be first to play (the first
    # dealer varies with the seed), and this state is its turn
    b.unread.insert(0, first)
    return a, b, first


def is_state(m):
    return m["type"] == "state"


def test_serve_6_1_rematch_accepted_by_both(server):
    """serve-6.1: both say yes: a new table with the same seats and rules,
    new tokens, the first dealer moved on by one, a new seed and
    commitment; the old table keeps its record and names the next."""
    async def go():
        a, b, first = await two_people(server)
        w = await Client.connect(server, "w")
        await w.send({"type": "watch", "code": a.code})
        old_code, old_tokens = a.code, (a.token, b.token)
        await play_to_end([a, b], random.Random(6))
        await a.send({"type": "rematch", "id": 1})
        offered = await b.until(lambda m: m["type"] == "notice")
        assert offered["code"] == "rematch_offered" and offered["seat"] == 0
        assert "Anna" in offered["message"] and "Anna" in offered["message_it"]
        st = await b.until(lambda m: is_state(m) and m["rematch"])
        assert st["rematch"] == [True, False] and st["next"] is None
        mine = await a.until(lambda m: is_state(m) and m.get("id") == 1)
        assert mine["rematch"] == [True, False]
        await b.send({"type": "rematch", "accept": True, "id": 2})
        for c in (a, b, w):
            msg = await c.until(lambda m: m["type"] == "rematch")
            assert msg["code"] == old_code and msg["next"] != old_code
        new_code = msg["next"]
        for c in (a, b):
            seated = await c.until(lambda m: m["type"] == "seated")
            assert seated["code"] == new_code and seated["seat"] == c.seat
            assert seated["token"] not in old_tokens
            c.token = seated["token"]
        assert seated["id"] == 2  # b's answer
        news = [await c.until(lambda m: is_state(m) and m["code"] == new_code)
                for c in (a, b, w)]
        a.unread.insert(0, news[0])  # left for play_to_end
        b.unread.insert(0, news[1])
        assert [s["seat"] for s in news] == [0, 1, None]
        assert news[0]["seats"] == ["Anna", "Bruno"]
        assert news[0]["rules"] == first["rules"]
        assert news[0]["seed_sha256"] != first["seed_sha256"]
        assert news[0]["round"]["dealer"] == (first["round"]["dealer"] + 1) % 2
        assert news[0]["status"] == "playing" and news[0]["rematch"] is None
        # the old table: finished, its record replays, its state says next
        body, rec = record_of(server, old_code)
        assert replay(body)["rounds"]
        v = await Client.connect(server, "v")
        await v.send({"type": "watch", "code": old_code})
        old = await v.until(is_state)
        assert old["status"] == "finished" and old["next"] == new_code
        # the new game plays to its end with the new tokens, and its
        # revealed seed matches its commitment and is not the old one
        over = await play_to_end([a, b], random.Random(7))
        assert over["seed"] != rec["seed"]
        body2, rec2 = record_of(server, new_code)
        assert rec2["seed"] == over["seed"] and replay(body2)["rounds"]
        r = await Client.connect(server, "r")
        await r.seated({"type": "resume", "code": new_code,
                        "token": a.token})
        for c in (a, b, w, v, r):
            await c.close()
    run(go())


def test_serve_6_2_rematch_declined_or_left(server):
    """serve-6.2: a no, and a person who leaves, close the offer (a notice
    naming them); no new table; asking before the end is refused."""
    async def go():
        a, b, _ = await two_people(server)
        await a.send({"type": "rematch", "id": 1})
        err = await a.until(lambda m: m["type"] == "error")
        assert err["code"] == "not_over" and err["id"] == 1
        a.unread.insert(0, a.state)  # the turn it may have read past
        await play_to_end([a, b], random.Random(8))
        w = await Client.connect(server, "w")
        await w.send({"type": "watch", "code": a.code})
        await w.until(is_state)
        await w.send({"type": "rematch", "id": 3})
        err = await w.until(lambda m: m["type"] == "error")
        assert err["code"] == "not_seated"
        await a.send({"type": "rematch", "accept": "yes"})
        err = await a.until(lambda m: m["type"] == "error")
        assert err["code"] == "bad_message"
        await a.send({"type": "rematch"})
        await b.until(lambda m: is_state(m) and m["rematch"] == [True, False])
        await b.send({"type": "rematch", "accept": False})
        no = await a.until(lambda m: m["type"] == "notice"
                           and m["code"] == "rematch_declined")
        assert no["seat"] == 1 and "Bruno" in no["message"]
        st = await a.until(lambda m: is_state(m) and m["rematch"] is None)
        assert st["next"] is None
        # asked again, and b leaves: a no
        await a.send({"type": "rematch"})
        await b.until(lambda m: is_state(m) and m["rematch"] == [True, False])
        await b.close()
        no = await a.until(lambda m: m["type"] == "notice"
                           and m["code"] == "rematch_declined")
        assert no["seat"] == 1
        st = await a.until(lambda m: is_state(m) and m["rematch"] is None)
        assert st["presence"][1] == "away"
        got = await a.quiet(0.5)
        assert not [m for m in got if m["type"] in ("rematch", "seated")]
        await a.close()
        await w.close()
    run(go())


def test_serve_6_3_rematch_against_a_bot_starts_at_once(server):
    """serve-6.3: bots say yes at once: one person's yes starts it."""
    async def go():
        a = await Client.connect(server, "a")
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "greedy"]})
        old = a.code
        await play_to_end([a], random.Random(9))
        await a.send({"type": "rematch"})
        msg = await a.until(lambda m: m["type"] == "rematch")
        seated = await a.until(lambda m: m["type"] == "seated")
        assert seated["code"] == msg["next"] != old
        st = await a.until(lambda m: is_state(m) and m["code"] == msg["next"])
        assert st["seats"][1] == "greedy" and st["status"] == "playing"
        await a.close()
    run(go())


def test_serve_6_4_a_person_without_a_name_is_named_in_its_language(server):
    """serve-6.4 (issue 34: "Player 1" on an Italian page): a person who
    gives no name is named in the language its page speaks."""
    async def go():
        for lang, seat_name in (("it", "Giocatore 1"), ("en", "Player 1")):
            a = await Client.connect(server, "a")
            await a.seated({"type": "create", "rules": SHORT, "lang": lang,
                            "seats": ["me", "greedy"]})
            st = await a.until(is_state)
            assert st["seats"][0] == seat_name, st["seats"]
            await a.close()
    run(go())


def test_serve_7_1_clock_shown_and_never_two_moves(tmp_path):
    """serve-7.1: the state shows the clock; when it runs out the best
    level plays the person's move (a notice naming them), exactly one
    move for that turn, even when the person's own move races it."""
    s = Server(str(tmp_path / "serve.db")).start()

    async def go():
        a, b, first = await two_people(s, rules={"target": 11},
                                       move_clock=1)
        assert first["move_clock"] == 1 and first["clock_left"] in (0, 1)
        rng = random.Random(71)
        clients = [a, b]
        seat, bots, people = first["to_play"], 0, 0
        for turn in range(10):
            c = clients[seat]
            mine = await c.until(lambda m: my_turn(m, seat))
            at = (mine["round"]["dealer"], len(mine["round"]["moves"]))
            before = len(c.log)
            if turn % 2:  # the person's move races the clock
                await asyncio.sleep(rng.uniform(0.8, 1.2))
                await c.send({"type": "move", "move": mine["legal"][0],
                              "ply": at[1], "id": 100 + turn})
            nxt = await c.until(lambda m: is_state(m) and (
                m["round"]["dealer"], len(m["round"]["moves"])) != at)
            nxt_first = nxt
            assert nxt["round"]["dealer"] != at[0] or \
                len(nxt["round"]["moves"]) == at[1] + 1  # one move
            answer = None
            if turn % 2:  # the state that was the move, or a refusal
                answer = nxt if nxt.get("id") == 100 + turn else \
                    await c.until(lambda m: m.get("id") == 100 + turn)
            await c.quiet(0.3)
            # the clock's notice comes just before its move's state; what
            # follows that state is later turns' (a slow machine's clocks)
            upto = next(i for i in range(len(c.log) - 1, -1, -1)
                        if c.log[i] is nxt_first)
            notes = [m for m in c.log[before:upto] if m["type"] == "notice"]
            by_person = answer is not None and answer["type"] == "state"
            if answer is not None and not by_person:
                assert answer["code"] in ("stale", "not_your_turn"), answer
            # the move is the person's or the clock's, never both
            assert len(notes) == (0 if by_person else 1), notes
            for n in notes:
                assert n["code"] == "clock_bot" and n["seat"] == seat
                assert ["Anna", "Bruno"][seat] in n["message"]
            people += by_person
            bots += not by_person
            while nxt["to_play"] is None:
                nxt = await c.until(is_state)
            seat = nxt["to_play"]
        assert bots >= 5 and bots + people == 10
        await a.close()
        await b.close()
    try:
        run(go())
    finally:
        s.stop()


def test_serve_8_1_players_see_who_is_watching(server):
    """serve-8.1: the state counts the spectators and names those who gave
    a name; one arriving or leaving is seen at once."""
    async def go():
        a = await Client.connect(server, "a")
        await a.seated({"type": "create", "rules": SHORT,
                        "seats": ["me", "greedy"]})
        st = await a.until(is_state)
        assert st["watching"] == {"count": 0, "names": []}
        w = await Client.connect(server, "w")
        await w.send({"type": "watch", "code": a.code, "name": "Carla",
                      "id": 5})
        mine = await w.until(is_state)
        assert mine["id"] == 5 and mine["seat"] is None
        st = await a.until(lambda m: is_state(m)
                           and m["watching"]["count"] == 1)
        assert st["watching"]["names"] == ["Carla"]
        x = await Client.connect(server, "x")
        await x.send({"type": "watch", "code": a.code})
        st = await a.until(lambda m: is_state(m)
                           and m["watching"]["count"] == 2)
        assert st["watching"]["names"] == ["Carla"]
        await w.close()
        st = await a.until(lambda m: is_state(m)
                           and m["watching"]["count"] == 1)
        assert st["watching"]["names"] == []
        await a.close()
        await x.close()
    run(go())


def test_serve_9_1_reactions(server):
    """serve-9.1: a person's reaction reaches the people seated, never a
    spectator; spectators cannot send one; unknown ids are refused; one
    connection sends at most one every 2 s."""
    async def go():
        a, b, _ = await two_people(server)
        w = await Client.connect(server, "w")
        await w.send({"type": "watch", "code": a.code, "name": "Carla"})
        await w.until(is_state)
        await a.send({"type": "react", "reaction": "bella", "id": 1})
        got = await b.until(lambda m: m["type"] == "reaction")
        assert got == {"type": "reaction", "code": a.code, "seat": 0,
                       "reaction": "bella"}
        mine = await a.until(lambda m: m["type"] == "reaction")
        assert mine["seat"] == 0
        # at once again: too fast, and nobody hears it
        await a.send({"type": "react", "reaction": "scopa", "id": 2})
        err = await a.until(lambda m: m["type"] == "error")
        assert err["code"] == "too_fast" and err["id"] == 2
        # unknown ids, and a wrong type, are refused
        await b.send({"type": "react", "reaction": "<b>hi</b>", "id": 3})
        err = await b.until(lambda m: m["type"] == "error")
        assert err["code"] == "bad_reaction" and err["id"] == 3
        await b.send({"type": "react", "reaction": 7, "id": 4})
        err = await b.until(lambda m: m["type"] == "error")
        assert err["code"] == "bad_message"
        # a spectator cannot send one
        await w.send({"type": "react", "reaction": "wow", "id": 5})
        err = await w.until(lambda m: m["type"] == "error")
        assert err["code"] == "not_seated"
        # after the gap, the next one goes
        await asyncio.sleep(2.1)
        await a.send({"type": "react", "reaction": "applause"})
        got = await b.until(lambda m: m["type"] == "reaction")
        assert got["reaction"] == "applause"
        await w.quiet(0.3)
        assert not [m for m in w.log if m["type"] == "reaction"]
        assert not [m for m in a.log + b.log if m["type"] == "reaction"
                    and m["reaction"] == "scopa"]
        for c in (a, b, w):
            await c.close()
    run(go())
