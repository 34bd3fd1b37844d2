"""A Portal board: cells, walls, the two portals, and the graph they sit on; read from text
(with or without the judge's "R C" line), and the options of
:func:`~perfectplay.portal.analyze`.

>>> parse_board("O..\\n..O", "king").kind
<Kind.KING: 'king'>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

import numpy as np

from ..errors import InputError
from ..grid import Grid, Kind, as_kind, cell_name, neighbour_table, parse_grid, table_from_edges

EMPTY, WALL, PORTAL = ".", "#", "O"
ALLOWED = EMPTY + WALL + PORTAL


#: How a board's cells touch, as the options spell it (the names of :class:`~..grid.Kind`).
KindName = Literal["square", "king", "hex"]

#: The longest proof search the options allow (seconds).
MAX_SEARCH_SECONDS = 3600.0


@dataclass(frozen=True)
class PortalOptions:
    """How the board is read (which cells touch) and how the winner is found: ``auto`` is
    the parity rule where it holds, else the Grundy table up to its limit, else proof
    search; ``parity``, ``grundy`` or ``search`` forces one (to compare them on a board).
    ``time_limit`` bounds a proof search, in seconds."""

    kind: KindName = field(default="square", metadata={
        "help": "Which cells touch: 4 neighbours, king moves, or a rhombus hex board."})
    method: Literal["auto", "parity", "grundy", "search", "seed"] = field(
        default="auto", metadata={
            "help": "How to find the winner: the parity rule (bipartite boards), the Grundy "
                    "table (at most 26 cells in the portals' component), proof search, "
                    "auto (the first that applies), or seed: auto and also the seed's "
                    "bitmask search (at most 20 empty cells), checked and compared."})
    trace: bool = field(default=False, metadata={
        "help": "Print the seed's search level by level and each first move's verdict "
                "(implies --method seed)."})
    time_limit: float = field(default=60.0, metadata={
        "help": "Seconds a proof search may take before it gives up with a clear message."})

    def __post_init__(self) -> None:
        t = self.time_limit
        if isinstance(t, bool) or not isinstance(t, int | float) or not (
                0 < t <= MAX_SEARCH_SECONDS):
            raise InputError(f"time_limit must be a number of seconds above 0 and at most "
                             f"{MAX_SEARCH_SECONDS:g}, got {t!r}")


@dataclass(frozen=True)
class Board:
    """A board of Closing the Portal on any graph.

    ``nb`` is the neighbour table (see :mod:`perfectplay.grid`), ``empty`` a boolean array of
    empty cells, ``portals`` the two portal cells. ``grid`` is kept for drawing when the
    board came from a grid; ``kind`` names the lattice (:class:`~perfectplay.grid.Kind`).
    """

    nb: np.ndarray
    empty: np.ndarray
    portals: tuple[int, int]
    kind: Kind = Kind.SQUARE
    grid: Grid | None = None

    @property
    def open(self) -> np.ndarray:
        """Cells a path may use: empty cells and the portals."""
        o = self.empty.copy()
        o[list(self.portals)] = True
        return o

    def name(self, i: int) -> str:
        if self.grid is None:
            return f"node {i}"
        return cell_name(*self.grid.coords(i))

    def with_walls(self, cells: list[int]) -> Board:
        e = self.empty.copy()
        e[cells] = False
        grid = None
        if self.grid is not None:
            grid = self.grid.with_cells({self.grid.coords(c): WALL for c in cells})
        return Board(self.nb, e, self.portals, self.kind, grid)


def board_from_grid(grid: Grid, kind: str = Kind.SQUARE, allow_adjacent: bool = False) -> Board:
    """Check a grid of ``.``, ``#``, ``O`` (two portals) and build its board."""
    kind = as_kind(kind)
    portals = grid.find(PORTAL)
    if len(portals) != 2:
        where = ", ".join(cell_name(r, c) for r, c in portals[:5])
        raise InputError(f"expected exactly two portals 'O', found {len(portals)}"
                         + (f" ({where})" if where else ""))
    nb = neighbour_table(grid.rows, grid.cols, kind)
    a, b = (grid.index(r, c) for r, c in portals)
    if not allow_adjacent and b in nb[a]:
        raise InputError(f"the portals at {cell_name(*portals[0])} and "
                         f"{cell_name(*portals[1])} are adjacent, which the rules forbid")
    return Board(nb, grid.mask(EMPTY), (a, b), kind, grid)


def parse_board(text: str, kind: str = Kind.SQUARE) -> Board:
    """A board from text: the grid alone or with its ``R C`` line first."""
    return board_from_grid(parse_grid(text, ALLOWED), kind)


def board_from_edges(n: int, edges: list[tuple[int, int]], portals: tuple[int, int],
                     walls: list[int] = ()) -> Board:  # type: ignore[assignment]
    """A board on any graph: nodes 0..n-1, undirected ``edges``, two portal nodes and
    optionally nodes that start as walls.

    >>> b = board_from_edges(4, [(0, 1), (1, 2), (2, 3), (0, 3)], (0, 2))
    >>> int(b.empty.sum())
    2
    """
    a, b = portals
    if a == b or not (0 <= a < n and 0 <= b < n):
        raise InputError(f"portals must be two different nodes in 0..{n - 1}, got {portals}")
    nb = table_from_edges(n, edges)
    empty = np.ones(n, dtype=bool)
    empty[[a, b]] = False
    for w in walls:
        empty[w] = False
    return Board(nb, empty, (a, b), Kind.GRAPH, None)


class Winner(StrEnum):
    """Who wins: the judge prints the value itself."""

    ALIF = "Alif"
    BELLA = "Bella"


class Method(StrEnum):
    """How the winner was found."""

    DISCONNECTED = "disconnected"  # the portals are apart at the start: Bella
    PARITY = "parity"  # a bipartite board: the parity rule
    EXACT = "exact"  # any other board: the exact Grundy table (at most EXACT_LIMIT cells)
    SEARCH = "search"  # any board: proof search of the safe-move game


ALIF, BELLA = Winner.ALIF, Winner.BELLA


@dataclass(frozen=True)
class SafeMoves:
    """Empty cells split into safe ones (walling keeps the portals connected) and cut ones."""

    connected: bool
    safe: np.ndarray  # flat cell indices, increasing
    cut: list[int]
    path: list[int]
