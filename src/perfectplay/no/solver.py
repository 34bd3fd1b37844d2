"""No's algorithms, as functions over plain data (pieces as (row, col) pairs, walls as a
boolean array).

- :func:`nearest`: one start piece. Open board: Manhattan distance, O(N). With walls (and
  optionally other pieces in the way): BFS from the start that stops at the first layer
  holding a piece, O(cells).
- :func:`all_nearest`: every piece's nearest other piece at once. Open board: buckets
  (square cells of a uniform grid over the pieces, about one piece each, crowded buckets
  split by grids of their own; a piece searches rings of buckets outward until a ring's
  lower bound exceeds the best distance found), O(N depth) to build and O(1) expected per
  piece; should the searches run over a work budget of O(N), the Manhattan
  nearest-neighbour sweep over 4 octant transforms with a Fenwick tree of prefix minima
  (the Manhattan-MST trick; Zhou, Shenoy, Nicholls 2002), O(N log N). Both in numba.
  With walls: one multi-source BFS labelling every cell with its nearest piece, then a scan
  of the edges whose ends have different labels, O(cells).
- :func:`seed_nearest`: the seed's BFS with its list lookups, O(N^3) on an N x N board,
  kept as the reference for tests and the benchmark.
- :func:`analyze`: a board and its options -> a :class:`~.result.NearestResult`.

Ties are always broken by the lowest piece index; :class:`~.result.Nearest` lists every
tied piece.

>>> nearest([(0, 0), (2, 2), (0, 1)], 0).pieces
[2]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

import numpy as np

from ..errors import InputError
from ..grid import bfs_order, check_size, neighbour_table
from ..seedrun import SeedRun, Tracer, disagree, seed_requested, timed, warm_seconds
from . import seed
from .kernels import all_nearest_open, all_nearest_walls
from .model import (
    NoBoard,
    NoOptions,
    as_index,
    as_pieces,
    as_walls,
    check_distinct,
)
from .result import Nearest, NearestResult


def nearest(pieces: Sequence[Sequence[int]] | np.ndarray, start: int,
            walls: np.ndarray | None = None, pieces_block: bool = False) -> Nearest:
    """The pieces nearest to piece ``start`` in moves (one orthogonal step each).

    ``walls`` is a boolean (rows, cols) array (True = wall); without it the board is open and
    the distance is Manhattan. ``pieces_block`` makes the other pieces obstacles too (a
    piece is then reached by stepping onto it, but not through it).

    >>> nearest([(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)], 2)
    Nearest(start=2, distance=3, pieces=[0, 3, 4], unreachable=[])
    """
    p = as_pieces(pieces)
    n = p.shape[0]
    start = as_index(start, n)
    walls = as_walls(walls)
    if not isinstance(pieces_block, bool | np.bool_):
        raise InputError(f"pieces_block must be True or False, got {pieces_block!r}")
    if n < 2:
        return Nearest(start, None, [], [])
    if walls is None and not pieces_block:
        d = np.abs(p[:, 0] - p[start, 0]) + np.abs(p[:, 1] - p[start, 1])
        d[start] = np.iinfo(np.int64).max
        best = int(d.min())
        return Nearest(start, best, [int(i) for i in np.flatnonzero(d == best)], [])
    rows, cols = board_shape(p, walls)
    open_ = np.ones(rows * cols, dtype=bool) if walls is None else ~walls.ravel()
    flat = p[:, 0] * cols + p[:, 1]
    if not open_[flat].all():
        bad = int(np.flatnonzero(~open_[flat])[0])
        raise InputError(f"P{bad + 1} stands on a wall at ({p[bad, 0]}, {p[bad, 1]})")
    nb = neighbour_table(rows, cols)
    walk = open_.copy()
    if pieces_block:
        walk[flat] = False  # others are targets, not corridors
    dist, _ = bfs_order(nb, walk, int(flat[start]))
    if pieces_block:
        # a blocking piece is reached from a walkable neighbour (or the start itself)
        for i, cell in enumerate(flat.tolist()):
            if i == start:
                continue
            best = -1
            for w in nb[cell]:
                if w >= 0 and (dist[w] >= 0 and (walk[w] or w == flat[start])):
                    cand = dist[w] + 1
                    best = cand if best < 0 or cand < best else best
            dist[cell] = best
    d = dist[flat]
    d[start] = -1
    reach = np.flatnonzero(d >= 0)
    unreachable = [int(i) for i in np.flatnonzero(d < 0) if i != start]
    if reach.size == 0:
        return Nearest(start, None, [], unreachable)
    best = int(d[reach].min())
    return Nearest(start, best, [int(i) for i in reach[d[reach] == best]], unreachable)


def board_shape(p: np.ndarray, walls: np.ndarray | None) -> tuple[int, int]:
    if walls is not None:
        rows, cols = walls.shape
    else:
        rows, cols = int(p[:, 0].max()) + 1, int(p[:, 1].max()) + 1
        check_size(rows, cols)
    if (p < 0).any() or (p[:, 0] >= rows).any() or (p[:, 1] >= cols).any():
        bad = int(np.flatnonzero((p < 0).any(axis=1) | (p[:, 0] >= rows) |
                                 (p[:, 1] >= cols))[0])
        raise InputError(f"P{bad + 1} at ({p[bad, 0]}, {p[bad, 1]}) is off the "
                         f"{rows} x {cols} board")
    return rows, cols


def all_nearest(pieces: Sequence[Sequence[int]] | np.ndarray,
                walls: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every piece's nearest other piece: (index array, distance array), -1 where none is
    reachable. Ties go to the lowest index.

    Open board: :func:`~.kernels.all_nearest_open` (buckets, O(N) expected; an O(N log N)
    sweep should they run over budget). Two pieces on one cell show as a distance 0, and only then
    are they looked for and named, so a valid board pays no O(N log N) check. With walls:
    the labelling BFS, O(cells).

    >>> idx, dist = all_nearest([(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)])
    >>> idx.tolist(), dist.tolist()
    ([3, 0, 0, 0, 2], [2, 3, 3, 2, 3])
    """
    p = as_pieces(pieces)
    walls = as_walls(walls)
    n = p.shape[0]
    if n < 2:
        return np.full(n, -1, np.int64), np.full(n, -1, np.int64)
    if walls is None:
        idx, dist = all_nearest_open(p)
        if (dist == 0).any():  # two pieces share a cell: name them (O(n log n), only then)
            check_distinct(p)
        return idx, dist
    check_distinct(p)
    rows, cols = board_shape(p, walls)
    open_ = ~walls.ravel()
    flat = p[:, 0] * cols + p[:, 1]
    if not open_[flat].all():
        bad = int(np.flatnonzero(~open_[flat])[0])
        raise InputError(f"P{bad + 1} stands on a wall at ({p[bad, 0]}, {p[bad, 1]})")
    idx, dist = all_nearest_walls(neighbour_table(rows, cols), open_, flat)
    dist[idx < 0] = -1
    return idx, dist


