#!/bin/bash
# bench_python.sh — the Python package's batch lookups (Database.values:
# one call of rdb_probe_values for the whole array) against `query
# --batch` (which also finds every position's best moves and writes text),
# in one run on the same random positions: positions a second each. A
# database of BOARD (default 3x4) is built first if DIR does not hold one.
#   scripts/bench_python.sh [BOARD] [COUNT]
set -eu
cd "$(dirname "$0")/.."
BOARD=${1:-3x4}
[ -n "$BOARD" ] || BOARD=3x4
COUNT=${2:-1000000}
PYTHON=${PYTHON:-/usr/bin/python3}
DIR=${DIR:-db/$BOARD}
[ -f "$DIR/PARAMS" ] || bin/retrodb build dots "$BOARD" --dir "$DIR" --quiet
make --no-print-directory python > /dev/null
T=$(mktemp -d /tmp/retrodb-benchpy.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$PYTHON" - "$DIR" "$COUNT" "$T" <<'PY'
import subprocess, sys, time
import numpy as np
import retrodb
path, count, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with retrodb.open(path) as db:
    rng = np.random.default_rng(3)
    a = (rng.random((count, db.nbits)) < rng.random((count, 1))).astype(np.uint8)
    a |= np.array([(db.start >> l) & 1 for l in range(db.nbits)], dtype=np.uint8)
    t0 = time.perf_counter()
    v = db.values(a)
    py = time.perf_counter() - t0
with open(f"{tmp}/pos", "w") as f:
    for row in a:
        f.write("".join("1" if b else "0" for b in row) + "\n")
t0 = time.perf_counter()
out = subprocess.run(["bin/retrodb", "query", "--dir", path, "--batch", f"{tmp}/pos"],
                     check=True, capture_output=True, text=True).stdout
cli = time.perf_counter() - t0
assert len(out.splitlines()) == count
print(f"{count:,} random positions of {path}: Python values() {count / py:,.0f} a second "
      f"({py:.2f} s); query --batch {count / cli:,.0f} a second ({cli:.2f} s, text in and out); "
      f"ratio {cli / py:.2f}")
PY
