"""The board game No: which piece is nearest the start piece? And every piece's nearest.

- :func:`nearest`: one start piece. Open board: Manhattan distance, O(N). With walls (and
  optionally other pieces in the way): BFS from the start that stops at the first layer
  holding a piece, O(cells).
- :func:`all_nearest`: every piece's nearest other piece at once. Open board: the
  Manhattan nearest-neighbour sweep over 4 octant transforms with a Fenwick tree of prefix
  minima (the Manhattan-MST trick; Zhou, Shenoy, Nicholls 2002), O(N log N) in numba.
  With walls: one multi-source BFS labelling every cell with its nearest piece, then a scan
  of the edges whose ends have different labels, O(cells).
- :func:`seed_nearest`: the seed's BFS with its list lookups, O(N^3) on an N x N board,
  kept as the reference for tests and the benchmark.
- Judge format ``kth-no`` (ours: docs/algorithms.md, "The judge formats"): ``N``, N lines
  ``r c``, the start index; output ``INDEX DISTANCE`` (ties: lowest index).

Ties are always broken by the lowest piece index; :class:`Nearest` lists every tied piece.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numba import njit

from .errors import InputError, LimitError
from .grid import Grid, bfs_order, cell_name, check_size, framed, neighbour_table
from .judge_io import JudgeResult, check_end, record_end
from .textio import Reader


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


#: Pieces accepted at once: 16 bytes each in the sweep's arrays, and distance and index
#: packed in 64 bits there (with MAX_COORD, 2^34 << 22 < 2^62).
MAX_PIECES = 4_000_000
#: Largest absolute coordinate: keeps every distance and the sweep's keys inside int64.
MAX_COORD = 2**31 - 1


def _as_pieces(pieces: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
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


def _as_walls(walls: np.ndarray | None) -> np.ndarray | None:
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


def _as_index(start: object, n: int) -> int:
    """``start`` as a piece index 0..n-1: an int (not a bool, not a float)."""
    if not isinstance(start, int | np.integer) or isinstance(start, bool | np.bool_):
        raise InputError(f"the start piece must be an integer index, got {start!r}")
    if not 0 <= start < n:
        raise InputError(f"start piece {start} is not one of the {n} pieces (0..{n - 1})")
    return int(start)


def _shared_cell(p: np.ndarray) -> tuple[int, int] | None:
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


def _check_distinct(p: np.ndarray) -> None:
    """An :class:`InputError` naming two pieces on the same cell."""
    pair = _shared_cell(p)
    if pair is not None:
        i, j = pair
        raise InputError(f"pieces {i} and {j} share the cell ({p[i, 0]}, {p[i, 1]})")


def nearest(pieces: Sequence[Sequence[int]] | np.ndarray, start: int,
            walls: np.ndarray | None = None, pieces_block: bool = False) -> Nearest:
    """The pieces nearest to piece ``start`` in moves (one orthogonal step each).

    ``walls`` is a boolean (rows, cols) array (True = wall); without it the board is open and
    the distance is Manhattan. ``pieces_block`` makes the other pieces obstacles too (a
    piece is then reached by stepping onto it, but not through it).

    >>> nearest([(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)], 2)
    Nearest(start=2, distance=3, pieces=[0, 3, 4], unreachable=[])
    """
    p = _as_pieces(pieces)
    n = p.shape[0]
    start = _as_index(start, n)
    walls = _as_walls(walls)
    if not isinstance(pieces_block, bool | np.bool_):
        raise InputError(f"pieces_block must be True or False, got {pieces_block!r}")
    if n < 2:
        return Nearest(start, None, [], [])
    if walls is None and not pieces_block:
        d = np.abs(p[:, 0] - p[start, 0]) + np.abs(p[:, 1] - p[start, 1])
        d[start] = np.iinfo(np.int64).max
        best = int(d.min())
        return Nearest(start, best, [int(i) for i in np.flatnonzero(d == best)], [])
    rows, cols = _board_shape(p, walls)
    open_ = np.ones(rows * cols, dtype=bool) if walls is None else ~walls.ravel()
    flat = p[:, 0] * cols + p[:, 1]
    if not open_[flat].all():
        bad = int(np.flatnonzero(~open_[flat])[0])
        raise InputError(f"piece {bad} stands on a wall at ({p[bad, 0]}, {p[bad, 1]})")
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


def _board_shape(p: np.ndarray, walls: np.ndarray | None) -> tuple[int, int]:
    if walls is not None:
        rows, cols = walls.shape
    else:
        rows, cols = int(p[:, 0].max()) + 1, int(p[:, 1].max()) + 1
        check_size(rows, cols)
    if (p < 0).any() or (p[:, 0] >= rows).any() or (p[:, 1] >= cols).any():
        bad = int(np.flatnonzero((p < 0).any(axis=1) | (p[:, 0] >= rows) |
                                 (p[:, 1] >= cols))[0])
        raise InputError(f"piece {bad} at ({p[bad, 0]}, {p[bad, 1]}) is off the "
                         f"{rows} x {cols} board")
    return rows, cols


# -- all nearest, open board -------------------------------------------------------------------
@njit(cache=True)
def _octant_sweep(x, y, order, rank, m, shift, vmin, best_d, best_j):
    """One octant: for every point i, the point j != i with x_j >= x_i and
    y_j - x_j >= y_i - x_i minimising (x_j + y_j) - (x_i + y_i), lowest index on ties.

    ``order`` sorts the points by x descending, then y - x descending, so every point of
    the octant is already in the tree when i asks and i itself is not; ``rank`` is the rank
    of y - x among m values. A Fenwick tree over reversed ranks keeps, packed in one int64,
    ((x + y - vmin) << shift) | index: the minimum is the nearest, lowest index on ties.
    O(N log N).
    """
    big = np.iinfo(np.int64).max
    tree = np.full(m + 1, big, np.int64)
    mask = (1 << shift) - 1
    for q in range(order.size):
        i = order[q]
        pos = m - rank[i]
        best = big
        while pos > 0:
            if tree[pos] < best:
                best = tree[pos]
            pos -= pos & -pos
        if best != big:
            j = best & mask
            d = (best >> shift) + vmin - x[i] - y[i]
            if d < best_d[i] or (d == best_d[i] and j < best_j[i]):
                best_d[i] = d
                best_j[i] = j
        pos = m - rank[i]
        v = ((x[i] + y[i] - vmin) << shift) | i
        while pos <= m:
            if v < tree[pos]:
                tree[pos] = v
            pos += pos & -pos


def _sweep(x: np.ndarray, y: np.ndarray, best_d: np.ndarray, best_j: np.ndarray) -> None:
    key = y - x
    lo, hi = int(key.min()), int(key.max())
    span = hi - lo + 1
    # x descending, then y - x descending, as one integer key (one sort, not two)
    order = np.argsort(-(x - int(x.min())) * span - (key - lo), kind="stable")
    if span <= 4 * key.size + 16:  # small range (always on an N x N board): rank = offset
        rank, m = key - lo, span
    else:
        values, rank = np.unique(key, return_inverse=True)
        m = int(values.size)
    s = x + y
    vmin = int(s.min())
    shift = max(1, int(key.size - 1).bit_length())
    _octant_sweep(x, y, order, rank.astype(np.int64), m, shift, vmin, best_d, best_j)


def _all_nearest_open(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = p.shape[0]
    span = int(p.max()) - int(p.min()) + 1
    if 4 * span << max(1, (n - 1).bit_length()) >= 1 << 62:
        raise LimitError(f"coordinates spread over {span:,} cells are too far apart for "
                         f"{n:,} pieces (the sweep packs distance and index in 64 bits)")
    best_d = np.full(n, np.iinfo(np.int64).max, np.int64)
    best_j = np.full(n, -1, np.int64)
    r, c = p[:, 0].copy(), p[:, 1].copy()
    # four transforms cover the eight octants (each query sees one half-plane wedge; the
    # other four wedges are the same pairs seen from the other point)
    for xs, ys in ((r, c), (c, r), (-r, c), (c, -r)):
        _sweep(xs, ys, best_d, best_j)
        _sweep(-xs, -ys, best_d, best_j)
    return best_j, best_d


# -- all nearest, walls ----------------------------------------------------------------------
@njit(cache=True)
def _all_nearest_walls(nb, open_, sources):
    """Multi-source BFS labelling every open cell with its nearest piece (lowest index on
    equal distance: sources enter the queue in index order), then every edge (u, v) with
    different labels offers L(u) the piece L(v) at d(u) + 1 + d(v). O(cells * k).

    Why it is exact: on a shortest path from piece a to its nearest b, the last cell
    labelled a and the next cell (labelled c, at least as near to it as b is) give a
    candidate no longer than the path.
    """
    n = nb.shape[0]
    label = np.full(n, -1, np.int64)
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    tail = 0
    for i in range(sources.size):
        s = sources[i]
        label[s] = i
        dist[s] = 0
        queue[tail] = s
        tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w >= 0 and open_[w] and dist[w] < 0:
                dist[w] = dist[u] + 1
                label[w] = label[u]
                queue[tail] = w
                tail += 1
    m = sources.size
    best_d = np.full(m, np.iinfo(np.int64).max, np.int64)
    best_j = np.full(m, -1, np.int64)
    for u in range(n):
        if label[u] < 0:
            continue
        for t in range(nb.shape[1]):
            v = nb[u, t]
            if v < 0 or label[v] < 0 or label[v] == label[u]:
                continue
            a = label[u]
            b = label[v]
            d = dist[u] + 1 + dist[v]
            if d < best_d[a] or (d == best_d[a] and b < best_j[a]):
                best_d[a] = d
                best_j[a] = b
    return best_j, best_d


def all_nearest(pieces: Sequence[Sequence[int]] | np.ndarray,
                walls: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every piece's nearest other piece: (index array, distance array), -1 where none is
    reachable. Ties go to the lowest index.

    >>> idx, dist = all_nearest([(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)])
    >>> idx.tolist(), dist.tolist()
    ([3, 0, 0, 0, 2], [2, 3, 3, 2, 3])
    """
    p = _as_pieces(pieces)
    walls = _as_walls(walls)
    _check_distinct(p)
    n = p.shape[0]
    if n < 2:
        return np.full(n, -1, np.int64), np.full(n, -1, np.int64)
    if walls is None:
        return _all_nearest_open(p)
    rows, cols = _board_shape(p, walls)
    open_ = ~walls.ravel()
    flat = p[:, 0] * cols + p[:, 1]
    if not open_[flat].all():
        bad = int(np.flatnonzero(~open_[flat])[0])
        raise InputError(f"piece {bad} stands on a wall at ({p[bad, 0]}, {p[bad, 1]})")
    idx, dist = _all_nearest_walls(neighbour_table(rows, cols), open_, flat)
    dist[idx < 0] = -1
    return idx, dist