def analyze(board: NoBoard, options: NoOptions | None = None, **overrides: Any
            ) -> NearestResult:
    """The nearest pieces to the board's start piece; with ``every`` every piece's nearest
    (O(N) expected open, O(cells) with walls); ``block``: other pieces are obstacles. The
    options come as :class:`NoOptions` or by name (``every=True``).

    >>> from perfectplay.no import parse
    >>> analyze(parse("5\\n1 1\\n3 0\\n2 3\\n0 2\\n4 4\\n2\\n")).answer.pieces
    [0, 3, 4]
    """
    if not isinstance(board, NoBoard):
        raise InputError(f"analyze() takes a NoBoard (see parse), got {type(board).__name__}")
    opts = _options(options, overrides)
    run_seed = seed_requested(opts.method, opts.trace, "fast")
    if run_seed:
        seed.check_size(*_seed_shape(board), len(board.pieces))
    ans = nearest(board.pieces, board.start, walls=board.walls, pieces_block=opts.block)
    everyone: list[tuple[int | None, int | None]] | None = None
    if opts.every:
        idx, dist = all_nearest(board.pieces, walls=board.walls)
        everyone = [(None, None) if j < 0 else (int(j), int(d))
                    for j, d in zip(idx.tolist(), dist.tolist(), strict=True)]
    return NearestResult(board, ans, opts.block, everyone,
                         _seed_run(board, ans, opts) if run_seed else None)


def _seed_shape(board: NoBoard) -> tuple[int, int]:
    """The board the seed searches: the drawn board, the kth-no format's N x N, or the
    smallest board holding the pieces."""
    if board.shape != (0, 0):
        return board.shape
    return board_shape(board.pieces, board.walls)


def _seed_run(board: NoBoard, ans: Nearest, opts: NoOptions) -> SeedRun:
    """The seed's whole-board search (traced when asked), checked against the fast answer."""
    def fast() -> Nearest:
        return nearest(board.pieces, board.start, walls=board.walls, pieces_block=opts.block)

    fast_seconds = warm_seconds(fast)
    tracer = Tracer(opts.trace)
    rows, cols = _seed_shape(board)
    (got, work), seconds = timed(lambda: seed.seed_search(
        board.pieces.tolist(), board.start, rows, cols, board.walls, opts.block, tracer,
        board.name))
    if (got.distance, got.pieces) != (ans.distance, ans.pieces):
        raise disagree("no", (got.distance, got.pieces), (ans.distance, ans.pieces))
    return SeedRun("breadth-first over the whole board from the start piece, the list of "
                   "pieces searched at every cell", "O(cells x pieces)", work=work,
                   unit="piece comparisons", seconds=seconds, fast_seconds=fast_seconds,
                   steps=tracer.steps if opts.trace else None, dropped=tracer.dropped,
                   shape=(rows, cols))


def _options(options: NoOptions | None, overrides: dict[str, Any]) -> NoOptions:
    """``options`` with fields replaced by name; an unknown name is an InputError."""
    known = {f.name for f in fields(NoOptions)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise InputError(f"unknown option {unknown[0]!r}; the options: {', '.join(sorted(known))}")
    return replace(options or NoOptions(), **overrides)
