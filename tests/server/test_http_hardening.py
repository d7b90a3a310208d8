"""`scopa serve` against strangers, its HTTP side (issue 22; docs/serve.md
"Listening", "HTTP limits", "Caching and compression"): the real server of
the sanitizer build, driven by raw sockets and http.client.

  http-1.x  where it listens: exactly the --host address(es)
  http-2.x  requests it refuses, each answered; thousands of them under
            LeakSanitizer, which must find nothing at exit
  http-3.x  the leaderboard answers the pool asked for
  http-4.x  the web client's files: cache headers, gzip
"""
import gzip
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from serverlib import (TIMEOUT, TOP, Server, free_port, scopa_bin,
                       store_execute)


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


# ----------------------------------------------------------------------
# http-2.x  Requests it refuses
# ----------------------------------------------------------------------

def exchange(port, data, addr="127.0.0.1"):
    """Sends raw bytes; everything the server sends until it closes (a
    reset after the answer is a close too)."""
    got = b""
    with socket.create_connection((addr, port), timeout=TIMEOUT) as c:
        try:
            c.sendall(data)
            while True:
                chunk = c.recv(65536)
                if not chunk:
                    break
                got += chunk
        except ConnectionResetError:
            pass
    return got


def status_of(answer):
    m = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(m.group(1)) if m else None


def head_and_body(answer):
    head, _, body = answer.partition(b"\r\n\r\n")
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode()] = value.strip().decode()
    return headers, body


CLOSE = b"Host: x\r\nConnection: close\r\n"
WS = (b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13"
      b"\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")

# (request, the status it gets; None: lws drops it without an answer).
REFUSED = [
    (b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 405),
    (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
    (b"PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", 405),
    (b"DELETE /api/tables/ABC/record HTTP/1.1\r\n" + CLOSE + b"\r\n", 405),
    (b"OPTIONS / HTTP/1.1\r\n" + CLOSE + b"\r\n", 405),
    (b"OPTIONS * HTTP/1.1\r\n" + CLOSE + b"\r\n", 403),  # lws: not a path
    (b"PATCH / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"5\r\nhello\r\n0\r\n\r\n", 405),
    (b"CONNECT example.org:443 HTTP/1.1\r\nHost: example.org\r\n\r\n", 405),
    (b"HEAD /healthz HTTP/1.1\r\n" + CLOSE + b"\r\n", 200),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody", 400),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"0\r\n\r\n", 400),
    (b"BREW /pot HTTP/1.1\r\n\r\n", 403),  # lws's own answer
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n" + CLOSE + b"\r\n", 414),
    (b"GET /healthz?" + b"a=1&" * 2500 + b" HTTP/1.1\r\n" + CLOSE + b"\r\n",
     None),  # more arguments than lws has fragments: dropped
    (b"GET /healthz HTTP/1.1\r\n" + CLOSE + b"Cookie: " + b"c" * 9000 +
     b"\r\n\r\n", 431),
    (b"GET /healthz HTTP/1.1\r\n" + CLOSE + b"X-Junk: " + b"j" * 40000 +
     b"\r\n\r\n", None),  # past lws's 32 KiB buffer: dropped
    (b"GET /ws HTTP/1.1\r\nHost: x\r\n" + WS + b"Origin: " + b"o" * 9000 +
     b"\r\n\r\n", 431),
    (b"GET /elsewhere HTTP/1.1\r\nHost: x\r\n" + WS + b"\r\n", 404),
    (b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade, "
     b"HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: foo\r\nConnection: Upgrade\r\n"
     b"\r\n", 403),  # lws's own answer to an upgrade it does not know
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(64)),
     403),  # TLS to a plain port: lws's answer to an unknown method
    (b"GET\r\n\r\n", 403),
    (b"GET /%zz HTTP/1.1\r\n\r\n", 403),  # lws: a bad escape
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
    (b"\r\n\r\n", None),
]


