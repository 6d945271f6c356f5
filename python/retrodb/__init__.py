"""Exact values from retrodb databases, in Python.

A Dots-and-Boxes database gives, for any position of its board, the best
net score of the boxes still to take for the player to move, and the
value of every move; a Cram table gives nimbers. ::

    import retrodb
    with retrodb.open("db/3x3") as db:
        db.value("")                     # the start: -3
        db.moves("h0,0 v0,1")            # every open line, its value, the best marked
        db.pv([0, 13])                   # the perfect game from there (open_spiel actions)
        db.values(batch)                 # a 2-D uint8 array, one position a row -> int8

A Dots-and-Boxes position may be given as a DBN string (one '0' or '1' a
line id: ``"1100..."``), a list of line names or of open_spiel action
numbers (the same as retrodb's line ids: horizontal lines first, row by
row, then vertical ones), a string of line names separated by spaces, a
diagram (the text ``retrodb query`` reads), a numpy array of 0/1 a line
id, or an int whose bit l is line l. A Cram position is the set of
covered cells: a diagram ('.' free, '#' covered), dominoes played in order
(``"0,0-0,1 2,1-2,2"``), the covered cells named (``"0,0 0,1"``) or as one
'0'/'1' a cell, a list of cell numbers (r * cols + c), a numpy array of 0/1
a cell, or an int. A text is read by the C library's reader, the one
``retrodb query`` uses, so that it means the same thing to both. Databases hold
boards of up to 64 lines or cells; `solve_cram` takes Cram boards of up
to 128 cells (3x22, 5x13, 8x9).

Failures raise RetrodbError (or one of its kinds below) with the C
library's message: a missing or damaged database never crashes Python.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional, Sequence, Union

import numpy as np

from . import _native as _n

__all__ = [
    "open",
    "Database",
    "Board",
    "solve_dots",
    "solve_cram",
    "Move",
    "RetrodbError",
    "BadPosition",
    "DatabaseMissing",
    "DatabaseDamaged",
    "Position",
]

__version__ = "0.8.0"

Position = Union[str, int, Sequence[int], Sequence[str], np.ndarray]

# A batch this large reads the database into memory first when its values
# fit in this many megabytes (as `query --batch` does with its --memory).
BATCH_PRELOAD_POSITIONS = 10000
BATCH_PRELOAD_MB = 1024


class RetrodbError(Exception):
    """A failure of the C library: `status` is its rdb_status, the message
    its own words."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class BadPosition(RetrodbError, ValueError):
    """The position cannot arise in this database (RDB_E_INPUT)."""


class DatabaseMissing(RetrodbError, FileNotFoundError):
    """No database there, or it does not hold the position (RDB_E_MISSING)."""


class DatabaseDamaged(RetrodbError):
    """A file of the database is damaged (RDB_E_CORRUPT); the next build
    of the same database redoes it."""


def _raise(status: int, err: _n.Error) -> None:
    message = err.msg.decode("utf-8", "replace")
    kind = {
        _n.E_INPUT: BadPosition,
        _n.E_MISSING: DatabaseMissing,
        _n.E_CORRUPT: DatabaseDamaged,
    }.get(status, RetrodbError)
    raise kind(status, message)


def _check(status: int, err: _n.Error) -> None:
    if status != _n.OK:
        _raise(status, err)


def _whole(value, name: str, lo: int, hi: int) -> int:
    """An integer argument crossing into C: a real int (not a float, not a
    bool) within [lo, hi], else BadPosition saying so."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise BadPosition(_n.E_INPUT, f"{name} must be a whole number, not {type(value).__name__}")
    value = int(value)
    if not lo <= value <= hi:
        raise BadPosition(_n.E_INPUT, f"{name} {value} is out of range ({lo}..{hi})")
    return value


@dataclass(frozen=True)
class Move:
    """One move and its value for the player who makes it (Dots-and-Boxes:
    the boxes it completes plus what follows; Cram: the nimber of the
    position after it). `id` is the line id (= open_spiel's action
    number) or the domino's number, `name` the line's name ("h0,1") or
    the domino's cells ("(0,1)-(0,2)")."""

    id: int
    name: str
    value: int
    best: bool


