"""Teeko's rules as a compiled game: bitboards of the two colours in one int64.

**Rules** (Scarne 1955, as Steele 1999 states them). An s x s board (5 x 5), p pieces a
side (4). Black starts. While a player has pieces in hand, a turn drops one on any empty
cell; once both have dropped all p, a turn moves one of one's own pieces to an adjacent
empty cell (8 directions, a chess king's step). A player whose pieces form a *goal* wins at
once: p in a straight line (row, column or diagonal), or, with p = 4, the corners of a
square: a 2 x 2 block in standard Teeko (44 goals on 5 x 5), a square of any size with
sides along the board in *advanced* Teeko (58 goals). A player who cannot move loses (the
engine's rule; it never happens in standard Teeko, as the tests check on small boards).
Play may go on forever: the engine certifies such positions as draws.

**Codes.** Bit i (row-major, i = 5r + c on 5 x 5; row 0 at the top) is a black piece, bit
s^2 + i a white one, bit 2s^2 set when White is to move, and the variant in the top bits:
s at 56-58, p at 59-61, advanced at 62. With the variant in the code, the same
module-level numba functions (cached on disk) serve every board, so the engine compiles
its kernels once a process for all of them. Whether a player is still dropping is read off
the code (fewer than p pieces of the mover's colour).

**Moves.** A drop on cell i is the move i; a step from cell a to cell b is ``(a + 1) * 32
+ b``. Names: ``c3`` for a drop, ``c3-d4`` for a step (column letter, row number from the
top, as in the rest of the catalog).

**Hooks.** ``canonical``: the least code among the 8 symmetries of the square (each board
mapped a row at a time through tables); ``tier`` (only with ``tiers=True``, for a store):
the pieces on the board, so drops climb and steps stay inside the last tier, where the
store's retrograde analysis certifies the draws. The in-memory solver needs tiers that
rise along every move, so the plain game has none.

>>> game = Teeko(3, 3)
>>> [game.move_name(m) for m in game.moves(game.initial())][:4]
['a1', 'b1', 'c1', 'a2']
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...bits import lowest_bit, popcount
from ...engine.compiled.game import LOSE, ONGOING, CompiledGame
from ...errors import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_SIZE = 5
COLUMNS = "abcde"
SIZE_SHIFT, PIECES_SHIFT, ADVANCED_SHIFT = 56, 59, 62
_BOARD = (1 << SIZE_SHIFT) - 1  # the board and turn bits of a code
STEP = 32  # a step from a to b is (a + 1) * STEP + b


def goals(s: int, p: int, advanced: bool) -> list[int]:
    """Every goal of an s x s board with p pieces, as cell masks (bit s*r + c): the lines
    of p, and with p = 4 the squares (2 x 2 only unless ``advanced``)."""
    out = []
    for r in range(s):
        for c in range(s):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(p)]
                if all(0 <= i < s and 0 <= j < s for i, j in cells):
                    out.append(sum(1 << (s * i + j) for i, j in cells))
    if p == 4:
        for side in range(1, s if advanced else 2):
            for r in range(s - side):
                for c in range(s - side):
                    out.append(sum(1 << (s * i + j) for i in (r, r + side)
                                   for j in (c, c + side)))
    return out


def neighbours(s: int) -> np.ndarray:
    """For each cell of an s x s board, the mask of its (up to 8) neighbours."""
    out = np.zeros(32, np.int64)
    for r in range(s):
        for c in range(s):
            out[s * r + c] = sum(1 << (s * i + j) for i in range(r - 1, r + 2)
                                 for j in range(c - 1, c + 2)
                                 if 0 <= i < s and 0 <= j < s and (i, j) != (r, c))
    return out


def symmetry_rows(s: int) -> np.ndarray:
    """[k, r, pattern]: the cells that row r's ``pattern`` (s bits) goes to under symmetry
    k (bit 0: mirror the columns, bit 1: the rows, bit 2: transpose, applied in that
    order), so a board's image is s look-ups."""
    out = np.zeros((8, MAX_SIZE, 1 << MAX_SIZE), np.int64)
    for k in range(8):
        for r in range(s):
            for pattern in range(1 << s):
                img = 0
                for c in range(s):
                    if pattern >> c & 1:
                        i, j = r, c
                        if k & 1:
                            j = s - 1 - j
                        if k & 2:
                            i = s - 1 - i
                        if k & 4:
                            i, j = j, i
                        img |= 1 << (s * i + j)
                out[k, r, pattern] = img
    return out


