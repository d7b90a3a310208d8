#!/usr/bin/python3
"""state_size.py -- the size of the `state` messages of `scopa serve`
(issue 33: what a state carries for the browser to draw).

    bench/state_size.py [--games 10] [--seed 1] [--bin build/scopa]

Starts the server on a free loopback port with a fresh SQLite database
(tests/server/serverlib.py) and, for 2 players (the person against
"greedy") and 4 (scopone, the person and three "greedy"), plays GAMES
games to 11 points: the person plays a random legal move (random.Random
seeded with SEED) on every state that asks it to; a spectator watches
the same table.  Counts the bytes of the UTF-8 text of every `state`
the person's and the spectator's connections receive, as the server
sent it (the WebSocket frame's payload).  Prints one JSON object: per
player count and recipient, the number of states, their mean, median
and largest size in bytes,.  Deals differ between runs (the seeds come from the
operating system), so means move by a few bytes from run to run.

Measured (10 games each, the Debug build, 2 Dec 2026): before issue 33's
"drawn", a seat's state averaged 1327 bytes at 2 players (largest 1504)
and 1395 at 4 (1524), a spectator's 1238 (1394) and 1302 (1460); with
it 1547 (1823), 1619 (1856), 1459 (1713) and 1529 (1794): about 220
bytes more a state (+17%), for the table, counts, piles, scope and last
move the browser no longer computes.  With a finished round's
categories too: 1556 (2187), 1628 (2212), 1470 (2079), 1538 (2150):
the largest is the state after a round's last move.  With the library's
sentences (legal_words, drawn.last.words; English, the default): a seat
1656 (2252) and 1733 (3866), a spectator 1520 (2143) and 1587 (2215):
about 100 bytes more a seat's state (+6%), 50 a spectator's (+3%); the
largest, 3866, a four-player state with many captures to choose from.
With drawn.reasons (why each hand card plays so, with its words, in the
states with legal only; measured against the build just before it, same
seed): a seat 1657 -> 1753 bytes (largest 2260 -> 2470) at 2 players and
1730 -> 1846 (2401 -> 3129) at 4: about 100 bytes more a seat's state
(+6%, +7%; the states to play carry 3 or up to 10 sentences, the others
none); a spectator's unchanged (1521, 1589).
"""
import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))
import serverlib  # noqa: E402
import websockets  # noqa: E402


async def recv_text(ws, sizes, timeout=60):
    text = await asyncio.wait_for(ws.recv(), timeout)
    msg = json.loads(text)
    if msg["type"] == "state":
        sizes.append(len(text.encode()))
    return msg


async def spectator(url, code, sizes, done):
    async with websockets.connect(url, max_size=None) as ws:
        await recv_text(ws, [])
        await ws.send(json.dumps({"type": "watch", "code": code}))
        while not done.is_set():
            try:
                await recv_text(ws, sizes, timeout=0.5)
            except asyncio.TimeoutError:
                pass


async def one_game(url, rules, seats, rng, mine, watched):
    async with websockets.connect(url, max_size=None) as ws:
        await recv_text(ws, [])
        await ws.send(json.dumps({"type": "create", "rules": rules,
                                  "seats": seats}))
        seat = code = None
        done = asyncio.Event()
        watcher = None
        asked = set()
        while True:
            msg = await recv_text(ws, mine)
            if msg["type"] == "seated":
                seat, code = msg["seat"], msg["code"]
                watcher = asyncio.create_task(
                    spectator(url, code, watched, done))
            elif msg["type"] == "game_over":
                break
            elif msg["type"] == "error":
                # a second state of the same position (a spectator came)
                # asked again: the move answered the first one
                if msg["code"] not in ("not_your_turn", "stale"):
                    raise RuntimeError(msg)
            elif (msg["type"] == "state" and msg["status"] == "playing"
                  and msg["to_play"] == seat and msg.get("legal")
                  and (str(msg["scores"]), msg["ply"]) not in asked):
                asked.add((str(msg["scores"]), msg["ply"]))
                await ws.send(json.dumps({
                    "type": "move", "move": rng.choice(msg["legal"]),
                    "ply": msg["ply"]}))
        await asyncio.sleep(0.3)
        done.set()
        await watcher


def summary(sizes):
    return {"states": len(sizes),
            "mean_bytes": round(statistics.mean(sizes), 1),
            "median_bytes": statistics.median(sizes),
            "max_bytes": max(sizes)}


async def main(args):
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        srv = serverlib.Server(os.path.join(tmp, "bench.db")).start()
        try:
            for name, rules, seats in (
                    ("2 players", {"target": 11}, ["me", "greedy"]),
                    ("4 players", {"game": "scopone", "target": 11},
                     ["me", "greedy", "greedy", "greedy"])):
                rng = random.Random(args.seed)
                mine, watched = [], []
                for _ in range(args.games):
                    await one_game(srv.url, rules, seats, rng, mine, watched)
                out[name] = {"seat": summary(mine),
                             "spectator": summary(watched)}
        finally:
            srv.stop()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bin")
    a = p.parse_args()
    if a.bin:
        os.environ["SCOPA_BIN"] = os.path.abspath(a.bin)
    asyncio.run(main(a))
