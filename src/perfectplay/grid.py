"""The one grid model of the project, shared by The Rock, Closing the Portal and No.

A :class:`Grid` is R x C characters. Algorithms never walk characters: they take a
*neighbour table* ``nb`` of shape (cells, k) holding each cell's neighbours' flat indices
(``r * C + c``) or -1, built once by :func:`neighbour_table` for one of the board kinds:

- ``"square"``: 4 orthogonal neighbours (the judges' boards);
- ``"king"``: 8 neighbours (king moves);
- ``"hex"``: 6 neighbours of a rhombus-shaped hex board in axial coordinates, the board of
  the game Hex: (r, c) touches (r, c±1), (r±1, c) and (r-1, c+1), (r+1, c-1).

A user's own graph becomes a table with :func:`table_from_edges`. Kernels take the table and
a boolean ``open`` array (which cells may be walked), so walls, blocked cells and other pieces
are one array, not special cases.

>>> g = parse_grid("2 3\\n.#E\\nX..\\n", "#.EX")
>>> g.rows, g.cols, g.find("E")
(2, 3, [(0, 2)])
>>> bfs(neighbour_table(g.rows, g.cols), g.mask("."), g.index(1, 0)).reshape(2, 3).tolist()
[[1, -1, -1], [0, 1, 2]]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numba import njit

from .errors import InputError, LimitError
from .textio import Reader, Token, parse_int

MAX_CELLS = 25_000_000  # 5000 x 5000: about 1 GB of working arrays in the heaviest solver

class Kind(StrEnum):
    """Which cells touch: the lattice of a board (``GRAPH``: any graph, no grid)."""

    SQUARE = "square"
    KING = "king"
    HEX = "hex"
    GRAPH = "graph"


def as_kind(kind: str) -> Kind:
    """``kind`` as a :class:`Kind` of a grid lattice, or an :class:`InputError`."""
    try:
        k = Kind(kind)
    except ValueError:
        k = None
    if k is None or k is Kind.GRAPH:
        raise InputError(f"unknown board kind {kind!r}; use one of {', '.join(STEPS)}")
    return k


STEPS = {
    "square": ((-1, 0), (0, -1), (0, 1), (1, 0)),
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "hex": ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)),
}


@dataclass(frozen=True)
class Grid:
    """R x C cells of single characters, stored as a (R, C) array of code points."""

    cells: np.ndarray  # (R, C) uint32 code points

    @property
    def rows(self) -> int:
        return int(self.cells.shape[0])

    @property
    def cols(self) -> int:
        return int(self.cells.shape[1])

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    def coords(self, i: int) -> tuple[int, int]:
        return divmod(int(i), self.cols)

    def mask(self, chars: str) -> np.ndarray:
        """Flat boolean array: which cells hold one of ``chars`` (a table look-up, O(cells))."""
        return char_mask(self.cells.ravel(), chars)

    def find(self, ch: str) -> list[tuple[int, int]]:
        """Every (row, col) holding ``ch``, row by row."""
        rs, cs = np.nonzero(self.cells == ord(ch))
        return [(int(r), int(c)) for r, c in zip(rs, cs, strict=True)]

    def lines(self) -> list[str]:
        return ["".join(map(chr, row)) for row in self.cells.tolist()]

    def with_cells(self, changes: dict[tuple[int, int], str]) -> Grid:
        """A copy with some cells replaced."""
        cells = self.cells.copy()
        for (r, c), ch in changes.items():
            cells[r, c] = ord(ch)
        return Grid(cells)

    def text(self) -> str:
        return "\n".join(self.lines())


def cell_name(r: int, c: int) -> str:
    """A cell's name as a board shows it: column letters then the 1-based row.

    >>> cell_name(0, 0), cell_name(2, 27)
    ('a1', 'ab3')
    """
    letters = ""
    c += 1
    while c:
        c, rem = divmod(c - 1, 26)
        letters = chr(97 + rem) + letters
    return f"{letters}{r + 1}"


#: Boards with more cells than this are not drawn in the terminal: each game's draw() says
#: so in one line instead (a 2000 x 2000 board is 4 million characters nobody reads).
DRAW_LIMIT = 60 * 60


def undrawn(rows: int, cols: int, what: str = "board", hint: str = "") -> str | None:
    """The line a game's draw() prints instead of a board over :data:`DRAW_LIMIT` cells, or
    None when the board is small enough to draw.

    >>> undrawn(100, 100, "map", "; --json has every cell")
    '(the 100 x 100 map is not drawn: more than 3,600 cells; --json has every cell)'
    """
    if rows * cols <= DRAW_LIMIT:
        return None
    return f"(the {rows} x {cols} {what} is not drawn: more than {DRAW_LIMIT:,} cells{hint})"


def framed(cells: list[list[tuple[str, str]]], sep: str = " ") -> str:
    """A board drawn with coordinates: column letters on top, row numbers on the left, as
    cell names read (``b3`` = column b, row 3). Each cell is (plain text, text to print):
    the plain text sets the width, the printed one may carry rich markup.

    >>> print(framed([[("1", "1"), ("#", "#")], [("E", "E"), ("X", "X")]]))
      a b
    1 1 #
    2 E X
    """
    if not cells:
        return ""
    cols = len(cells[0])
    letters = [cell_name(0, c)[:-1] for c in range(cols)]
    width = max([len(t[0]) for row in cells for t in row] + [len(x) for x in letters])
    margin = len(str(len(cells)))
    lines = [" " * (margin + 1) + sep.join(x.rjust(width) for x in letters)]
    for r, row in enumerate(cells):
        body = sep.join(" " * (width - len(plain)) + shown for plain, shown in row)
        lines.append(f"{r + 1:>{margin}} {body}")
    return "\n".join(line.rstrip() for line in lines)


def parse_cell_name(name: str, rows: int, cols: int) -> tuple[int, int]:
    """Inverse of :func:`cell_name`; an :class:`InputError` if it is not a cell of the board.

    >>> parse_cell_name("b3", 5, 5)
    (2, 1)
    """
    name = name.strip().lower()
    k = 0
    while k < len(name) and name[k].isalpha():
        k += 1
    letters, digits = name[:k], name[k:]
    if not letters or not digits.isdigit():
        raise InputError(f"{name!r} is not a cell name like 'b3'")
    c = 0
    for ch in letters:
        c = c * 26 + (ord(ch) - 96)
    r, c = int(digits) - 1, c - 1
    if not (0 <= r < rows and 0 <= c < cols):
        raise InputError(f"{name!r} is outside the {rows} x {cols} board")
    return r, c


def check_size(rows: int, cols: int, limit: int = MAX_CELLS) -> None:
    """A :class:`LimitError` up front when a grid is too large for this machine."""
    if rows * cols > limit:
        raise LimitError(f"a {rows} x {cols} grid has {rows * cols:,} cells; the limit is "
                         f"{limit:,}")


def grid_from_tokens(rows: list[Token], allowed: str, cols: int | None = None) -> Grid:
    """Build a grid from its row tokens, checking raggedness and characters with positions.

    O(cells) in numpy: the rows are joined and decoded once as UTF-32 code points, checked
    against ``allowed`` by a table look-up; only a bad grid is walked in Python, to name the
    first bad row or character with its line and column.
    """
    if not rows:
        raise InputError("the grid has no rows")
    width = len(rows[0].text) if cols is None else cols
    lengths = np.fromiter((len(tok.text) for tok in rows), dtype=np.int64, count=len(rows))
    if (lengths != width).any():
        tok = rows[int(np.argmax(lengths != width))]
        what = f"{cols} (from the R C line)" if cols is not None else \
            f"{width} like the first row"
        raise InputError(f"row has {len(tok.text)} cells, expected {what}",
                         line=tok.line, column=tok.column)
    check_size(len(rows), width)
    text = "".join(tok.text for tok in rows)  # lone surrogates pass, to be named below
    cells = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if not char_mask(cells, allowed).all():
        _raise_unknown(rows, allowed)
    return Grid(cells.reshape(len(rows), width).copy())


def char_mask(cells: np.ndarray, chars: str) -> np.ndarray:
    """Which of ``cells`` (a flat array of code points) are characters of ``chars``: one
    boolean table indexed by code point, O(cells) (``np.isin`` sorts, 3-5x slower).

    >>> char_mask(np.array([46, 35, 69], dtype=np.uint32), ".E").tolist()
    [True, False, True]
    """
    codes = np.array([ord(ch) for ch in chars], dtype=np.uint32)
    table = np.zeros(int(codes.max()) + 2 if len(codes) else 1, dtype=bool)
    table[codes] = True  # the last entry stays False: every larger code point lands there
    return table[np.minimum(cells, len(table) - 1)]


def _raise_unknown(rows: list[Token], allowed: str) -> None:
    """The InputError for the first character of ``rows`` not in ``allowed``."""
    for tok in rows:
        for k, ch in enumerate(tok.text):
            if ch not in allowed:
                raise InputError(f"unknown character {ch!r} (allowed: {' '.join(allowed)})",
                                 line=tok.line, column=tok.column + k)


def read_grid_case(r: Reader, allowed: str, max_side: int | None = None) -> Grid:
    """``R C`` then R rows from a judge's input (blank lines between cases allowed)."""
    side = MAX_CELLS if max_side is None else max_side
    rows = r.header("the number of rows R", low=1, high=side)
    cols = r.header("the number of columns C", low=1, high=side)
    try:
        check_size(rows, cols)
    except LimitError as exc:
        raise InputError(str(exc), fatal=True) from None
    toks = [r.raw_line(f"row {k + 1} of {rows}") for k in range(rows)]
    return grid_from_tokens(toks, allowed, cols)