def playable(s: int, p: int) -> str | None:
    """Why an s x s board with p pieces a side is not a Teeko, or None."""
    if not 3 <= s <= MAX_SIZE or not 3 <= p <= MAX_SIZE:
        return f"the board has 3 to {MAX_SIZE} cells a side and 3 to {MAX_SIZE} pieces a side"
    if 2 * p >= s * s:
        return f"{2 * p} pieces leave no empty cell on a {s}x{s} board to move into"
    if p > s and p != 4:
        return f"a line of {p} does not fit on a {s}x{s} board (only 4 pieces also win by " \
               "a square)"
    return None


_VARIANTS = [(s, p, a) for s in range(3, MAX_SIZE + 1) for p in range(3, MAX_SIZE + 1)
             for a in (0, 1) if playable(s, p) is None]
MAX_GOALS = 64
GOALS = np.zeros((MAX_SIZE + 1, MAX_SIZE + 1, 2, MAX_GOALS), np.int64)
GOAL_COUNT = np.zeros((MAX_SIZE + 1, MAX_SIZE + 1, 2), np.int64)
for _s, _p, _a in _VARIANTS:
    _g = goals(_s, _p, bool(_a))
    GOALS[_s, _p, _a, :len(_g)] = _g
    GOAL_COUNT[_s, _p, _a] = len(_g)
NEIGHBOURS = np.array([neighbours(s) for s in range(MAX_SIZE + 1)], np.int64)
SYMMETRY = np.array([symmetry_rows(s) if s else np.zeros((8, MAX_SIZE, 32), np.int64)
                     for s in range(MAX_SIZE + 1)], np.int64)


@njit(cache=True)
def variant(code):
    """(s, p, advanced) of a code."""
    return (code >> SIZE_SHIFT) & 7, (code >> PIECES_SHIFT) & 7, (code >> ADVANCED_SHIFT) & 1


@njit(cache=True)
def sides(code):
    """(the mover's pieces, the opponent's, s, p, advanced), as cell masks."""
    s, p, a = variant(code)
    cells = s * s
    full = (np.int64(1) << cells) - 1
    black = code & full
    white = (code >> cells) & full
    if (code >> (2 * cells)) & 1:
        return white, black, s, p, a
    return black, white, s, p, a


@njit(cache=True)
def has_goal(pieces, s, p, a):
    for k in range(GOAL_COUNT[s, p, a]):
        g = GOALS[s, p, a, k]
        if pieces & g == g:
            return True
    return False


@njit(cache=True)
def with_sides(code, me, opp, s):
    """The code with the mover's and the opponent's pieces replaced, the turn passed."""
    cells = s * s
    white_moves = (code >> (2 * cells)) & 1
    header = code & ~np.int64(_BOARD)
    if white_moves:
        return header | me << cells | opp
    return header | np.int64(1) << (2 * cells) | opp << cells | me


@njit(cache=True)
def moves(code, out):
    me, opp, s, p, a = sides(code)
    cells = s * s
    empty = ((np.int64(1) << cells) - 1) & ~(me | opp)
    k = 0
    if popcount(me) < p:
        while empty:
            out[k] = lowest_bit(empty)
            empty &= empty - 1
            k += 1
        return k
    mine = me
    while mine:
        src = lowest_bit(mine)
        mine &= mine - 1
        to = NEIGHBOURS[s, src] & empty
        while to:
            out[k] = (src + 1) * STEP + lowest_bit(to)
            to &= to - 1
            k += 1
    return k


