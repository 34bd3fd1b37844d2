"""No as text: the explanation, and the distance map (each free cell's distance from the
start piece, framed with cell names and a legend). Imports the model and the grid only;
reads the result through :class:`Answer`, the fields it needs, so the result (which calls
these functions) is never imported here.

>>> print(frame_distances(["*1P"]).splitlines()[1])
1 *1P
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..grid import bfs_order, cell_name, framed, neighbour_table, undrawn
from ..seedrun import SeedRun
from .model import Nearest, NoBoard


class Answer(Protocol):
    """What the text reads of a :class:`~perfectplay.no.NearestResult`."""

    @property
    def board(self) -> NoBoard: ...
    @property
    def answer(self) -> Nearest: ...
    @property
    def everyone(self) -> list[tuple[int | None, int | None]] | None: ...
    @property
    def seed(self) -> SeedRun | None: ...
    def cells(self) -> list[str]: ...


def _cell(b: NoBoard, i: int) -> str:
    r, c = (int(v) for v in b.pieces[i])
    return cell_name(r, c) if r >= 0 and c >= 0 else f"({r}, {c})"


def explain(result: Answer) -> str:
    """The nearest pieces, every tie, the unreachable ones, and every piece's nearest when
    it was asked for."""
    b, ans = result.board, result.answer
    if ans.distance is None:
        out = [f"No other piece can be reached from the start piece {b.name(b.start)}."]
    else:
        tied = ", ".join(f"{b.name(i)} at {_cell(b, i)}" for i in ans.pieces)
        steps = "move" if ans.distance == 1 else "moves"
        out = [f"Nearest to the start piece {b.name(b.start)}: {tied}, {ans.distance} "
               f"{steps}" + (f" ({len(ans.pieces)}-way tie, {tie_rule(b, ans.pieces)})"
                            if len(ans.pieces) > 1 else "") + "."]
    if ans.unreachable:
        out.append("Unreachable: " + ", ".join(b.name(i) for i in ans.unreachable))
    if result.everyone is not None:
        out.append("Every piece's nearest:")
        for i, (j, d) in enumerate(result.everyone):
            out.append(f"  {b.name(i):>4} -> " +
                       (f"{b.name(j)} ({d})" if j is not None else "none"))
    if result.seed is not None:
        out += ["", *result.seed.lines()]
    return "\n".join(out)


def tie_rule(b: NoBoard, tied: list[int]) -> str:
    """The rule that breaks a tie, and the piece it picks: the lowest number (a drawn board
    numbers its pieces in reading order).

    >>> from perfectplay.no import parse
    >>> tie_rule(parse("A.*.B"), [0, 2])
    'broken by reading order (top to bottom, left to right): A'
    """
    first = b.name(min(tied))
    if b.labels:
        return f"broken by reading order (top to bottom, left to right): {first}"
    return f"broken by the lowest number: {first}"


def piece_letters(count: int) -> list[str] | None:
    """The letters a board of numbered pieces (P1, P2, ...) draws them with, A for P1, so
    that each piece can be found on the drawing; None past 26 pieces (all drawn as P)."""
    return [chr(ord("A") + k) for k in range(count)] if count <= 26 else None


def draw(result: Answer, style: bool = False) -> str:
    """The board with each free cell's distance from the start piece (see
    :func:`draw_distances`), or one line when the board is too big to draw. ``style``:
    rich markup (the start piece bold)."""
    if style:
        lines = draw(result).split("\n")
        return "\n".join(lines[:1] + [ln.replace("*", "[bold]*[/]") for ln in lines[1:-1]]
                         + lines[-1:])
    b = result.board
    rows, cols = b.shape
    too_large = undrawn(rows, cols)
    if too_large:
        return too_large
    if b.labels:
        return frame_distances(result.cells(), b.labels)
    return frame_distances(result.cells(), numbered=len(b.pieces))


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


def frame_distances(rows: list[str], labels: list[str] | None = None,
                    numbered: int = 0) -> str:
    """Distance-map rows with column letters and row numbers as cell names read, and a
    legend under them. ``numbered``: the count of a board's numbered pieces (P1, P2, ...),
    drawn as letters (:func:`piece_letters`: A for P1)."""
    cells = [[(ch, ch) for ch in row] for row in rows]
    wide = bool(rows) and len(rows[0]) > 26
    letters = piece_letters(numbered) if numbered and not labels else None
    if labels:
        pieces = "letters the other pieces"
    elif letters:
        pieces = (f"{letters[0]}-{letters[-1]} the pieces P1-P{numbered} ({letters[0]} is "
                  f"P1, {letters[1]} is P2, ...)" if numbered > 1 else "A the piece P1")
    else:
        pieces = "P the other pieces"
    legend = (f"* the start piece, {pieces}, digits the moves from the start (the last "
              "digit of numbers over 9), # a wall, - out of reach")
    return framed(cells, sep=" " if wide else "") + "\n" + legend