def test_http_2_1_refused_requests_get_answers(server):
    for request, status in REFUSED:
        answer = exchange(server.port, request)
        assert status_of(answer) == status, (request[:60], answer[:200])
        assert answer.count(b"HTTP/1.") <= 1, answer  # one answer at most
        if status in (405, 400, 414, 431):
            headers, body = head_and_body(answer)
            assert headers.get("connection") == "close", answer[:300]
            assert len(body) == int(headers["content-length"]) > 0, answer
        if status == 405 and not request.startswith(b"CONNECT"):
            assert head_and_body(answer)[0]["allow"] == "GET, HEAD"
    # HEAD: the headers a GET gets, no body.
    headers, body = head_and_body(exchange(
        server.port, b"HEAD /healthz HTTP/1.1\r\n" + CLOSE + b"\r\n"))
    assert int(headers["content-length"]) > 0 and body == b""
    # Just under the limits: served.
    answer = exchange(server.port, b"GET /" + b"a" * 8191 + b" HTTP/1.1\r\n" +
                      CLOSE + b"\r\n")
    assert status_of(answer) == 404
    answer = exchange(server.port, b"GET /healthz HTTP/1.1\r\n" + CLOSE +
                      b"Cookie: " + b"c" * 8192 + b"\r\n\r\n")
    assert status_of(answer) == 200
    assert server.http("/healthz")[0] == 200  # and it still serves


def test_http_2_2_thousands_of_bad_requests_leak_nothing(tmp_path,
                                                         monkeypatch):
    """Every refused request (and a keep-alive GET and HEAD between them),
    2,000 times; then SIGTERM: LeakSanitizer runs at exit and must find
    nothing (one leaked answer per POST before issue 22)."""
    with open(scopa_bin(), "rb") as f:
        assert b"__asan_init" in f.read(), \
            "run with the sanitizer build (SCOPA_BIN=build-test/scopa)"
    monkeypatch.setenv("ASAN_OPTIONS", os.environ.get("ASAN_OPTIONS", "") +
                       ":detect_leaks=1")
    s = Server(str(tmp_path / "serve.db")).start()
    counts = {}
    try:
        keep = socket.create_connection(("127.0.0.1", s.port), timeout=TIMEOUT)
        for i in range(2000):
            request, status = REFUSED[i % len(REFUSED)]
            got = status_of(exchange(s.port, request))
            assert got == status, (request[:60], got)
            counts[got] = counts.get(got, 0) + 1
            if i % 100 == 0:  # keep-alive answers between the refusals
                for verb in (b"GET", b"HEAD"):
                    keep.sendall(verb + b" /api/leaderboard?pool=3p HTTP/1.1"
                                 b"\r\nHost: x\r\n\r\n")
                    got = b""
                    while b"\r\n\r\n" not in got:
                        got += keep.recv(65536)
                    headers, body = head_and_body(got)
                    want = 0 if verb == b"HEAD" else int(headers["content-length"])
                    while len(body) < want:
                        body += keep.recv(65536)
                    assert status_of(got) == 200 and len(body) == want
        keep.close()
    finally:
        err = s.stop()  # exit status 0, else the report is in the message
    assert "LeakSanitizer" not in err, err
    assert sum(counts.values()) == 2000 and counts[405] >= 500, counts


# ----------------------------------------------------------------------
# http-3.x  The leaderboard's pools
# ----------------------------------------------------------------------

