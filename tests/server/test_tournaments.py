"""Tournaments through the real `scopa serve` (issue 35; CONTRACTS.md
"Tournaments"; docs/serve.md "Tournaments"): signed-in accounts create,
join and start them over the WebSocket, the director seats every
connection of each account (`seated`), the players play random legal
moves, and GET /api/tournaments[/ID] is checked against the records:
no repeated pairing, one bye per round for an odd count, the standings
recomputed from the records, duplicate decks identical across a round
and duplicate scores equal to their definition, and the sealing of a
duplicate round's tables until it is over."""
import asyncio
import json
import random
import time

import pytest

from serverlib import Server, my_turn, replay, run
from test_accounts import FAST, call, connect, session_of, signup

RULES = {"target": 1}  # one deal's game, or two: quick rounds
CLOCK = {"move_clock": 20, "away_timeout": 20}


@pytest.fixture
def srv(tmp_path):
    s = Server(str(tmp_path / "serve.db"), *FAST).start()
    yield s
    s.stop()


def view(srv, tid):
    st, body, _ = call(srv, "GET", "/api/tournaments/" + tid)
    assert st == 200, (st, body)
    return body


async def ask(c, msg):
    await c.send(msg)
    return await c.until(lambda m: m["type"] in ("tournament", "error"))


class Player:
    """A connection that plays random legal moves at whichever table the
    director seats it, and notes every `seated` it gets."""

    def __init__(self, client, rng, hold=None):
        self.c = client
        self.rng = rng
        self.seated = []  # codes, in order
        self.over = {}    # code -> game_over
        self.errors = []
        self.hold = hold  # an asyncio.Event: no move until it is set

    async def play(self, stop):
        c = self.c
        while not stop.is_set():
            try:
                msg = await c.next(0.2)
            except asyncio.TimeoutError:
                continue
            if msg["type"] == "seated":
                c.seat, c.code = msg["seat"], msg["code"]
                self.seated.append(msg["code"])
            elif msg["type"] == "game_over":
                self.over[c.code] = msg
            elif msg["type"] == "error":
                self.errors.append(msg)
            elif (my_turn(msg, c.seat) and msg.get("code") == c.code):
                if self.hold is not None:
                    await self.hold.wait()
                await c.send({"type": "move",
                              "move": self.rng.choice(msg["legal"]),
                              "ply": len(msg["round"]["moves"])})


async def until_finished(srv, tid, timeout=240):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = view(srv, tid)
        if v["status"] == "finished":
            return v
        await asyncio.sleep(0.3)
    raise AssertionError("not finished: %s" % json.dumps(view(srv, tid)))


async def play_through(srv, cs, tid, seed, timeout=240, enter=True):
    """Every connection joins tournament tid, the first starts it (enter),
    and all play random legal moves until it is finished: its view and
    the Players."""
    for c in cs if enter else []:
        joined = await ask(c, {"type": "tournament_join", "id": tid})
        assert joined["type"] == "tournament", joined
    if enter:
        await ask(cs[0], {"type": "tournament_start", "id": tid})
    rng = random.Random(seed)
    players = [Player(c, rng) for c in cs]
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(p.play(stop)) for p in players]
    try:
        v = await until_finished(srv, tid, timeout=timeout)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    for c in cs:
        await c.close()
    return v, players


def record(srv, code):
    st, body, _ = call(srv, "GET", "/api/tables/%s/record" % code)
    assert st == 200, (code, st, body)
    return body


def replayed(rec):
    return replay(json.dumps(rec).encode())


def winner(rec):
    """0, 1, or None for a draw, by `scopa replay` of a record."""
    w = replayed(rec)["winner"]
    return w if w in (0, 1) else None


