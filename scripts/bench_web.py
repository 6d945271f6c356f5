"""bench_web.py — a bounded load test of `retrodb serve`, on 127.0.0.1 only.

usage: python3 scripts/bench_web.py RETRODB DIR [CLIENTS [REQUESTS]]

Starts `RETRODB serve --dir DIR --port 0`, sends REQUESTS (20,000) queries
of random positions from CLIENTS (8) threads over keep-alive connections,
and prints requests a second, the median, p99 and worst latency, the
errors (any status but 200), and the server's resident memory before and
after (growth would be a leak). The positions are random move lists from
the database's start, taken from /api/info. Exits 1 on any error.
"""
import http.client
import json
import random
import subprocess
import sys
import threading
import time
import urllib.parse

retrodb, db = sys.argv[1], sys.argv[2]
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 8
total = int(sys.argv[4]) if len(sys.argv) > 4 else 20000

server = subprocess.Popen([retrodb, "serve", "--dir", db, "--port", "0"],
                          stdout=subprocess.PIPE, text=True)
line = server.stdout.readline()
port = int(line.rsplit(":", 1)[1].split("/")[0])


def rss_kb():
    with open(f"/proc/{server.pid}/status") as f:
        for row in f:
            if row.startswith("VmRSS:"):
                return int(row.split()[1])
    return 0


def connect():
    return http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    return r.status, body, r.getheader("Connection", "").lower() == "close"


conn = connect()
info = json.loads(get(conn, "/api/info")[1])
conn.close()
rng = random.Random(1)


def random_path():
    if info["game"] == "cram":
        return "/api/query"
    drawn = [i for i, c in enumerate(info["start"]) if c == "0"]
    rng.shuffle(drawn)
    moves = [info["lines"][i] for i in drawn[: rng.randrange(len(drawn))]]
    return "/api/query?moves=" + urllib.parse.quote(" ".join(moves))


paths = [random_path() for _ in range(2000)]
latencies = []
errors = []
lock = threading.Lock()


def client(n, seed):
    own = []
    bad = []
    conn = connect()
    pick = random.Random(seed)
    for _ in range(n):
        path = pick.choice(paths)
        t0 = time.perf_counter()
        try:
            status, _, close = get(conn, path)
        except (http.client.HTTPException, OSError) as e:
            bad.append(str(e))
            conn.close()
            conn = connect()
            continue
        own.append(time.perf_counter() - t0)
        if status != 200:
            bad.append(f"{status} {path}")
        if close:
            conn.close()
            conn = connect()
    conn.close()
    with lock:
        latencies.extend(own)
        errors.extend(bad)


# a warm-up round, so that "before" is the memory of a server in use
client(500, 0)
latencies.clear()
before = rss_kb()
threads = [threading.Thread(target=client, args=(total // clients, i + 1)) for i in range(clients)]
t0 = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
wall = time.perf_counter() - t0
after = rss_kb()
server.terminate()
server.wait()

latencies.sort()
n = len(latencies)
print(f"serve {db}: {n} requests from {clients} clients in {wall:.2f} s: "
      f"{n / wall:,.0f} requests a second")
print(f"latency: median {latencies[n // 2] * 1e3:.2f} ms, p99 {latencies[int(n * 0.99)] * 1e3:.2f} ms, "
      f"worst {latencies[-1] * 1e3:.2f} ms")
print(f"errors: {len(errors)}{' (' + errors[0] + ')' if errors else ''}")
print(f"server memory: {before} kB before, {after} kB after ({after - before:+d} kB)")
sys.exit(1 if errors else 0)