def test_http_3_1_each_pool_answers_its_own_list(tmp_path):
    db = str(tmp_path / "serve.db")
    Server(db).start().stop()  # the schema
    rows = [(pool, "%s-%d" % (pool, k), 1600 - k)
            for pool, players in {"2p": 1, "3p": 2, "4p": 3, "6p": 4}.items()
            for k in range(players)]
    # The leaderboard lists accounts only (CONTRACTS.md "Accounts").
    store_execute(db, "INSERT INTO accounts(id, name, name_key, hash, "
                  "created) VALUES (?, ?, ?, 'x', 0)",
                  [(i + 1, name, name.lower())
                   for i, (_, name, _) in enumerate(rows)])
    store_execute(db, "INSERT INTO ratings(pool, player, name, rating, rd,"
                  " vol, games, account) VALUES (?, ?, ?, ?, 60, 0.06, 5, ?)",
                  [(pool, "a:%d" % (i + 1), name, r, i + 1)
                   for i, (pool, name, r) in enumerate(rows)])
    s = Server(db).start()
    try:
        for pool, players in {"2p": 1, "3p": 2, "4p": 3, "6p": 4}.items():
            status, body, _ = s.http("/api/leaderboard?pool=" + pool)
            answer = json.loads(body)
            assert status == 200 and answer["pool"] == pool, answer
            assert [p["name"] for p in answer["players"]] == \
                ["%s-%d" % (pool, k) for k in range(players)], answer
        for query, pool in [("", "2p"), ("?pool=5p", "2p"),
                            ("?pool=" + "x" * 100, "2p"),
                            ("?x=" + "y" * 100 + "&pool=4p", "4p"),
                            ("?pool=6p&pool=3p", "6p")]:
            answer = json.loads(s.http("/api/leaderboard" + query)[1])
            assert answer["pool"] == pool, query
            assert len(answer["players"]) == {"2p": 1, "4p": 3, "6p": 4}[pool]
    finally:
        s.stop()


# ----------------------------------------------------------------------
# http-4.x  The web client's files
# ----------------------------------------------------------------------

