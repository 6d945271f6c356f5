"""Label random Dots-and-Boxes positions with exact values: training data
for a value network, the way open_spiel's dots_and_boxes numbers moves
(action = line id: horizontal lines first, row by row, then vertical).

    python3 python/examples/label_positions.py db/3x3 10000 labels.npz

Each position is a random game's prefix: a random number of random
actions from the empty board. Writes `positions` (uint8, one row a
position, one column an action) and `values` (int8, the best net score of
the boxes still to take for the player to move) to an .npz file, and
prints how many positions a second the labelling took.
"""

import argparse
import time

import numpy as np

import retrodb


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Label random Dots-and-Boxes positions with exact values from a database "
        "(open_spiel's action numbering) and write them to an .npz file.")
    parser.add_argument("database", help="the database's folder, e.g. db/3x3 (bin/retrodb build dots 3x3 builds it)")
    parser.add_argument("count", type=int, help="how many positions to label")
    parser.add_argument("output", help="the .npz file to write")
    args = parser.parse_args()
    path, count, out = args.database, args.count, args.output
    if count <= 0:
        parser.error("count must be at least 1")
    rng = np.random.default_rng(1)
    with retrodb.open(path) as db:
        if db.game != "dots":
            parser.exit(2, f"{path} is a {db.game} table, not a Dots-and-Boxes database\n")
        n = db.nbits
        positions = np.zeros((count, n), dtype=np.uint8)
        for row in positions:
            row[rng.permutation(n)[: rng.integers(0, n + 1)]] = 1
        t0 = time.perf_counter()
        values = db.values(positions)
        seconds = time.perf_counter() - t0
    np.savez_compressed(out, positions=positions, values=values)
    print(f"{count} positions labelled in {seconds:.3f} s ({count / max(seconds, 1e-9):,.0f} a second); "
          f"values {values.min()}..{values.max()}, written to {out}")


if __name__ == "__main__":
    main()
