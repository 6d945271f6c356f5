"""The C library under the package: where it is found, and its functions
and structures as ctypes sees them (include/retrodb/*.h, mirrored field by
field).

The library is looked for, in order: the file RETRODB_LIBRARY names; the
copy installed with the package (retrodb/_lib, put there by
``make python``); the system's (``make install``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path

# rdb_status (retrodb/status.h)
OK, E_INPUT, E_IO, E_CORRUPT, E_MISSING, E_NOMEM, E_BUSY, E_STOPPED, E_NOSPACE = range(9)

MAX_MOVES = 112  # RDB_MAX_MOVES
LINE_NAME_MAX = 16  # RDB_LINE_NAME_MAX


class Error(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * 1024)]


class DbInfo(ctypes.Structure):
    _fields_ = [
        ("game", ctypes.c_char * 16),
        ("rows", ctypes.c_int),
        ("cols", ctypes.c_int),
        ("variant", ctypes.c_char * 32),
        ("start", ctypes.c_uint64),
        ("full_value", ctypes.c_int),
        ("loony", ctypes.c_int),
        ("chains", ctypes.c_int),
        ("complete", ctypes.c_int),
        ("reserved", ctypes.c_int * 8),
    ]


class MoveValue(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("value", ctypes.c_int), ("mark", ctypes.c_int)]


class MoveValues(ctypes.Structure):
    _fields_ = [
        ("value", ctypes.c_int),
        ("mark", ctypes.c_int),
        ("nmoves", ctypes.c_int),
        ("moves", MoveValue * MAX_MOVES),
    ]


def _candidates() -> list[str]:
    found = []
    if os.environ.get("RETRODB_LIBRARY"):
        found.append(os.environ["RETRODB_LIBRARY"])
    bundled = Path(__file__).parent / "_lib"
    if bundled.is_dir():
        found.extend(str(p) for p in sorted(bundled.glob("libretrodb.so*")))
    system = ctypes.util.find_library("retrodb")
    if system:
        found.append(system)
    return found


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError(
        "retrodb: cannot find libretrodb (set RETRODB_LIBRARY, run `make python`, "
        "or `make install`)" + ("; tried " + "; ".join(tried) if tried else "")
    )


lib = _load()

_u64 = ctypes.c_uint64
_pu64 = ctypes.POINTER(ctypes.c_uint64)
_pint = ctypes.POINTER(ctypes.c_int)
_perr = ctypes.POINTER(Error)


def _fn(name: str, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


probe_open = _fn("rdb_probe_open", ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), _perr)
probe_close = _fn("rdb_probe_close", None, ctypes.c_void_p)
probe_preload = _fn("rdb_probe_preload", ctypes.c_int, ctypes.c_void_p, _u64, _perr)
probe_info = _fn("rdb_probe_info", None, ctypes.c_void_p, ctypes.POINTER(DbInfo))
probe_value = _fn("rdb_probe_value", ctypes.c_int, ctypes.c_void_p, _u64, _pint, _perr)
probe_values = _fn(
    "rdb_probe_values", ctypes.c_int, ctypes.c_void_p, _pu64, ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_int8), ctypes.POINTER(ctypes.c_size_t), _perr,
)
probe_move_values = _fn(
    "rdb_probe_move_values", ctypes.c_int, ctypes.c_void_p, _u64, ctypes.POINTER(MoveValues), _perr
)
probe_perfect_game = _fn(
    "rdb_probe_perfect_game", ctypes.c_int, ctypes.c_void_p, _u64, _pint, _pu64, ctypes.c_int, _pint,
    _perr,
)
dots_parse_diagram = _fn(
    "rdb_dots_parse_diagram", ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, _pint, _pint, _pu64, _perr
)
dots_parse_lines = _fn(
    "rdb_dots_parse_lines", ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, _pu64, _perr
)
dots_line_name = _fn(
    "rdb_dots_line_name", ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_char_p,
    ctypes.c_size_t, _perr,
)
cram_parse_diagram = _fn(
    "rdb_cram_parse_diagram", ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, _pint, _pint, _pu64, _perr
)
position_read = _fn(
    "rdb_position_read", ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, _u64, ctypes.c_char_p,
    _pu64, _pint, _perr,
)
WRITTEN_DIAGRAM, WRITTEN_SET, WRITTEN_MOVES = 0, 1, 2
cram_parse_diagram_wide = _fn(
    "rdb_cram_parse_diagram_wide", ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, _pint, _pint, _pu64,
    _perr,
)


class DotsSolution(ctypes.Structure):
    _fields_ = [
        ("value", ctypes.c_int),
        ("nmoves", ctypes.c_int),
        ("line", ctypes.c_int * 64),
        ("move_value", ctypes.c_int * 64),
        ("nodes", ctypes.c_uint64),
        ("seconds", ctypes.c_double),
    ]


class CramSolution(ctypes.Structure):
    _fields_ = [("nimber", ctypes.c_int), ("nodes", ctypes.c_uint64), ("seconds", ctypes.c_double)]


class CramWideSolution(ctypes.Structure):
    _fields_ = [
        ("nimber", ctypes.c_int),
        ("nmoves", ctypes.c_int),
        ("domino", ctypes.c_int * 127),
        ("move_nimber", ctypes.c_int * 127),
        ("nodes", ctypes.c_uint64),
        ("seconds", ctypes.c_double),
    ]


solve_dots = _fn(
    "rdb_solve_dots", ctypes.c_int, ctypes.c_int, ctypes.c_int, _u64, ctypes.c_int, ctypes.c_int,
    ctypes.c_long, ctypes.c_int, ctypes.POINTER(DotsSolution), _perr,
)
solve_cram = _fn(
    "rdb_solve_cram", ctypes.c_int, ctypes.c_int, ctypes.c_int, _u64, ctypes.c_int, ctypes.c_long,
    ctypes.POINTER(CramSolution), _perr,
)
solve_cram_wide = _fn(
    "rdb_solve_cram_wide", ctypes.c_int, ctypes.c_int, ctypes.c_int, _pu64, ctypes.c_int, ctypes.c_long,
    ctypes.c_int, ctypes.POINTER(CramWideSolution), _perr,
)
