"""Structured mazes for tests and benchmarks: the families that make detour searches work.

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

import numpy as np

from ..grid import Grid
from .maze import Maze, maze_from_grid


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
