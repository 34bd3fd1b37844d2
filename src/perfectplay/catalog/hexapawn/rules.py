"""Hexapawn as a compiled game: the board in one int code, rules in cached numba functions.

The board has ``width`` columns (a, b, c, ...) and ``height`` rows (1 at White's side).
Cell ``r * width + c`` is column ``c`` of row ``r + 1``. A position is one int64:

- bits ``0 .. N-1`` (N = width * height): White's pawns;
- bits ``N .. 2N-1``: Black's pawns;
- bit ``2N``: 1 when Black is to move;
- bits 56-58: ``width - 1``, bits 59-61: ``height - 1``.

The board's size travels in every code, so the rules are plain module-level functions
(compiled once, cached on disk with ``cache=True``) shared by every board size; that takes
6 bits, so the board and the turn must fit 56: ``width * height <= 27`` (5x5, 6x4, 8x3).
A move is ``from * 64 + to`` (cells), named ``a1-a2`` (a step forward) or ``a1xb2`` (a
capture).

The game ends when the player who just moved has a pawn on the far row (the player to move
has lost); a player with no move (every pawn blocked, or none left) loses too, the engine's
rule for a position without moves. Every move takes one pawn one row forward, so the game
is acyclic. It has no ``tier``: every board that fits solves in memory in seconds by
compiled discovery (5x5: 3,210,411 positions), and the tier-by-tier path costs more to
compile than that.

Hooks: ``canonical`` is the smallest code among the position, its mirror image (columns
reversed) and both of those seen from the other side (the board turned half round, colours
and the turn swapped: the mover's position is the same); ``horizon`` is one more than the
steps every pawn can still take without reaching the far row; ``search_moves`` lists a move
to the far row alone (a win in one), else captures first, the most advanced pawns first.

>>> game = Hexapawn(3, 3)
>>> print(game.draw(game.initial()))
  a b c
3 B B B
2 . . .
1 W W W
White to move
>>> [game.move_name(m) for m in game.moves(game.initial())]
['a1-a2', 'b1-b2', 'c1-c2']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from numba import njit

from ...bits import popcount
from ...engine import LOSE, ONGOING, CompiledGame, Value
from ...errors import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

W_SHIFT, H_SHIFT = 56, 59  # where the board's width - 1 and height - 1 sit in a code
MAX_CELLS = 27  # 2 * 27 + 1 bits of board and turn, below bit 56
COLUMNS = "abcdefgh"


@njit(cache=True)
def shape(code):
    """(width, height, cells) of the board a code is on."""
    w = ((code >> W_SHIFT) & 7) + 1
    h = ((code >> H_SHIFT) & 7) + 1
    return w, h, w * h


@njit(cache=True)
def sides(code):
    """(White's pawns, Black's pawns, 1 if Black is to move else 0)."""
    w, h, n = shape(code)
    mask = (1 << n) - 1
    return code & mask, (code >> n) & mask, (code >> (2 * n)) & 1


@njit(cache=True)
def far_row(w, h, black):
    """The row a side's pawns race to, as a mask: the top row for White, row 1 for Black."""
    row = (1 << w) - 1
    return row if black else row << (w * (h - 1))


@njit(cache=True)
def outcome(code):
    w, h, n = shape(code)
    white, black, turn = sides(code)
    if turn == 1 and white & far_row(w, h, False):  # White just reached the top row
        return LOSE
    if turn == 0 and black & far_row(w, h, True):  # Black just reached row 1
        return LOSE
    return ONGOING


@njit(cache=True)
def moves(code, out):
    """Every pawn of the mover: one row forward to an empty cell, or diagonally forward onto
    an enemy pawn."""
    w, h, n = shape(code)
    white, black, turn = sides(code)
    mine, theirs = (black, white) if turn else (white, black)
    step = -w if turn else w
    occupied = white | black
    k = 0
    for cell in range(n):
        if not mine >> cell & 1:
            continue
        ahead = cell + step
        if ahead < 0 or ahead >= n:
            continue
        c = cell % w
        if not occupied >> ahead & 1:
            out[k] = cell * 64 + ahead
            k += 1
        if c > 0 and theirs >> (ahead - 1) & 1:
            out[k] = cell * 64 + ahead - 1
            k += 1
        if c < w - 1 and theirs >> (ahead + 1) & 1:
            out[k] = cell * 64 + ahead + 1
            k += 1
    return k