# -- the seed's method, as reference ---------------------------------------------------------
def seed_nearest(pieces: Sequence[Sequence[int]], start: int, size: int) -> Nearest:
    """The seed's algorithm: BFS over the whole N x N board from the start piece, and for
    every cell reached a linear search of the piece list. O(N^2 * N) = O(N^3)."""
    slump = [tuple(map(int, q)) for q in pieces]
    sr, sc = slump[start]
    dist = {(sr, sc): 0}
    frontier = deque([(sr, sc)])
    best: list[int] = []
    best_d = None
    while frontier:
        r, c = frontier.popleft()
        for nr, nc in ((r + 1, c), (r, c - 1), (r, c + 1), (r - 1, c)):
            if 0 <= nr < size and 0 <= nc < size and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                frontier.append((nr, nc))
                for i, q in enumerate(slump):  # the seed's slump.contains(...)
                    if q == (nr, nc) and i != start:
                        if best_d is None or dist[q] < best_d:
                            best_d, best = dist[q], [i]
                        elif dist[q] == best_d:
                            best.append(i)
    return Nearest(start, best_d, sorted(best), [])


# -- formats ---------------------------------------------------------------------------------
def read_kth_no(text: str) -> tuple[int, np.ndarray, int]:
    """``N``, N lines ``r c`` (0-based, distinct, on the N x N board), the start index.

    N is checked against :data:`MAX_PIECES` before anything is allocated; data after the
    start index is an error naming its line.
    """
    r = Reader(text)
    n, pts, start = _read_kth_no(r)
    check_end(r, "the start index (the input has one case)")
    return n, pts, start


