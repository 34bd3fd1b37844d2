"""The seed's own method for Closing the Portal on small boards, runnable and traced
(``method="seed"``).

The seed (DevC Clash of Code 2020's editorial, "Solusi 50%") stores the board as a bitmask,
1 for a wall, and simulates every game with memoisation: a position is won for the player
to move when some empty cell can be walled without parting the portals and the position
after it is lost for the opponent. At most 2^k boards for k empty cells, each move checked
by a flood fill; the seed runs it for boards of at most 4 x 4 (14 empty cells). Its full
solution, the parity rule, is ``method="parity"``.

>>> from perfectplay.portal.model import parse_board
>>> wins, _, _ = seed_search(parse_board("O..\\n.#.\\n..O"))
>>> wins
True
"""

from __future__ import annotations

import sys
from collections import Counter

from ..errors import LimitError
from ..seedrun import Tracer
from ..textio import plural
from .model import Board
from .rules import PortalGame

#: Empty cells the seed's method runs on: pure Python, a flood fill per move (a 20-cell king
#: board takes seconds; 23 cells took 35 s on this machine).
SEED_CELLS = 20


def check_size(board: Board) -> None:
    """A :class:`LimitError` before any work when the board is too large for the seed."""
    k = int(board.empty.sum())
    if k > SEED_CELLS:
        raise LimitError(f"the seed's bitmask search visits up to 2^k boards for k empty "
                         f"cells: at most {SEED_CELLS}, got {k}")


def seed_search(board: Board, tracer: Tracer | None = None
                ) -> tuple[bool, dict[int, bool], int]:
    """(does the first player win, every board searched -> won for the player to move,
    flood fills made). ``tracer`` records the search level by level (walls added, boards
    reached, how many won for the mover) and the first player's every move."""
    game = PortalGame(board)
    memo: dict[int, bool] = {}
    fills = 0

    def wins(walls: int) -> bool:
        nonlocal fills
        if walls in memo:
            return memo[walls]
        result = False
        free = game.all_empty & ~walls
        while free:
            low = free & -free
            free ^= low
            fills += 1
            if game.connected(walls | low) and not wins(walls | low):
                result = True
                break
        memo[walls] = result
        return result

    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(max(depth, 10 * game.k + 100))
    try:
        first = game.connected(0) and wins(0)
    finally:
        sys.setrecursionlimit(depth)
    if tracer is not None and tracer.on:
        _trace(tracer, board, game, memo)
    return first, memo, fills


def _trace(tracer: Tracer, board: Board, game: PortalGame, memo: dict[int, bool]) -> None:
    reached = Counter(w.bit_count() for w in memo)
    won = Counter(w.bit_count() for w, v in memo.items() if v)
    for d in sorted(reached):
        tracer.add(f"level {d}", f"{plural(reached[d], 'board')} with "
                   f"{plural(d, 'wall')} added searched; the player to move wins "
                   f"{won[d]} of them")
    if not game.connected(0):
        return
    for bit, cell in enumerate(game.cells):
        walls = 1 << bit
        coords = board.grid.coords(cell) if board.grid is not None else (0, cell)
        if not game.connected(walls):
            verdict, mark = "parts the portals: the first player loses at once", "X"
        elif walls in memo and not memo[walls]:
            verdict, mark = "leaves a lost board: a winning move", "W"
        elif walls in memo:
            verdict, mark = "leaves a won board for the opponent: a losing move", "L"
        else:
            verdict, mark = "not searched: a winning move was found before it", "?"
        tracer.add(f"move {board.name(cell)}", f"walling {board.name(cell)} {verdict}",
                   cells=(coords,), values=(mark,))
