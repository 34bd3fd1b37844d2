"""Closing the Portal's text: the DevC judge format and the board drawing."""

from __future__ import annotations

from ..errors import InputError
from ..grid import framed, read_grid_case
from ..judge_io import JudgeResult, counted_cases
from ..textio import Reader
from .board import ALLOWED, EMPTY, WALL, Board, board_from_grid
from .solver import SafeMoves, solve

MAX_SIDE = 100  # the judge's limit; larger boards go through `perfectplay portal`


def judge_devc_portal(text: str, lenient: bool = False) -> JudgeResult:
    """DevC Clash of Code 2020: T, then per case ``R C`` and R rows -> ``Alif``/``Bella``.

    The judge's range: 1 <= R, C <= 100 and at least one '.' (``lenient``: any board the
    grid limit allows, and boards without an empty cell).
    """
    def case(r: Reader, _k: int) -> str:
        grid = read_grid_case(r, ALLOWED, None if lenient else MAX_SIDE)
        if not lenient and not grid.mask(EMPTY).any():
            raise InputError("the board has no empty cell '.' (the judge guarantees one; "
                             "--lenient answers it)")
        return solve(board_from_grid(grid)).winner

    return counted_cases(text, case, lenient=lenient)


def draw(board: Board, moves: SafeMoves, style: bool = False) -> str:
    """The board with cut cells as ``X``, safe cells on the path as ``*``, other safe cells
    ``.``; walls ``#`` and portals ``O``; column letters and row numbers as cell names read.
    With ``style``, rich markup colours them."""
    if board.grid is None:
        return ""
    marks = {c: "*" for c in moves.path[1:-1]}
    marks.update({c: "X" for c in moves.cut})
    colours = {"X": "bold red", "*": "green", "O": "bold cyan", WALL: "dim"}
    g = board.grid
    cells = []
    for r, row in enumerate(g.lines()):
        out = []
        for c, ch in enumerate(row):
            mark = marks.get(g.index(r, c), ch)
            out.append((mark, f"[{colours[mark]}]{mark}[/]" if style and mark in colours
                        else mark))
        cells.append(out)
    return framed(cells, sep="" if g.cols <= 26 else " ")


JUDGES = {
    "devc-portal": ("DevC Clash of Code 2020 Closing the Portal: Alif or Bella",
                    judge_devc_portal),
}
