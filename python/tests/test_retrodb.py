"""The Python package against the command-line tool: every form of a
position, values and moves equal to `query --json`, the batch form equal
to `query --batch`, perfect games that keep the value, and failures as
exceptions with the library's message (a damaged file raises, never
crashes)."""

import json
import random
import shutil

import numpy as np
import pytest

import retrodb
from conftest import retrodb as cli


def query_batch(path, positions):
    """`query --batch --json` of DBN strings: the values and best moves."""
    text = "\n".join(positions) + "\n"
    f = path.parent / (path.name + ".pos")
    f.write_text(text)
    out = cli("query", "--dir", str(path), "--batch", "--json", str(f))
    return [json.loads(line) for line in out.splitlines()]


def random_dbn(rng, nlines, count):
    out = []
    for _ in range(count):
        k = rng.randint(0, nlines)
        drawn = set(rng.sample(range(nlines), k))
        out.append("".join("1" if l in drawn else "0" for l in range(nlines)))
    return out


@pytest.mark.parametrize("name", ["3x3", "2x3", "3x3-quiet"])
def test_values_and_moves_as_query(dbs, name):
    rng = random.Random(7)
    with retrodb.open(dbs[name]) as db:
        positions = random_dbn(rng, db.nbits, 300)
        want = query_batch(dbs[name], positions)
        for dbn, w in zip(positions, want):
            assert db.value(dbn) == w["value"]
            moves = db.moves(dbn)
            assert {m.name: m.value for m in moves} == {m["line"]: m["value"] for m in w["moves"]}
            assert sorted(m.name for m in moves if m.best) == sorted(w["best"])
        # the batch form: one call for every row
        bits = np.array([[c == "1" for c in p] for p in positions], dtype=np.uint8)
        values = db.values(bits)
        assert values.dtype == np.int8
        assert values.tolist() == [w["value"] for w in want]
        assert db.values(positions).tolist() == values.tolist()


def test_half_database_as_the_full_one(dbs):
    # a half quiet database values the class it drops from its moves: the
    # same values and moves as the full database's
    rng = random.Random(11)
    with retrodb.open(dbs["3x3-half"]) as db:
        positions = random_dbn(rng, db.nbits, 300)
        want = query_batch(dbs["3x3"], positions)
        assert db.values(positions).tolist() == [w["value"] for w in want]
        for dbn, w in zip(positions[:50], want):
            assert {m.name: m.value for m in db.moves(dbn)} == {m["line"]: m["value"] for m in w["moves"]}


def test_position_forms(dbs):
    with retrodb.open(dbs["3x3"]) as db:
        assert db.game == "dots" and (db.rows, db.cols) == (3, 3) and db.nbits == 24
        start = db.value("")
        assert start == -3  # data/known-values.md
        same = [
            "h0,0 v0,1",
            ["h0,0", "v0,1"],
            [0, 13],                      # open_spiel actions: line ids
            np.array([1 if l in (0, 13) else 0 for l in range(24)]),
            (1 << 0) | (1 << 13),
            "".join("1" if l in (0, 13) else "0" for l in range(24)),
            "+-+ + +\n  |    \n+ + + +\n       \n+ + + +\n       \n+ + + +\n",
        ]
        values = {db.value(p) for p in same}
        assert len(values) == 1
        assert db.move_name(13) == "v0,1"


def test_pv_keeps_the_value(dbs):
    with retrodb.open(dbs["2x3"]) as db:
        line = db.pv("")
        assert len(line) == db.nbits
        # replay: the value of the start is the net score of the perfect game
        x, sign, score = 0, 1, 0
        v0 = db.value(0)
        for m in line:
            assert m.best
            boxes = _boxes(db, x | 1 << m.id) - _boxes(db, x)
            score += sign * boxes
            x |= 1 << m.id
            if boxes == 0:
                sign = -sign
        assert score == v0


