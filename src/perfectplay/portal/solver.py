"""The fast, exact answers for Closing the Portal, O(cells) on a bipartite board.

- :func:`solve`: the winner with the argument in numbers. On a bipartite board (the square
  grid) every portal-to-portal path has the same parity, so the number of safe moves in any
  game is ``empty - (|P| - 2)`` for any path P (|P| counts both portals): odd, Alif makes the
  last safe move and wins. On other boards no such rule holds (7/600 random 4x4 king boards
  break it), so the exact search of :mod:`perfectplay.portal.game` answers, or the tool says
  plainly that the board is too big for it.
- :func:`safe_moves`: every empty cell whose walling keeps the portals connected, and the
  cut cells. Any cell off a portal-to-portal path P is safe; a cell p_i of P is a cut cell
  exactly when no component of G - P and no chord joins P before i to P after i (an
  interval cover, a difference array). O(cells * k).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

import numpy as np
from numba import njit

from ..errors import InputError
from ..grid import Kind, bfs_order, path_from
from .board import Board
from .game import EXACT_LIMIT, exact_winner


class Winner(StrEnum):
    """Who wins: the judge prints the value itself."""

    ALIF = "Alif"
    BELLA = "Bella"


class Method(StrEnum):
    """How the winner was found."""

    DISCONNECTED = "disconnected"  # the portals are apart at the start: Bella
    PARITY = "parity"  # a bipartite board: the parity rule
    EXACT = "exact"  # any other board: exact Grundy search


ALIF, BELLA = Winner.ALIF, Winner.BELLA


@njit(cache=True)
def cut_cells_on_path(nb, open_, path):
    """For each index of ``path`` (portal to portal), True when walling that cell alone
    disconnects the portals. Components of G - P are labelled by BFS; each covers the open
    interval between the smallest and largest path index it touches; so does each chord."""
    n = nb.shape[0]
    L = path.size
    pos = np.full(n, -1, np.int64)
    for i in range(L):
        pos[path[i]] = i
    diff = np.zeros(L + 1, np.int64)
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    for i in range(L):
        u = path[i]
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w < 0 or not open_[w]:
                continue
            j = pos[w]
            if j > i + 1:  # a chord of the path
                diff[i + 1] += 1
                diff[j] -= 1
            elif j < 0 and not seen[w]:
                lo = i
                hi = i
                seen[w] = True
                queue[0] = w
                head, tail = 0, 1
                while head < tail:
                    x = queue[head]
                    head += 1
                    for s in range(nb.shape[1]):
                        y = nb[x, s]
                        if y < 0 or not open_[y]:
                            continue
                        if pos[y] >= 0:
                            lo = min(lo, pos[y])
                            hi = max(hi, pos[y])
                        elif not seen[y]:
                            seen[y] = True
                            queue[tail] = y
                            tail += 1
                if hi > lo + 1:
                    diff[lo + 1] += 1
                    diff[hi] -= 1
    cut = np.zeros(L, np.bool_)
    cover = 0
    for i in range(L):
        cover += diff[i]
        cut[i] = cover == 0 and 0 < i < L - 1
    return cut


@njit(cache=True)
def is_bipartite_from(nb, open_, source):
    """True when the open cells reachable from ``source`` can be 2-coloured."""
    n = nb.shape[0]
    colour = np.full(n, -1, np.int8)
    queue = np.empty(n, np.int64)
    colour[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w < 0 or not open_[w]:
                continue
            if colour[w] < 0:
                colour[w] = 1 - colour[u]
                queue[tail] = w
                tail += 1
            elif colour[w] == colour[u]:
                return False
    return True


@dataclass(frozen=True)
class PortalResult:
    """Who wins and why, for one board; ``draw()`` and the safe and cut cells come from
    :func:`safe_moves` on first use."""

    winner: Winner
    connected: bool
    empty: int
    path: list[int]
    turns: int | None  # safe moves if the game ends on ``path``; its parity is every game's
    method: Method
    grundy: int | None = None
    free_cells: int | None = None
    names: dict[int, str] = field(default_factory=dict, repr=False)
    board: Board | None = field(default=None, repr=False, compare=False)

    @property
    def path_cells(self) -> int:
        return len(self.path)

    @cached_property
    def moves(self) -> SafeMoves:
        """The safe and the cut cells (O(cells * k), computed once)."""
        if self.board is None:
            raise InputError("this result was made without its board")
        return safe_moves(self.board)

    def draw(self, style: bool = False) -> str:
        """The board with cut cells X, the path *, coordinates (see portal.draw)."""
        from .formats import draw

        return "" if self.board is None else draw(self.board, self.moves, style)

    def explain(self) -> str:
        """The argument, with this board's numbers."""
        if not self.connected:
            return ("The portals are not connected at the start, so Alif has already lost: "
                    "Bella wins.")
        if self.method == Method.PARITY:
            return self._parity_argument()
        free = self.free_cells or 0
        return (
            f"This board is not bipartite, so portal paths of both parities exist and no "
            f"parity rule holds. Exact search: the safe-move game on the portals' "
            f"component has Grundy value {self.grundy}, and {self._free_cells_text(free)} "
            f"(parity {free % 2}); {self.grundy} xor {free % 2} "
            f"{'!= 0: the first player' if self.winner == ALIF else '= 0: the second player'} "
            f"wins. {self.winner} wins.")

    @staticmethod
    def _free_cells_text(free: int) -> str:
        if free == 0:
            return "no empty cell lies outside it"
        if free == 1:
            return "1 empty cell outside it is an independent single move"
        return f"{free} empty cells outside it are independent single moves"

    def _parity_argument(self) -> str:
        """The invariant in words: the number of safe moves depends on play, its parity
        does not."""
        turns = self.turns or 0
        loser = BELLA if turns % 2 else ALIF
        count = ("there is no safe move at all: every empty cell is already a cut cell"
                 if turns == 0 else
                 f"with the path of {self.path_cells} cells found (a shortest one), "
                 f"{self.empty} - {self.path_cells - 2} = {turns}, so every game has an "
                 f"{'odd' if turns % 2 else 'even'} number of safe moves, {turns} at most")
        return (
            "Nobody walls a cut cell (one whose walling disconnects the portals) while a safe "
            "cell is left, since that loses at once. So the game is a run of safe moves that "
            "ends when every empty cell left is a cut cell: the portals are then joined by a "
            "single path P of empty cells, and every other empty cell has been walled. That "
            "is empty - (|P| - 2) safe moves (|P| counts both portals). Which path survives "
            "depends on play, so the number of safe moves does too, but not its parity: "
            "the board is bipartite, so every portal-to-portal path has the same parity. "
            f"Here, {count}. After an {'odd' if turns % 2 else 'even'} number of safe moves"
            f"{' (none included)' if turns % 2 == 0 else ''} it is {loser}'s turn with only "
            f"cut cells left: {loser} must disconnect the portals and loses. "
            f"{self.winner} wins.")

    def summary(self) -> str:
        """The cut cells in words (the line under the explanation)."""
        if not self.connected or self.board is None:
            return ""
        cut = ", ".join(self.board.name(c) for c in self.moves.cut) or "none"
        return (f"Safe cells: {len(self.moves.safe)}; cut cells (walling one disconnects "
                f"the portals): {cut}")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": str(self.winner), "connected": self.connected, "empty": self.empty,
            "path": [self.names.get(c, c) for c in self.path], "path_cells": self.path_cells,
            "turns": self.turns, "method": str(self.method), "grundy": self.grundy,
            "free_cells": self.free_cells, "explanation": self.explain(),
        }
        if self.board is not None:
            data["safe"] = [self.board.name(int(c)) for c in self.moves.safe]
            data["cut"] = [self.board.name(c) for c in self.moves.cut]
        return data


