"""Idle connections (docs/serve.md "Security": "idle connections are
pinged ... and closed"), with the server's own pings (conn.c conn_sweep;
lws's validity timer cost O(connections) at every frame), driven by a
raw WebSocket client that sees every frame.

  idle-1.1  a connection silent for --ping seconds gets a PING frame; one
            that answers each with a PONG stays open past 2.5 x --ping
  idle-1.2  one that never answers is cut after 2.5 x --ping of silence
"""
import base64
import os
import socket
import struct
import time

from serverlib import Server


def handshake(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket"
               "\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:%d\r\n"
               "\r\n" % (port, key, port)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return s


def read_frame(s):
    """(opcode, payload) of the next frame, or None once closed."""
    def exact(n):
        out = b""
        while len(out) < n:
            got = s.recv(n - len(out))
            if not got:
                return None
            out += got
        return out
    h = exact(2)
    if h is None:
        return None
    n = h[1] & 0x7F
    if n == 126:
        n = struct.unpack("!H", exact(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", exact(8))[0]
    return h[0] & 0x0F, exact(n)


def pong(s, payload):
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    s.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + body)


def frames_for(s, seconds, answer):
    """Every frame for `seconds` (answering pings when asked), and
    whether the server closed the connection meanwhile."""
    got, deadline = [], time.time() + seconds
    while time.time() < deadline:
        s.settimeout(max(0.05, deadline - time.time()))
        try:
            f = read_frame(s)
        except (socket.timeout, TimeoutError):
            break
        except ConnectionResetError:
            return got, True
        if f is None:
            return got, True
        got.append((time.time(), f[0]))
        if f[0] == 0x9 and answer:
            pong(s, f[1])
        if f[0] == 0x8:
            return got, True
    return got, False


def test_idle_1_1_pinged_and_kept_while_it_answers(tmp_path):
    s = Server(str(tmp_path / "serve.db"), "--ping", "2").start()
    try:
        c = handshake(s.port)
        t0 = time.time()
        got, closed = frames_for(c, 7.5, answer=True)
        pings = [t - t0 for t, op in got if op == 0x9]
        assert not closed, got
        assert len(pings) >= 2, got  # every 2 s of silence, answered
        assert 1.9 <= pings[0] <= 3.5, pings
        c.close()
    finally:
        s.stop()


def test_idle_1_2_a_silent_peer_is_cut(tmp_path):
    s = Server(str(tmp_path / "serve.db"), "--ping", "2").start()
    try:
        c = handshake(s.port)
        t0 = time.time()
        got, closed = frames_for(c, 12, answer=False)
        assert closed, got
        assert 4.9 <= time.time() - t0 <= 7.0, time.time() - t0
        assert any(op == 0x9 for _, op in got), got  # it was asked first
        c.close()
    finally:
        s.stop()
