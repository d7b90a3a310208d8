"""Any node serves any table (issue 24; docs/serve.md "More than one
machine"; relay.c): a cluster of real `scopa serve` nodes on one real
PostgreSQL behind real nginx, all started by scripts/cluster on
loopback.  Runs as ctest server/cluster (SCOPA_TEST_STORE=postgresql).

  relay-1.1  4 players at one table, each on a node of its own choosing
             (0, 1, 2, 0), a spectator on a third node: every connection
             sees the same states in the same order, each only its own
             seat's cards (the message-by-message leak check on every
             node's connections), and the record, downloaded through the
             balancer, replays to the totals announced
  relay-1.2  the same for 2 players and a spectator, all on different
             nodes
  relay-1.2  ... and the game, of people only, is rated exactly once
  relay-1.3  a relayed client that resumes a table of another owner is
             relayed there
  relay-1.4  a rematch through the owner gets a code the courier leased
             for it; a record is served by a node that does not hold
             the table (the store read off the loop); unknown: 404
  relay-2.1  the owner of a table killed with kill -9 at random moments
             (SCOPA_CLUSTER_KILLS times, 2 by default, 20 in the heavy
             run): the players reconnect through the balancer and resume
             with their tokens, the table goes on through another node
             within the lease's life, no announced move is lost or
             doubled (every state any client saw is a prefix of the
             record, which replays), no card leaks, rated once
  relay-2.2  PostgreSQL restarted in the middle of a game: the nodes
             reconnect, the players resume, nothing announced is lost
  relay-2.4  the owner killed with -9 in the middle of a game: the next
             move is played within 3 s of the kill (the dead node's life
             lock, gone with its process, frees its leases at once)
  relay-2.3  a node cut off from PostgreSQL (stopped) refuses moves
             instead of accepting them without storing
  relay-3.1  behind nginx each client has its own budget
  relay-3.2  the per-address limits (connections, new tables per minute)
             hold across the nodes, not per node
  relay-4.4  table talk between people on different nodes, never to a
             spectator; the lines come back with a resume on another node
"""
import asyncio
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error

import pytest
import websockets

from test_cluster import Balancer as Node  # a WebSocket URL and http()
from serverlib import (PG_BIN, TOP, Client, check_redaction, find_round,
                       free_port, my_turn, play_to_end, postgresql_only,
                       replay, scopa_bin)

pytestmark = postgresql_only
CLUSTER = os.path.join(TOP, "scripts", "cluster")
KILLS = int(os.environ.get("SCOPA_CLUSTER_KILLS", "2"))