def _portal_path(board: Board) -> list[int]:
    s, t = board.portals
    open_ = board.open
    dist, _ = bfs_order(board.nb, open_, s)
    return path_from(dist, board.nb, open_, t)


def solve(board: Board, exact_limit: int = EXACT_LIMIT) -> PortalResult:
    """The winner of Closing the Portal, Alif moving first. O(cells) on bipartite boards.

    >>> from perfectplay.portal.board import parse_board
    >>> print(solve(parse_board("O..\\n.#.\\n..O")).winner)
    Alif
    """
    if not isinstance(board, Board):
        raise InputError(f"solve() takes a Board (see parse_board), got {type(board).__name__}")
    empty = int(board.empty.sum())
    path = _portal_path(board)
    names = {c: board.name(c) for c in path}
    if not path:
        return PortalResult(BELLA, False, empty, [], None, Method.DISCONNECTED, names=names,
                            board=board)
    s = board.portals[0]
    if board.kind == Kind.SQUARE or is_bipartite_from(board.nb, board.open, s):
        turns = empty - (len(path) - 2)
        return PortalResult(ALIF if turns % 2 else BELLA, True, empty, path, turns,
                            Method.PARITY, names=names, board=board)
    wins, g, free = exact_winner(board, exact_limit)
    return PortalResult(ALIF if wins else BELLA, True, empty, path, None, Method.EXACT,
                        grundy=g, free_cells=free, names=names, board=board)


@dataclass(frozen=True)
class SafeMoves:
    """Empty cells split into safe ones (walling keeps the portals connected) and cut ones."""

    connected: bool
    safe: np.ndarray  # flat cell indices, increasing
    cut: list[int]
    path: list[int]


def safe_moves(board: Board) -> SafeMoves:
    """Every safe and every cut cell at once. O(cells * k).

    >>> from perfectplay.portal.board import parse_board
    >>> b = parse_board("O.#\\n#.#\\n#.O")
    >>> [b.name(c) for c in safe_moves(b).cut]
    ['b1', 'b2', 'b3']
    """
    path = _portal_path(board)
    if not path:
        return SafeMoves(False, np.zeros(0, np.int64), [], [])
    p = np.array(path, dtype=np.int64)
    cut_flags = cut_cells_on_path(board.nb, board.open, p)
    cut_mask = np.zeros(board.empty.size, dtype=bool)
    cut_mask[p[cut_flags]] = True
    safe = np.flatnonzero(board.empty & ~cut_mask)
    return SafeMoves(True, safe, sorted(int(c) for c in p[cut_flags]), path)