@pytest.mark.parametrize("name", ["3x3", "3x3-half"])
def test_pv_is_the_query_one(dbs, name):
    # Python's pv and `query --pv` play the library's one walk: the same
    # moves, a capture first among the best (it once took the first best
    # by id and differed on a few positions)
    rng = random.Random(13)
    with retrodb.open(dbs[name]) as db:
        positions = random_dbn(rng, db.nbits, 300)
        f = dbs[name].parent / (dbs[name].name + ".pv")
        f.write_text("\n".join(positions) + "\n")
        out = cli("query", "--dir", str(dbs[name]), "--batch", "--json", "--pv", str(f))
        for dbn, line in zip(positions, out.splitlines()):
            want = [move for turn in json.loads(line)["pv"] for move in turn["moves"]]
            assert [m.name for m in db.pv(dbn)] == want, dbn


def test_pv_is_the_query_one_on_every_position(dbs):
    # the same on every one of the 2^17 positions of 2x3, not a sample
    with retrodb.open(dbs["2x3"]) as db:
        positions = ["".join("1" if x >> i & 1 else "0" for i in range(db.nbits)) for x in range(1 << db.nbits)]
        f = dbs["2x3"].parent / "2x3-every.pv"
        f.write_text("\n".join(positions) + "\n")
        out = cli("query", "--dir", str(dbs["2x3"]), "--batch", "--json", "--pv", str(f))
        lines = out.splitlines()
        assert len(lines) == len(positions)
        for dbn, line in zip(positions, lines):
            want = [move for turn in json.loads(line)["pv"] for move in turn["moves"]]
            assert [m.name for m in db.pv(dbn)] == want, dbn


def _boxes(db, x):
    R, C = db.rows, db.cols
    n = 0
    for i in range(R):
        for j in range(C):
            sides = [i * C + j, (i + 1) * C + j, (R + 1) * C + i * (C + 1) + j, (R + 1) * C + i * (C + 1) + j + 1]
            n += all(x >> s & 1 for s in sides)
    return n


def test_cram(dbs):
    with retrodb.open(dbs["cram-4x5"]) as db:
        assert db.game == "cram"
        assert db.value(0) == 2  # data/known-values.md: 4x5 is nimber 2
        moves = db.moves(".....\n" * 4)
        assert any(m.best for m in moves)
        for m in moves:
            cells = db._domino_cells(m.id)
            assert db.value(sum(1 << c for c in cells)) == m.value
        line = db.pv(0)
        assert line and line[0].best


def test_errors(dbs, tmp_path):
    with pytest.raises(retrodb.DatabaseMissing, match="not a retrodb database"):
        retrodb.open(tmp_path / "nothing")
    with retrodb.open(dbs["3x3"]) as db:
        with pytest.raises(retrodb.BadPosition):
            db.value("h9,9")
        with pytest.raises(retrodb.BadPosition):
            db.value(1 << 30)
        with pytest.raises(retrodb.BadPosition):
            db.values(np.zeros((2, 5), dtype=np.uint8))
        with pytest.raises(retrodb.BadPosition, match="4x4"):
            db.value("+ + + + +\n\n+ + + + +\n\n+ + + + +\n\n+ + + + +\n\n+ + + + +\n")
    db = retrodb.open(dbs["3x3"])
    db.close()
    with pytest.raises(retrodb.RetrodbError, match="closed"):
        db.value("")
    # a damaged file raises, with the library's words
    broken = tmp_path / "broken"
    shutil.copytree(dbs["3x3"], broken)
    victim = broken / "0" / "0.zst"
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    with retrodb.open(broken) as db:
        with pytest.raises(retrodb.DatabaseDamaged, match="damaged"):
            db.value("")


