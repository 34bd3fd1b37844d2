"""Tic-tac-toe as a compiled game: the board in one int code, rules in cached numba functions.

A position is ``x | o << 9``: bit ``i`` of each 9-bit mask is cell ``i``, numbered row by
row from the top left (0 is ``a1``, 4 is ``b2``, 8 is ``c3``, as in ``examples/tictactoe.py``).
X moves when the two counts are equal, so the code says whose turn it is. A move is the
cell's index. ``horizon`` is the empty cells (a tied game fills the board), ``canonical``
the smallest code among the board's eight rotations and reflections, ``search_moves`` the
immediate win alone, else the only block, else every cell centre first, then corners, then
edges, and ``static_bounds`` says a side with no line free of the other's marks cannot win.

No ``tier``: the in-memory solve of a game with one takes the tier-by-tier path, whose
parallel kernels cost far more to compile and to start than this game's 5,478 positions
cost to solve by compiled discovery (measured: seconds against milliseconds).

The functions live at module level with ``cache=True``: numba keeps their machine code on
disk, so a new process does not compile the rules again (nor the search kernels, cached
through :mod:`perfectplay.engine.compiled.staticrules`; the solve kernels still compile once a
process).

>>> game = TicTacToe()
>>> pos = game.play(game.play(game.initial(), 4), 0)
>>> print(game.draw(pos))
  a b c
1 O . .
2 . X .
3 . . .
X to move
>>> game.move_name(8), game.parse_move("b2")
('c3', 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...bits import popcount
from ...engine import CANNOT_LOSE, CANNOT_WIN, LOSE, ONGOING, TIE, CompiledGame, Value

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The eight lines of three, as 9-bit masks: rows, columns, the two diagonals.
LINES = np.array([0b000000111, 0b000111000, 0b111000000,
                  0b001001001, 0b010010010, 0b100100100,
                  0b100010001, 0b001010100], dtype=np.int64)
FULL = 0b111111111
#: The eight symmetries of the square, each as the cell that cell ``i`` goes to.
SYMMETRIES = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8],   # identity
                       [2, 5, 8, 1, 4, 7, 0, 3, 6],   # a quarter turn
                       [8, 7, 6, 5, 4, 3, 2, 1, 0],   # a half turn
                       [6, 3, 0, 7, 4, 1, 8, 5, 2],   # three quarters
                       [2, 1, 0, 5, 4, 3, 8, 7, 6],   # mirror left-right
                       [6, 7, 8, 3, 4, 5, 0, 1, 2],   # mirror top-bottom
                       [0, 3, 6, 1, 4, 7, 2, 5, 8],   # the main diagonal
                       [8, 5, 2, 7, 4, 1, 6, 3, 0]],  # the other diagonal
                      dtype=np.int64)
#: Cells in the order the search tries them: centre, corners, edges.
ORDER = np.array([4, 0, 2, 6, 8, 1, 3, 5, 7], dtype=np.int64)
CELLS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")


@njit(cache=True)
def split(code):
    """(the mover's marks, the other side's marks) as 9-bit masks."""
    x = code & FULL
    o = code >> 9
    if popcount(x) == popcount(o):
        return x, o
    return o, x


@njit(cache=True)
def has_line(marks):
    for line in LINES:  # noqa: SIM110 - a loop numba compiles, not a generator
        if marks & line == line:
            return True
    return False


@njit(cache=True)
def winning_cells(marks, empty):
    """The empty cells where a side with ``marks`` would complete a line."""
    cells = 0
    for line in LINES:
        rest = line & ~marks
        if rest & (rest - 1) == 0 and rest & empty:  # one cell missing, and it is empty
            cells |= rest
    return cells


@njit(cache=True)
def moves(code, out):
    empty = FULL & ~((code & FULL) | (code >> 9))
    k = 0
    for i in range(9):
        if empty >> i & 1:
            out[k] = i
            k += 1
    return k


@njit(cache=True)
def play(code, cell):
    x = code & FULL
    o = code >> 9
    if popcount(x) == popcount(o):
        return code | (1 << cell)
    return code | (1 << (cell + 9))


@njit(cache=True)
def outcome(code):
    _, previous = split(code)
    if has_line(previous):  # the player who just moved made three in a row
        return LOSE
    if (code & FULL) | (code >> 9) == FULL:
        return TIE
    return ONGOING


@njit(cache=True)
def horizon(code):
    """The empty cells: no game lasts longer, and a tie fills the board."""
    return 9 - popcount(code)


@njit(cache=True)
def transform(code, s):
    x = code & FULL
    o = code >> 9
    tx = 0
    to = 0
    for i in range(9):
        tx |= (x >> i & 1) << SYMMETRIES[s, i]
        to |= (o >> i & 1) << SYMMETRIES[s, i]
    return tx | to << 9


@njit(cache=True)
def canonical(code):
    """The smallest code among the board's eight images (all have the same value)."""
    best = code
    for s in range(1, 8):
        c = transform(code, s)
        if c < best:
            best = c
    return best