class Cluster:
    def __init__(self, d, nodes=3, flags=()):
        self.dir = d
        self.port = free_port()
        env = dict(os.environ, SCOPA_BIN=scopa_bin())
        p = subprocess.run([CLUSTER, "start", "--nodes", str(nodes), "--port",
                            str(self.port), "--dir", d, "--"] + list(flags),
                           capture_output=True, timeout=180, env=env)
        assert p.returncode == 0, p.stderr.decode()
        self.lb = Node(self.port)

    def nodes(self):
        return [tuple(map(int, line.split()))
                for line in open(os.path.join(self.dir, "nodes"))]

    def node(self, i):
        return Node(self.nodes()[i][1])

    def name_of(self, port):
        return json.loads(Node(port).http("/healthz")[1])["node"]

    def owner(self, code):
        """The (pid, port) of the node holding code's live lease."""
        out = self.psql("SELECT node FROM leases WHERE code = '%s' AND "
                        "expires > now()" % code)
        for pid, port in self.nodes():
            try:
                if self.name_of(port) == out:
                    return pid, port
            except OSError:
                pass
        return None

    def psql(self, sql):
        url = open(os.path.join(self.dir, "postgres")).read().strip()
        p = subprocess.run([PG_BIN + "/psql", "-X", "-q", "-tA", url, "-c",
                            sql], capture_output=True, timeout=30)
        assert p.returncode == 0, p.stderr
        return p.stdout.decode().strip()

    def kill9_and_restart(self, pid):
        """kill -9 of a node, and the same node started again on its port
        (a new process: a new node name), D/nodes updated."""
        argv = open("/proc/%d/cmdline" % pid, "rb").read().split(b"\0")[:-1]
        os.kill(pid, signal.SIGKILL)
        while os.path.exists("/proc/%d" % pid):
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
            time.sleep(0.02)
        port = dict(self.nodes())[pid]
        log = open(os.path.join(self.dir, "restarted.log"), "ab")
        proc = subprocess.Popen(argv, stdout=log, stderr=log,
                                stdin=subprocess.DEVNULL,
                                start_new_session=True)
        lines = ["%d %d" % ((proc.pid, p) if q == pid else (q, p))
                 for q, p in self.nodes()]
        with open(os.path.join(self.dir, "nodes"), "w") as f:
            f.write("\n".join(lines) + "\n")
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if Node(port).http("/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("node did not come back on %d" % port)

    def pg(self, action):
        data = os.path.join(self.dir, "pg", "data")
        argv = [PG_BIN + "/pg_ctl", "-D", data, "-w", "-s", "-m", "fast",
                action]
        if action != "stop":
            url = open(os.path.join(self.dir, "postgres")).read().strip()
            pgport = url.rsplit(":", 1)[1].split("/")[0]
            argv = argv[:-1] + ["-l", os.path.join(self.dir, "pg", "log"),
                                "-o", "-h 127.0.0.1 -p %s -k %s -c "
                                "max_connections=500" % (
                                    pgport, os.path.join(self.dir, "pg")),
                                action]
        if os.getuid() == 0:
            argv = ["runuser", "-u", "nobody", "--"] + argv
        subprocess.run(argv, check=True, timeout=60)

    def stop(self):
        subprocess.run([CLUSTER, "stop", "--dir", self.dir],
                       capture_output=True, timeout=120)


def print_logs(d, lines=40):
    """The last lines of the nodes', nginx's and PostgreSQL's logs: pytest
    shows what a fixture printed only for a test that failed, so a
    failure carries what the servers said."""
    for name in sorted(glob.glob(os.path.join(d, "*.log")) +
                       [os.path.join(d, "pg", "log")]):
        try:
            tail = open(name, "rb").read().decode("utf-8", "replace")
        except OSError:
            continue
        print("==== %s (last %d lines)" % (os.path.relpath(name, d), lines))
        print("\n".join(tail.splitlines()[-lines:]))


@pytest.fixture
def cluster():
    d = tempfile.mkdtemp(prefix="scopa-relay-")
    c = Cluster(d)
    yield c
    c.stop()
    print_logs(d)
    if not os.environ.get("SCOPA_KEEP_DIR"):
        shutil.rmtree(d, ignore_errors=True)


def public_sequence(client):
    """The states a client saw once play began, as what every seat sees
    alike (dealer, moves so far, who is to play, status), repeats of the
    same one (presence, names) kept once."""
    out = []
    for m in client.log:
        if m["type"] == "state" and m["status"] != "waiting":
            p = json.dumps([m["round"]["dealer"], m["round"]["moves"],
                            m["scores"], m["to_play"], m["status"]])
            if not out or out[-1] != p:
                out.append(p)
    return out


def record_of(cl, code):
    status, body = cl.lb.http("/api/tables/%s/record" % code)
    assert status == 200
    return body


async def signed_in(cl, node, name):
    """A client of `node` signed in as a new account `name` (signed up
    through that node): only accounts' games are rated."""
    from test_accounts import call, connect, session_of
    st, body, h = call(node, "POST", "/api/signup",
                       {"name": name, "password": "password1"})
    assert st == 201, body
    return await connect(node, session_of(h), name)


async def table_across_nodes(cl, seats_nodes, watch_node, players, seed):
    """A whole game: the creator on seats_nodes[0], the others joining
    each through its node, a spectator on watch_node."""
    rng = random.Random(seed)
    a = await signed_in(cl, cl.node(seats_nodes[0]), "p0_%d" % seed)
    await a.seated({"type": "create", "rules": {"target": 3,
                                                "players": players},
                    "seats": ["me"] + ["open"] * (players - 1),
                    "name": "P0"})
    w = await Client.connect(cl.node(watch_node), "w")
    await w.send({"type": "watch", "code": a.code, "name": "W"})
    await w.until(lambda m: m["type"] == "state")
    clients = [a]
    for i, n in enumerate(seats_nodes[1:], 1):
        c = await signed_in(cl, cl.node(n), "p%d_%d" % (i, seed))
        await c.seated({"type": "join", "code": a.code, "name": "P%d" % i})
        clients.append(c)
    over = await play_to_end(clients + [w], rng)
    for c in clients + [w]:
        await c.close()
    return a.code, clients, w, over


@pytest.mark.parametrize("players,seats_nodes,watch_node",
                         [(4, [0, 1, 2, 0], 2), (2, [0, 1], 2)])
def test_relay_1_1_and_1_2_one_table_on_every_node(cluster, players,
                                                   seats_nodes, watch_node):
    code, clients, w, over = asyncio.run(
        table_across_nodes(cluster, seats_nodes, watch_node, players, 24))
    body = record_of(cluster, code)
    assert replay(body)["totals"] == over["totals"]
    record = json.loads(body)
    sequences = [public_sequence(c) for c in clients + [w]]
    assert len(sequences[0]) > 10
    for s in sequences[1:]:
        assert s == sequences[0]
    for c in clients:
        assert check_redaction(c, record, c.seat) > 10
    assert check_redaction(w, record, None) > 10
    ratings_once(cluster, players)


def test_relay_1_3_a_relayed_client_goes_to_another_table(cluster):
    """One connection resumes a table owned by node 0, then one owned by
    node 2 (before the fix, the second went to node 0 too, which could
    not take its lease: an error "server")."""
    async def run():
        made = []
        for n in (0, 2):
            c = await Client.connect(cluster.node(n), "m%d" % n)
            await c.seated({"type": "create", "rules": {"target": 3},
                            "seats": ["me", "greedy"], "name": "M"})
            made.append(c)
        x = await Client.connect(cluster.node(1), "x")
        for c in made:
            await c.close()
        for c in made:
            await x.send({"type": "resume", "code": c.code,
                          "token": c.token})
            got = await x.until(lambda m: m["type"] in ("seated", "error"))
            assert got["type"] == "seated" and got["code"] == c.code, got
            st = await x.until(lambda m: m["type"] == "state")
            assert st["code"] == c.code
        await x.close()
    asyncio.run(run())


async def two_guests(cl, target, b_node):
    """Guests a (node 0, the table's creator) and b (node b_node) seated
    at a new table of two to `target` points."""
    a = await Client.connect(cl.node(0), "a")
    await a.seated({"type": "create", "rules": {"target": target},
                    "seats": ["me", "open"], "name": "A"})
    b = await Client.connect(cl.node(b_node), "b")
    await b.seated({"type": "join", "code": a.code, "name": "B"})
    return a, b


def test_relay_1_4_rematch_and_records_off_the_loop(cluster):
    """A rematch through the owner (one seat relayed from another node)
    makes its table under a code the courier found and leased for it
    (epoch 1, this owner's); the code of an offer no table took is let
    go.  A record is served by a node that does not hold the table (read
    off the loop), a lower-case code too; an unknown code is 404."""
    async def run():
        a, b = await two_guests(cluster, 3, 1)
        over = await play_to_end([a, b], random.Random(14))
        await a.send({"type": "rematch", "id": 1})
        await b.until(lambda m: m["type"] == "notice")
        await b.send({"type": "rematch", "accept": True, "id": 2})
        news = []
        for c in (a, b):
            msg = await c.until(lambda m: m["type"] == "seated")
            assert msg["code"] != a.code
            news.append(msg["code"])
        await a.close()
        await b.close()
        return a.code, news, over
    old, news, over = asyncio.run(run())
    assert news[0] == news[1]
    owner = cluster.psql("SELECT node FROM leases WHERE code = '%s'" % old)
    assert cluster.psql("SELECT node || ' ' || epoch FROM leases WHERE "
                        "code = '%s'" % news[0]) == owner + " 1"
    assert cluster.psql("SELECT count(*) FROM games WHERE code = '%s'"
                        % news[0]) == "1"
    assert cluster.psql("SELECT count(*) FROM leases l WHERE expires > now() "
                        "AND NOT EXISTS (SELECT 1 FROM games g WHERE "
                        "g.code = l.code)") == "0"
    far = cluster.node(2)
    for code in (old, old.lower()):
        status, body = far.http("/api/tables/%s/record" % code)
        assert status == 200, (status, body)
        assert replay(body)["totals"] == over["totals"]
    with pytest.raises(urllib.error.HTTPError) as unknown:
        far.http("/api/tables/NOSUCHCODE/record")
    assert unknown.value.code == 404
    assert json.loads(unknown.value.read())["code"] == "no_table"


# ----------------------------------------------------------------------
# Failover
# ----------------------------------------------------------------------

class Player:
    """A seat played through whatever connection works: on a closed
    connection or an error that says the table moved, it connects again
    through the balancer and resumes with its token.  Keeps every
    message of every connection (self.log) for the leak check."""

    def __init__(self, cl, name, seat, token, code, rng):
        self.cl, self.name, self.seat = cl, name, seat
        self.token, self.code, self.rng = token, code, rng
        self.log = []
        self.over = None
        self.moves_sent = 0
        self.reconnects = 0
        self.progress = []  # (when, (dealer, moves)) of each state seen

    def story(self):
        """Where this seat stands, for a failure's message: its moves,
        its connections, the last messages it got."""
        last = ["%s%s" % (m["type"], ":" + m["code"] if "code" in m else "")
                for m in self.log[-6:]]
        return "seat %d sent %d moves over %d connections; last got %s" % (
            self.seat, self.moves_sent, self.reconnects, last)

    async def connect(self):
        deadline = time.time() + 60
        while True:
            try:
                c = await Client.connect(self.cl.lb, self.name)
                await c.send({"type": "resume", "code": self.code,
                              "token": self.token})
                msg = await c.until(lambda m: m["type"] in ("seated",
                                                            "error"), 30)
                if msg["type"] == "seated":
                    return c
                await c.close()
            except (OSError, asyncio.TimeoutError,
                    websockets.ConnectionClosed):
                pass
            assert time.time() < deadline, "no node resumed %s" % self.code
            await asyncio.sleep(0.5)

    async def run(self, stop_at):
        while self.over is None:
            assert time.time() < stop_at, (
                "the game did not end in time: " + self.story())
            c = await self.connect()
            try:
                while self.over is None:
                    msg = await c.next(max(0.1, stop_at - time.time()))
                    if msg["type"] == "state" and msg.get("round"):
                        self.progress.append((time.time(), (
                            msg["round"]["dealer"],
                            len(msg["round"]["moves"]))))
                    if msg["type"] == "game_over":
                        self.over = msg
                    elif msg["type"] == "error" and msg["code"] in (
                            "server", "store_failed"):
                        break
                    elif my_turn(msg, self.seat):
                        await asyncio.sleep(self.rng.random() * 0.2)
                        self.moves_sent += 1
                        await c.send({"type": "move",
                                      "move": self.rng.choice(msg["legal"]),
                                      "ply": len(msg["round"]["moves"])})
            except (websockets.ConnectionClosed, asyncio.TimeoutError):
                pass
            finally:
                self.log.extend(c.log)
                self.reconnects += 1
                await c.close()


async def seat_two(cl, seed, target=11):
    a = await signed_in(cl, cl.node(0), "a_%d" % seed)
    await a.seated({"type": "create", "rules": {"target": target},
                    "seats": ["me", "open"], "name": "A"})
    b = await signed_in(cl, cl.node(1), "b_%d" % seed)
    await b.seated({"type": "join", "code": a.code, "name": "B"})
    rng = random.Random(seed)
    players = [Player(cl, "a", a.seat, a.token, a.code, rng),
               Player(cl, "b", b.seat, b.token, a.code, rng)]
    for p, c in zip(players, (a, b)):
        p.log.extend(c.log)
        await c.close()
    return a.code, players


def check_game(cl, code, players):
    """No announced move lost or doubled: every state any player saw is
    in the record, which replays to the totals announced; no leak."""
    body = record_of(cl, code)
    record = json.loads(body)
    assert replay(body)["totals"] == players[0].over["totals"]
    for p in players:
        assert p.over["totals"] == players[0].over["totals"]
        for m in p.log:
            if m["type"] == "state" and m["status"] != "waiting":
                find_round(record, m)  # a prefix of a recorded round
        assert check_redaction(p, record, p.seat) > 0
    ratings_once(cl)
    return record


def ratings_once(cl, players=2):
    """A finished game of accounts only is rated once, whichever nodes
    served it: each account's row counts one game."""
    assert cl.psql("SELECT count(*) || ' ' || max(games) FROM ratings") \
        == "%d 1" % players


def test_relay_2_1_owner_killed_at_random_moments(cluster):
    rng = random.Random(241)

    takeovers = []

    async def run():
        # A game long enough for every kill (each stops play about 9 s).
        code, players = await seat_two(cluster, 7, 11 if KILLS <= 2 else 61)
        stop_at = time.time() + 60 + 25 * KILLS
        games = [asyncio.ensure_future(p.run(stop_at)) for p in players]
        while len(takeovers) < KILLS:
            await asyncio.sleep(rng.uniform(0.3, 3.0))
            assert not all(g.done() for g in games), "over before the kills"
            owner = cluster.owner(code)
            if owner is None:  # between owners: wait for the next one
                await asyncio.sleep(1)
                continue
            await asyncio.get_event_loop().run_in_executor(
                None, cluster.kill9_and_restart, owner[0])
            # The next owner: within the lease's life after the kill.
            t0 = time.time()
            while cluster.owner(code) in (None, owner):
                assert time.time() - t0 < 20, "no node took the table over"
                await asyncio.sleep(0.2)
            takeovers.append(time.time() - t0)
        await asyncio.gather(*games)
        return code, players
    code, players = asyncio.run(run())
    check_game(cluster, code, players)
    assert sum(p.reconnects for p in players) >= 2
    print("kills %d, takeover after the kill: max %.1f s, mean %.1f s" % (
        len(takeovers), max(takeovers), sum(takeovers) / len(takeovers)))


def test_relay_2_4_a_dead_owner_is_replaced_within_3_s(cluster):
    gaps = []

    async def run():
        code, players = await seat_two(cluster, 24, 11)
        stop_at = time.time() + 120
        games = [asyncio.ensure_future(p.run(stop_at)) for p in players]
        for _ in range(2):
            await asyncio.sleep(2.5)
            waited = time.time()
            while (owner := cluster.owner(code)) is None:
                assert time.time() - waited < 20, "nobody holds the table"
                await asyncio.sleep(0.2)
            last = max((p.progress[-1] for p in players if p.progress),
                       default=(0, None))[1]
            killed = time.time()
            await asyncio.get_event_loop().run_in_executor(
                None, cluster.kill9_and_restart, owner[0])
            while True:  # the first move after the kill, on any screen
                after = [t for p in players for t, k in p.progress
                         if t > killed and k != last]
                if after:
                    gaps.append(min(after) - killed)
                    break
                assert time.time() - killed < 20, "no move after the kill"
                await asyncio.sleep(0.05)
        await asyncio.gather(*games)
        return code, players
    code, players = asyncio.run(run())
    check_game(cluster, code, players)
    print("the next move after a kill -9 of the owner: %s s" %
          ", ".join("%.2f" % g for g in gaps))
    assert max(gaps) < 3.0, gaps


def test_relay_2_2_postgresql_restarted_under_load(cluster):
    async def run():
        # A short game (the sanitizer build on a loaded machine plays
        # slowly), PostgreSQL restarted 2 s into it.
        code, players = await seat_two(cluster, 8, 5)
        stop_at = time.time() + 240
        games = [asyncio.ensure_future(p.run(stop_at)) for p in players]
        await asyncio.sleep(2)
        await asyncio.get_event_loop().run_in_executor(
            None, cluster.pg, "restart")
        await asyncio.gather(*games)
        return code, players
    code, players = asyncio.run(run())
    check_game(cluster, code, players)


def test_relay_2_3_cut_off_from_postgresql_refuses_moves(cluster):
    async def run():
        a, b = await two_guests(cluster, 11, 0)
        st = await b.until(lambda m: m["type"] == "state" and
                           m["status"] == "playing")
        mover = b if my_turn(st, b.seat) else a
        if mover is a:
            st = await a.until(lambda m: my_turn(m, a.seat))
        cluster.pg("stop")
        try:
            await asyncio.sleep(7)  # past RELAY_SAFE_MS without renewals
            await mover.send({"type": "move", "move": st["legal"][0],
                              "ply": len(st["round"]["moves"]), "id": 9})
            got = await mover.until(lambda m: m["type"] in ("state",
                                                            "error"))
            assert got["type"] == "error" and got["code"] == "store_failed"
            assert got["id"] == 9
        finally:
            cluster.pg("start")
        # Nothing was announced and nothing stored: the move is still to
        # play, through any node.
        c = await Client.connect(cluster.lb, "c")
        deadline = time.time() + 30
        while True:
            await c.send({"type": "resume", "code": a.code,
                          "token": mover.token})
            msg = await c.until(lambda m: m["type"] in ("seated", "error"))
            if msg["type"] == "seated":
                break
            assert time.time() < deadline, msg
            await asyncio.sleep(0.5)
        again = await c.until(lambda m: m["type"] == "state")
        assert again["round"]["moves"] == st["round"]["moves"]
        assert again["to_play"] == mover.seat
        await c.close()
        return a.code
    code = asyncio.run(run())
    assert cluster.psql("SELECT count(*) FROM moves WHERE code = '%s'"
                        % code) == "0"


def test_relay_3_1_behind_nginx_each_client_has_its_budget():
    """Through scripts/cluster's nginx (X-Forwarded-For, proxy_bind
    127.0.0.2) a node counts each client under the address nginx saw: a
    client that used up its tables per minute does not refuse another
    address, and cannot get round it by sending the header itself
    (before --trusted-proxy every client was nginx's 127.0.0.1, and the
    second address was refused).  One node: the limits are each node's."""
    from test_proxy import can_create, use_up
    d = tempfile.mkdtemp(prefix="scopa-relay-")
    cl = Cluster(d, nodes=1, flags=["--max-tables-per-minute", "2"])
    try:
        async def go():
            await use_up(cl.lb, "127.0.0.3", None)
            assert not await can_create(cl.lb, "127.0.0.3", "10.0.0.1")
            assert await can_create(cl.lb, "127.0.0.4", None)
            # the node itself, reached directly: 127.0.0.1 is not trusted
            assert await can_create(cl.node(0), "127.0.0.1", "127.0.0.3")
        asyncio.run(go())
    finally:
        cl.stop()
        shutil.rmtree(d, ignore_errors=True)


async def limited_client(cl, name):
    """A client through the balancer: (client, None) once a ping is
    answered, or (None, the error) when the connection is refused."""
    ws = await websockets.connect(cl.lb.url, max_size=None)
    c = Client(ws, name)
    assert (await c.next())["type"] == "hello"
    try:
        await c.send({"type": "ping", "id": 1})
    except websockets.ConnectionClosed:
        pass  # refused and closed already: its error is read below
    msg = await c.until(lambda m: m["type"] in ("pong", "error"))
    if msg["type"] == "error":
        await c.close()
        return None, msg
    return c, None


def connections_per_node(cl):
    return [json.loads(Node(port).http("/healthz")[1])["connections"]
            for _, port in cl.nodes()]


def test_relay_3_2_limits_hold_across_the_nodes():
    """2 nodes behind nginx, --max-conns-per-addr 3 and
    --max-tables-per-minute 3: one address's connections, spread over
    both nodes by round-robin, are counted together (the fourth is
    refused, and a closed one makes room again), and so are its new
    tables (the fourth of the minute is refused, on whichever node).
    Before the limits were counted in PostgreSQL each node allowed 3
    connections and 3 tables of its own: 6 of each."""
    d = tempfile.mkdtemp(prefix="scopa-relay-")
    cl = Cluster(d, nodes=2, flags=["--max-conns-per-addr", "3",
                                     "--max-tables-per-minute", "3"])
    try:
        async def go():
            held = []
            for i in range(3):
                c, err = await limited_client(cl, "c%d" % i)
                assert c, err
                held.append(c)
            assert sorted(connections_per_node(cl)) == [1, 2]
            c, err = await limited_client(cl, "fourth")
            assert c is None and err["code"] == "limit", err
            c, err = await limited_client(cl, "fifth")  # the other node
            assert c is None and err["code"] == "limit", err
            for i, c in enumerate(held):  # 3 tables, on both nodes
                assert await create_table(c, 10 + i)
            assert not await create_table(held[0], 20)
            assert not await create_table(held[1], 21)
            await held.pop().close()
            deadline = time.time() + 5  # the close reaches the database
            while True:
                c, err = await limited_client(cl, "again")
                if c or time.time() > deadline:
                    break
                await asyncio.sleep(0.3)
            assert c, err
            held.append(c)
            for c in held:
                await c.close()
        asyncio.run(go())
    finally:
        cl.stop()
        shutil.rmtree(d, ignore_errors=True)


async def create_table(c, rid):
    """True when seated at a new table, False when refused for the limit."""
    await c.send({"type": "create", "rules": {"target": 11},
                  "seats": ["me", "greedy"], "id": rid})
    msg = await c.until(lambda m: m["type"] in ("seated", "error"))
    if msg["type"] == "error":
        assert msg["code"] == "limit" and msg["id"] == rid, msg
        return False
    return True


# ----------------------------------------------------------------------
# relay-4.x  Accounts across the nodes (issue 32)
# ----------------------------------------------------------------------

def test_relay_4_1_a_sign_in_holds_on_every_node():
    """A session made through one node is valid on every node and through
    the balancer; two accounts playing through different nodes (the
    table's node hears of each account through the relay) are seated by
    their names and rated once."""
    from test_accounts import call, connect, session_of
    d = tempfile.mkdtemp(prefix="scopa-relay-")
    cl = Cluster(d, nodes=2, flags=["--pwhash-ops", "1", "--pwhash-mib", "8"])
    try:
        n0, n1 = cl.node(0), cl.node(1)
        cookies = []
        for node, name in ((n0, "nodeanna"), (n1, "nodebruno")):
            st, body, h = call(node, "POST", "/api/signup",
                               {"name": name, "password": "password1"})
            assert st == 201, body
            cookies.append(session_of(h))
        for node in (n0, n1, cl.lb):
            assert call(node, "GET", "/api/me",
                        cookie=cookies[0])[1]["name"] == "nodeanna"

        async def game():
            a = await connect(n0, cookies[0], "a")
            await a.seated({"type": "create", "rules": {"target": 3},
                            "seats": ["me", "open"], "name": "x"})
            b = await connect(n1, cookies[1], "b")
            await b.seated({"type": "join", "code": a.code, "name": "y"})
            st = b.unread[0]
            assert st["seats"] == ["nodeanna", "nodebruno"], st["seats"]
            assert st["rated"] is True
            await play_to_end([a, b], random.Random(41))
            await a.close()
            await b.close()
        asyncio.run(game())
        for _ in range(50):
            me = call(cl.lb, "GET", "/api/me", cookie=cookies[1])[1]
            if me["ratings"]:
                break
            time.sleep(0.1)
        assert me["ratings"]["2p"]["games"] == 1
    finally:
        cl.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_relay_4_2_the_lobby_on_every_node(cluster):
    """A public table created through node 0 is in GET /api/lobby of
    every node within 2 s (the store's list, not a node's memory), and
    leaves every node's list once a player through node 2 fills it."""
    def listed_everywhere(code, want, within=2.0):
        deadline = time.time() + within
        while True:
            seen = []
            for i in range(3):
                status, body = cluster.node(i).http("/api/lobby")[:2]
                assert status == 200, body
                seen.append(code in [t["code"] for t in
                                     json.loads(body)["tables"]])
            if all(s == want for s in seen) or time.time() > deadline:
                return seen

    async def run():
        a = await Client.connect(cluster.node(0), "a")
        await a.seated({"type": "create", "rules": {"target": 3},
                        "public": True, "seats": ["me", "open"],
                        "name": "A"})
        assert listed_everywhere(a.code, True) == [True] * 3
        b = await Client.connect(cluster.node(2), "b")
        await b.seated({"type": "join", "code": a.code, "name": "B"})
        assert listed_everywhere(a.code, False) == [False] * 3
        for c in (a, b):
            await c.close()
    asyncio.run(run())


def test_relay_4_3_play_now_pairs_across_nodes(cluster):
    """Seeks made through node 0 and node 2 are paired within 2 s (any
    node's pass sees every node's seeks), both people are seated at one
    table, and the game plays to its end through the relay.  Then a seek
    left by a node killed with -9 never pairs: a seeker through another
    node waits, and the next one pairs with it."""
    async def seek(node, name):
        c = await Client.connect(node, name)
        await c.send({"type": "seek", "rules": {"target": 3}, "name": name})
        await c.until(lambda m: m["type"] == "seeking")
        return c

    async def paired(c, timeout=2.0):
        p = await c.until(lambda m: m["type"] in ("paired", "error"), timeout)
        assert p["type"] == "paired", p
        s = await c.until(lambda m: m["type"] in ("seated", "error"))
        assert s["type"] == "seated" and s["code"] == p["code"], s
        c.seat, c.code = s["seat"], s["code"]
        return c.code

    async def run():
        a = await seek(cluster.node(0), "A")
        b = await seek(cluster.node(2), "B")
        assert await paired(a) == await paired(b)
        assert {a.seat, b.seat} == {0, 1}
        await play_to_end([a, b], random.Random(43))
        for c in (a, b):
            await c.close()
        await seek(cluster.node(1), "ghost")
        await asyncio.sleep(0.8)  # its row is in the store
        ghost_pid = cluster.nodes()[1][0]
        await asyncio.get_running_loop().run_in_executor(
            None, cluster.kill9_and_restart, ghost_pid)
        await asyncio.sleep(1.6)  # PAIRER_STALE_MS
        c = await seek(cluster.node(0), "C")
        got = await c.quiet(1.6)
        assert not [m for m in got if m["type"] == "paired"], got
        d = await seek(cluster.node(2), "D")
        assert await paired(c) == await paired(d)
        for x in (c, d):
            await x.close()
    asyncio.run(run())


def test_relay_4_4_table_talk_across_nodes(cluster):
    """Table talk between people on different nodes (docs/serve.md
    "Table talk"): each line reaches the other, through the owner, and
    never the spectator on a third node; a person who comes back through
    another node gets what was said."""
    async def run():
        a, b = await two_guests(cluster, 3, 1)
        w = await Client.connect(cluster.node(2), "w")
        await w.send({"type": "watch", "code": a.code})
        await w.until(lambda m: m["type"] == "state")
        for who, other, text in ((a, b, "ciao"), (b, a, "buona partita")):
            await who.send({"type": "say", "text": text, "id": text})
            mine = await who.until(lambda m: m.get("id") == text)
            assert mine["type"] == "said", mine
            got = await other.until(lambda m: m["type"] == "said")
            assert got["text"] == text and got["seat"] == who.seat
        await b.close()
        b2 = await Client.connect(cluster.node(2), "b again")
        await b2.send({"type": "resume", "code": a.code, "token": b.token})
        log = await b2.until(lambda m: m["type"] == "talk")
        assert [x["text"] for x in log["lines"]] == ["ciao", "buona partita"]
        await w.quiet(0.5)
        assert not any(m["type"] in ("said", "talk") for m in w.log), w.log
        for c in (a, b2, w):
            await c.close()
    asyncio.run(run())


def test_relay_4_5_a_tournament_outlives_a_node(cluster):
    """A Swiss of 4 accounts, two connected through node 0 and two through
    node 1 (docs/serve.md "Running a tournament"): each node seats its own
    connections of the paired accounts, whichever node's director made
    the tables.  In round 1 node 0 is killed with -9; its two players come
    back through node 2 and are seated again at their tables (by their
    accounts), the other nodes' directors go on, and the tournament ends
    with 2 rounds, no repeated pair, every result its record's."""
    from test_accounts import call, connect, session_of
    from test_tournaments import Player, ask, winner

    def account(node, name):
        st, body, h = call(node, "POST", "/api/signup",
                           {"name": name, "password": "password1"})
        assert st == 201, body
        return session_of(h)

    async def finished(tid, timeout=180):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st, body = cluster.lb.http("/api/tournaments/" + tid)
            v = json.loads(body)
            if st == 200 and v["status"] == "finished":
                return v
            await asyncio.sleep(0.3)
        raise AssertionError("not finished: %s" % body)

    async def run():
        names = ["tina", "tito", "teo", "tea"]
        homes = [0, 0, 1, 1]
        cookies = [account(cluster.node(h), n) for h, n in zip(homes, names)]
        cs = [await connect(cluster.node(h), k, n)
              for h, k, n in zip(homes, cookies, names)]
        made = await ask(cs[2], dict(type="tournament_create", format="swiss",
                                     rules={"target": 11}, rounds=2,
                                     starts_in=600, move_clock=20,
                                     away_timeout=30))
        assert made["type"] == "tournament", made
        tid = made["id"]
        for c in cs:
            assert (await ask(c, {"type": "tournament_join",
                                  "id": tid}))["type"] == "tournament"
        await ask(cs[2], {"type": "tournament_start", "id": tid})
        rng = random.Random(45)
        players = [Player(c, rng) for c in cs]
        stops = [asyncio.Event(), asyncio.Event()]
        tasks = [asyncio.ensure_future(p.play(stops[i // 2]))
                 for i, p in enumerate(players)]
        deadline = time.time() + 30
        while time.time() < deadline and not all(
                p.seated and p.c.state and p.c.state.get("code") ==
                p.seated[0] and len(p.c.state["round"]["moves"]) >= 4
                for p in players):
            await asyncio.sleep(0.1)
        assert all(p.seated for p in players), [p.seated for p in players]
        stops[0].set()
        await asyncio.gather(*tasks[:2])
        pid = cluster.nodes()[0][0]
        await asyncio.get_running_loop().run_in_executor(
            None, cluster.kill9_and_restart, pid)
        back = [await connect(cluster.node(2), k, n + "'")
                for k, n in zip(cookies[:2], names[:2])]
        again = [Player(c, rng) for c in back]
        tasks[:2] = [asyncio.ensure_future(p.play(stops[0]))
                     for p in again]
        stops[0].clear()
        try:
            v = await finished(tid)
        finally:
            for s in stops:
                s.set()
            await asyncio.gather(*tasks)
        for p in again:
            assert p.seated and p.seated[0] in [q.seated[0]
                                                for q in players], p.seated
        for c in cs[2:] + back:
            await c.close()
        return v

    v = asyncio.run(run())
    assert [r["round"] for r in v["rounds"]] == [1, 2]
    pairs = [frozenset(t["seats"]) for r in v["rounds"] for t in r["tables"]]
    assert len(pairs) == 4 and len(set(pairs)) == 4, v["rounds"]
    for r in v["rounds"]:
        for t in r["tables"]:
            w = winner(json.loads(record_of(cluster, t["code"])))
            assert t["result"] == {0: "a", 1: "b", None: "draw"}[w], t
