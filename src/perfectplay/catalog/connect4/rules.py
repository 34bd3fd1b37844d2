"""Connect Four on any board up to W * (H + 1) <= 62 as a compiled game:
:class:`ConnectFour`, its rules made from the module-level kernels of :mod:`.bitboard`,
:mod:`.hooks` and :mod:`.ranking` with the board's geometry fixed.

Each rule here is a one-line ``@njit(cache=True)`` function that closes over numbers (and
the ranking's small tables) only, so numba keys its on-disk cache by those values: a board
compiled once is loaded from the cache by the next process. Numba checks only this file's
date for a stale cache, not the modules whose kernels a rule compiles into itself, so every
rule also closes over :data:`SOURCES`, a digest of those modules' text: an edit of
:mod:`.hooks` (say) gives new cache keys, not yesterday's machine code. Moves are column indexes
0..W-1, named ``1``..``W`` (``move_name``; ``parse_move`` reads them back).

>>> game = ConnectFour(4, 4)
>>> game.draw(game.play(game.play(game.initial(), 1), 1)).splitlines()
['....', '....', '.O..', '.X..', '1234']
>>> game.move_name(3), game.parse_move("4"), game.parse_move("5")
('4', 3, None)
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import TYPE_CHECKING

from numba import njit

from ...engine import CompiledGame
from ...engine.compiled.game import Kernel
from .bitboard import (
    Geometry,
    geometry,
    mirror_min,
    moves_of,
    outcome_of,
    play_of,
    split,
    stones_of,
    valid_of,
)
from .hooks import horizon_of, search_moves_of, static_bounds_of
from .ranking import rank_of, tables, unrank_of

if TYPE_CHECKING:
    from matplotlib.axes import Axes


#: A digest of the modules the rules compile into themselves (part of every rule's closure,
#: so part of numba's cache key: see the module doc).
SOURCES = int.from_bytes(hashlib.sha256(b"".join(
    (Path(__file__).parent / name).read_bytes()
    for name in ("bitboard.py", "hooks.py", "ranking.py"))).digest()[:7], "little")


def compiled_rules(g: Geometry) -> dict[str, Kernel]:
    """The rules of one board as numba functions of a code (CompiledGame's keywords, and
    ``split``: a code's (mover's stones, all stones))."""
    W, H, H1, col_mask, bottom, full, even_rows = g
    cells = W * H
    binom, ways = tables(W, H)
    sources = SOURCES  # each rule names it, so that it is in the rule's closure

    @njit(cache=True)
    def moves(code, out):
        _ = sources
        return moves_of(code, out, W, H, H1, col_mask)

    @njit(cache=True)
    def play(code, c):
        _ = sources
        return play_of(code, c, bottom, H1, col_mask)

    @njit(cache=True)
    def outcome(code):
        _ = sources
        return outcome_of(code, bottom, H, full)

    @njit(cache=True)
    def tier(code):
        _ = sources
        return stones_of(code, bottom, H1)

    @njit(cache=True)
    def canonical(code):
        _ = sources
        return mirror_min(code, W, H1, col_mask)

    @njit(cache=True)
    def search_moves(code, out):
        _ = sources
        return search_moves_of(code, out, W, H, bottom, full, col_mask)

    @njit(cache=True)
    def horizon(code):
        _ = sources
        return horizon_of(code, bottom, H1, cells)

    @njit(cache=True)
    def static_bounds(code):
        _ = sources
        return static_bounds_of(code, W, H, bottom, full, even_rows)

    @njit(cache=True)
    def rank(code):
        _ = sources
        return rank_of(code, W, H1, col_mask, binom, ways)

    @njit(cache=True)
    def unrank(t, r):
        _ = sources
        return unrank_of(t, r, W, H1, binom, ways)

    @njit(cache=True)
    def valid(code):
        _ = sources
        return valid_of(code, W, H, H1, col_mask, bottom)

    @njit(cache=True)
    def split_code(code):
        _ = sources
        return split(code, bottom, H1)

    return {"moves": moves, "play": play, "outcome": outcome, "tier": tier,
            "canonical": canonical, "search_moves": search_moves, "horizon": horizon,
            "static_bounds": static_bounds, "rank": rank, "unrank": unrank,
            "valid": valid, "split": split_code}


class ConnectFour(CompiledGame):
    """Connect Four with ``width`` columns and ``height`` rows (moves are column indexes,
    named from 1); ValueError unless width, height >= 1 and width * (height + 1) <= 62."""

    def __init__(self, width: int = 7, height: int = 6) -> None:
        g = geometry(width, height)
        self.width, self.height = width, height
        self.geometry = g
        rules = compiled_rules(g)
        self._split = rules.pop("split")
        super().__init__(g.bottom, max_moves=width, name=f"ConnectFour({width}, {height})",
                         **rules)

    def stones(self, code: int) -> tuple[list[str], int]:
        """The board as rows of '.', 'X', 'O' (top row first; X moved first) and the number
        of stones."""
        mover, mask = (int(x) for x in self._split(code))
        n = mask.bit_count()
        me, other = ("X", "O") if n % 2 == 0 else ("O", "X")
        rows = []
        for r in range(self.height - 1, -1, -1):
            row = ""
            for c in range(self.width):
                bit = 1 << (c * (self.height + 1) + r)
                row += "." if not mask & bit else (me if mover & bit else other)
            rows.append(row)
        return rows, n

    def draw(self, code: int) -> str:
        """The board, top row first (X the first player), over the column numbers (their
        last digit from the tenth column on)."""
        rows, _ = self.stones(code)
        return "\n".join(rows) + "\n" + "".join(str((c + 1) % 10) for c in range(self.width))

    def move_name(self, move: int) -> str:
        return str(move + 1)

    def parse_move(self, text: str) -> int | None:
        """The column named ``text`` (``"1"`` .. ``str(width)``), or None."""
        text = text.strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= self.width:
            return None
        return int(text) - 1

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: blue, its cells empty (white) or holding the first
        player's (red) or the second player's (yellow) stones; columns numbered from 1."""
        rows, _ = self.stones(code)
        w, h = self.width, self.height
        ax.fill([-0.5, w - 0.5, w - 0.5, -0.5], [-0.5, -0.5, h - 0.5, h - 0.5],
                color="#1f4e9c")
        angles = [2 * math.pi * k / 32 for k in range(32)]
        colour = {".": "white", "X": "#d62828", "O": "#f7c948"}
        for r, row in enumerate(rows):
            y = h - 1 - r
            for c, cell in enumerate(row):
                ax.fill([c + 0.4 * math.cos(a) for a in angles],
                        [y + 0.4 * math.sin(a) for a in angles],
                        color=colour[cell], edgecolor="black", linewidth=0.5)
        ax.set_xticks(range(w), [str(c + 1) for c in range(w)])
        ax.set_yticks([])
        ax.set_xlim(-0.5, w - 0.5)
        ax.set_ylim(-0.5, h - 0.5)
        ax.set_aspect("equal")
