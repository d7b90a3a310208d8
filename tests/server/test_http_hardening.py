"""`scopa serve` against strangers, its HTTP side (issue 22; docs/serve.md
"Listening"): the real server of the sanitizer build, driven by raw
sockets.

  http-1.x  where it listens: exactly the --host address(es)
"""
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from serverlib import TIMEOUT, TOP, Server, free_port, scopa_bin


class HostServer(Server):
    """A Server on --host HOST, asked at ADDR (start() waits for
    /healthz there)."""

    def __init__(self, db, host, addr, *flags):
        super().__init__(db, "--host", host, *flags)
        self.addr = addr

    def http(self, path, headers=None):
        host = "[%s]" % self.addr if ":" in self.addr else self.addr
        req = urllib.request.Request("http://%s:%d%s" % (host, self.port, path),
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                return r.status, r.read(), r.headers
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers


# ----------------------------------------------------------------------
# http-1.x  Listening
# ----------------------------------------------------------------------

def _ip(hexaddr):
    """An address of /proc/net/tcp{,6}: 32-bit words in host order."""
    raw = b"".join(bytes.fromhex(hexaddr[i:i + 8])[::-1]
                   for i in range(0, len(hexaddr), 8))
    return socket.inet_ntop(socket.AF_INET if len(raw) == 4
                            else socket.AF_INET6, raw)


def listening(pid):
    """The (address, port) of every listening TCP socket of process pid,
    from its fds' inodes and /proc/net/tcp and tcp6."""
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            m = re.fullmatch(r"socket:\[(\d+)\]",
                             os.readlink("/proc/%d/fd/%s" % (pid, fd)))
        except OSError:
            continue
        if m:
            inodes.add(m.group(1))
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.read().splitlines()[1:]:
                field = line.split()
                if field[3] == "0A" and field[9] in inodes:  # 0A: LISTEN
                    addr, port = field[1].split(":")
                    found.append((_ip(addr), int(port, 16)))
    return sorted(found)


def connects(addr, port):
    try:
        socket.create_connection((addr, port), timeout=5).close()
        return True
    except ConnectionRefusedError:
        return False


def ipv6_loopback():
    """None if this machine has ::1, else why not."""
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return None
    except OSError as e:
        return "no IPv6 loopback here (%s)" % e


def test_http_1_1_default_and_ipv4_literal_listen_there_only(tmp_path):
    """127.0.0.2 is the loopback too on Linux, but another address: a
    server on 127.0.0.1 must refuse it (one on every address, *:port, as
    before issue 22, takes it)."""
    with socket.socket() as probe:  # 127.0.0.2 does reach this machine
        probe.bind(("0.0.0.0", 0))
        probe.listen()
        assert connects("127.0.0.2", probe.getsockname()[1])
    for flags in ([], ["--host", "127.0.0.1"]):
        s = Server(str(tmp_path / "serve.db"), *flags).start()
        try:
            assert listening(s.proc.pid) == [("127.0.0.1", s.port)], flags
            assert not connects("127.0.0.2", s.port), flags
            assert s.http("/healthz")[0] == 200
            if not ipv6_loopback():
                assert not connects("::1", s.port), flags
        finally:
            s.stop()


def test_http_1_2_ipv6_literal(tmp_path):
    why = ipv6_loopback()
    if why:
        print("http-1.2 skipped:", why, file=sys.stderr)
        pytest.skip(why)
    s = HostServer(str(tmp_path / "serve.db"), "::1", "::1").start()
    try:
        assert listening(s.proc.pid) == [("::1", s.port)]
        assert s.http("/healthz")[0] == 200
        assert not connects("127.0.0.1", s.port)
    finally:
        s.stop()


def test_http_1_3_localhost_is_the_loopback(tmp_path):
    s = HostServer(str(tmp_path / "serve.db"), "localhost", "127.0.0.1").start()
    try:
        want = [("127.0.0.1", s.port)]
        if not ipv6_loopback():
            want.append(("::1", s.port))
        assert listening(s.proc.pid) == sorted(want)
        assert not connects("127.0.0.2", s.port)
    finally:
        s.stop()


def test_http_1_4_every_address_only_when_asked(tmp_path):
    s = HostServer(str(tmp_path / "a.db"), "0.0.0.0", "127.0.0.2").start()
    try:
        assert listening(s.proc.pid) == [("0.0.0.0", s.port)]
        assert connects("127.0.0.1", s.port)
    finally:
        s.stop()
    if ipv6_loopback():
        return  # "::" below needs IPv6
    s = HostServer(str(tmp_path / "b.db"), "::", "127.0.0.2").start()
    try:  # "::" is every address, IPv4 ones too
        assert listening(s.proc.pid) == [("::", s.port)]
        assert connects("::1", s.port)
    finally:
        s.stop()


def test_http_1_5_a_host_it_cannot_listen_on_is_an_error(tmp_path):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    cases = [("192.0.2.7", free_port(), "not an address of this machine"),
             ("no-such-host.invalid", free_port(), "cannot listen on"),
             ("", free_port(), "cannot listen on"),
             ("127.0.0.1", busy.getsockname()[1], "the port is in use")]
    try:
        for host, port, words in cases:
            db = tmp_path / "serve.db"
            p = subprocess.run([scopa_bin(), "serve", "--host", host, "--port",
                                str(port), "--db", str(db)],
                               capture_output=True, timeout=60)
            err = p.stderr.decode()
            assert p.returncode == 1, (host, err)
            assert words in err and "scopa serve:" in err, (host, err)
            assert not db.exists(), host  # refused before the store opens
    finally:
        busy.close()