def _read_kth_no(r: Reader) -> tuple[int, np.ndarray, int]:
    n = r.header("the number of pieces N", low=1, high=MAX_PIECES)
    rows: list[int] = []
    cols: list[int] = []
    where: list[tuple[int, int]] = []
    for i in range(n):
        where.append(r.position())
        rows.append(r.integer(f"the row of piece {i}", low=0, high=n - 1))
        cols.append(r.integer(f"the column of piece {i}", low=0, high=n - 1))
    start = r.integer("the start piece index", low=0, high=n - 1)
    pts = np.array([rows, cols], dtype=np.int64).T.reshape(n, 2)
    pair = _shared_cell(pts)
    if pair is not None:
        i, j = pair
        line, col = where[j]
        raise InputError(f"piece {j} is on ({rows[j]}, {cols[j]}), like piece {i}",
                         line=line, column=col)
    return n, pts, start


def judge_kth_no(text: str, lenient: bool = False) -> JudgeResult:
    """KTH No (our format, docs/algorithms.md): prints ``INDEX DISTANCE`` of the nearest
    piece, ties to the lowest index; the tied pieces are listed on stderr. The format is
    ours, so it has no range beyond MAX_PIECES and ``lenient`` changes nothing."""
    res = JudgeResult()
    r = Reader(text)
    try:
        _, pts, start = _read_kth_no(r)
    except InputError as exc:
        res.errors.append(exc)
        return res
    ans = nearest(pts, start)
    if ans.distance is None:
        res.errors.append(InputError("there is only one piece: no other piece to be near"))
    else:
        res.lines.append(f"{ans.index} {ans.distance}")
        if len(ans.pieces) > 1:
            res.notes.append(f"perfectplay: note: {len(ans.pieces)} pieces tie at distance "
                             f"{ans.distance}: {', '.join(map(str, ans.pieces))}")
    return record_end(res, r, "the start index (the input has one case)")


