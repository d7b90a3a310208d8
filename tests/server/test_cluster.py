"""scripts/cluster (issue 24; CONTRACTS.md "scopa serve on several
nodes"): PostgreSQL, N nodes and nginx on loopback, started and stopped
as the contract says.  Runs in the PostgreSQL suite (server/serve_pg).

  cluster-1.1  start writes D/nodes (live `scopa serve` PIDs, distinct
               ports) and D/postgres; a whole game is played through the
               balancer's WebSocket and its record downloads through it
  cluster-1.2  a node killed with kill -9: /healthz still answers
               through the balancer (nginx passes over the dead node)
  cluster-1.3  stop ends every process start started and frees the port;
               a start that cannot succeed exits non-zero with a message
               and leaves nothing running
"""
import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

from serverlib import (TOP, Client, free_port, play_to_end, postgresql_only,
                       replay, scopa_bin)

pytestmark = postgresql_only
CLUSTER = os.path.join(TOP, "scripts", "cluster")


class Balancer:
    """What Client.connect needs of a server: the balancer's URL."""

    def __init__(self, port):
        self.port = port
        self.url = "ws://127.0.0.1:%d/ws" % port

    def http(self, path):
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, path),
                                    timeout=30) as r:
            return r.status, r.read()


def cluster(*args, binary=None):
    env = dict(os.environ, SCOPA_BIN=binary or scopa_bin())
    return subprocess.run([CLUSTER] + list(args), capture_output=True,
                          timeout=180, env=env)


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def listening(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def cdir():
    d = tempfile.mkdtemp(prefix="scopa-cluster-")
    yield d
    cluster("stop", "--dir", d)
    shutil.rmtree(d, ignore_errors=True)


def test_cluster_1_1_to_1_3_start_play_kill_stop(cdir):
    port = free_port()
    p = cluster("start", "--nodes", "2", "--port", str(port), "--dir", cdir)
    assert p.returncode == 0, p.stderr.decode()
    nodes = [tuple(map(int, line.split()))
             for line in open(os.path.join(cdir, "nodes"))]
    assert len(nodes) == 2 and len({port for _, port in nodes}) == 2, nodes
    for pid, _ in nodes:
        cmd = open("/proc/%d/cmdline" % pid, "rb").read().split(b"\0")
        assert os.path.basename(cmd[0]) == b"scopa" and cmd[1] == b"serve", cmd
    url = open(os.path.join(cdir, "postgres")).read().strip()
    assert url.startswith("postgresql://") and "127.0.0.1" in url, url
    lb = Balancer(port)

    async def game():
        a = await Client.connect(lb, "a")
        await a.seated({"type": "create", "rules": {"target": 3},
                        "seats": ["me", "greedy"], "name": "Anna"})
        over = await play_to_end([a], random.Random(24))
        await a.close()
        return a.code, over
    code, over = asyncio.run(game())
    for _ in range(4):  # round-robin: every node answers the record
        status, body = lb.http("/api/tables/%s/record" % code)
        assert status == 200
        assert replay(body)["totals"] == over["totals"]

    os.kill(nodes[0][0], signal.SIGKILL)
    for _ in range(10):
        assert lb.http("/healthz")[0] == 200

    p = cluster("stop", "--dir", cdir)
    assert p.returncode == 0, p.stderr.decode()
    deadline = time.time() + 10
    while time.time() < deadline and alive(nodes[1][0]):
        time.sleep(0.1)
    assert not alive(nodes[1][0])
    assert not listening(port)
    assert not os.path.exists(os.path.join(cdir, "pg", "data",
                                           "postmaster.pid"))


def test_cluster_1_3_a_failed_start_says_why_and_leaves_nothing(cdir):
    port = free_port()
    p = cluster("start", "--nodes", "2", "--port", str(port), "--dir", cdir,
                binary="/bin/false")
    assert p.returncode != 0
    assert b"cluster:" in p.stderr, p.stderr
    assert not os.path.exists(os.path.join(cdir, "nodes"))
    assert not os.path.exists(os.path.join(cdir, "pg", "data",
                                           "postmaster.pid"))
    assert not listening(port)
