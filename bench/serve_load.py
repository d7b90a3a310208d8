#!/usr/bin/python3
"""serve_load.py -- the load benchmark of `scopa serve` (docs/serve.md).

    bench/serve_load.py [--tables 1000] [--seconds 60] [--think-ms 1000]
                        [--bot greedy] [--bin build/scopa] [--cluster N]
                        [--clients P]

Starts the release build's server on a free loopback port with a fresh
database, opens TABLES WebSocket connections, each creating a table
against a bot and playing random legal moves (after a think time drawn
uniformly from 0 to 2 x THINK_MS, like a person; 0 = at once) until its
game ends, then another game, for SECONDS after the last table has sat
down.  Bounded in time and count, loopback only.

Measures, for every move a client sends, the round trip from the send to
the `state` that includes it; and, from the server: moves per second
(every move it stored, the bots' included), its resident memory with all
tables open against before (per table), errors and lost moves (a record
downloaded at the end of every finished game is replayed: its moves must
be the ones the client saw).  Prints one JSON object.

--clients P: the clients in P processes (each its share of the tables
on its own event loop), so that the clients are not the bottleneck at
10,000 tables; their round trips and counts are summed, their CPU too.

--cluster N: the same load on `scripts/cluster start --nodes N`
(PostgreSQL, N nodes, nginx, all on loopback), every client through
nginx; each table is created on one connection, which then closes, and
played on a second one that resumes it (round-robin: on another node
than the table's owner N - 1 times in N, so relayed, relay.c).  Adds
the CPU per move of each node, of PostgreSQL (the postmaster and its
children) and of nginx.
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
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


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User + system CPU time of a process (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def health(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port,
                                timeout=30) as r:
        return json.loads(r.read())


class Stats:
    def __init__(self):
        self.rtts = []
        self.errors = []
        self.games = 0
        self.client_moves = 0
        self.seated = 0


def connect(url):
    return websockets.connect(url, max_size=None, ping_interval=None,
                              compression=None, open_timeout=120,
                              close_timeout=5)


async def create_elsewhere(url, args):
    """Cluster: a table made on one connection; its seat and token."""
    async with connect(url) as ws:
        await ws.recv()  # hello
        await ws.send(json.dumps({"type": "create",
                                  "rules": {"target": args.target},
                                  "seats": ["me", args.bot]}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "seated":
                return msg
            if msg["type"] == "error":
                raise RuntimeError(msg)


async def table(url, args, stats, rng, stop_at, ready):
    async with connect(url) as ws:
        await ws.recv()  # hello
        first = True
        while time.time() < stop_at[0]:
            if args.cluster:
                made = await create_elsewhere(url, args)
                await ws.send(json.dumps({"type": "resume",
                                          "code": made["code"],
                                          "token": made["token"]}))
            else:
                await ws.send(json.dumps({"type": "create",
                                          "rules": {"target": args.target},
                                          "seats": ["me", args.bot]}))
            sent = {}  # ply -> (time, move)
            seat = None
            while True:
                msg = json.loads(await ws.recv())
                t = msg["type"]
                if t == "seated":
                    seat = msg["seat"]
                    if first:
                        first = False
                        stats.seated += 1
                        ready.set() if stats.seated == args.tables else None
                elif t == "error":
                    stats.errors.append(msg)
                elif t == "game_over":
                    stats.games += 1
                    break
                elif t == "state":
                    moves = msg["round"]["moves"]
                    for ply in list(sent):
                        if len(moves) > ply:
                            t0, mv = sent.pop(ply)
                            if moves[ply] != mv:
                                stats.errors.append({"lost": mv, "got": moves[ply]})
                            stats.rtts.append(time.perf_counter() - t0)
                    if msg["to_play"] == seat and "legal" in msg:
                        if args.think_ms:
                            await asyncio.sleep(rng.uniform(0, 2 * args.think_ms) / 1000)
                        mv = rng.choice(msg["legal"])
                        sent[len(moves)] = (time.perf_counter(), mv)
                        stats.client_moves += 1
                        await ws.send(json.dumps({"type": "move", "move": mv,
                                                  "ply": len(moves)}))


def children(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except OSError:
                pass
    return out


def group_cpu(pids):
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:
            pass
    return total


class Cluster:
    """scripts/cluster on a temporary folder: what the benchmark reads."""

    def __init__(self, args):
        self.dir = tempfile.mkdtemp(prefix="scopa-bench-cluster-")
        self.port = free_port()
        env = dict(os.environ, SCOPA_BIN=args.bin)
        subprocess.run([os.path.join(TOP, "scripts", "cluster"), "start",
                        "--nodes", str(args.cluster), "--port",
                        str(self.port), "--dir", self.dir, "--",
                        "--bot-threads", str(args.bot_threads)],
                       check=True, env=env, timeout=300)
        self.nodes = [tuple(map(int, line.split()))
                      for line in open(os.path.join(self.dir, "nodes"))]
        pm = os.path.join(self.dir, "pg", "data", "postmaster.pid")
        self.postmaster = int(open(pm).readline())
        self.nginx = int(open(os.path.join(self.dir, "nginx.pid")).read())

    def pg_pids(self):
        return [self.postmaster] + children(self.postmaster)

    def nginx_pids(self):
        return [self.nginx] + children(self.nginx)

    def sample(self):
        """(moves, commits, commit_us, cpu of each node, of PostgreSQL,
        of nginx), now."""
        hs = [health(port) for _, port in self.nodes]
        return {"moves": sum(h["moves"] for h in hs),
                "commits": sum(h["commits"] for h in hs),
                "commit_us": sum(h["commit_us"] for h in hs),
                # the longest turn of any node since the last sample
                "loop_max_us": max(h.get("loop_max_us", 0) for h in hs),
                "loop_over_10ms": sum(h.get("loop_turns_over_10ms", 0)
                                      for h in hs),
                "nodes": [cpu_seconds(pid) for pid, _ in self.nodes],
                "postgres": group_cpu(self.pg_pids()),
                "nginx": group_cpu(self.nginx_pids())}

    def stop(self):
        subprocess.run([os.path.join(TOP, "scripts", "cluster"), "stop",
                        "--dir", self.dir], timeout=300)


def stop(loop, tasks, stop_at):
    """Ends the clients' tasks and the loop."""
    stop_at[0] = 0
    for t in tasks:
        t.cancel()
    loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
    loop.close()


