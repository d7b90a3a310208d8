"""`scopa serve --trusted-proxy` (behind nginx, scripts/cluster): the
per-address limits count the client's address, not the proxy's.  Each
client here is its own fake proxy: it connects from a loopback address
(Linux routes all of 127.0.0.0/8 to lo) and sends X-Forwarded-For itself.

Before --trusted-proxy every client of a proxy was counted under the
proxy's address, so one of them using up its tables per minute refused
all the others (test_trusted_proxy_gives_each_client_its_budget).
"""
import socket

import pytest
import websockets

from serverlib import SHORT, Client, Server, run

TABLE = {"type": "create", "rules": SHORT, "seats": ["me", "greedy"]}


async def connect_via(server, source, xff, name="c"):
    """A client from loopback address source, sending xff (None: no
    X-Forwarded-For)."""
    headers = {} if xff is None else {"X-Forwarded-For": xff}
    ws = await websockets.connect(server.url, max_size=None,
                                  local_addr=(source, 0),
                                  extra_headers=headers)
    c = Client(ws, name)
    assert (await c.next())["type"] == "hello"
    return c


async def create(c, rid):
    """Creates a table: True when seated, False when refused for the
    limit."""
    await c.send(dict(TABLE, id=rid))
    msg = await c.until(lambda m: m["type"] in ("seated", "error"))
    if msg["type"] == "error":
        assert msg["code"] == "limit" and msg["id"] == rid, msg
        return False
    return True


async def use_up(server, source, xff):
    """Creates the 2 tables a minute of xff's address (as counted), and
    checks the third is refused."""
    c = await connect_via(server, source, xff)
    assert await create(c, 1) and await create(c, 2)
    assert not await create(c, 3)
    await c.close()


async def can_create(server, source, xff):
    c = await connect_via(server, source, xff)
    ok = await create(c, 1)
    await c.close()
    return ok


def upgrade_status(server, source, xff):
    """The status line of a WebSocket upgrade of /ws from source, sent
    by hand (websockets wants HTTP/1.1, lws refuses in HTTP/1.0)."""
    head = (b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
    if xff is not None:
        head += b"X-Forwarded-For: " + xff.encode() + b"\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                  source_address=(source, 0)) as sock:
        sock.sendall(head + b"\r\n")
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n")[0]


def serve(tmp_path, *flags):
    return Server(str(tmp_path / "serve.db"), "--max-tables-per-minute", "2",
                  *flags).start()


def test_untrusted_peer_header_is_ignored(tmp_path):
    """A peer that is not a trusted proxy is counted under its own
    address whatever X-Forwarded-For it sends."""
    s = serve(tmp_path, "--trusted-proxy", "127.0.0.3")
    try:
        async def go():
            await use_up(s, "127.0.0.2", "10.0.0.1")
            assert not await can_create(s, "127.0.0.2", "10.0.0.2")
            assert not await can_create(s, "127.0.0.2", None)
            # through the trusted proxy: 127.0.0.2 was charged, not the
            # address it named
            assert not await can_create(s, "127.0.0.3", "127.0.0.2")
            assert await can_create(s, "127.0.0.3", "10.0.0.1")
        run(go())
    finally:
        s.stop()


def test_trusted_proxy_gives_each_client_its_budget(tmp_path):
    """Through a trusted proxy, two forwarded addresses have separate
    budgets: one using up its tables per minute does not refuse the
    other (before: both were the proxy's address, and the second was
    refused)."""
    s = serve(tmp_path, "--trusted-proxy", "127.0.0.9,127.0.0.2")
    try:
        async def go():
            await use_up(s, "127.0.0.2", "10.0.0.1")
            assert await can_create(s, "127.0.0.2", "10.0.0.2")
            assert await can_create(s, "127.0.0.2", "2001:db8::7")
            # the same client through the proxy, IPv4 spelled as IPv6
            assert not await can_create(s, "127.0.0.2", "::ffff:10.0.0.1")
        run(go())
    finally:
        s.stop()


def test_forged_leftmost_entry_is_ignored(tmp_path):
    """Only the last X-Forwarded-For entry (what the trusted proxy saw)
    counts; whatever a client put left of it does not."""
    s = serve(tmp_path, "--trusted-proxy", "127.0.0.2",
              "--trusted-proxy", "::1")
    try:
        async def go():
            await use_up(s, "127.0.0.2", "10.0.0.1")
            assert not await can_create(s, "127.0.0.2", "10.0.0.2, 10.0.0.1")
            assert not await can_create(s, "127.0.0.2", "nonsense,10.0.0.1")
            assert await can_create(s, "127.0.0.2", "10.0.0.1,\t10.0.0.3 ")
        run(go())
    finally:
        s.stop()


@pytest.mark.parametrize("xff", [None, "", "10.0.0.1, nonsense",
                                 "10.0.0.1,", "10.0.0.0/8", "x" * 200])
def test_trusted_proxy_without_an_address_is_refused(tmp_path, xff):
    """A trusted proxy's request without a usable last entry gets 400 at
    the upgrade, never counted under the proxy's address (which every
    client behind it shares)."""
    s = serve(tmp_path, "--trusted-proxy", "127.0.0.2")
    try:
        assert upgrade_status(s, "127.0.0.2", xff).startswith(b"HTTP/1.0 400")
        # an untrusted peer sending the same is let in
        assert upgrade_status(s, "127.0.0.4", xff).startswith(b"HTTP/1.1 101")
    finally:
        s.stop()


@pytest.mark.parametrize("value", ["", "localhost", "10.0.0.0/8",
                                   "10.0.0.1,,10.0.0.2", ",".join(
                                       ["10.0.0.%d" % i for i in range(17)])])
def test_trusted_proxy_flag_wants_numeric_addresses(tmp_path, value):
    with pytest.raises(RuntimeError) as e:
        Server(str(tmp_path / "serve.db"), "--trusted-proxy", value).start()
    assert "--trusted-proxy wants numeric addresses" in str(e.value)
