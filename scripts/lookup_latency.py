#!/usr/bin/env python3
"""How long one lookup of `query --batch` takes on a Dots-and-Boxes
database: N random positions (every density alike, seeded) go to one
process at once, and the time between its answers is each position's
time (the first one's includes opening the database). Prints the median,
the 90th, 99th and 99.9th percentiles and the worst of those times, the
first answer's time, the whole run's and the process's peak memory.

usage: scripts/lookup_latency.py DIR [N] [--memory MB] [--least-lines K]
       (RETRODB=path, default bin/retrodb; N default 10000; --memory is
       query's: 0 reads every value from the files; --least-lines draws
       positions of K lines or more alike, all a build still under way
       answers once its level K is done)
"""
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time


def main():
    args = sys.argv[1:]
    memory = None
    least = 0
    if "--memory" in args:
        i = args.index("--memory")
        memory = args[i + 1]
        del args[i:i + 2]
    if "--least-lines" in args:
        i = args.index("--least-lines")
        least = int(args[i + 1])
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    folder = args[0]
    n = int(args[1]) if len(args) > 1 else 10000
    retrodb = os.environ.get("RETRODB", "bin/retrodb")
    info = json.loads(subprocess.run([retrodb, "info", "--dir", folder, "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    rows, cols = info["rows"], info["cols"]
    nlines = 2 * rows * cols + rows + cols
    rng = random.Random(1)
    positions = []
    for _ in range(n):
        k = rng.randint(min(least, nlines), nlines)
        drawn = set(rng.sample(range(nlines), k))
        positions.append("".join("1" if l in drawn else "0" for l in range(nlines)))
    cmd = [retrodb, "query", "--dir", folder, "--batch", "--json"]
    if memory is not None:
        cmd += ["--memory", memory]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def feed():
        proc.stdin.write("\n".join(positions) + "\n")
        proc.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    stamps = []
    errors = 0
    for line in proc.stdout:
        stamps.append(time.perf_counter())
        errors += '"error"' in line
    proc.wait()
    end = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if len(stamps) != n:
        sys.exit(f"lookup_latency: {len(stamps)} answers for {n} positions")
    # answer i + 1's time is the gap after answer i
    timed = sorted(((b - a, positions[i + 1]) for i, (a, b) in enumerate(zip(stamps, stamps[1:]))),
                   reverse=True)
    gaps = sorted(t for t, _ in timed)

    def pct(p):
        return gaps[min(len(gaps) - 1, int(p / 100 * len(gaps)))] * 1e3

    print(f"{folder}: {n} random positions of {rows}x{cols}"
          f"{f' with {least} lines or more' if least else ''}, one query --batch process"
          f"{'' if memory is None else f', --memory {memory}'}")
    print(f"first answer {(stamps[0] - t0):.3f} s (opening the database), all {end - t0:.2f} s, "
          f"peak memory {peak:.0f} MB, {errors} refused")
    print(f"a lookup (ms): median {pct(50):.3f}, 90% {pct(90):.3f}, 99% {pct(99):.3f}, "
          f"99.9% {pct(99.9):.3f}, worst {gaps[-1] * 1e3:.3f}")
    for t, dbn in timed[:3]:
        print(f"  slow: {t * 1e3:.1f} ms for --dbn {dbn} ({dbn.count('1')} lines drawn)")


if __name__ == "__main__":
    main()