def percentile(r, p):
    """The p-th quantile of the sorted round trips r, in ms."""
    return round(1000 * r[min(len(r) - 1, int(p * len(r)))], 2) if r else None


def cluster_main(args):
    cl = Cluster(args)
    try:
        stats = Stats()
        loop = asyncio.new_event_loop()
        tasks, stop_at = loop.run_until_complete(
            main_async(args, cl.port, stats))
        s0, t0, me0 = cl.sample(), time.time(), time.process_time()
        stats.rtts.clear()
        loop.run_until_complete(asyncio.sleep(args.seconds))
        s1, t1, me1 = cl.sample(), time.time(), time.process_time()
        stop(loop, tasks, stop_at)
        r = sorted(stats.rtts)
        moves = max(1, s1["moves"] - s0["moves"])

        def pct(p):
            return percentile(r, p)

        def per_move(a, b):
            return round(1000 * (b - a) / moves, 3)
        out = {
            "cluster_nodes": args.cluster,
            "tables": args.tables, "seat_seconds": stats.seat_seconds,
            "seconds": round(t1 - t0, 1),
            "think_ms": args.think_ms, "bot": args.bot,
            "server_moves_per_second": round(moves / (t1 - t0), 1),
            "client_moves_measured": len(r),
            "rtt_ms": {"p50": pct(0.50), "p99": pct(0.99),
                       "max": round(1000 * r[-1], 2) if r else None},
            "cpu_ms_per_move": {
                "nodes": [per_move(a, b) for a, b in zip(s0["nodes"],
                                                         s1["nodes"])],
                "postgres": per_move(s0["postgres"], s1["postgres"]),
                "nginx": per_move(s0["nginx"], s1["nginx"])},
            "commits_per_second": round((s1["commits"] - s0["commits"]) / (t1 - t0), 1),
            # the loop's longest turn (any node): while the tables were
            # seated, and in the measured window; turns over 10 ms in it
            "loop_max_ms": {"seating": round(s0["loop_max_us"] / 1000, 2),
                            "window": round(s1["loop_max_us"] / 1000, 2)},
            "loop_turns_over_10ms": s1["loop_over_10ms"] - s0["loop_over_10ms"],
            "client_cpu_share": round((me1 - me0) / (t1 - t0), 2),
            "games_finished": stats.games,
            "errors": len(stats.errors),
            "error_sample": stats.errors[:3],
            "cpus": os.cpu_count(), "load_average": os.getloadavg(),
        }
        print(json.dumps(out))
    finally:
        cl.stop()