def parse_grid(text: str, allowed: str) -> Grid:
    """A grid from a file: the rows alone, or a first line ``R C`` and then the rows."""
    r = Reader(text)
    first = r.raw_line("a grid") if not r.at_end() else None
    if first is None:
        raise InputError("the input is empty: expected a grid")
    parts = [Token(m.group(), first.line, first.column + m.start())
             for m in re.finditer(r"[^ \t\f\v]+", first.text)]
    rows_toks: list[Token]
    if len(parts) == 2 and all(re.fullmatch("[0-9]+", p.text) for p in parts):
        nrows = parse_int(parts[0], "the number of rows R", 1, MAX_CELLS)
        ncols = parse_int(parts[1], "the number of columns C", 1, MAX_CELLS)
        check_size(nrows, ncols)
        rows_toks = []
        for k in range(nrows):
            rows_toks.append(r.raw_line(f"row {k + 1} of {nrows} (the first line says {nrows} "
                                        f"rows)"))
        grid = grid_from_tokens(rows_toks, allowed, ncols)
    else:
        rows_toks = [first]
        while not r.at_end():
            rows_toks.append(r.raw_line())
        grid = grid_from_tokens(rows_toks, allowed)
    if not r.at_end():
        line, col = r.position()
        raise InputError("unexpected text after the grid", line=line, column=col)
    return grid


