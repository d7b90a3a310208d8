#!/usr/bin/python3
"""serve_login_flood.py -- another table's moves while strangers flood
logins (docs/serve.md "Accounts"; issue 32).

    bench/serve_login_flood.py [--flooders 16] [--addrs 64] [--moves 200]
                               [--bin build/scopa]

Starts the release build's server (the default Argon2id cost) on a free
loopback port with a fresh database.  First one player plays MOVES random
legal moves against `greedy` with nothing else going on (the baseline);
then again while FLOODERS threads send logins with wrong passwords for
names that do not exist, each request from one of ADDRS loopback source
addresses (127.0.1.x), so that the per-address limits let as many as
possible reach the hash.  Prints one JSON object: each phase's move
latencies (sent to the state where the player is to play again, the bot's
answer included; a move that ends a round is not counted) as p50, p99 and
max in ms, and the logins answered by status.  Loopback only, bounded by
MOVES.  --control floods GET /healthz instead, at the same concurrency:
what the storm of requests costs with no login in it.
"""
import argparse
import asyncio
import collections
import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "server"))

from serverlib import Client, Server, my_turn  # noqa: E402


def flood(port, addr, stop, counts, lock, seed, control):
    rng = random.Random(seed)
    while not stop.is_set():
        body = json.dumps({"name": "nobody%06d" % rng.randrange(10 ** 6),
                           "password": "wrong-password"})
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                           source_address=(addr, 0))
            if control:  # the same storm of requests, none of them a login
                c.request("GET", "/healthz")
            else:
                c.request("POST", "/api/login", body=body,
                          headers={"Content-Type": "application/json"})
            status = c.getresponse().status
            c.close()
        except OSError:
            status = "error"
        with lock:
            counts[status] += 1


async def moves_against_greedy(server, moves):
    """MOVES random legal moves against `greedy` (new tables as games
    end): each move's wait in ms, sorted (bench/serve_hint_flood.py plays
    its player with it too)."""
    rng, waits = random.Random(7), []
    while len(waits) < moves:
        v = await Client.connect(server, "v")
        await v.seated({"type": "create", "rules": {"target": 11},
                        "seats": ["me", "greedy"]})
        st = await v.until(lambda m: my_turn(m, v.seat))
        while len(waits) < moves:
            t0 = time.perf_counter()
            await v.send({"type": "move", "move": rng.choice(st["legal"]),
                          "ply": len(st["round"]["moves"])})
            ended = False
            while True:
                m = await v.next()
                ended |= m["type"] in ("round_over", "game_over")
                if m["type"] == "game_over" or my_turn(m, v.seat):
                    break
            if m["type"] == "game_over":
                break
            if not ended:
                waits.append((time.perf_counter() - t0) * 1000)
            st = m
        await v.close()
    return sorted(waits)


def summary(waits):
    return {"moves": len(waits), "p50_ms": round(waits[len(waits) // 2], 2),
            "p99_ms": round(waits[int(0.99 * (len(waits) - 1))], 2),
            "max_ms": round(waits[-1], 2)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flooders", type=int, default=16)
    ap.add_argument("--addrs", type=int, default=64)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--control", action="store_true",
                    help="flood GET /healthz instead: the cost of the storm "
                    "of requests alone")
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "scopa"))
    args = ap.parse_args()
    os.environ["SCOPA_BIN"] = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory() as d:
        server = Server(os.path.join(d, "serve.db")).start()
        try:
            quiet = summary(asyncio.run(moves_against_greedy(server, args.moves)))
            stop, lock = threading.Event(), threading.Lock()
            counts = collections.Counter()
            threads = [threading.Thread(
                target=flood, args=(server.port,
                                    "127.0.1.%d" % (1 + i % args.addrs),
                                    stop, counts, lock, i, args.control))
                for i in range(args.flooders)]
            t0 = time.time()
            for t in threads:
                t.start()
            time.sleep(1.0)
            flooded = summary(asyncio.run(moves_against_greedy(server,
                                                             args.moves)))
            stop.set()
            for t in threads:
                t.join()
            seconds = time.time() - t0
        finally:
            server.stop()
    print(json.dumps({"quiet": quiet, "flooded": flooded,
                      "flood_seconds": round(seconds, 1),
                      "logins": {str(k): v for k, v in counts.items()}}))


if __name__ == "__main__":
    main()