@njit(cache=True)
def play(code, move):
    w, h, n = shape(code)
    white, black, turn = sides(code)
    src = move >> 6
    dst = move & 63
    if turn:
        black = (black & ~(1 << src)) | (1 << dst)
        white &= ~(1 << dst)
    else:
        white = (white & ~(1 << src)) | (1 << dst)
        black &= ~(1 << dst)
    return white | (black << n) | ((1 - turn) << (2 * n)) | (code >> W_SHIFT << W_SHIFT)


@njit(cache=True)
def advance(code):
    """(rows advanced by all pawns on the board, pawns captured so far)."""
    w, h, n = shape(code)
    white, black, _ = sides(code)
    rows = 0
    for cell in range(n):
        r = cell // w
        if white >> cell & 1:
            rows += r
        if black >> cell & 1:
            rows += h - 1 - r
    return rows, 2 * w - popcount(white | black)


@njit(cache=True)
def horizon(code):
    """The game ends within this many plies: every pawn can step at most up to the row
    before the far row, and one more step ends the game. (No game of hexapawn is tied.)"""
    if outcome(code) != ONGOING:
        return 0
    w, h, n = shape(code)
    rows, captured = advance(code)
    pawns = 2 * w - captured
    return 1 + pawns * (h - 2) - rows


@njit(cache=True)
def transform(code, mirror, swap):
    """The position with its columns reversed (``mirror``) and/or seen from the other side
    (``swap``: the board turned half round, White's pawns Black's and the turn passed)."""
    w, h, n = shape(code)
    white, black, turn = sides(code)
    tw = 0
    tb = 0
    for cell in range(n):
        r = cell // w
        c = cell % w
        if mirror:
            c = w - 1 - c
        if swap:
            r = h - 1 - r
            c = w - 1 - c
        to = r * w + c
        tw |= (white >> cell & 1) << to
        tb |= (black >> cell & 1) << to
    if swap:
        tw, tb = tb, tw
        turn = 1 - turn
    return tw | (tb << n) | (turn << (2 * n)) | (code >> W_SHIFT << W_SHIFT)


@njit(cache=True)
def canonical(code):
    best = code
    for mirror in range(2):
        for swap in range(2):
            c = transform(code, mirror, swap)
            if c < best:
                best = c
    return best


@njit(cache=True)
def search_moves(code, out):
    """A move onto the far row alone (every win in one is as good as another); else the
    captures, then the steps, each group the most advanced pawns first."""
    w, h, n = shape(code)
    _, _, turn = sides(code)
    k = moves(code, out)
    goal = far_row(w, h, turn == 1)
    for i in range(k):
        if goal >> (out[i] & 63) & 1:
            out[0] = out[i]
            return 1
    white, black, _ = sides(code)
    theirs = white if turn else black
    # insertion sort by (capture, rows advanced) descending, stable
    for i in range(1, k):
        m = out[i]
        j = i
        while j > 0 and _priority(out[j - 1], theirs, w, h, turn) < \
                _priority(m, theirs, w, h, turn):
            out[j] = out[j - 1]
            j -= 1
        out[j] = m
    return k


@njit(cache=True)
def _priority(move, theirs, w, h, turn):
    dst = move & 63
    r = dst // w
    ahead = h - 1 - r if turn else r
    return (theirs >> dst & 1) * 64 + ahead


def start_code(width: int, height: int) -> int:
    """The start: White's pawns on row 1, Black's on the top row, White to move."""
    n = width * height
    row = (1 << width) - 1
    return row | (row << (width * (height - 1)) << n) | ((width - 1) << W_SHIFT) \
        | ((height - 1) << H_SHIFT)


