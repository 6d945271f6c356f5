#!/usr/bin/env python3
"""spot_check.py — a Dots-and-Boxes database against the search, position by
position: random positions of the database's board are valued by `query`
(the database) and by `solve dots --value-only` (alpha-beta search, which
reads no database), and every disagreement is printed. A second route to a
database's values that costs seconds a position, for databases too big to
check whole (3x6: data/known-values.md).

usage: scripts/spot_check.py --dir DB --board RxC [--lines K ...] [--count N]
                             [--quiet] [--timeout S] [--seed X]

  --lines K   lines drawn in each position (repeatable; default 18 24 30)
  --count N   positions per K (default 5)
  --quiet     only positions with no box of three sides, drawn a random
              line at a time among those that give no box a third side
              (the positions a quiet database stores)
  --timeout S give up a search after S seconds (default 300; counted)

Environment: RETRODB (default bin/retrodb beside this script). Exit status
0 when every position agrees, 1 when one does not, 2 on bad arguments.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RETRODB = os.environ.get("RETRODB", os.path.join(HERE, "..", "bin", "retrodb"))


def all_lines(rows, cols):
    return [("h", i, j) for i in range(rows + 1) for j in range(cols)] + [
        ("v", i, j) for i in range(rows) for j in range(cols + 1)]


def boxes_of(line, rows, cols):
    kind, i, j = line
    if kind == "h":
        return [(a, j) for a in (i - 1, i) if 0 <= a < rows]
    return [(i, b) for b in (j - 1, j) if 0 <= b < cols]


def sides(drawn, i, j):
    return sum(l in drawn for l in (("h", i, j), ("h", i + 1, j), ("v", i, j), ("v", i, j + 1)))


def random_position(rng, rows, cols, k, quiet):
    lines = all_lines(rows, cols)
    if not quiet:
        return set(rng.sample(lines, k))
    drawn = set()
    rng.shuffle(lines)
    for line in lines:
        if len(drawn) == k:
            break
        if all(sides(drawn | {line}, a, b) != 3 for a, b in boxes_of(line, rows, cols)):
            drawn.add(line)
    return drawn if len(drawn) == k else None


def diagram(drawn, rows, cols):
    out = []
    for i in range(rows + 1):
        out.append("+" + "+".join("-" if ("h", i, j) in drawn else " " for j in range(cols)) + "+")
        if i < rows:
            out.append(" ".join("|" if ("v", i, j) in drawn else " " for j in range(cols + 1)))
    return "\n".join(out) + "\n"


def value_of(args, timeout):
    """The "value" of a JSON answer, or None when the command failed."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)["value"]


def main():
    p = argparse.ArgumentParser(description="a Dots-and-Boxes database against the search")
    p.add_argument("--dir", required=True)
    p.add_argument("--board", required=True)
    p.add_argument("--lines", type=int, action="append")
    p.add_argument("--count", type=int, default=5)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    try:
        rows, cols = (int(x) for x in a.board.split("x"))
    except ValueError:
        p.error("bad --board '%s' (want RxC)" % a.board)
    rng = random.Random(a.seed)
    checked = disagree = gave_up = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "position.txt")
        for k in a.lines or [18, 24, 30]:
            for _ in range(a.count):
                drawn = random_position(rng, rows, cols, k, a.quiet)
                if drawn is None:
                    continue
                with open(path, "w") as f:
                    f.write(diagram(drawn, rows, cols))
                db = value_of([RETRODB, "query", "--dir", a.dir, "--json", path], None)
                search = value_of([RETRODB, "solve", "dots", a.board, "--position", path,
                                   "--value-only", "--json", "--quiet"], a.timeout)
                checked += 1
                if db is None:
                    print("query failed on:\n" + diagram(drawn, rows, cols), file=sys.stderr)
                    disagree += 1
                elif search is None:
                    gave_up += 1
                elif db != search:
                    disagree += 1
                    print("database %+d, search %+d:\n%s" % (db, search, diagram(drawn, rows, cols)))
            print("%d lines: %d positions so far, %d disagree, %d searches given up" %
                  (k, checked, disagree, gave_up), flush=True)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
