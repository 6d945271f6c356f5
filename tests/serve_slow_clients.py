"""Slow clients against `retrodb serve` (tests/web.sh runs it).

usage: serve_slow_clients.py URL DEADLINE

Forty clients from 127.0.0.2 each send a request a byte every half second
(never idle, never done). Meanwhile a client from 127.0.0.1 must be
answered within 3 s, every time; and each slow client's connection must be
closed by the server within DEADLINE seconds and a margin. Prints what
failed and exits 1, or exits 0.
"""
import socket
import sys
import time
import urllib.parse
import urllib.request

url, deadline = sys.argv[1], float(sys.argv[2])
host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port
request = b"GET /api/info HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 4000

slow = []
for _ in range(40):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.settimeout(5)
    try:
        s.connect((host, port))
    except OSError:
        pass  # refused beyond the per-address limit: fine
    slow.append(s)

failures = []
closed_at = {}
start = time.monotonic()
sent = 0
while time.monotonic() - start < deadline + 3 and len(closed_at) < len(slow):
    for i, s in enumerate(slow):
        if i in closed_at:
            continue
        try:
            s.send(request[sent:sent + 1])
        except socket.timeout:
            pass
        except OSError:
            closed_at[i] = time.monotonic() - start
    sent += 1
    # another client is answered at once, all along
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url + "api/info", timeout=5) as r:
            if r.status != 200:
                failures.append("a normal request got %d" % r.status)
    except Exception as e:  # noqa: BLE001 (any failure is the test's)
        failures.append("a normal request failed beside slow clients: %s" % e)
    if time.monotonic() - t0 > 3:  # (a loaded machine may be slow; a blocked one waits for ever)
        failures.append("a normal request took %.1f s beside slow clients" % (time.monotonic() - t0))
    time.sleep(0.5)

# a connection shut down reads as closed once what was sent is drained
for i, s in enumerate(slow):
    if i in closed_at:
        continue
    try:
        s.settimeout(0.5)
        if s.recv(1 << 16) == b"":
            closed_at[i] = time.monotonic() - start
    except socket.timeout:
        pass  # still open: nothing came, nothing closed
    except OSError:
        closed_at[i] = time.monotonic() - start
late = [i for i in range(len(slow)) if i not in closed_at]
if late:
    failures.append("%d of %d slow clients still connected after %.0f s (deadline %.0f s)"
                    % (len(late), len(slow), time.monotonic() - start, deadline))
for f in sorted(set(failures)):
    print(f)
sys.exit(1 if failures else 0)
