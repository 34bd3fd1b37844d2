"""Structured mazes for tests and benchmarks: the families that make detour searches work,
and an adversary that builds such mazes against the solver itself (:func:`climb`).

>>> print(corridor_room(3).grid.text())
##########
.........#
.#######.#
.###...#.#
X........#
####..E###
##########
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ..grid import Grid
from .model import Maze, maze_from_grid
from .solver import analyze, solve_with_stats

WALL, FREE = ord("#"), ord(".")


def corridor_room(s: int) -> Maze:
    """An s x s room reached from the exit by a short 1-wide corridor (s cells) and a long
    one (about 3s cells), the entrance in the room's far corner.

    Blocking a short-corridor cell sends the walker back through the room to the long
    corridor; a plain detour search pays the whole room for every corridor cell.
    """
    rows = s + 4
    c0 = s + 1  # the room's first column
    cols = c0 + s + 3
    g = np.full((rows, cols), ord("#"), dtype=np.uint32)
    mid = 3 + s // 2
    g[3:3 + s, c0:c0 + s] = ord(".")  # the room
    g[mid, 1:c0] = ord(".")  # the short corridor
    g[mid, 0] = ord("X")
    g[1:mid, 0] = ord(".")  # the long corridor: up from X, along the top, down the side
    g[1, 0:cols - 1] = ord(".")
    g[1:mid + 1, cols - 2] = ord(".")
    g[mid, c0 + s:cols - 1] = ord(".")
    g[2 + s, c0 + s - 1] = ord("E")
    return maze_from_grid(Grid(g))


def place_ends(cells: np.ndarray) -> Maze | None:
    """The maze of ``cells`` (walls and free cells; any E or X there is dropped) with X on
    the first free cell and E on the free cell whose guaranteed steps are largest and
    finite, so the answer is a real number and most of the maze takes part; None when no
    such pair exists.

    >>> ring = np.array([[FREE] * 3, [FREE, WALL, FREE], [FREE] * 3], np.uint32)
    >>> print(place_ends(ring).grid.text())
    X..
    .#.
    ..E
    """
    g = np.where(cells == WALL, WALL, FREE).astype(np.uint32)
    free = np.flatnonzero(g.ravel() == FREE)
    if free.size < 2:
        return None
    g.flat[free[0]] = ord("X")
    g.flat[free[1]] = ord("E")  # a placeholder, so the maze is valid
    f = analyze(maze_from_grid(Grid(g.copy()))).f
    g.flat[free[1]] = FREE
    far = int(np.argmax(np.where(g.ravel() == FREE, f, -1)))
    if far == free[0] or f[far] < 0:
        return None
    g.flat[far] = ord("E")
    return maze_from_grid(Grid(g))


def tiled(cells: np.ndarray, times: int = 2) -> np.ndarray:
    """The walls of ``cells`` tiled ``times`` x ``times``, alternate tiles mirrored so
    neighbouring tiles meet edge to edge (the ends E and X dropped: see :func:`place_ends`).

    >>> tiled(np.array([[35, 46]], np.uint32)).tolist()
    [[35, 46, 46, 35], [35, 46, 46, 35]]
    """
    walls = np.where(cells == WALL, WALL, FREE).astype(np.uint32)
    rows = []
    for i in range(times):
        row = []
        for j in range(times):
            t = walls[::-1] if i % 2 else walls
            row.append(t[:, ::-1] if j % 2 else t)
        rows.append(np.hstack(row))
    return np.vstack(rows)


def work_per_cell(maze: Maze, heavy: bool = True) -> float:
    """The detour searches' pops per open cell when solving ``maze`` (``heavy`` False: the
    search alone): the score the adversary maximises."""
    return solve_with_stats(maze, heavy=heavy)[1].pops / max(1, int(maze.open.sum()))


def light_work_per_cell(maze: Maze, heavy: bool = True) -> float:
    """The hybrid's light children's search pops per open cell: the one part of its work
    with no proven bound, the score of the targeted adversary (``heavy`` is ignored: the
    search alone has no light children)."""
    return solve_with_stats(maze)[1].light_pops / max(1, int(maze.open.sum()))


def climb(cells: np.ndarray, rng: np.random.Generator, steps: int, heavy: bool = True,
          score: Callable[[Maze, bool], float] = work_per_cell
          ) -> Iterator[tuple[Maze, float]]:
    """Hill-climb walls against the solver: ``steps`` trials, each flipping 1-3 random
    cells of the current pattern and keeping the change when ``score(maze, heavy)`` does
    not drop: :func:`work_per_cell` (all the searches' pops per cell), or
    :func:`light_work_per_cell` to aim at the one part without a proven bound. Yields
    (maze, score) for the start and for every kept change, so a caller can stop on a
    deadline or check each maze it meets. Seeded with the best maze of a smaller side
    :func:`tiled`, this is the adversary of ``benchmarks/rock_adversary.py``. O(steps)
    solves.

    >>> rng = np.random.default_rng(1)
    >>> start = np.where(rng.random((6, 6)) < 0.3, WALL, FREE).astype(np.uint32)
    >>> scores = [s for _, s in climb(start, rng, 30)]
    >>> scores == sorted(scores)
    True
    """
    cells = np.where(cells == WALL, WALL, FREE).astype(np.uint32)
    best = place_ends(cells)
    best_score = score(best, heavy) if best is not None else -1.0
    if best is not None:
        yield best, best_score
    for _ in range(steps):
        trial = cells.copy()
        for _ in range(int(rng.integers(1, 4))):
            r, c = int(rng.integers(0, trial.shape[0])), int(rng.integers(0, trial.shape[1]))
            trial[r, c] = FREE if trial[r, c] == WALL else WALL
        maze = place_ends(trial)
        if maze is None:
            continue
        s = score(maze, heavy)
        if s >= best_score:
            cells, best_score = trial, s
            yield maze, s
