"""A board of No: its pieces, start piece and walls, read from the ``kth-no`` format or a
drawn board, with the checks every entry point shares, and the options of
:func:`~perfectplay.no.analyze`.

>>> board = parse("A.#\\n..*")
>>> board.pieces.tolist(), board.start, board.name(0)
([[0, 0], [1, 2]], 1, 'A')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ..errors import InputError, LimitError
from ..grid import check_size, parse_grid
from ..judge_io import check_end
from ..textio import Reader


@dataclass(frozen=True)
class NoOptions:
    """What :func:`~perfectplay.no.analyze` answers beyond the start piece's nearest."""

    every: bool = field(default=False, metadata={
        "help": "Every piece's nearest piece.", "flag": "--all"})
    block: bool = field(default=False, metadata={
        "help": "Other pieces block the way (drawn boards)."})
    method: Literal["fast", "seed"] = field(default="fast", metadata={
        "help": "fast: Manhattan distance or one BFS that stops at the first piece; seed: "
                "also run the seed's search over the whole board with a list lookup per "
                "cell (cells x pieces at most 10^7), check it agrees and compare the costs."})
    trace: bool = field(default=False, metadata={
        "help": "Print the seed's search frontier by frontier (implies --method seed)."})


#: Pieces accepted at once: 16 bytes each in the sweep's arrays, and distance and index
#: packed in 64 bits there (with MAX_COORD, 2^34 << 22 < 2^62).
MAX_PIECES = 4_000_000
#: Largest absolute coordinate: keeps every distance and the sweep's keys inside int64.
MAX_COORD = 2**31 - 1


