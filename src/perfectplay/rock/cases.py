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

from ..casegen import Case, Problem, grid_maker, grid_rows, shrink_grid, write_grids
from ..casegen import maze as dfs_maze
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


def _maze(rng: random.Random, size: int) -> Case | None:
    """A DFS maze (:func:`perfectplay.casegen.maze`) of at least 3 x 3, braided enough that a
    single block rarely cuts it, with E on a random free cell and X far from it (among the
    free cells farthest by steps), so the answers vary with the maze instead of being 1 (E
    next to X: the only mazes a tree-like maze lets through when both are placed at
    random)."""
    low = min(3, size)
    for _ in range(60):
        rows, cols = rng.randint(low, size), rng.randint(low, size)
        g = dfs_maze(rng, rows, cols, rng.choice((0.25, 0.35, 0.5)))
        free = [(r, c) for r in range(rows) for c in range(cols) if g[r, c] == "."]
        if len(free) < 2:
            continue
        e = rng.choice(free)
        dist = {e: 0}
        queue = [e]
        for r, c in queue:  # breadth first: the list grows as it is read
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nr < rows and 0 <= nc < cols and g[nr, nc] == "." and \
                        (nr, nc) not in dist:
                    dist[nr, nc] = dist[r, c] + 1
                    queue.append((nr, nc))
        far = sorted((d, cell) for cell, d in dist.items() if d > 0)
        if not far:
            continue
        _, x = rng.choice(far[len(far) // 2:])  # the farther half
        g[e], g[x] = "E", "X"
        case = grid_rows(g)
        if _rock_valid(case):
            return case
    return None


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
                                   special={"corridor": _corridor, "climbed": _climbed,
                                            "maze": _maze}),
                        write_grids, _rock_valid, shrink_grid("EX"), _rock_explain, r"-?\d+",
                        6, 40, grid=True),
}
