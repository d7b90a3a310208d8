#!/usr/bin/python3
"""tourney_scale.py -- a tournament at scale through the real server
(issue 35 "Scale, measured"; docs/serve.md "Running a tournament").

    bench/tourney_scale.py [--format swiss] [--players 256] [--rounds 9]
                           [--target 11] [--bin build/scopa]

Starts the release build's server on a free loopback port with a fresh
SQLite database, trusting 127.0.0.1 as a proxy so that each scripted
account comes from an address of its own (10.x.y.z in X-Forwarded-For,
as behind nginx: the per-address budgets are a site's, not a bench's);
signs up PLAYERS accounts, connects each, creates the tournament, joins
every account, starts it, and every connection plays a random legal move
at once whenever it is to play, at whichever table the director seats
it, until the tournament is finished.  Bounded: it stops at --limit
seconds.  Loopback only.

Prints one JSON object: the wall time from the start to the end, the
server's CPU seconds over it (user + system, /proc), the rounds, the
games, and the longest pause between rounds as the players saw it (from
the last game_over of a round to the first `seated` of the next).
"""
import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import tempfile
import time
import urllib.request

import websockets

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_s(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def addr(i):
    """Account i's address: one network each (the limits may count a
    whole /24 as one address)."""
    return "10.%d.%d.1" % (i // 250 % 250, i % 250)


def http(port, method, path, body=None, ip="10.255.255.1", cookie=None):
    h = {"X-Forwarded-For": ip, "Content-Type": "application/json"}
    if cookie:
        h["Cookie"] = "scopa_session=" + cookie
    req = urllib.request.Request(
        "http://127.0.0.1:%d%s" % (port, path), method=method, headers=h,
        data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status, r.read(), r.headers


class Player:
    def __init__(self, i, ws, rng):
        self.i, self.ws, self.rng = i, ws, rng
        self.code, self.seat = None, None
        self.seated_at = {}   # code -> time seated
        self.over_at = {}     # code -> time of its game_over

    async def play(self, stop):
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(self.ws.recv(), 0.5)
            except asyncio.TimeoutError:
                continue
            msg = json.loads(text)
            kind = msg.get("type")
            if kind == "seated":
                self.code, self.seat = msg["code"], msg["seat"]
                self.seated_at.setdefault(msg["code"], time.time())
            elif kind == "game_over":
                self.over_at.setdefault(self.code, time.time())
            elif (kind == "state" and msg.get("code") == self.code and
                  msg.get("status") == "playing" and
                  msg.get("to_play") == self.seat and "legal" in msg):
                await self.ws.send(json.dumps({
                    "type": "move", "move": self.rng.choice(msg["legal"]),
                    "ply": len(msg["round"]["moves"])}))


async def answer(ws):
    while True:
        msg = json.loads(await ws.recv())
        if msg["type"] in ("tournament", "error"):
            return msg


async def bench(a, port, pid):
    rng = random.Random(a.seed)
    cookies = []
    for i in range(a.players):
        st, _, h = http(port, "POST", "/api/signup",
                        {"name": "p%04d" % i, "password": "password1"},
                        ip=addr(i))
        cookies.append(h["Set-Cookie"].split(";")[0].split("=", 1)[1])
    socks = []
    for i, k in enumerate(cookies):
        ws = await websockets.connect(
            "ws://127.0.0.1:%d/ws" % port, max_size=None,
            extra_headers={"Cookie": "scopa_session=" + k,
                           "X-Forwarded-For": addr(i)})
        await ws.recv()  # hello
        socks.append(ws)
    create = {"type": "tournament_create", "format": a.format,
              "rules": {"target": a.target}, "starts_in": 600,
              "move_clock": 30, "away_timeout": 60}
    if a.format == "arena":
        create["minutes"] = a.minutes
    else:
        create["rounds"] = a.rounds
    await socks[0].send(json.dumps(create))
    made = await answer(socks[0])
    assert made["type"] == "tournament", made
    tid = made["id"]
    for ws in socks:
        await ws.send(json.dumps({"type": "tournament_join", "id": tid}))
        got = await answer(ws)
        assert got["type"] == "tournament", got
    players = [Player(i, ws, random.Random(rng.random()))
               for i, ws in enumerate(socks)]
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(p.play(stop)) for p in players]
    t0, c0 = time.time(), cpu_s(pid)
    await socks[0].send(json.dumps({"type": "tournament_start", "id": tid}))
    view = None
    try:
        while time.time() - t0 < a.limit:
            await asyncio.sleep(1.0)
            view = json.loads(http(port, "GET", "/api/tournaments/" + tid)[1])
            if view["status"] == "finished":
                break
    finally:
        t1, c1 = time.time(), cpu_s(pid)
        stop.set()
        await asyncio.gather(*tasks)
        for ws in socks:
            await ws.close()
    rounds = view["rounds"]
    pauses = []
    for prev, nxt in zip(rounds, rounds[1:]):
        ended = max(p.over_at.get(t["code"], 0) for p in players
                    for t in prev["tables"] if t["code"])
        began = min(p.seated_at.get(t["code"], float("inf"))
                    for p in players for t in nxt["tables"] if t["code"])
        pauses.append(began - ended)
    games = sum(1 for r in rounds for t in r["tables"] if t["code"])
    pairs = [frozenset(t["seats"]) for r in rounds for t in r["tables"]
             if t["code"]]
    return {"format": a.format, "players": a.players,
            "status": view["status"], "rounds": len(rounds), "games": games,
            "repeats": len(pairs) - len(set(pairs)),
            "wall_s": round(t1 - t0, 2),
            "server_cpu_s": round(c1 - c0, 2),
            "longest_pause_between_rounds_s":
                round(max(pauses), 3) if pauses else None,
            "pauses_s": [round(p, 3) for p in pauses]}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--format", default="swiss",
                   choices=["swiss", "arena", "duplicate"])
    p.add_argument("--players", type=int, default=256)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--minutes", type=int, default=5)
    p.add_argument("--target", type=int, default=11)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=float, default=1800)
    p.add_argument("--bin", default=os.path.join(TOP, "build", "scopa"))
    a = p.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        proc = subprocess.Popen(
            [a.bin, "serve", "--port", str(port), "--db",
             os.path.join(d, "serve.db"), "--quiet", "--trusted-proxy",
             "127.0.0.1", "--pwhash-ops", "1", "--pwhash-mib", "8"],
            stderr=subprocess.PIPE)
        try:
            for _ in range(200):
                try:
                    if http(port, "GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.05)
            out = asyncio.run(bench(a, port, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