def as_pieces(pieces: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
    """``pieces`` as an (n, 2) int64 array, or an :class:`InputError` saying what is wrong
    (not pairs, not integers, too many, a coordinate beyond +-MAX_COORD)."""
    count = len(pieces) if hasattr(pieces, "__len__") else None
    if count is not None and count > MAX_PIECES:
        raise LimitError(f"{count:,} pieces; the limit is {MAX_PIECES:,}")
    try:
        arr = np.asarray(pieces)
        if arr.dtype.kind not in "iu" and not isinstance(pieces, np.ndarray):
            arr = np.array(pieces, dtype=object)  # Python ints beyond int64 stay ints
    except (ValueError, TypeError) as exc:
        raise InputError(f"pieces must be (row, col) pairs of integers ({exc})") from None
    if arr.size == 0:
        return np.zeros((0, 2), np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise InputError(f"pieces must be (row, col) pairs, got an array of shape {arr.shape}")
    if arr.dtype.kind == "O":
        if not all(isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)
                   for v in arr.ravel().tolist()):
            raise InputError("pieces must be (row, col) pairs of integers")
        if any(abs(int(v)) > MAX_COORD for v in arr.ravel().tolist()):
            raise LimitError(f"a coordinate is beyond +-{MAX_COORD:,}")
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "iu":
        raise InputError(f"pieces must be (row, col) pairs of integers, got {arr.dtype} "
                         "values")
    if arr.size and (int(arr.max()) > MAX_COORD or int(arr.min()) < -MAX_COORD):
        raise LimitError(f"a coordinate is beyond +-{MAX_COORD:,}")
    return arr.astype(np.int64, copy=False)


def as_walls(walls: np.ndarray | None) -> np.ndarray | None:
    """``walls`` as a 2-D boolean array (True = wall): bool, or integers that are all 0 or 1;
    anything else is an :class:`InputError` (``~`` on an int array is never false)."""
    if walls is None:
        return None
    arr = np.asarray(walls)
    if arr.ndim != 2:
        raise InputError(f"walls must be a 2-D boolean array, got shape {arr.shape}")
    check_size(*arr.shape)
    if arr.dtype == np.bool_:
        return arr
    if arr.dtype.kind in "iu" and np.isin(arr, (0, 1)).all():
        return arr.astype(bool)
    raise InputError(f"walls must be a boolean array (or 0/1 integers), got {arr.dtype} "
                     "values" + (" other than 0 and 1" if arr.dtype.kind in "iu" else ""))


def as_index(start: object, n: int) -> int:
    """``start`` as a piece index 0..n-1: an int (not a bool, not a float)."""
    if not isinstance(start, int | np.integer) or isinstance(start, bool | np.bool_):
        raise InputError(f"the start piece must be an integer index, got {start!r}")
    if not 0 <= start < n:
        raise InputError(f"start index {start} is not one of the {n} pieces (indices count "
                         f"from 0: 0..{n - 1} for P1..P{n})")
    return int(start)


def shared_cell(p: np.ndarray) -> tuple[int, int] | None:
    """Two pieces (i < j) on the same cell, or None. O(n log n) by a sort, no overflow."""
    if p.shape[0] < 2:
        return None
    order = np.lexsort((p[:, 1], p[:, 0]))
    s = p[order]
    same = (s[1:] == s[:-1]).all(axis=1)
    if not same.any():
        return None
    k = int(np.argmax(same))
    i, j = sorted((int(order[k]), int(order[k + 1])))
    return i, j


def check_distinct(p: np.ndarray) -> None:
    """An :class:`InputError` naming two pieces on the same cell."""
    pair = shared_cell(p)
    if pair is not None:
        i, j = pair
        raise InputError(f"P{i + 1} and P{j + 1} share the cell ({p[i, 0]}, {p[i, 1]})")


@dataclass(frozen=True)
class NoBoard:
    """A board of No: pieces (0-based (row, col) pairs), the start piece's index, walls
    (None: an open board) and labels (the drawn board's letters; None: P1, P2, ...)."""

    pieces: np.ndarray
    start: int
    walls: np.ndarray | None = None
    labels: list[str] | None = None
    shape: tuple[int, int] = (0, 0)

    def name(self, i: int) -> str:
        """A piece as people number it: its letter on a drawn board, else P1, P2, ..."""
        return self.labels[i] if self.labels else f"P{i + 1}"


def parse(text: str) -> NoBoard:
    """A board in either format: the ``kth-no`` format when the first value is an integer,
    else a drawn board ('.' free, '#' wall, letters or digits pieces, '*' the start).

    >>> parse("2\\n0 0\\n1 1\\n0\\n").pieces.tolist()
    [[0, 0], [1, 1]]
    """
    r = Reader(text)
    if r.at_end():
        raise InputError("the input is empty: expected a board")
    if re.fullmatch(r"[+-]?[0-9]+", r.token().text):
        n, pieces, start = read_kth_no(text)
        return NoBoard(pieces, start, None, None, (n, n))
    pieces, walls, start, labels = parse_drawn_board(text)
    return NoBoard(pieces, start, walls, labels, (int(walls.shape[0]), int(walls.shape[1])))


def read_kth_no(text: str) -> tuple[int, np.ndarray, int]:
    """``N``, N lines ``r c`` (0-based, distinct, on the N x N board), the start index.

    N is checked against :data:`MAX_PIECES` before anything is allocated; data after the
    start index is an error naming its line.
    """
    r = Reader(text)
    n, pts, start = read_kth_no_case(r)
    check_end(r, "the start index (the input has one case)")
    return n, pts, start


def read_kth_no_case(r: Reader) -> tuple[int, np.ndarray, int]:
    n = r.header("the number of pieces N", low=1, high=MAX_PIECES)
    rows: list[int] = []
    cols: list[int] = []
    where: list[tuple[int, int]] = []
    for i in range(n):
        where.append(r.position())
        rows.append(r.integer(f"the row of P{i + 1}", low=0, high=n - 1))
        cols.append(r.integer(f"the column of P{i + 1}", low=0, high=n - 1))
    start = r.integer("the start index (from 0)", low=0, high=n - 1)
    pts = np.array([rows, cols], dtype=np.int64).T.reshape(n, 2)
    pair = shared_cell(pts)
    if pair is not None:
        i, j = pair
        line, col = where[j]
        raise InputError(f"P{j + 1} is on ({rows[j]}, {cols[j]}), like P{i + 1}",
                         line=line, column=col)
    return n, pts, start


def parse_drawn_board(text: str) -> tuple[np.ndarray, np.ndarray, int, list[str]]:
    """A drawn board: '.' free, '#' wall, letters or digits for pieces, and exactly one
    '*' for the start piece. Pieces are numbered in reading order. Returns (pieces, walls,
    start index, piece labels).

    >>> pieces, walls, start, labels = parse_drawn_board("A.#\\n..*")
    >>> pieces.tolist(), start, labels
    ([[0, 0], [1, 2]], 1, ['A', '*'])
    """
    allowed = ".#*" + "".join(chr(c) for c in range(ord("A"), ord("Z") + 1)) + \
        "".join(chr(c) for c in range(ord("a"), ord("z") + 1)) + "0123456789"
    grid = parse_grid(text, allowed)
    pieces: list[tuple[int, int]] = []
    labels: list[str] = []
    start = -1
    for r, row in enumerate(grid.lines()):
        for c, ch in enumerate(row):
            if ch in ".#":
                continue
            if ch == "*":
                if start >= 0:
                    raise InputError("more than one start piece '*'", line=r + 1,
                                     column=c + 1)
                start = len(pieces)
            pieces.append((r, c))
            labels.append(ch)
    if start < 0:
        raise InputError("mark the start piece with '*'")
    walls = grid.cells == ord("#")
    return np.array(pieces, dtype=np.int64).reshape(-1, 2), walls, start, labels


@dataclass(frozen=True)
class Nearest:
    """The nearest other pieces to one start piece: all tied indices, lowest first."""

    start: int
    distance: int | None  # None: no other piece can be reached
    pieces: list[int]
    unreachable: list[int]

    @property
    def index(self) -> int | None:
        return self.pieces[0] if self.pieces else None