def parse_drawn_board(text: str) -> tuple[np.ndarray, np.ndarray, int, list[str]]:
    """A drawn board: '.' free, '#' wall, letters or digits for pieces, and exactly one
    '*' for the start piece. Pieces are numbered in reading order. Returns (pieces, walls,
    start index, piece labels).

    >>> pieces, walls, start, labels = parse_drawn_board("A.#\\n..*")
    >>> pieces.tolist(), start, labels
    ([[0, 0], [1, 2]], 1, ['A', '*'])
    """
    from .grid import parse_grid

    allowed = ".#*" + "".join(chr(c) for c in range(ord("A"), ord("Z") + 1)) + \
        "".join(chr(c) for c in range(ord("a"), ord("z") + 1)) + "0123456789"
    grid = parse_grid(text, allowed)
    pieces, labels = [], []
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


@dataclass(frozen=True)
class NearestResult:
    """The nearest pieces to the start (every tie), and with ``all`` every piece's nearest
    (None where no other piece can be reached)."""

    board: NoBoard
    answer: Nearest
    block: bool = False
    everyone: list[tuple[int | None, int | None]] | None = None  # (nearest, distance)

    def explain(self) -> str:
        b, ans = self.board, self.answer
        if ans.distance is None:
            out = [f"No other piece can be reached from the start piece {b.name(b.start)}."]
        else:
            tied = ", ".join(f"{b.name(i)} at {_cell(b, i)}" for i in ans.pieces)
            steps = "move" if ans.distance == 1 else "moves"
            out = [f"Nearest to the start piece {b.name(b.start)}: {tied}, {ans.distance} "
                   f"{steps}" + (f" ({len(ans.pieces)}-way tie)" if len(ans.pieces) > 1
                                else "") + "."]
        if ans.unreachable:
            out.append("Unreachable: " + ", ".join(b.name(i) for i in ans.unreachable))
        if self.everyone is not None:
            out.append("Every piece's nearest:")
            for i, (j, d) in enumerate(self.everyone):
                out.append(f"  {b.name(i):>4} -> " +
                           (f"{b.name(j)} ({d})" if j is not None else "none"))
        return "\n".join(out)

    def draw(self, style: bool = False) -> str:
        """The board with each free cell's distance from the start piece (see
        :func:`draw_distances`), or one line when the board is too big to draw. ``style``:
        rich markup (the start piece bold)."""
        if style:
            lines = self.draw().split("\n")
            return "\n".join(lines[:1] + [ln.replace("*", "[bold]*[/]") for ln in lines[1:-1]]
                             + lines[-1:])
        b = self.board
        rows, cols = b.shape
        if rows * cols > DRAW_LIMIT:
            return f"(the {rows} x {cols} board is not drawn: more than {DRAW_LIMIT:,} cells)"
        return frame_distances(self.cells(), b.labels)

    def cells(self) -> list[str]:
        """The distance map's rows, unframed (see :func:`distance_cells`; one BFS, kept)."""
        return self._cells

    @cached_property
    def _cells(self) -> list[str]:
        b = self.board
        return distance_cells(b.shape, b.pieces, b.start, b.walls, b.labels)

    def to_json(self) -> dict[str, Any]:
        b, ans = self.board, self.answer
        data: dict[str, Any] = {
            "start": b.start, "distance": ans.distance, "nearest": ans.pieces,
            "unreachable": ans.unreachable, "pieces": b.pieces.tolist(),
            "names": [b.name(i) for i in range(len(b.pieces))], "block": self.block}
        if self.everyone is not None:
            data["all"] = [{"piece": i, "nearest": j, "distance": d}
                           for i, (j, d) in enumerate(self.everyone)]
        return data


