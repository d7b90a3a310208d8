#!/usr/bin/python3
"""serve_bad_http.py -- the server's memory under a stream of HTTP requests
it refuses (docs/serve.md "HTTP limits"; issue 22).

    bench/serve_bad_http.py [--requests 100000] [--bin build/scopa]

Starts the release build's server on a free loopback port with a fresh
database and sends REQUESTS requests, each on its own connection, cycling
through: POST, PUT, DELETE, OPTIONS and PATCH with bodies, CONNECT, HEAD,
a GET with a body, an unknown method, an over-long path, an over-long
header, a WebSocket upgrade elsewhere and bytes that are not HTTP.  Prints
one JSON object: the server's resident memory (VmRSS) before, after each
tenth of the requests and at the end, the answers by status, and the
requests per second.  Loopback only, bounded by REQUESTS.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from serve_load import free_port, rss_kb

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

BAD = [
    b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
    b"PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
    b"DELETE / HTTP/1.1\r\nHost: x\r\n\r\n",
    b"OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n",
    b"PATCH / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
    b"CONNECT example.org:443 HTTP/1.1\r\nHost: example.org\r\n\r\n",
    b"HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody",
    b"BREW /pot HTTP/1.1\r\n\r\n",
    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nCookie: " + b"c" * 9000 + b"\r\n\r\n",
    b"GET /x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade"
    b"\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
    b"dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(64)),
]


def exchange(port, data):
    """Sends data on a new connection; the answer's status (None: none)."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as c:
        try:
            c.sendall(data)
            while True:
                chunk = c.recv(65536)
                if not chunk:
                    break
                got += chunk
        except ConnectionResetError:
            pass
    m = re.match(rb"HTTP/1\.[01] (\d{3})", got)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=100000)
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "scopa"))
    args = ap.parse_args()
    if not 1 <= args.requests <= 10_000_000:
        sys.exit("serve_bad_http: --requests from 1 to 10,000,000")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [args.bin, "serve", "--port", str(port), "--db",
             os.path.join(tmp, "serve.db"), "--quiet"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port,
                                           timeout=5).read()
                    break
                except OSError:
                    time.sleep(0.05)
            rss = [rss_kb(proc.pid)]
            statuses = {}
            start = time.time()
            for i in range(args.requests):
                status = exchange(port, BAD[i % len(BAD)])
                statuses[str(status)] = statuses.get(str(status), 0) + 1
                if (i + 1) % max(1, args.requests // 10) == 0:
                    rss.append(rss_kb(proc.pid))
            seconds = time.time() - start
            rss.append(rss_kb(proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(json.dumps({"requests": args.requests, "rss_kb": rss,
                      "rss_growth_kb": rss[-1] - rss[0],
                      "statuses": statuses,
                      "requests_per_second": round(args.requests / seconds),
                      "exit_status": proc.returncode}))


if __name__ == "__main__":
    main()