class Board:
    """A board and its positions: what turns any form of a position into
    the set of lines drawn (Dots-and-Boxes) or cells covered (Cram).
    `start` is lines every position holds (a database's start)."""

    def __init__(self, game: str, rows: int, cols: int, start: int = 0):
        if game not in ("dots", "cram"):
            raise BadPosition(_n.E_INPUT, f"no game '{game}' (dots or cram)")
        self.game, self.rows, self.cols, self.start = game, rows, cols, start
        if game == "dots":
            self.nbits, most = 2 * rows * cols + rows + cols, 64
        else:
            self.nbits, most = rows * cols, 128  # the Cram solver's; tables hold 64
        if rows < 1 or cols < 1 or self.nbits > most:
            raise BadPosition(_n.E_INPUT, f"no {rows}x{cols} {game} board of at most {most} "
                              f"{'lines' if game == 'dots' else 'cells'}")

    # ---- positions ----

    def position(self, pos: Position) -> int:
        """The position as a set of lines (or covered cells): bit l set when
        line l is drawn (cell l covered)."""
        if isinstance(pos, (bool, np.bool_)):
            raise BadPosition(_n.E_INPUT, "a position, not a truth value")
        whole = True  # a whole position (an int, an array, a DBN string, a diagram)
        if isinstance(pos, (int, np.integer)):
            x = int(pos)
        elif isinstance(pos, np.ndarray):
            x = self._from_array(pos)
        elif isinstance(pos, str):
            if "\x00" in pos:
                raise BadPosition(_n.E_INPUT, "a position holds a NUL character")
            x, whole = self._from_text(pos)
        elif isinstance(pos, (bytes, bytearray, float, dict)) or not hasattr(pos, "__iter__"):
            # bytes would read as line ids, a dict as its keys: neither is a position
            raise BadPosition(_n.E_INPUT, "a position is an integer, a string, an array or a list of "
                              f"moves, not {type(pos).__name__}")
        else:
            x, whole = self._from_list(list(pos)), False
        if x < 0 or x >> self.nbits:
            raise BadPosition(_n.E_INPUT, f"{x:#x} is no position of a board of {self.nbits} "
                              f"{'lines' if self.game == 'dots' else 'cells'}")
        if self.game == "dots":
            if whole:
                self.check_start(x)
            x |= self.start  # moves and line lists: drawn from the start
        return x

    def check_start(self, x: int) -> None:
        """A whole position holds the database's start (as `query` and
        `serve` require): one without some of its lines cannot arise."""
        missing = self.start & ~x
        if missing:
            line = (missing & -missing).bit_length() - 1
            raise BadPosition(_n.E_INPUT, f"position lacks line {self.move_name(line)} of the database's "
                              f"start position; it cannot arise in this database")

    def _from_array(self, a: np.ndarray) -> int:
        a = np.asarray(a).reshape(-1)
        if a.dtype.kind not in "biu":
            raise BadPosition(_n.E_INPUT, f"an array of 0s and 1s (integers or booleans), not {a.dtype}")
        if a.size != self.nbits:
            raise BadPosition(_n.E_INPUT, f"{a.size} entries; this board has {self.nbits}")
        bits = np.flatnonzero(a)
        return sum(1 << int(b) for b in bits)

    def _from_list(self, items: list) -> int:
        x = 0
        for item in items:
            if isinstance(item, str):
                x |= self.position(item) & ~(self.start if self.game == "dots" else 0)
                continue
            k = _whole(item, "a line" if self.game == "dots" else "a cell", 0, self.nbits - 1)
            if not 0 <= k < self.nbits:
                raise BadPosition(_n.E_INPUT, f"{k} is no {'line' if self.game == 'dots' else 'cell'} "
                                  f"of this board (0..{self.nbits - 1})")
            if x >> k & 1:
                raise BadPosition(_n.E_INPUT, f"{k} is given twice")
            x |= 1 << k
        return x

    def _from_text(self, text: str) -> tuple:
        """The position in text, and whether it is a whole one (a diagram, a
        DBN string or a list of covered cells) rather than moves from the
        start: read by the C library's reader, the command line's own
        (retrodb/position.h, rdb_position_read), so that a text means here
        what it means to `retrodb query`."""
        err = _n.Error()
        words = (ctypes.c_uint64 * 2)()
        form = ctypes.c_int()
        st = _n.position_read(self.game.encode(), self.rows, self.cols, self.start, text.encode(), words,
                              ctypes.byref(form), ctypes.byref(err))
        _check(st, err)
        return words[0] | words[1] << 64, form.value != _n.WRITTEN_MOVES

    def move_name(self, move: int) -> str:
        """A line's name ("h0,1"), or a Cram domino's cells."""
        nmoves = self.nbits if self.game == "dots" else (
            self.rows * (self.cols - 1) + (self.rows - 1) * self.cols)
        move = _whole(move, "a move", 0, nmoves - 1)
        if self.game == "dots":
            buf = ctypes.create_string_buffer(_n.LINE_NAME_MAX)
            err = _n.Error()
            _check(_n.dots_line_name(self.rows, self.cols, move, buf, len(buf), ctypes.byref(err)), err)
            return buf.value.decode()
        cells = self._domino_cells(move)
        return "-".join(f"({c // self.cols},{c % self.cols})" for c in cells)

    def _domino_cells(self, move: int) -> tuple:
        # horizontal dominoes first, row-major by their left cell, then
        # vertical ones, row-major by their top cell (retrodb/probe.h)
        R, C = self.rows, self.cols
        nh = R * (C - 1)
        if move < nh:
            r, c = divmod(move, C - 1)
            return (r * C + c, r * C + c + 1)
        r, c = divmod(move - nh, C)
        return (r * C + c, (r + 1) * C + c)


