"""Test cases for the ``uva10381`` judge: mazes drawn as noise, DFS mazes, snakes or rooms
(:mod:`perfectplay.casegen`'s shared grid families), the corridor-and-room family, and mazes
hill-climbed against the solver's own detour searches; kept only when no single block cuts
E off from X; written in the judge's format, shrunk and explained.

>>> import random
>>> rows = PROBLEMS["uva10381"].make(random.Random(2), 5, "maze")
>>> _rock_valid(rows)
True
"""

from __future__ import annotations

import random

import numpy as np

from ..casegen import Case, Problem, grid_maker, shrink_grid, write_grids
from ..grid import Grid
from .families import FREE, WALL, climb, corridor_room
from .model import maze_from_grid, parse_maze
from .render import draw, explain
from .solver import analyze


def _climbed(rng: random.Random, size: int, steps: int = 60) -> Case | None:
    """A size x size maze hill-climbed against perfectplay's own detour searches
    (:func:`perfectplay.rock.families.climb`, ``steps`` trials from 30 % random walls,
    against the search alone): mazes where solutions that search detours cell by cell are
    slow. X on the first free cell, E where the guaranteed steps are largest (and finite)."""
    np_rng = np.random.default_rng(rng.getrandbits(64))
    start = np.where(np_rng.random((size, size)) < 0.3, WALL, FREE).astype(np.uint32)
    best = None
    for maze, _ in climb(start, np_rng, steps, heavy=False):
        best = maze
    return None if best is None else best.grid.lines()


def _corridor(rng: random.Random, size: int) -> Case:
    return corridor_room(max(2, size // 3)).grid.lines()


def _rock_valid(rows: list[str]) -> bool:
    if not rows or len({len(r) for r in rows}) != 1 or len(rows) > 40 or len(rows[0]) > 40:
        return False
    text = "".join(rows)
    if text.count("E") != 1 or text.count("X") != 1 or set(text) - set("#.EX"):
        return False
    cells = np.array([[ord(ch) for ch in row] for row in rows], dtype=np.uint32)
    return analyze(maze_from_grid(Grid(cells))).value is not None  # no single block cuts it


def _rock_explain(rows: list[str]) -> str:
    sol = analyze(parse_maze("\n".join(rows)))
    return explain(sol) + "\nEvery cell's guaranteed steps:\n" + draw(sol)


PROBLEMS: dict[str, Problem] = {
    "uva10381": Problem("uva10381", ("uniform", "maze", "snake", "rooms", "corridor",
                                     "climbed", "largest"),
                        grid_maker("EX", _rock_valid, 0.15, (0.0, 0.1, 0.2, 0.3), 2, ["EX"],
                                   special={"corridor": _corridor, "climbed": _climbed}),
                        write_grids, _rock_valid, shrink_grid("EX"), _rock_explain, r"-?\d+",
                        6, 40, grid=True),
}