def neighbour_table(rows: int, cols: int, kind: str = "square",
                    open_: np.ndarray | None = None) -> np.ndarray:
    """(rows*cols, k) int32 table of each cell's neighbours' flat indices, -1 off the board
    (and, given ``open_``, -1 for a cell that is not open: walls are nobody's neighbour).
    O(cells * k), one pass.

    >>> neighbour_table(1, 3, open_=np.array([True, False, True])).tolist()
    [[-1, -1, -1, -1], [-1, 0, 2, -1], [-1, -1, -1, -1]]
    """
    steps = np.array(STEPS[as_kind(kind)], dtype=np.int64)
    if open_ is None:
        mask = np.zeros(0, np.bool_)
    else:
        mask = np.ascontiguousarray(np.ravel(open_), np.bool_)
        if mask.size != rows * cols:
            raise ValueError(f"open_ has {mask.size} cells, the board {rows * cols}")
    return _neighbour_table(rows, cols, steps, mask)


@njit(cache=True)
def _neighbour_table(rows, cols, steps, open_):
    k = steps.shape[0]
    masked = open_.size > 0  # an empty mask: none given (a 0-cell board has no cells)
    nb = np.full((rows * cols, k), -1, np.int32)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            for t in range(k):
                rr = r + steps[t, 0]
                cc = c + steps[t, 1]
                if 0 <= rr < rows and 0 <= cc < cols:
                    j = rr * cols + cc
                    if not masked or open_[j]:
                        nb[i, t] = j
    return nb


def table_from_edges(n: int, edges: Iterable[tuple[int, int]]) -> np.ndarray:
    """A neighbour table for any undirected graph on nodes 0..n-1.

    >>> table_from_edges(3, [(0, 1), (1, 2)]).tolist()
    [[1, -1], [0, 2], [1, -1]]
    """
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise InputError(f"edge ({a}, {b}) is not between two different nodes 0..{n - 1}")
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)
    k = max((len(x) for x in adj), default=0)
    nb = np.full((n, max(k, 1)), -1, dtype=np.int32)
    for v, xs in enumerate(adj):
        nb[v, :len(xs)] = xs
    return nb


@njit(cache=True)
def bfs_order(nb, open_, source):
    """Distances from ``source`` and the cells in the order BFS reached them (for trees and
    label-setting passes that want nondecreasing distance). O(cells * k)."""
    n = nb.shape[0]
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w >= 0 and open_[w] and dist[w] < 0:
                dist[w] = dist[u] + 1
                queue[tail] = w
                tail += 1
    return dist, queue[:tail]


def bfs(nb: np.ndarray, open_: np.ndarray, source: int) -> np.ndarray:
    """Distances in steps from ``source`` through open cells (-1 = unreachable). The source
    itself need not be open. O(cells * k)."""
    return bfs_order(nb, open_, source)[0]


def path_from(dist: np.ndarray, nb: np.ndarray, open_: np.ndarray, target: int) -> list[int]:
    """A shortest path (flat indices) from BFS's source to ``target``, walking ``dist`` down."""
    if dist[target] < 0:
        return []
    path = [int(target)]
    u = int(target)
    while dist[u] > 0:
        for w in nb[u]:
            if w >= 0 and dist[w] == dist[u] - 1 and (open_[w] or dist[w] == 0):
                u = int(w)
                break
        path.append(u)
    return path[::-1]