class Database:
    """An open database (use `retrodb.open`). Safe to share between
    threads: the C library serialises lookups on one handle, and `close`
    waits for the lookups under way (those that start after it raise
    "the database is closed")."""

    def __init__(self, path: str, preload_mb: Optional[int] = None):
        self._lock = threading.Condition()
        self._in_flight = 0
        self._h: Optional[ctypes.c_void_p] = None
        handle = ctypes.c_void_p()
        err = _n.Error()
        _check(_n.probe_open(str(path).encode(), ctypes.byref(handle), ctypes.byref(err)), err)
        self._h = handle
        info = _n.DbInfo()
        _n.probe_info(handle, ctypes.byref(info))
        self.path = str(path)
        self.game: str = info.game.decode()
        self.rows: int = info.rows
        self.cols: int = info.cols
        self.variant: str = info.variant.decode()
        self.start: int = info.start
        self.complete: bool = bool(info.complete)
        self.board = Board(self.game, self.rows, self.cols, self.start)
        self.nbits = self.board.nbits
        self._preloaded = False
        if preload_mb is not None:
            _check(_n.probe_preload(handle, preload_mb << 20, ctypes.byref(err)), err)
            self._preloaded = True

    # ---- life ----

    def close(self) -> None:
        """Let the database go (also on leaving a `with` block), once the
        lookups under way in other threads are done."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ failed before there was anything to close
            return
        with lock:
            handle, self._h = self._h, None
            while self._in_flight:
                lock.wait()
        if handle is not None:
            _n.probe_close(handle)

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    @contextlib.contextmanager
    def _using(self) -> Iterator[ctypes.c_void_p]:
        """The handle, held open for the lookups of a `with` block."""
        with self._lock:
            if self._h is None:
                raise RetrodbError(_n.E_INPUT, "the database is closed")
            self._in_flight += 1
            handle = self._h
        try:
            yield handle
        finally:
            with self._lock:
                self._in_flight -= 1
                self._lock.notify_all()

    def __repr__(self) -> str:
        return f"<retrodb.Database {self.game} {self.rows}x{self.cols} {self.variant} '{self.path}'>"

    def position(self, pos: Position) -> int:
        """The position as a set of lines (or covered cells): bit l set when
        line l is drawn (cell l covered)."""
        return self.board.position(pos)

    def move_name(self, move: int) -> str:
        """A line's name ("h0,1"), or a Cram domino's cells."""
        return self.board.move_name(move)

    def _domino_cells(self, move: int) -> tuple:
        return self.board._domino_cells(move)

    # ---- lookups ----

    def value(self, pos: Position) -> int:
        """The value for the player to move (Dots-and-Boxes), or the
        nimber (Cram)."""
        v = ctypes.c_int()
        err = _n.Error()
        x = self.position(pos)
        with self._using() as h:
            _check(_n.probe_value(h, x, ctypes.byref(v), ctypes.byref(err)), err)
        return v.value

    def moves(self, pos: Position) -> List[Move]:
        """Every move (in the order of their ids) with its value for the
        player who makes it; `best` marks those that keep the position's
        value (Dots-and-Boxes) or lead to nimber 0 (Cram)."""
        a = self._move_values(self.position(pos))
        return [self._move(a, i) for i in range(a.nmoves)]

    def _move_values(self, x: int) -> "_n.MoveValues":
        a = _n.MoveValues()
        err = _n.Error()
        with self._using() as h:
            _check(_n.probe_move_values(h, x, ctypes.byref(a), ctypes.byref(err)), err)
        return a

    def _move(self, a: "_n.MoveValues", i: int) -> Move:
        m = a.moves[i]
        best = m.value == a.value if self.game == "dots" else m.value == 0
        return Move(m.id, self.move_name(m.id), m.value, best)

    def pv(self, pos: Position) -> List[Move]:
        """A perfect game from the position to the end, the one `query --pv`
        plays (the library's walk): each move a best one, the first of them
        in this order: Dots-and-Boxes, a capture before a move that
        completes no box, then by id, to the full board; Cram, while a move
        is left, a move to nimber 0 when there is one, by id."""
        x = self.position(pos)
        ids = (ctypes.c_int * self.nbits)()
        after = (ctypes.c_uint64 * self.nbits)()
        n = ctypes.c_int()
        err = _n.Error()
        with self._using() as h:
            _check(_n.probe_perfect_game(h, x, ids, after, self.nbits, ctypes.byref(n),
                                         ctypes.byref(err)), err)
        line: List[Move] = []
        for i in range(n.value):
            # the move with its value and name, from the position before it
            # (only the move played is named: naming every move took most of
            # a walk's time)
            a = self._move_values(x)
            line.append(self._move(a, next(k for k in range(a.nmoves) if a.moves[k].id == ids[i])))
            x = after[i]  # a chain database's move draws its whole chain
        return line

    def values(self, batch: Union[np.ndarray, Iterable[Position]]) -> np.ndarray:
        """The values of many positions at once: a 2-D array of 0/1 (one
        position a row, one column a line id or cell) as one call into the
        library, or any iterable of positions. Returns an int8 array."""
        if isinstance(batch, np.ndarray) and batch.ndim == 2:
            if batch.dtype.kind not in "biu":
                raise BadPosition(_n.E_INPUT, f"rows of 0s and 1s (integers or booleans), not {batch.dtype}")
            if batch.shape[1] != self.nbits:
                raise BadPosition(_n.E_INPUT, f"rows of {batch.shape[1]} entries; this board has "
                                  f"{self.nbits}")
            bits = (np.asarray(batch) != 0).astype(np.uint64)
            weights = np.left_shift(np.uint64(1), np.arange(self.nbits, dtype=np.uint64))
            xs = (bits * weights).sum(axis=1, dtype=np.uint64)
            if self.game == "dots" and self.start:
                lacking = np.flatnonzero(xs & np.uint64(self.start) != np.uint64(self.start))
                if len(lacking):
                    try:
                        self.board.check_start(int(xs[lacking[0]]))
                    except BadPosition as e:
                        raise BadPosition(_n.E_INPUT, f"row {lacking[0]}: {e}") from None
        else:
            xs = np.array([self.position(p) for p in batch], dtype=np.uint64)
        xs = np.ascontiguousarray(xs, dtype=np.uint64)
        out = np.zeros(len(xs), dtype=np.int8)
        done = ctypes.c_size_t()
        err = _n.Error()
        with self._using() as h:
            if not self._preloaded and len(xs) >= BATCH_PRELOAD_POSITIONS:
                # as `query --batch` does: a database that fits is read into
                # memory once, and then no lookup decompresses anything
                ignored = _n.Error()
                _n.probe_preload(h, BATCH_PRELOAD_MB << 20, ctypes.byref(ignored))
                self._preloaded = True
            st = _n.probe_values(h, xs.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64)), len(xs),
                                 out.ctypes.data_as(ctypes.POINTER(ctypes.c_int8)), ctypes.byref(done),
                                 ctypes.byref(err))
        _check(st, err)
        return out


def open(path: str, preload_mb: Optional[int] = None) -> Database:  # noqa: A001 (the module's verb)
    """Open the database (a Dots-and-Boxes database or a Cram table) in the
    folder `path`. With preload_mb, read every value into memory first when
    they fit in that many megabytes (faster lookups)."""
    if "\x00" in str(path):
        raise DatabaseMissing(_n.E_INPUT, "a path holds a NUL character")
    if preload_mb is not None:
        preload_mb = _whole(preload_mb, "preload_mb", 0, 1 << 30)
    return Database(path, preload_mb)


def solve_dots(pos: Position, rows: int, cols: int, full_value: int = 0, threads: int = 1,
               tt_mb: int = 1024, moves: bool = False) -> dict:
    """The value of a Dots-and-Boxes position of a rows x cols board by
    search (no database): {"value", "moves" (with moves=True: every open
    line, as Move), "nodes", "seconds"}. full_value is the full board's
    value (minus a last-move penalty). Big positions take long: 3x5 from
    empty about four minutes on one thread."""
    board = Board("dots", _whole(rows, "rows", 1, 64), _whole(cols, "cols", 1, 64))
    full_value = _whole(full_value, "full_value", -100, 100)
    threads = _whole(threads, "threads", 1, 1024)
    tt_mb = _whole(tt_mb, "tt_mb", 1, 1 << 30)
    out = _n.DotsSolution()
    err = _n.Error()
    _check(_n.solve_dots(rows, cols, board.position(pos), full_value, threads, tt_mb, int(moves),
                         ctypes.byref(out), ctypes.byref(err)), err)
    result = {"value": out.value, "nodes": out.nodes, "seconds": out.seconds}
    if moves:
        result["moves"] = [Move(out.line[i], board.move_name(out.line[i]), out.move_value[i],
                                out.move_value[i] == out.value) for i in range(out.nmoves)]
    return result


def solve_cram(rows: int, cols: int, covered: Position = 0, threads: int = 1,
               tt_mb: int = 1024, moves: bool = False) -> dict:
    """The nimber of a Cram position (the empty board by default) by
    search, on boards of up to 128 cells (positions with at most 127 free
    dominoes; on a board more than 8 cells across both ways, 127 in each
    region of them, cells joined by free dominoes): {"nimber",
    "nodes", "seconds"}; with moves=True also "moves", every move (in the
    order of their ids) with the nimber of the position after it, `best`
    marking those to nimber 0."""
    board = Board("cram", _whole(rows, "rows", 1, 128), _whole(cols, "cols", 1, 128))
    threads = _whole(threads, "threads", 1, 1024)
    tt_mb = _whole(tt_mb, "tt_mb", 1, 1 << 30)
    x = board.position(covered)
    words = (ctypes.c_uint64 * 2)(x & (1 << 64) - 1, x >> 64)
    out = _n.CramWideSolution()
    err = _n.Error()
    _check(_n.solve_cram_wide(rows, cols, words, threads, tt_mb, int(moves), ctypes.byref(out),
                              ctypes.byref(err)), err)
    result = {"nimber": out.nimber, "nodes": out.nodes, "seconds": out.seconds}
    if moves:
        result["moves"] = [Move(out.domino[i], board.move_name(out.domino[i]), out.move_nimber[i],
                                out.move_nimber[i] == 0) for i in range(out.nmoves)]
    return result
