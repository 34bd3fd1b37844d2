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
               f"{steps}" + (f" ({len(ans.pieces)}-way tie)" if len(ans.pieces) > 1
                            else "") + "."]
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
    return frame_distances(result.cells(), b.labels)


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


def frame_distances(rows: list[str], labels: list[str] | None = None) -> str:
    """Distance-map rows with column letters and row numbers as cell names read, and a
    legend under them."""
    cells = [[(ch, ch) for ch in row] for row in rows]
    wide = bool(rows) and len(rows[0]) > 26
    legend = ("* the start piece, " + ("letters" if labels else "P") + " the other pieces, "
              "digits the moves from the start (the last digit of numbers over 9), # a wall, "
              "- out of reach")
    return framed(cells, sep=" " if wide else "") + "\n" + legend
