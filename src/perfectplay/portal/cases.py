"""Test cases for the ``devc-portal`` judge: boards drawn as noise, DFS mazes, snakes or
rooms (:mod:`perfectplay.casegen`'s shared grid families) with two portals that do not touch;
written in the judge's format, shrunk for the stress tester and explained.

>>> import random
>>> rows = PROBLEMS["devc-portal"].make(random.Random(3), 4, "snake")
>>> _portal_valid(rows)
True
"""

from __future__ import annotations

from ..casegen import Problem, grid_maker, shrink_grid, write_grids
from .model import parse_board
from .render import draw
from .solver import analyze_exact, safe_moves


def _portal_valid(rows: list[str]) -> bool:
    if not rows or len({len(r) for r in rows}) != 1 or len(rows) > 100 or len(rows[0]) > 100:
        return False
    text = "".join(rows)
    if text.count("O") != 2 or "." not in text or set(text) - set(".#O"):
        return False
    cols = len(rows[0])
    (a, b) = [i for i, ch in enumerate(text) if ch == "O"]
    ra, ca, rb, cb = a // cols, a % cols, b // cols, b % cols
    return abs(ra - rb) + abs(ca - cb) != 1  # portals never adjacent


def _portal_explain(rows: list[str]) -> str:
    board = parse_board("\n".join(rows))
    return analyze_exact(board).explain() + "\n" + draw(board, safe_moves(board))


PROBLEMS: dict[str, Problem] = {
    "devc-portal": Problem("devc-portal", ("uniform", "maze", "snake", "rooms", "largest"),
                           grid_maker("OO", _portal_valid, 0.3, (0.0, 0.15, 0.3, 0.5), 3,
                                      ["O.O"]),
                           write_grids, _portal_valid, shrink_grid("O"), _portal_explain,
                           r"Alif|Bella", 5, 100, grid=True),
}