#: Boards with more cells than this are not drawn in the terminal.
DRAW_LIMIT = 60 * 60


def _cell(b: NoBoard, i: int) -> str:
    r, c = (int(v) for v in b.pieces[i])
    return cell_name(r, c) if r >= 0 and c >= 0 else f"({r}, {c})"


def analyze(board: NoBoard, *, all: bool = False, block: bool = False) -> NearestResult:
    """The nearest pieces to the board's start piece; with ``all`` every piece's nearest
    (O(N log N) open, O(cells) with walls); ``block``: other pieces are obstacles.

    >>> analyze(parse("5\\n1 1\\n3 0\\n2 3\\n0 2\\n4 4\\n2\\n")).answer.pieces
    [0, 3, 4]
    """
    if not isinstance(board, NoBoard):
        raise InputError(f"analyze() takes a NoBoard (see parse), got {type(board).__name__}")
    ans = nearest(board.pieces, board.start, walls=board.walls, pieces_block=block)
    everyone = None
    if all:
        idx, dist = all_nearest(board.pieces, walls=board.walls)
        everyone = [(None, None) if j < 0 else (int(j), int(d))
                    for j, d in zip(idx.tolist(), dist.tolist(), strict=True)]
    return NearestResult(board, ans, block, everyone)


def distance_cells(grid_shape: tuple[int, int], pieces: np.ndarray, start: int,
                   walls: np.ndarray | None, labels: list[str] | None = None) -> list[str]:
    """The board's rows as strings: each free cell's distance from the start piece (its last
    digit: 0 is 10, 20, ...), '*' the start, pieces by label (or P), '#' walls, '-' cells
    out of reach."""
    rows, cols = grid_shape
    open_ = np.ones(rows * cols, bool) if walls is None else ~walls.ravel()
    nb = neighbour_table(rows, cols)
    dist, _ = bfs_order(nb, open_, int(pieces[start, 0] * cols + pieces[start, 1]))
    at = {(int(r), int(c)): k for k, (r, c) in enumerate(pieces.tolist())}
    out = []
    for r in range(rows):
        line = []
        for c in range(cols):
            i = r * cols + c
            if (r, c) in at:
                k = at[(r, c)]
                line.append("*" if k == start else (labels[k] if labels else "P"))
            elif not open_[i]:
                line.append("#")
            elif dist[i] < 0:
                line.append("-")
            else:
                line.append(str(int(dist[i]) % 10))
        out.append("".join(line))
    return out


def draw_distances(grid_shape: tuple[int, int], pieces: np.ndarray, start: int,
                   walls: np.ndarray | None, labels: list[str] | None = None) -> str:
    """:func:`distance_cells` framed (see :func:`frame_distances`)."""
    return frame_distances(distance_cells(grid_shape, pieces, start, walls, labels), labels)


def frame_distances(rows: list[str], labels: list[str] | None = None) -> str:
    """Distance-map rows with column letters and row numbers as cell names read, and a
    legend under them."""
    cells = [[(ch, ch) for ch in row] for row in rows]
    wide = bool(rows) and len(rows[0]) > 26
    legend = ("* the start piece, " + ("letters" if labels else "P") + " the other pieces, "
              "digits the moves from the start (last digit), # a wall, - out of reach")
    return framed(cells, sep=" " if wide else "") + "\n" + legend


JUDGES = {"kth-no": ("KTH No (decided format): nearest piece INDEX DISTANCE", judge_kth_no)}

__all__ = ["Grid", "Nearest", "NearestResult", "NoBoard", "all_nearest", "analyze",
           "judge_kth_no", "nearest", "parse", "seed_nearest"]