class Hexapawn(CompiledGame):
    """Hexapawn on ``width`` columns and ``height`` rows (Gardner's game is 3 x 3)."""

    def __init__(self, width: int = 3, height: int = 3) -> None:
        if not (1 <= width <= 8 and 2 <= height <= 8 and width * height <= MAX_CELLS):
            raise InputError(f"hexapawn needs 1 <= width <= 8, 2 <= height <= 8 and width * "
                             f"height <= {MAX_CELLS}, got {width} x {height}")
        self.width, self.height = width, height
        super().__init__(start_code(width, height), moves, play, outcome,
                         max_moves=3 * width, canonical=canonical,
                         search_moves=search_moves, horizon=horizon,
                         name=f"Hexapawn({width}, {height})")

    def cells(self, code: int) -> tuple[set[int], set[int], bool]:
        """(White's cells, Black's cells, True when Black is to move)."""
        n = self.width * self.height
        code = int(code)
        white = {i for i in range(n) if code >> i & 1}
        black = {i for i in range(n) if code >> (n + i) & 1}
        return white, black, bool(code >> (2 * n) & 1)

    def cell_name(self, cell: int) -> str:
        return f"{COLUMNS[cell % self.width]}{cell // self.width + 1}"

    def draw(self, code: int) -> str:
        """The board as a chess diagram (row 1, White's, at the bottom), W and B for the
        pawns, and whose turn it is (or who has won)."""
        white, black, turn = self.cells(code)
        w, h = self.width, self.height
        lines = ["  " + " ".join(COLUMNS[:w])]
        for r in range(h - 1, -1, -1):
            row = ["W" if r * w + c in white else "B" if r * w + c in black else "."
                   for c in range(w)]
            lines.append(f"{r + 1} " + " ".join(row))
        mover, other = ("Black", "White") if turn else ("White", "Black")
        if self.outcome(code) is Value.LOSE or not self.moves(code):
            lines.append(f"{other} has won")
        else:
            lines.append(f"{mover} to move")
        return "\n".join(lines)

    def move_name(self, move: int) -> str:
        """``a1-a2`` for a step forward, ``a1xb2`` for a capture."""
        src, dst = move >> 6, move & 63
        sep = "-" if src % self.width == dst % self.width else "x"
        return f"{self.cell_name(src)}{sep}{self.cell_name(dst)}"

    def parse_move(self, text: str) -> int | None:
        """The inverse of :meth:`move_name`: a step straight ahead with ``-``, a diagonal
        one with ``x``, one row up or down; None for anything else."""
        text = text.strip().lower().replace(" ", "")
        for sep in "-x":
            a, found, b = text.partition(sep)
            if not found:
                continue
            src, dst = self._cell(a), self._cell(b)
            if src is None or dst is None:
                return None
            w = self.width
            dc = abs(src % w - dst % w)
            if abs(src // w - dst // w) == 1 and dc == (0 if sep == "-" else 1):
                return src * 64 + dst
            return None
        return None

    def _cell(self, text: str) -> int | None:
        if len(text) < 2 or text[0] not in COLUMNS[:self.width] or not text[1:].isdigit():
            return None
        row = int(text[1:])
        if not 1 <= row <= self.height:
            return None
        return (row - 1) * self.width + COLUMNS.index(text[0])

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: checkered cells, white and black pawns as discs,
        coordinates on the edges."""
        white, black, turn = self.cells(code)
        w, h = self.width, self.height
        for r in range(h):
            for c in range(w):
                shade = "#e8d5b0" if (r + c) % 2 else "#b58863"
                ax.fill([c, c + 1, c + 1, c], [r, r, r + 1, r + 1], color=shade)
        for cells, face in ((white, "white"), (black, "black")):
            if cells:
                ax.scatter([i % w + 0.5 for i in sorted(cells)],
                           [i // w + 0.5 for i in sorted(cells)], s=1500 / max(w, h),
                           c=face, edgecolors="black", zorder=3)
        for c in range(w):
            ax.text(c + 0.5, -0.3, COLUMNS[c], ha="center", va="center")
        for r in range(h):
            ax.text(-0.3, r + 0.5, str(r + 1), ha="center", va="center")
        ax.set_xlim(-0.6, w)
        ax.set_ylim(-0.6, h)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(f"{'Black' if turn else 'White'} to move")