@njit(cache=True)
def search_moves(code, out):
    """An immediate win alone (every win in one is as good); else, facing one threat, its
    block alone (every other move loses in two), facing two, one move (all lose in two);
    else every empty cell, centre first, then corners, then edges."""
    mine, theirs = split(code)
    empty = FULL & ~(mine | theirs)
    if empty == 0:
        return 0
    win = winning_cells(mine, empty)
    if win:
        out[0] = popcount((win & -win) - 1)
        return 1
    threat = winning_cells(theirs, empty)
    if threat:
        out[0] = popcount((threat & -threat) - 1)
        return 1
    k = 0
    for cell in ORDER:
        if empty >> cell & 1:
            out[k] = cell
            k += 1
    return k


@njit(cache=True)
def static_bounds(code):
    """CANNOT_WIN when every line holds one of the opponent's marks, CANNOT_LOSE when every
    line holds one of the mover's."""
    mine, theirs = split(code)
    empty = FULL & ~(mine | theirs)
    known = 0
    if not has_line(mine | empty):
        known |= CANNOT_WIN
    if not has_line(theirs | empty):
        known |= CANNOT_LOSE
    return known


class TicTacToe(CompiledGame):
    """Tic-tac-toe (noughts and crosses) on the 3x3 board; X moves first."""

    def __init__(self) -> None:
        super().__init__(0, moves, play, outcome, max_moves=9, canonical=canonical,
                         search_moves=search_moves, horizon=horizon,
                         static_bounds=static_bounds, name="TicTacToe")

    def board(self, code: int) -> str:
        """The nine cells as 'X', 'O' and '.', row by row from a1."""
        return "".join("X" if code >> i & 1 else "O" if code >> (i + 9) & 1 else "."
                       for i in range(9))

    def draw(self, code: int) -> str:
        """The board with column letters and row numbers, as move names read, and whose
        turn it is (or the result)."""
        cells = self.board(code)
        rows = [f"{r + 1} {' '.join(cells[3 * r:3 * r + 3])}" for r in range(3)]
        result = self.outcome(code)
        if result is None:
            last = f"{'X' if cells.count('X') == cells.count('O') else 'O'} to move"
        elif result is Value.TIE:
            last = "a tie"
        else:
            last = f"{'O' if cells.count('X') == cells.count('O') else 'X'} has won"
        return "\n".join(["  a b c", *rows, last])

    def move_name(self, move: int) -> str:
        """A cell by its name: 0 is a1, 4 is b2, 8 is c3."""
        return CELLS[move]

    def parse_move(self, text: str) -> int | None:
        """A typed cell name ("b2"), or None when the text is not one."""
        text = text.strip().lower()
        return CELLS.index(text) if text in CELLS else None

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: grid lines, X and O as letters, cell names on
        the edges."""
        cells = self.board(code)
        for k in (1, 2):
            ax.plot([k, k], [0, 3], color="black")
            ax.plot([0, 3], [k, k], color="black")
        for i, mark in enumerate(cells):
            if mark != ".":
                ax.text(i % 3 + 0.5, 2.5 - i // 3, mark, ha="center", va="center",
                        fontsize=28)
        for k in range(3):
            ax.text(k + 0.5, 3.15, "abc"[k], ha="center")
            ax.text(-0.2, 2.5 - k, str(k + 1), va="center")
        ax.set_xlim(-0.4, 3)
        ax.set_ylim(0, 3.4)
        ax.set_aspect("equal")
        ax.axis("off")
