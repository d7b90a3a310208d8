"""The terminal's hint and the server's are one procedure (issue 23,
issue 28): on the positions of real games on `scopa serve` (a person who
asks for a hint at every turn and then plays a random legal move, against
a bot), the server's hint over the WebSocket and the terminal's
(play_session_hint, through tests/server/hint_terminal.c on the game's
record cut at that move) name the same move with the same value, to the
last bit.  The server's hints are also repeatable: a hint asked again
after a restart on the same database is the same.

A small budget (--hint-ms, the terminal's hint_ms) keeps the suite quick
under the sanitizers; both default to SCOPA_HINT_MS."""
import asyncio
import json
import os
import random
import subprocess

from serverlib import Client, Server, check_why, my_turn

POSITIONS = 200
HINT_MS = 4


def hint_terminal():
    path = os.environ.get("SCOPA_HINT_TERMINAL")
    assert path and os.path.exists(path), "SCOPA_HINT_TERMINAL is not built"
    return path


def record_of(server, code):
    status, body, _ = server.http("/api/tables/%s/record" % code)
    assert status == 200, body
    return json.loads(body)


async def play_asking(server, rng, rules):
    """One game as seat 0 against greedy, a hint at every turn with a
    choice.  Returns (code, [(round, ply, hint), ...])."""
    a = await Client.connect(server, "a")
    seated = await a.seated({"type": "create", "rules": rules,
                             "seats": ["me", "greedy"]})
    hints, rnd = [], 0
    while True:
        msg = await a.next(60)
        if msg["type"] == "round_over":
            rnd += 1
        if msg["type"] == "game_over":
            break
        if not my_turn(msg, 0):
            continue
        ply = len(msg["round"]["moves"])
        if len(msg["legal"]) > 1:
            await a.send({"type": "hint", "id": ply})
            hint = await a.until(lambda m: m["type"] == "hint", 60)
            assert hint["id"] == ply and hint["ply"] == ply
            hints.append((rnd, ply, hint))
        await a.send({"type": "move", "move": rng.choice(msg["legal"]),
                      "ply": ply})
    await a.close()
    return seated["code"], hints


def cut(record, rnd, ply):
    """The record of the game as it stood before move `ply` of round
    `rnd`: what `scopa play --resume` would continue from."""
    out = dict(record)
    out["rounds"] = [dict(r) for r in record["rounds"][:rnd + 1]]
    out["rounds"][rnd]["moves"] = record["rounds"][rnd]["moves"][:ply]
    return out


def test_hint_agree_1_1_terminal_and_server(tmp_path):
    s = Server(str(tmp_path / "serve.db"), "--hint-ms", str(HINT_MS)).start()
    rng = random.Random(23)
    games = []
    try:
        async def go():
            total = 0
            while total < POSITIONS:
                code, hints = await play_asking(s, rng, {"target": 11})
                games.append((code, hints))
                total += len(hints)
        asyncio.run(go())
        records = {code: record_of(s, code) for code, _ in games}
    finally:
        s.stop()
    files, server_said = [], []
    for code, hints in games:
        for rnd, ply, hint in hints:
            path = tmp_path / ("%s-%d-%d.json" % (code, rnd, ply))
            path.write_text(json.dumps(cut(records[code], rnd, ply)))
            files.append(str(path))
            server_said.append(hint)
    out = subprocess.run([hint_terminal(), "--ms", str(HINT_MS)] + files,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    terminal = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(terminal) == len(files) >= POSITIONS
    differ = [(f, h["move"], h["value"], t) for f, h, t in
              zip(files, server_said, terminal)
              if (t.get("move"), t.get("value")) != (h["move"], h["value"])]
    assert not differ, "%d of %d differ, e.g. %s" % (len(differ), len(files),
                                                    differ[:3])


def test_hint_agree_1_2_the_same_hint_after_a_restart(tmp_path):
    """A hint is a function of the position, the seed and the budget: the
    server asked again for the same position after a restart (a new bot
    job on a new process) gives the same answer, every number of it."""
    db = str(tmp_path / "serve.db")
    s = Server(db, "--hint-ms", str(HINT_MS)).start()
    try:
        async def first():
            a = await Client.connect(s, "a")
            seated = await a.seated({"type": "create", "rules": {},
                                     "seats": ["me", "greedy"]})
            st = await a.until(lambda m: my_turn(m, 0))
            await a.send({"type": "hint"})
            hint = await a.until(lambda m: m["type"] == "hint")
            await a.close()
            return seated, st, hint
        seated, st, hint = asyncio.run(first())
    finally:
        s.stop()
    s = Server(db, "--hint-ms", str(HINT_MS)).start()
    try:
        async def again():
            a = await Client.connect(s, "a")
            await a.send({"type": "resume", "code": seated["code"],
                          "token": seated["token"]})
            st2 = await a.until(lambda m: my_turn(m, 0))
            assert st2["round"] == st["round"]
            await a.send({"type": "hint"})
            hint2 = await a.until(lambda m: m["type"] == "hint")
            await a.close()
            return hint2
        hint2 = asyncio.run(again())
    finally:
        s.stop()
    assert hint2["moves"] == hint["moves"] and "loss" in hint["moves"][0]
    # issue 25 point 5: what each move does, for words, the best's too
    assert hint["why"] == hint["moves"][0]["why"]
    for m in hint["moves"]:
        check_why(m["move"], m["why"])