def test_solvers_agree_with_the_databases(dbs):
    rng = random.Random(11)
    with retrodb.open(dbs["2x3"]) as db:
        for dbn in random_dbn(rng, db.nbits, 40):
            assert retrodb.solve_dots(dbn, 2, 3, tt_mb=16)["value"] == db.value(dbn)
        for dbn in random_dbn(rng, db.nbits, 5):
            got = retrodb.solve_dots(dbn, 2, 3, tt_mb=16, moves=True)
            assert got["value"] == db.value(dbn)
            assert {m.id: (m.value, m.best) for m in got["moves"]} == \
                   {m.id: (m.value, m.best) for m in db.moves(dbn)}
    with retrodb.open(dbs["cram-4x5"]) as db:
        assert retrodb.solve_cram(4, 5, tt_mb=16)["nimber"] == 2
        for _ in range(30):
            covered = sum(1 << c for c in rng.sample(range(20), rng.randint(0, 12)))
            try:
                want = db.value(covered)
            except retrodb.BadPosition:
                continue  # covered cells that no sequence of dominoes leaves
            assert retrodb.solve_cram(4, 5, covered, tt_mb=16)["nimber"] == want
    even = retrodb.solve_cram(6, 6, tt_mb=16)
    assert even["nimber"] == 0 and even["nodes"] == 0  # the mirror rule
    with pytest.raises(retrodb.BadPosition):
        retrodb.solve_dots("", 9, 9)
    with pytest.raises(retrodb.BadPosition):
        retrodb.solve_cram(4, 5, 1 << 40)


def table_positions(db, rng, count, most_covered):
    """`count` random positions of the 4x5 Cram table (sets of covered
    cells that some sequence of dominoes leaves) and their moves."""
    found = []
    while len(found) < count:
        covered = sum(1 << c for c in rng.sample(range(20), rng.randint(0, most_covered)))
        try:
            found.append((covered, db.moves(covered)))
        except retrodb.BadPosition:
            continue
    return found


def test_solve_cram_moves_as_the_table(dbs):
    """Every move's nimber by search equals the 4x5 table's."""
    with retrodb.open(dbs["cram-4x5"]) as db:
        for covered, want in table_positions(db, random.Random(23), 12, 10):
            got = retrodb.solve_cram(4, 5, covered, tt_mb=16, moves=True)
            assert got["nimber"] == db.value(covered)
            assert got["moves"] == want


