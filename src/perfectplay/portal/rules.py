"""The rules of Closing the Portal as an engine game, and an exact solver for any board.

:class:`PortalGame` is the oracle: a position is the set of walled cells (a bitmask over the
board's empty cells), a move walls one empty cell, and a player who disconnects the portals
with their own move loses. The engine solves it on small boards.

:func:`exact_winner` is the fast exact method for boards without a parity rule (king moves,
hex, any graph). Nobody walls a cut cell unless forced, so the game is normal play on *safe*
moves; empty cells outside the portals' component can never matter and form a separate heap
of single moves (Grundy value = their count mod 2). Sprague–Grundy then gives the winner
from the Grundy value of the component's own game, computed over all 2^k wall sets of its k
empty cells by a numba DP (supersets first). O(2^k * k) time, 2^k bytes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import Value
from ..errors import LimitError
from ..grid import bfs
from .model import Board

EXACT_LIMIT = 26  # 2^26 bytes = 64 MB of Grundy values


class PortalGame:
    """Closing the Portal for the engine. Positions are ints: bit i set = empty cell i walled.

    >>> from perfectplay import solve
    >>> from perfectplay.portal.model import parse_board
    >>> solve(PortalGame(parse_board("O..\\n.#.\\n..O"))).value()
    <Value.WIN: 'win'>
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.cells = [int(i) for i in np.flatnonzero(board.empty)]
        bit = {c: k for k, c in enumerate(self.cells)}
        self.s, self.t = board.portals
        # bit layout for flood fill: empty cells are bits 0..k-1, portals k and k+1
        k = len(self.cells)
        bit[self.s], bit[self.t] = k, k + 1
        self.neighbours = [0] * (k + 2)
        for cell, b in bit.items():
            for w in board.nb[cell]:
                if w >= 0 and int(w) in bit:
                    self.neighbours[b] |= 1 << bit[int(w)]
        self.all_empty = (1 << k) - 1
        self.k = k

    def connected(self, walls: int) -> bool:
        """Do the portals still touch through cells not in ``walls``? Bit-parallel flood."""
        k = self.k
        open_ = (self.all_empty & ~walls) | (1 << (k + 1))
        reach = frontier = 1 << k
        nbrs = self.neighbours
        while frontier:
            grow = 0
            f = frontier
            while f:
                low = f & -f
                grow |= nbrs[low.bit_length() - 1]
                f ^= low
            frontier = grow & open_ & ~reach
            reach |= frontier
        return bool(reach >> (k + 1) & 1)

    def initial(self) -> int:
        return 0

    # tiers for perfectplay.store: a move adds one wall; the position is its own code
    def tier(self, walls: int) -> int:
        return walls.bit_count()

    def encode(self, walls: int) -> int:
        return walls

    def decode(self, code: int) -> int:
        return int(code)

    def moves(self, walls: int) -> list[int]:
        if self.outcome(walls) is not None:
            return []
        return [b for b in range(self.k) if not walls >> b & 1]

    def play(self, walls: int, b: int) -> int:
        return walls | (1 << b)

    # -- for people: cells by name (a1, b3), the board with the walls placed ----------------
    def move_name(self, b: int) -> str:
        """The cell a move walls, as the board names it (``b3``)."""
        return self.board.name(self.cells[b])

    def parse_move(self, text: str) -> int | None:
        """The move that walls the cell named ``text`` (None if it is not an empty cell)."""
        names = {self.move_name(b): b for b in range(self.k)}
        return names.get(text.strip().lower())

    #: What :meth:`draw`'s letters mean, printed under the board.
    LEGEND = "O a portal, # a wall from the start, X a wall placed, . an empty cell"

    def draw(self, walls: int) -> str:
        """The board with the walls placed so far as ``X`` (``#``: walls from the start,
        ``O``: the portals, ``.``: empty), framed with the cell names' column letters and
        row numbers, and a legend under it.

        >>> from perfectplay.portal.model import parse_board
        >>> print(PortalGame(parse_board("O.\\n.O")).draw(1))
           ab
         1 OX
         2 .O
        O a portal, # a wall from the start, X a wall placed, . an empty cell
        """
        grid = self.board.grid
        if grid is None:
            return ""
        placed = {grid.coords(self.cells[b]): "X" for b in range(self.k) if walls >> b & 1}
        rows = grid.with_cells(placed).lines()
        head = ["   " + "".join(chr(97 + c) for c in range(grid.cols))] if grid.cols <= 26 \
            else []
        return "\n".join(head + [f"{r + 1:>2} {line}" for r, line in enumerate(rows)]
                         + [self.LEGEND])

    def outcome(self, walls: int) -> Value | None:
        if self.connected(walls):
            return None
        # disconnected at the start: Alif loses at once; later: the previous mover cut it
        return Value.LOSE if walls == 0 else Value.WIN


@njit(cache=True)
def _grundy_of_component(k, neighbours, s_bit, t_bit):
    """Grundy value of the safe-move game on k empty cells (bits 0..k-1) with the portals at
    bits s_bit, t_bit. neighbours[i] = bitmask of i's neighbours. Iterates wall sets from the
    full set down, so every child (a superset) is done first."""
    full = (1 << k) - 1
    grundy = np.zeros(1 << k, np.int8)
    connected = np.zeros(1 << k, np.bool_)
    for walls in range(full, -1, -1):
        open_ = (full & ~walls) | (1 << t_bit)
        reach = 1 << s_bit
        frontier = reach
        while frontier:
            grow = 0
            f = frontier
            while f:
                low = f & -f
                i = 0
                while (low >> i) != 1:
                    i += 1
                grow |= neighbours[i]
                f ^= low
            frontier = grow & open_ & ~reach
            reach |= frontier
        connected[walls] = (reach >> t_bit) & 1 == 1
        if not connected[walls]:
            continue
        seen = 0
        for i in range(k):
            if not (walls >> i) & 1:
                child = walls | (1 << i)
                if connected[child]:
                    seen |= 1 << grundy[child]
        g = 0
        while (seen >> g) & 1:
            g += 1
        grundy[walls] = g
    return grundy[0], connected[0]


def exact_winner(board: Board, limit: int = EXACT_LIMIT) -> tuple[bool, int, int]:
    """(first player wins, Grundy value of the portals' component, free cells outside it).

    Exact on any board whose portals' component has at most ``limit`` empty cells; a
    :class:`LimitError` otherwise.
    """
    s, t = board.portals
    reach = bfs(board.nb, board.open, s) >= 0
    comp = [int(c) for c in np.flatnonzero(reach & board.empty)]
    free = int(board.empty.sum()) - len(comp)
    if not reach[t]:
        return False, 0, free
    k = len(comp)
    if k > limit:
        raise LimitError(f"no fast rule is known for this board (it is not bipartite) and "
                         f"exact search over its {k} connected empty cells is beyond the "
                         f"limit of {limit}")
    bit = {c: i for i, c in enumerate(comp)}
    bit[s], bit[t] = k, k + 1
    neighbours = np.zeros(k + 2, dtype=np.int64)
    for cell, b in bit.items():
        for w in board.nb[cell]:
            if w >= 0 and int(w) in bit:
                neighbours[b] |= 1 << bit[int(w)]
    g, _ = _grundy_of_component(k, neighbours, k, k + 1)
    return bool(int(g) ^ (free & 1)), int(g), free