async def main_async(args, port, stats):
    url = "ws://127.0.0.1:%d/ws" % port
    stop_at = [time.time() + 3600]
    ready = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = []
    t0 = time.time()
    for i in range(args.tables):
        tasks.append(asyncio.create_task(
            table(url, args, stats, random.Random(rng.random()), stop_at, ready)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # no SYN flood against ourselves
    await asyncio.wait_for(ready.wait(), 300)
    stats.seat_seconds = round(time.time() - t0, 1)
    return tasks, stop_at


def client_process(pipe, args, port, tables, seed):
    """One client process: its tables seated, then measured between the
    parent's "go" and "stop"; what it saw sent back."""
    args.tables, args.seed = tables, seed
    stats = Stats()
    loop = asyncio.new_event_loop()
    tasks, stop_at = loop.run_until_complete(main_async(args, port, stats))
    pipe.send(stats.seat_seconds)

    def wait():  # the parent's word, the clients playing meanwhile
        return loop.run_until_complete(loop.run_in_executor(None, pipe.recv))
    wait()
    stats.rtts.clear()
    games0, me0 = stats.games, time.process_time()
    wait()
    me1 = time.process_time()
    stop(loop, tasks, stop_at)
    pipe.send({"rtts": stats.rtts, "errors": stats.errors[:3],
               "nerrors": len(stats.errors), "games": stats.games - games0,
               "cpu": me1 - me0})


class Clients:
    """The tables' clients in `n` processes (--clients)."""

    def __init__(self, args, port, n):
        ctx = multiprocessing.get_context("fork")
        self.pipes, self.procs = [], []
        for i in range(n):
            share = args.tables // n + (1 if i < args.tables % n else 0)
            mine, theirs = ctx.Pipe()
            p = ctx.Process(target=client_process,
                            args=(theirs, args, port, share, args.seed * 1000 + i))
            p.start()
            self.pipes.append(mine)
            self.procs.append(p)
        self.seat_seconds = max(p.recv() for p in self.pipes)

    def go(self):
        for p in self.pipes:
            p.send("go")

    def stop(self):
        for p in self.pipes:
            p.send("stop")
        parts = [p.recv() for p in self.pipes]
        for p in self.procs:
            p.join(timeout=60)
        return parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--think-ms", type=float, default=1000)
    ap.add_argument("--target", type=int, default=3)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "scopa"))
    ap.add_argument("--bot-threads", type=int, default=2)
    ap.add_argument("--cluster", type=int, default=0,
                    help="N nodes, PostgreSQL and nginx (scripts/cluster)")
    ap.add_argument("--clients", type=int, default=1,
                    help="client processes sharing the tables")
    args = ap.parse_args()
    args.tables = max(1, min(args.tables, 20000))
    args.clients = max(1, min(args.clients, 16))
    args.seconds = max(1.0, min(args.seconds, 600.0))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.cluster:
        args.cluster = max(1, min(args.cluster, 8))
        return cluster_main(args)

    tmp = tempfile.mkdtemp(prefix="scopa-serve-bench-")
    port = free_port()
    proc = subprocess.Popen(
        [args.bin, "serve", "--port", str(port), "--db",
         os.path.join(tmp, "serve.db"), "--quiet",
         "--max-conns-per-addr", "100000", "--max-tables-per-minute",
         "1000000", "--bot-threads", str(args.bot_threads)],
        stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            try:
                health(port)
                break
            except OSError:
                time.sleep(0.05)
        base_kb = rss_kb(proc.pid)
        stats = Stats()
        clients = Clients(args, port, args.clients)
        stats.seat_seconds = clients.seat_seconds
        h0, t0 = health(port), time.time()
        c0 = cpu_seconds(proc.pid)
        full_kb = rss_kb(proc.pid)
        clients.go()
        time.sleep(args.seconds)
        h1, t1 = health(port), time.time()
        c1 = cpu_seconds(proc.pid)
        peak_kb = rss_kb(proc.pid)
        parts = clients.stop()
        r = sorted(x for part in parts for x in part["rtts"])
        stats.games = sum(part["games"] for part in parts)
        stats.errors = [e for part in parts for e in part["errors"]]
        nerrors = sum(part["nerrors"] for part in parts)
        me = sum(part["cpu"] for part in parts)

        def pct(p):
            return percentile(r, p)
        out = {
            "tables": args.tables, "seat_seconds": stats.seat_seconds,
            "seconds": round(t1 - t0, 1),
            "think_ms": args.think_ms, "bot": args.bot,
            "server_moves_per_second": round((h1["moves"] - h0["moves"]) / (t1 - t0), 1),
            "client_moves_measured": len(r),
            "rtt_ms": {"p50": pct(0.50), "p99": pct(0.99),
                       "max": round(1000 * r[-1], 2) if r else None},
            "server_cpu_ms_per_move": round(1000 * (c1 - c0) / max(1, h1["moves"] - h0["moves"]), 3),
            "commits_per_second": round((h1["commits"] - h0["commits"]) / (t1 - t0), 1),
            "ms_per_commit": round((h1["commit_us"] - h0["commit_us"]) / 1000 / max(1, h1["commits"] - h0["commits"]), 3),
            "loop_max_ms": {"seating": round(h0.get("loop_max_us", 0) / 1000, 2),
                            "window": round(h1.get("loop_max_us", 0) / 1000, 2)},
            "server_cpu_share": round((c1 - c0) / (t1 - t0), 2),
            "client_processes": args.clients,
            "client_cpu_share": round(me / (t1 - t0), 2),
            "games_finished": stats.games,
            "errors": nerrors,
            "error_sample": stats.errors[:3],
            "rss_kb": {"before": base_kb, "all_tables_open": full_kb,
                       "end": peak_kb},
            "kb_per_table": round((peak_kb - base_kb) / args.tables, 1),
            "cpus": os.cpu_count(), "load_average": os.getloadavg(),
        }
        print(json.dumps(out))
    finally:
        proc.terminate()
        proc.wait(timeout=60)


if __name__ == "__main__":
    main()