@pytest.mark.parametrize("rows, cols, r0, c0", [
    (9, 8, 5, 3),    # the window: cells 43 to 71, across cell 64
    (11, 11, 6, 5),  # more than 8 cells across both ways: the box of the free dominoes is solved
])
def test_solve_cram_past_64_cells(dbs, rows, cols, r0, c0):
    """A board of more than 64 cells whose free cells are a 4x5 window,
    everything else covered: its nimber and its moves' are the 4x5 table's
    for the window, the moves named on the big board."""
    big = retrodb.Board("cram", rows, cols)
    small = retrodb.Board("cram", 4, 5)
    with retrodb.open(dbs["cram-4x5"]) as db:
        for window, want in table_positions(db, random.Random(5), 8, 8):
            covered = (1 << rows * cols) - 1
            for c in range(20):
                if not window >> c & 1:
                    covered &= ~(1 << (r0 + c // 5) * cols + c0 + c % 5)
            diagram = "\n".join("".join("#" if covered >> r * cols + c & 1 else "." for c in range(cols))
                                for r in range(rows))
            assert big.position(diagram) == covered
            got = retrodb.solve_cram(rows, cols, diagram, tt_mb=16, moves=True)
            assert got["nimber"] == db.value(window)
            moved = {}  # each move named as on the window's own board
            for m in got["moves"]:
                (a, b), (c, d) = (map(int, cell.strip("()").split(",")) for cell in m.name.split("-"))
                moved[f"({a - r0},{b - c0})-({c - r0},{d - c0})"] = m.value
            assert moved == {m.name: m.value for m in want}
            assert all(small.move_name(m.id) == m.name for m in want)
    if rows != 9:
        return
    # the empty 2x33 board (66 cells) as the command line solves it
    got = retrodb.solve_cram(2, 33, tt_mb=64)
    want = json.loads(cli("solve", "cram", "2x33", "--json", "--tt-mb", "64", "--quiet"))
    assert (got["nimber"], got["nodes"]) == (want["nimber"], want["nodes"])
    with pytest.raises(retrodb.BadPosition, match="128"):
        retrodb.solve_cram(9, 15)
    # 8x16 has 232 dominoes: empty, the mirror rule makes it 0; a position
    # of more than 127 free dominoes to search, or to list, is refused
    assert retrodb.solve_cram(8, 16, tt_mb=16)["nimber"] == 0
    with pytest.raises(retrodb.BadPosition, match="230 free dominoes"):
        retrodb.solve_cram(8, 16, 1, tt_mb=16)
    with pytest.raises(retrodb.BadPosition, match="232 free dominoes"):
        retrodb.solve_cram(8, 16, tt_mb=16, moves=True)
    # 9x9 is laid out 9 across: the empty board has too many dominoes,
    # its first row and column (a strip of 17 cells, Dawson's Kayles) not
    with pytest.raises(retrodb.BadPosition, match="144 free dominoes"):
        retrodb.solve_cram(9, 9, tt_mb=16)
    ell = "\n".join("." * 9 if r == 0 else "." + "#" * 8 for r in range(9))
    assert retrodb.solve_cram(9, 9, ell, tt_mb=16)["nimber"] == 2
    with pytest.raises(retrodb.BadPosition):
        retrodb.solve_cram(3, 22, 1 << 66)
    with pytest.raises(retrodb.BadPosition, match="64"):
        retrodb.Board("dots", 6, 6)  # 84 lines


def test_label_positions_example(dbs, tmp_path):
    # the example answers --help, and labels positions as the database does
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "label_positions.py"
    shown = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True)
    assert shown.returncode == 0 and "usage:" in shown.stdout
    out = tmp_path / "labels.npz"
    done = subprocess.run([sys.executable, str(script), str(dbs["3x3"]), "200", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data = np.load(out)
    with retrodb.open(dbs["3x3"]) as db:
        assert data["values"].tolist() == db.values(data["positions"]).tolist()


def test_dbn_of_another_length(dbs):
    # a DBN string of the wrong length is named as such, as the command line names it
    with retrodb.open(dbs["3x3"]) as db:
        with pytest.raises(retrodb.BadPosition, match="24 characters, not 40"):
            db.value("0" * 40)


def test_open_spiel_action_numbers(dbs):
    # a string of open_spiel action numbers (its HistoryString) reads as the
    # command line reads it: line ids
    with retrodb.open(dbs["3x3"]) as db:
        want = db.value([0, 18])
        assert db.value("0 18") == want and db.value("0, 18") == want and db.value("[0, 18]") == want
        assert db.value("18") == db.value([18])
        assert db.value("0 18") == json.loads(cli("query", "--dir", str(dbs["3x3"]), "--moves", "0, 18",
                                                   "--json"))["value"]
        with pytest.raises(retrodb.BadPosition):
            db.value("0 99")


def test_text_forms_read_as_the_command_line_reads_them(dbs, tmp_path):
    # every text form of a position (moves by name, by number, with commas or
    # brackets, DBN strings; Cram dominoes and covered cells) reads as one
    # line of `query --batch` reads it: the library's reader is the command
    # line's own
    rng = random.Random(7)
    texts = {"3x3": [], "cram-4x5": []}
    with retrodb.open(dbs["3x3"]) as db:
        for _ in range(60):
            lines = rng.sample(range(db.nbits), rng.randint(0, 12))
            texts["3x3"] += [" ".join(db.move_name(m) for m in lines), " ".join(map(str, lines)),
                             ", ".join(map(str, lines)), str(lines)]
            texts["3x3"].append("".join("1" if i in lines else "0" for i in range(db.nbits)))
    with retrodb.open(dbs["cram-4x5"]) as db:
        for _ in range(60):
            covered, moves = set(), []
            for _ in range(rng.randint(0, 6)):
                r, c = rng.randrange(4), rng.randrange(5)
                r2, c2 = (r, c + 1) if rng.random() < 0.5 else (r + 1, c)
                if r2 < 4 and c2 < 5 and not {(r, c), (r2, c2)} & covered:
                    covered |= {(r, c), (r2, c2)}
                    moves.append(f"{r},{c}-{r2},{c2}")
            texts["cram-4x5"] += [" ".join(moves), " ".join(f"{r},{c}" for r, c in sorted(covered))]
            texts["cram-4x5"].append("".join("1" if (i // 5, i % 5) in covered else "0" for i in range(20)))
    for name, batch in texts.items():
        batch = [t for t in batch if t.strip()]  # a blank line is no position to a batch
        f = tmp_path / (name + ".pos")
        f.write_text("\n".join(batch) + "\n")
        key = "nimber" if name.startswith("cram") else "value"
        want = [json.loads(line)[key] for line in
                cli("query", "--dir", str(dbs[name]), "--batch", "--json", str(f)).splitlines()]
        with retrodb.open(dbs[name]) as db:
            assert [db.value(t) for t in batch] == want
    with retrodb.open(dbs["cram-4x5"]) as db:
        with pytest.raises(retrodb.BadPosition, match="side by side"):
            db.value("0,0-1,1")
        with pytest.raises(retrodb.BadPosition, match="2x5 diagram"):
            db.value(".....\n.....\n")


def test_close_while_other_threads_look_up(dbs):
    # close waits for the lookups under way; those after it raise "closed":
    # never a crash, never a false DatabaseDamaged
    import threading

    rng = random.Random(5)
    positions = random_dbn(rng, 24, 20000)
    for _ in range(5):
        db = retrodb.open(dbs["3x3"])
        want = query_batch(dbs["3x3"], positions[:50])
        errors, results = [], []

        def work():
            try:
                for _ in range(20):
                    results.append(db.values(positions))
            except retrodb.RetrodbError as e:
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        db.close()
        for t in threads:
            t.join()
        assert all("closed" in str(e) and not isinstance(e, retrodb.DatabaseDamaged) for e in errors)
        assert all(r[:50].tolist() == [w["value"] for w in want] for r in results)
        with pytest.raises(retrodb.RetrodbError, match="closed"):
            db.value("")


def test_a_whole_position_holds_the_start(dbs):
    # on a Swedish database a DBN string, an int or an array without the
    # start's lines is refused, as query refuses it; moves are drawn from it
    with retrodb.open(dbs["2x2-swedish"]) as db:
        assert db.start
        for bad in ("0" * db.nbits, 0, np.zeros(db.nbits, dtype=np.uint8)):
            with pytest.raises(retrodb.BadPosition, match="lacks line"):
                db.value(bad)
        with pytest.raises(retrodb.BadPosition, match="row 1: position lacks line"):
            full = np.array([[db.start >> l & 1 for l in range(db.nbits)], [0] * db.nbits])
            db.values(full)
        assert db.value(db.start) == db.value("") == json.loads(
            cli("query", "--dir", str(dbs["2x2-swedish"]), "--moves", "", "--json"))["value"]


def test_bad_python_inputs_raise(dbs):
    # each of these once answered another position or wrapped silently
    with retrodb.open(dbs["3x3"]) as db:
        with pytest.raises(retrodb.BadPosition, match="NUL"):
            db.value("h0,0\x00v1,1")
        with pytest.raises(retrodb.BadPosition, match="0s and 1s"):
            db.value(np.array(["0", "1"] * 12))
        with pytest.raises(retrodb.BadPosition, match="0s and 1s"):
            db.values(np.array([["0"] * 24]))
        for bad in (2 ** 32, 24, -1):
            with pytest.raises(retrodb.BadPosition, match="out of range"):
                db.move_name(bad)
        for bad in (1.0, True):
            with pytest.raises(retrodb.BadPosition, match="whole number"):
                db.value([bad])
    with pytest.raises(retrodb.DatabaseMissing, match="NUL"):
        retrodb.open(str(dbs["3x3"]) + "\x00x")
    with retrodb.open(dbs["cram-4x5"]) as db:
        with pytest.raises(retrodb.BadPosition, match="out of range"):
            db.move_name(999)
    for kw in ({"full_value": 2 ** 32}, {"threads": 2 ** 32}, {"tt_mb": 2 ** 32 + 1}, {"threads": 1.5}):
        with pytest.raises(retrodb.BadPosition):
            retrodb.solve_dots("", 1, 2, **kw)
    with pytest.raises(retrodb.BadPosition):
        retrodb.solve_cram(2, 2, tt_mb=2 ** 40)


def _random_input(rng, nbits):
    """One input of any kind a caller might hand the package, well-formed or not."""
    kind = rng.integers(0, 9)
    if kind == 0:  # text from the characters of every form, and some others
        alphabet = list("01hv,. +-#|\n\t\x00abAB9:;") + ["\u00e9", "\ufeff"]
        return "".join(rng.choice(alphabet, size=int(rng.integers(0, 40))))
    if kind == 1:  # a DBN string, sometimes of the wrong length
        n = nbits + int(rng.integers(-2, 3)) if rng.random() < 0.3 else nbits
        return "".join(rng.choice(["0", "1"], size=max(n, 0)))
    if kind == 2:  # a list of move ids, some out of range or not integers
        pool = [0, 1, nbits - 1, nbits, -1, 2 ** 31, 2 ** 64, 1.5, True, "3", None]
        return [pool[int(i)] if rng.random() < 0.2 else int(rng.integers(0, nbits))
                for i in rng.integers(0, len(pool), size=int(rng.integers(0, 8)))]
    if kind == 3:  # a whole position as an integer, sometimes beyond the board
        return int(rng.integers(0, 2 ** min(nbits, 62))) << int(rng.integers(0, 4))
    if kind == 4:  # arrays of every dtype and shape
        dtype = rng.choice(["int8", "uint64", "float64", "bool", "U1", "object"])
        shape = [(nbits,), (nbits + 1,), (2, nbits), (0,)][int(rng.integers(0, 4))]
        a = rng.integers(0, 2, size=shape)
        return a.astype(dtype)
    if kind == 5:
        return [None, b"h0,0", 1.0, float("nan"), {}, object(), -1, 2 ** 70][int(rng.integers(0, 8))]
    if kind == 6:  # a move list with line names and noise
        return " ".join(rng.choice(["h0,0", "v0,1", "h1,1", "v9,9", "h0,0", "x", ""], size=int(rng.integers(0, 5))))
    if kind == 7:  # a diagram, cut or garbled
        d = "+ + +\n|   |\n+-+ +\n" if rng.random() < 0.5 else "+-+-+\n| |\n+ + +\n"
        return d[: int(rng.integers(0, len(d) + 1))]
    return "".join(rng.choice(list("0123456789,"), size=int(rng.integers(0, 12))))


def test_random_inputs_are_answered_or_refused(dbs):
    """A fuzz of inputs: any input is either refused with BadPosition (a
    ValueError) or answered, and an answer is the answer for the position
    the package read it as, a position that holds the start's lines."""
    rng = np.random.default_rng(20261128)
    for name in ("3x3", "2x2-swedish", "3x3-half", "cram-4x5"):
        with retrodb.open(dbs[name]) as db:
            answered = refused = 0
            for _ in range(1500):
                x = _random_input(rng, db.nbits)
                try:
                    v = db.value(x)
                except retrodb.BadPosition:
                    refused += 1
                    continue
                except retrodb.DatabaseMissing:
                    refused += 1  # a position the database does not hold (Cram: none such)
                    continue
                answered += 1
                p = db.position(x)
                assert 0 <= p < 1 << db.nbits, (name, x, p)
                if db.game == "dots":
                    assert p & db.start == db.start, (name, x, p)
                assert db.value(p) == v, (name, x)
                bits = np.array([[p >> i & 1 for i in range(db.nbits)]], dtype=np.uint8)
                assert int(db.values(bits)[0]) == v, (name, x)
            assert answered > 100 and refused > 100, (name, answered, refused)
