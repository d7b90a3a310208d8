#!/usr/bin/python3
"""serve_hint_flood.py -- another table's bot while strangers flood hints
(docs/serve.md "Security"; issue 22, item 3).

    bench/serve_hint_flood.py [--flooders 8] [--rate 25] [--moves 200]
                              [--bin build/scopa]

Starts the release build's server on a free loopback port with a fresh
database.  FLOODERS connections each sit at a table of their own against
`esperto` and ask RATE hints a second for as long as the run lasts, while
one player at another table plays MOVES random legal moves against
`greedy`.  Prints one JSON object: the latencies of that player's moves
(sent to the state where the player is to play again, the bot's answer
included; a move that ends a round is not counted) as p50, p99 and max in
ms, the hints answered, the bot jobs the hints cost (healthz hint_jobs)
and the largest bots_pending seen.  Loopback only, bounded by MOVES.
"""
import argparse
import asyncio
import json
import os
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "server"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from serverlib import Client, Server, my_turn  # noqa: E402
from serve_login_flood import moves_against_greedy  # noqa: E402


async def turn(c):
    if c.state and my_turn(c.state, c.seat):
        return c.state
    return await c.until(lambda m: my_turn(m, c.seat))


async def flood(server, i, rate, stop, hints):
    c = await Client.connect(server, "f%d" % i)
    await c.seated({"type": "create", "rules": {"target": 11},
                    "seats": ["me", "esperto"]})
    await turn(c)
    n = 0
    while not stop.is_set():
        await c.send({"type": "hint", "id": n})
        n += 1
        await asyncio.sleep(1.0 / rate)
    await c.quiet(0.5)
    hints.append(len([m for m in c.log if m["type"] == "hint"]))
    await c.close()


async def player(server, moves, waits):
    waits.extend(await moves_against_greedy(server, moves))


async def run(server, args):
    stop, hints, waits, pending = asyncio.Event(), [], [], [0]
    flooders = [asyncio.create_task(flood(server, i, args.rate, stop, hints))
                for i in range(args.flooders)]

    async def watch():
        while not stop.is_set():
            h = json.loads(server.http("/healthz")[1])
            pending[0] = max(pending[0], h["bots_pending"])
            await asyncio.sleep(0.2)

    watcher = asyncio.create_task(watch())
    await asyncio.sleep(1.0)
    await player(server, args.moves, waits)
    stop.set()
    await asyncio.gather(*flooders, watcher)
    waits.sort()
    health = json.loads(server.http("/healthz")[1])
    return {"flooders": args.flooders, "rate": args.rate,
            "moves": len(waits),
            "p50_ms": round(waits[len(waits) // 2], 2),
            "p99_ms": round(waits[int(0.99 * (len(waits) - 1))], 2),
            "max_ms": round(waits[-1], 2),
            "hints_answered": sum(hints), "hint_jobs": health.get("hint_jobs"),
            "max_bots_pending": pending[0]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flooders", type=int, default=8)
    ap.add_argument("--rate", type=float, default=25)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "scopa"))
    args = ap.parse_args()
    os.environ["SCOPA_BIN"] = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory() as d:
        server = Server(os.path.join(d, "serve.db")).start()
        try:
            out = asyncio.run(run(server, args))
        finally:
            server.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