def test_swiss_five_accounts_three_rounds(srv):
    """tourney-e2e-1: a Swiss of 5 accounts, 3 rounds: only accounts may
    join, the creator starts it, each round every connection of a paired
    account is seated (one account has two), nobody meets twice, each
    round has one bye, and the standings' points are those the records
    give (a win 1, a draw 1/2, the bye 1)."""
    names = ["ada", "bea", "cal", "dan", "eva"]
    cookies = [signup(srv, n) for n in names]

    async def go():
        guest = await connect(srv, None, "guest")
        cs = [await connect(srv, k, n) for k, n in zip(cookies, names)]
        second = await connect(srv, cookies[1], "bea-2")
        # a request id of the client's own never hides the tournament's
        made = await ask(cs[0], dict(type="tournament_create", format="swiss",
                                     rules=RULES, rounds=3, starts_in=600,
                                     name="Martedì", id=1, **CLOCK))
        assert made["type"] == "tournament" and made["id"][0] == "S", made
        tid = made["id"]
        refused = await ask(guest, {"type": "tournament_join", "id": tid})
        assert refused["code"] == "sign_in", refused
        for c in cs:
            joined = await ask(c, {"type": "tournament_join", "id": tid})
            assert joined["type"] == "tournament", joined
        seen = view(srv, tid)
        assert seen["players"] == 5
        # the page's "start now" is offered to its creator, by name
        assert seen["creator"] == "ada", seen
        assert seen["clock"]["move_clock"] == CLOCK["move_clock"], seen
        assert seen["rounds_planned"] == 3 and seen["rounds"] == [], seen
        not_mine = await ask(cs[1], {"type": "tournament_start", "id": tid})
        assert not_mine["code"] == "not_creator", not_mine
        unknown = await ask(cs[1], {"type": "tournament_join", "id": "SZZZZ"})
        assert unknown["code"] == "no_tourney", unknown
        started = await ask(cs[0], {"type": "tournament_start", "id": tid})
        assert started["type"] == "tournament"
        rng = random.Random(35)
        players = [Player(c, rng) for c in cs]
        extra = Player(second, rng)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(p.play(stop))
                 for p in players + [extra]]
        try:
            v = await until_finished(srv, tid)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
        for c in cs + [guest, second]:
            await c.close()
        return v, players, extra

    v, players, extra = run(go())
    assert [r["round"] for r in v["rounds"]] == [1, 2, 3]
    met = set()
    points = {n: 0.0 for n in names}
    for r in v["rounds"]:
        byes = [t for t in r["tables"] if t["result"] == "bye"]
        assert len(byes) == 1 and byes[0]["seats"][1] is None, r
        points[byes[0]["seats"][0]] += 1
        seen = set()
        for t in r["tables"]:
            assert not seen & set(t["seats"]), r  # one table a round
            seen |= set(t["seats"])
            if t["result"] == "bye":
                continue
            pair = frozenset(t["seats"])
            assert pair not in met, (pair, v["rounds"])
            met.add(pair)
            rec = record(srv, t["code"])
            assert rec["seats"][0] == t["seats"][0], rec["seats"]
            w = winner(rec)
            want = {0: "a", 1: "b", None: "draw"}[w]
            assert t["result"] == want, (t, rec.get("final"))
            if w is None:
                for n in t["seats"]:
                    points[n] += 0.5
            else:
                points[t["seats"][w]] += 1
        assert seen - {None} == set(names)
    for line in v["standings"]:
        assert line["points"] == points[line["name"]], (line, points)
    ranked = [line["points"] for line in v["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    # every game of bea's reached both her connections
    bea = players[1]
    assert bea.seated and extra.seated == bea.seated, (bea.seated,
                                                       extra.seated)
    lst = json.loads(srv.http("/api/tournaments")[1])
    assert [t["id"] for t in lst["finished"]] == [v["id"]]
    assert lst["upcoming"] == [] and lst["running"] == []


def signup_from(srv, name, i):
    """An account made from an address of its own (behind the trusted
    proxy: the per-address budget of new accounts is a site's)."""
    st, body, h = call(srv, "POST", "/api/signup",
                       {"name": name, "password": "password1"},
                       headers={"X-Forwarded-For": "10.0.0.%d" % i})
    assert st == 201, (st, body)
    return session_of(h)


def test_scopone_pairs_swiss(tmp_path):
    """tourney-e2e-5: a Swiss of Scopone pairs (rules of 4 in 2 teams):
    a join names the partner and waits until the partner's join names it
    back; one cannot pair with oneself, with a pair's member, or name a
    partner in a tournament of two; 3 pairs over 2 rounds: a bye each
    round, no pair meets twice, each table seats a pair's two at seats 0
    and 2 (each account seated), and the standings are the records'."""
    names = ["ada", "bea", "cal", "dan", "eva", "fil"]
    srv = Server(str(tmp_path / "serve.db"), *FAST,
                 "--trusted-proxy", "127.0.0.1").start()
    cookies = [signup_from(srv, n, i + 1) for i, n in enumerate(names)]

    async def go():
        cs = [await connect(srv, k, n,
                            {"X-Forwarded-For": "10.0.0.%d" % (i + 1)})
              for i, (k, n) in enumerate(zip(cookies, names))]
        two = await ask(cs[0], dict(type="tournament_create", format="swiss",
                                    rules=RULES, rounds=1, starts_in=600,
                                    **CLOCK))
        odd = await ask(cs[0], {"type": "tournament_join", "id": two["id"],
                                "partner": "bea"})
        assert odd["code"] == "bad_message", odd
        arena = await ask(cs[0], dict(type="tournament_create",
                                      format="arena", minutes=5,
                                      rules={"game": "scopone",
                                             "target": 1},
                                      starts_in=600, **CLOCK))
        assert arena["code"] == "bad_rules", arena
        made = await ask(cs[0], dict(type="tournament_create",
                                     format="swiss", rounds=2,
                                     rules={"game": "scopone",
                                            "target": 1},
                                     starts_in=600, name="Coppie", **CLOCK))
        assert made["type"] == "tournament" and made["pairs"] is True, made
        tid = made["id"]
        alone = await ask(cs[0], {"type": "tournament_join", "id": tid})
        assert alone["code"] == "bad_message", alone
        me = await ask(cs[0], {"type": "tournament_join", "id": tid,
                               "partner": "ada"})
        assert me["code"] == "bad_message", me
        # ada asks for bea: waiting, no entry yet
        asked = await ask(cs[0], {"type": "tournament_join", "id": tid,
                                  "partner": "bea"})
        assert asked["invites"] == [{"name": "ada", "partner": "bea"}]
        assert asked["standings"] == [] and asked["players"] == 0, asked
        paired = await ask(cs[1], {"type": "tournament_join", "id": tid,
                                   "partner": "ada"})
        assert paired["invites"] == [], paired
        assert [s["members"] for s in paired["standings"]] == [
            ["ada", "bea"]], paired
        assert paired["standings"][0]["name"] == "ada & bea"
        taken = await ask(cs[2], {"type": "tournament_join", "id": tid,
                                  "partner": "bea"})
        assert taken["code"] == "partner_taken", taken
        for a, b in ((2, 3), (4, 5)):
            await ask(cs[a], {"type": "tournament_join", "id": tid,
                              "partner": names[b]})
            j = await ask(cs[b], {"type": "tournament_join", "id": tid,
                                  "partner": names[a]})
            assert j["type"] == "tournament", j
        assert view(srv, tid)["players"] == 3
        started = await ask(cs[0], {"type": "tournament_start", "id": tid})
        assert started["type"] == "tournament", started
        return await play_through(srv, cs, tid, 55, enter=False)

    try:
        v, players = run(go())
        check_pairs(srv, v, players, names)
    finally:
        srv.stop()


def check_pairs(srv, v, players, names):
    team = {"ada & bea": ["ada", "bea"], "cal & dan": ["cal", "dan"],
            "eva & fil": ["eva", "fil"]}
    assert [r["round"] for r in v["rounds"]] == [1, 2]
    met, points = set(), {n: 0.0 for n in team}
    for r in v["rounds"]:
        byes = [t for t in r["tables"] if t["result"] == "bye"]
        assert len(byes) == 1, r
        points[byes[0]["seats"][0]] += 1
        for t in r["tables"]:
            if t["result"] == "bye":
                continue
            pair = frozenset(t["seats"])
            assert pair not in met, v["rounds"]
            met.add(pair)
            rec = record(srv, t["code"])
            a, b = team[t["seats"][0]], team[t["seats"][1]]
            # partners sit across: a pair's two at seats 0 and 2
            assert rec["seats"] == [a[0], b[0], a[1], b[1]], rec["seats"]
            w = winner(rec)
            assert t["result"] == {0: "a", 1: "b", None: "draw"}[w], t
            if w is None:
                for n in t["seats"]:
                    points[n] += 0.5
            else:
                points[t["seats"][w]] += 1
            for p, n in zip(players, names):
                if n in a + b:
                    assert t["code"] in p.seated, (n, t["code"])
    for line in v["standings"]:
        assert line["points"] == points[line["name"]], (line, points)


def test_duplicate_round_is_sealed_and_scored(srv):
    """tourney-e2e-2: a duplicate round of 4 accounts: both tables are
    dealt the same decks; while one table plays, the other's players can
    neither watch it nor read either record (403 sealed); once both are
    done the records open and each entry's score is its points minus the
    mean of the others' who held the same cards, deal by deal."""
    names = ["fio", "gil", "ivo", "lia"]
    cookies = [signup(srv, n) for n in names]

    async def go():
        cs = [await connect(srv, k, n) for k, n in zip(cookies, names)]
        made = await ask(cs[0], dict(type="tournament_create",
                                     format="duplicate", rules=RULES,
                                     rounds=1, starts_in=600, move_clock=0,
                                     away_timeout=600))
        assert made["id"][0] == "D", made
        tid = made["id"]
        for c in cs:
            assert (await ask(c, {"type": "tournament_join",
                                  "id": tid}))["type"] == "tournament"
        await ask(cs[0], {"type": "tournament_start", "id": tid})
        deadline = time.time() + 20
        while len(view(srv, tid)["rounds"]) < 1 and time.time() < deadline:
            await asyncio.sleep(0.2)
        tables = view(srv, tid)["rounds"][0]["tables"]
        assert len(tables) == 2
        first, second = tables
        rng = random.Random(7)
        hold = asyncio.Event()  # the second table waits
        players = [Player(c, rng, hold if names[i] in second["seats"]
                          else None) for i, c in enumerate(cs)]
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(p.play(stop)) for p in players]
        try:
            deadline = time.time() + 60
            while (view(srv, tid)["rounds"][0]["tables"][0]["result"] is None
                   and time.time() < deadline):
                await asyncio.sleep(0.2)
            assert view(srv, tid)["rounds"][0]["tables"][0]["result"]
            for code in (first["code"], second["code"]):
                st, body, _ = call(srv, "GET",
                                   "/api/tables/%s/record" % code)
                assert st == 403 and body["code"] in ("sealed",
                                                      "in_progress"), body
            st, body, _ = call(srv, "GET",
                               "/api/tables/%s/record" % first["code"])
            assert body["code"] == "sealed", body
            watcher = players[names.index(first["seats"][0])]
            await watcher.c.send({"type": "watch", "code": second["code"]})
            deadline = time.time() + 10
            while not watcher.errors and time.time() < deadline:
                await asyncio.sleep(0.05)
            assert [e["code"] for e in watcher.errors] == ["sealed"]
            hold.set()
            v = await until_finished(srv, tid, timeout=120)
        finally:
            hold.set()
            stop.set()
            await asyncio.gather(*tasks)
        for c in cs:
            await c.close()
        return v, first, second

    v, first, second = run(go())
    recs = [record(srv, t["code"]) for t in (first, second)]
    common = min(len(r["rounds"]) for r in recs)
    assert common >= 1
    for d in range(common):  # the same decks, deal by deal
        assert recs[0]["rounds"][d]["deck"] == recs[1]["rounds"][d]["deck"]
    # each deal's points by (deal, seat), as `scopa replay` gives them
    lines = []
    for t, rec in zip((first, second), recs):
        for d, rnd in enumerate(replayed(rec)["rounds"]):
            for seat in range(2):
                lines.append((d, seat, t["seats"][seat],
                              rnd["sides"][seat]["round_total"]))
    want = {n: 0.0 for n in names}
    for d, seat, name, pts in lines:
        others = [p for (d2, s2, n2, p) in lines
                  if d2 == d and s2 == seat and n2 != name]
        if others:
            want[name] += pts - sum(others) / len(others)
    for line in v["standings"]:
        assert abs(line["points"] - want[line["name"]]) < 1e-9, (line, want)


def arena_points(games, name):
    """lichess's streak, as docs/serve.md "Arena" states it: a win 2, or 4
    after two wins in a row; a draw 1; a loss (and a double forfeit) 0."""
    points, streak = 0, 0
    for t in games:
        if name not in t["seats"]:
            continue
        me = t["seats"].index(name)
        won = t["result"] == "ab"[me]
        if won:
            points += 4 if streak >= 2 else 2
            streak += 1
        else:
            points += 1 if t["result"] == "draw" else 0
            streak = 0
    return points


def test_arena_one_minute(srv):
    """tourney-e2e-3: a one-minute arena of 4 accounts: whoever is free is
    paired again until the end, nobody is at two tables at once, every
    game's result is its record's, and the points follow the streak
    rule over the games in the order they ended."""
    names = ["mia", "neo", "oli", "pia"]
    cookies = [signup(srv, n) for n in names]

    async def go():
        cs = [await connect(srv, k, n) for k, n in zip(cookies, names)]
        made = await ask(cs[0], dict(type="tournament_create", format="arena",
                                     rules=RULES, minutes=1, starts_in=600,
                                     **CLOCK))
        assert made["id"][0] == "A" and made["minutes"] == 1, made
        return await play_through(srv, cs, made["id"], 11, timeout=150)

    v, players = run(go())
    games = [t for r in v["rounds"] for t in r["tables"]]
    assert len(games) >= 4, v["rounds"]  # paired again and again
    for t in games:
        w = winner(record(srv, t["code"]))
        assert t["result"] == {0: "a", 1: "b", None: "draw"}[w], t
    for p, n in zip(players, names):  # seated at each of its games, once
        mine = [t["code"] for t in games if n in t["seats"]]
        assert sorted(p.seated) == sorted(mine), (n, p.seated, mine)
    for line in v["standings"]:
        assert line["points"] == arena_points(games, line["name"]), line


def test_kill9_mid_round_loses_nothing(tmp_path):
    """tourney-e2e-4: the server is killed (-9) in the middle of round 1 of
    a Swiss; started again on the same store, it seats the accounts that
    connect at their tables (the director's news again), the moves made
    before the kill are there, and the tournament ends with 2 rounds and
    no repeat."""
    db = str(tmp_path / "serve.db")
    s = Server(db, *FAST).start()
    names = ["rea", "sal", "tea", "uva"]
    cookies = [signup(s, n) for n in names]

    async def before():
        cs = [await connect(s, k, n) for k, n in zip(cookies, names)]
        made = await ask(cs[0], dict(type="tournament_create", format="swiss",
                                     rules={"target": 11}, rounds=2,
                                     starts_in=600, **CLOCK))
        for c in cs:
            await ask(c, {"type": "tournament_join", "id": made["id"]})
        await ask(cs[0], {"type": "tournament_start", "id": made["id"]})
        rng = random.Random(3)
        players = [Player(c, rng) for c in cs]
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(p.play(stop)) for p in players]
        deadline = time.time() + 30
        while time.time() < deadline:
            await asyncio.sleep(0.2)
            if all(p.seated for p in players) and all(
                    p.c.state and len(p.c.state["round"]["moves"]) >= 6
                    for p in players):
                break
        stop.set()
        await asyncio.gather(*tasks)
        await asyncio.sleep(0.5)  # the moves' commit
        moves = {p.c.code: len(p.c.state["round"]["moves"]) for p in players}
        return made["id"], moves

    tid, moves = run(before())
    s.kill9()
    s = Server(db, *FAST, port=s.port).start()
    try:
        async def after():
            cs = [await connect(s, k, n) for k, n in zip(cookies, names)]
            return await play_through(s, cs, tid, 4, 200, enter=False)

        v, players = run(after())
        first = [p.seated[0] for p in players]
        assert set(first) == set(moves), (first, moves)  # round 1 again
        for code, n in moves.items():
            rec = record(s, code)
            assert sum(len(r["moves"]) for r in rec["rounds"]) >= n
        assert [r["round"] for r in v["rounds"]] == [1, 2]
        pairs = [frozenset(t["seats"]) for r in v["rounds"]
                 for t in r["tables"]]
        assert len(pairs) == 4 and len(set(pairs)) == 4, v["rounds"]
    finally:
        s.stop()