@pytest.fixture
def web(tmp_path):
    """A built client: index.html, a hashed module and stylesheet, an
    image; .gz files written by the build's own step
    (web/tools/precompress.mjs, with node)."""
    d = tmp_path / "dist"
    (d / "assets").mkdir(parents=True)
    (d / "index.html").write_text(
        "<!doctype html><title>scopa</title>" +
        "<script type=module src=/assets/index-Ab3_x-9Z.js></script>" * 20)
    (d / "assets" / "index-Ab3_x-9Z.js").write_text(
        "".join("export const c%d = %d;\n" % (i, i) for i in range(3000)))
    (d / "assets" / "index-Qw8_e.css").write_text("body { color: red; }\n" * 99)
    (d / "assets" / "card-Zz9.png").write_bytes(b"\x89PNG\r\n" + bytes(3000))
    p = subprocess.run(["node", os.path.join(TOP, "web", "tools",
                                             "precompress.mjs"), str(d)],
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert sorted(os.path.relpath(x, d) for x in p.stdout.decode().split()) == [
        "assets/index-Ab3_x-9Z.js.gz", "assets/index-Qw8_e.css.gz",
        "index.html.gz"]
    return d


def get(port, path, encoding=None, method="GET"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    headers = {"Accept-Encoding": encoding} if encoding is not None else {}
    c.request(method, path, headers=headers)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


IMMUTABLE = "public, max-age=31536000, immutable"


def test_http_4_1_caching_and_gzip(tmp_path, web):
    s = Server(str(tmp_path / "serve.db"), "--web", str(web)).start()
    try:
        index = (web / "index.html").read_bytes()
        js = (web / "assets" / "index-Ab3_x-9Z.js").read_bytes()
        for path, data, cache in [("/", index, "no-cache"),
                                  ("/t/ABCDEF", index, "no-cache"),
                                  ("/index.html", index, "no-cache"),
                                  ("/assets/index-Ab3_x-9Z.js", js, IMMUTABLE)]:
            status, h, body = get(s.port, path)  # no Accept-Encoding
            assert status == 200 and body == data, path
            assert h["cache-control"] == cache, (path, h)
            assert h["vary"].lower() == "accept-encoding", (path, h)
            assert "content-encoding" not in h, (path, h)
            status, h, body = get(s.port, path, "gzip, deflate, br")
            assert status == 200 and h["content-encoding"] == "gzip", (path, h)
            assert h["vary"].lower() == "accept-encoding"
            assert h["cache-control"] == cache
            assert int(h["content-length"]) == len(body) < len(data)
            assert gzip.decompress(body) == data, path
        for encoding, zipped in [("gzip;q=0", False), ("*", True),
                                 ("br", False), ("identity", False),
                                 ("gzip;q=0, *", False), ("x-gzip", True),
                                 ("deflate, GZIP;q=0.5", True),
                                 ("gzip;q=0.000", False), ("", False)]:
            h = get(s.port, "/assets/index-Ab3_x-9Z.js", encoding)[1]
            assert ("content-encoding" in h) == zipped, (encoding, h)
        # An image: never gzipped, no Vary; assets are immutable.
        status, h, body = get(s.port, "/assets/card-Zz9.png", "gzip")
        assert status == 200 and "content-encoding" not in h
        assert "vary" not in h and h["cache-control"] == IMMUTABLE
        assert h["content-type"] == "image/png"
        # HEAD: the same headers, no body.
        status, h, body = get(s.port, "/assets/index-Ab3_x-9Z.js", "gzip",
                              method="HEAD")
        assert status == 200 and body == b"" and h["content-encoding"] == "gzip"
        # The API and errors are never stored.
        assert get(s.port, "/healthz")[1]["cache-control"] == "no-store"
        assert get(s.port, "/nope.js")[1]["cache-control"] == "no-store"
        # A .gz older than its file is stale: the file goes as it is.
        css = web / "assets" / "index-Qw8_e.css"
        css.write_text("body { color: blue; }\n" * 99)
        future = time.time() + 5
        os.utime(css, (future, future))
        status, h, body = get(s.port, "/assets/index-Qw8_e.css", "gzip")
        assert "content-encoding" not in h and body == css.read_bytes()
    finally:
        s.stop()



def test_http_4_2_offline_app_files(tmp_path, web):
    """The installable app's files (docs/web.md "Offline"): the service
    worker, the manifest, the icons and the engine with their types,
    revalidated on every visit (a new sw.js must reach the browser), and
    the content security policy that lets the page start its workers and
    compile the engine, and nothing more."""
    (web / "engine").mkdir()
    files = {
        "sw.js": (b"self.addEventListener('fetch', () => {});\n" * 50,
                  "text/javascript; charset=utf-8"),
        "manifest.webmanifest": (b'{"name": "Scopa", "icons": []}',
                                 "application/manifest+json"),
        "icon-192.png": (b"\x89PNG\r\n" + bytes(300), "image/png"),
        "icon.svg": (b"<svg xmlns='http://www.w3.org/2000/svg'/>",
                     "image/svg+xml"),
        "engine/scopa.wasm": (b"\0asm\1\0\0\0" + bytes(2000),
                              "application/wasm"),
        "engine/scopa.mjs": (b"export default 1;\n",
                             "text/javascript; charset=utf-8"),
        "engine/worker.js": (b"import './scopa.mjs';\n",
                             "text/javascript; charset=utf-8"),
    }
    for name, (data, _) in files.items():
        (web / name).write_bytes(data)
    s = Server(str(tmp_path / "serve.db"), "--web", str(web)).start()
    try:
        for name, (data, ctype) in files.items():
            status, h, body = get(s.port, "/" + name)
            assert status == 200 and body == data, name
            assert h["content-type"] == ctype, (name, h)
            assert h["cache-control"] == "no-cache", (name, h)
        csp = get(s.port, "/")[1]["content-security-policy"]
        rules = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
        # workers and the manifest fall back to default-src 'self'
        assert rules["default-src"] == ["'self'"], csp
        assert "worker-src" not in rules and "manifest-src" not in rules
        assert rules["script-src"] == ["'self'", "'wasm-unsafe-eval'"], csp
        assert "'unsafe-eval'" not in csp
    finally:
        s.stop()