@njit(cache=True)
def play(code, move):
    me, opp, s, _, _ = sides(code)
    if move >= STEP:
        me &= ~(np.int64(1) << (move // STEP - 1))
        me |= np.int64(1) << (move % STEP)
    else:
        me |= np.int64(1) << move
    return with_sides(code, me, opp, s)


@njit(cache=True)
def outcome(code):
    _, opp, s, p, a = sides(code)
    if popcount(opp) == p and has_goal(opp, s, p, a):
        return LOSE  # the player who just moved made a goal
    return ONGOING


@njit(cache=True)
def tier(code):
    me, opp, _, _, _ = sides(code)
    return popcount(me | opp)


@njit(cache=True)
def image(x, k, s):
    out = np.int64(0)
    row = (np.int64(1) << s) - 1
    for r in range(s):
        out |= SYMMETRY[s, k, r, (x >> (s * r)) & row]
    return out


@njit(cache=True)
def canonical(code):
    s, _, _ = variant(code)
    cells = s * s
    full = (np.int64(1) << cells) - 1
    black = code & full
    white = (code >> cells) & full
    best = code
    rest = code & ~((np.int64(1) << (2 * cells)) - 1)  # the turn and the variant
    for k in range(1, 8):
        c = rest | image(white, k, s) << cells | image(black, k, s)
        if c < best:
            best = c
    return best


class Teeko(CompiledGame):
    """Teeko on an s x s board with p pieces a side (module doc); ``tiers=True`` adds the
    tier a store needs (pieces on the board; steps stay inside the last tier)."""

    def __init__(self, size: int = 5, pieces: int = 4, advanced: bool = False,
                 tiers: bool = False) -> None:
        why = playable(size, pieces)
        if why:
            raise InputError(f"Teeko(size={size}, pieces={pieces}): {why}")
        self.size, self.pieces, self.advanced = size, pieces, bool(advanced)
        start = size << SIZE_SHIFT | pieces << PIECES_SHIFT | int(advanced) << ADVANCED_SHIFT
        kind = "advanced " if advanced else ""
        CompiledGame.__init__(self, start, moves, play, outcome,
                              max_moves=max(size * size, 8 * pieces), canonical=canonical,
                              tier=tier if tiers else None,
                              name=f"Teeko({size}x{size}, {pieces} {kind}pieces)")

    def board(self, code: int) -> tuple[int, int, int]:
        """(black cells, white cells, 1 when White is to move) as cell masks."""
        n = self.size * self.size
        full = (1 << n) - 1
        return code & full, (code >> n) & full, (code >> 2 * n) & 1

    def code(self, black: int, white: int, white_to_move: int) -> int:
        """The code of a board (cell masks, bit s*r + c)."""
        n = self.size * self.size
        return self.start_code | black | white << n | white_to_move << 2 * n

    def goal_count(self) -> int:
        return int(GOAL_COUNT[self.size, self.pieces, int(self.advanced)])

    def cell_name(self, cell: int) -> str:
        return f"{COLUMNS[cell % self.size]}{cell // self.size + 1}"

    def move_name(self, move: int) -> str:
        """``c3`` (a drop), ``c3-d4`` (a step)."""
        if move >= STEP:
            return f"{self.cell_name(move // STEP - 1)}-{self.cell_name(move % STEP)}"
        return self.cell_name(move)

    def _cell(self, text: str) -> int | None:
        s = self.size
        if len(text) == 2 and text[0] in COLUMNS[:s] and text[1] in "123456789"[:s]:
            return (int(text[1]) - 1) * s + COLUMNS.index(text[0])
        return None

    def parse_move(self, text: str) -> int | None:
        """The move named ``text`` (``c3``, ``c3-d4``; any case), or None. A step's cells
        must touch (the move may still be illegal in a given position)."""
        if not isinstance(text, str):
            return None
        parts = text.strip().lower().split("-")
        found = [self._cell(t.strip()) for t in parts]
        named = [c for c in found if c is not None]
        if len(named) != len(found):
            return None
        if len(named) == 1:
            return named[0]
        if len(named) == 2 and int(NEIGHBOURS[self.size, named[0]]) >> named[1] & 1:
            return (named[0] + 1) * STEP + named[1]
        return None

    def draw(self, code: int) -> str:
        """The board with coordinates: X for Black, O for White, . empty; who moves, and
        whether pieces are still being dropped."""
        black, white, turn = self.board(code)
        s = self.size
        rows = ["  " + " ".join(COLUMNS[:s])]
        for r in range(s):
            rows.append(f"{r + 1} " + " ".join(
                "X" if black >> (s * r + c) & 1 else "O" if white >> (s * r + c) & 1 else "."
                for c in range(s)))
        mover = white if turn else black
        phase = "drops" if mover.bit_count() < self.pieces else "moves"
        rows.append(f"{'White (O)' if turn else 'Black (X)'} {phase}")
        return "\n".join(rows)

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: the grid of points, the pieces."""
        black, white, _ = self.board(code)
        s = self.size
        for i in range(s):
            ax.plot([0, s - 1], [i, i], color="gray", lw=1)
            ax.plot([i, i], [0, s - 1], color="gray", lw=1)
        for bits, face in ((black, "black"), (white, "red")):
            cells = [(c, s - 1 - r) for r in range(s) for c in range(s)
                     if bits >> (s * r + c) & 1]
            if cells:
                xs, ys = zip(*cells, strict=True)
                ax.scatter(xs, ys, s=600, c=face, edgecolors="black", zorder=3)
        for c in range(s):
            ax.text(c, s - 0.5, COLUMNS[c], ha="center")
        for r in range(s):
            ax.text(-0.6, s - 1 - r, str(r + 1), va="center")
        ax.set_aspect("equal")
        ax.axis("off")


def positions_estimate(size: int, pieces: int) -> tuple[int, int]:
    """(boards with the drops unfinished, boards with every piece down x 2 turns): an upper
    bound on the positions, before the symmetries (divide by about 8)."""
    n = size * size
    dropping = sum(comb(n, (k + 1) // 2) * comb(n - (k + 1) // 2, k // 2)
                   for k in range(2 * pieces))
    moving = 2 * comb(n, pieces) * comb(n - pieces, pieces)
    return dropping, moving
