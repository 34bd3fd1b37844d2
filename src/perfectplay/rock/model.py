"""A Rock maze: the grid, its walkable cells, the entrance E and the exit X, read from text
(with or without the judge's "R C" line); and the options of :func:`~perfectplay.rock.analyze`.

>>> parse_maze("EX").exit
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ..errors import InputError
from ..grid import Grid, cell_name, neighbour_table, parse_grid

WALL, FREE, ENTRANCE, EXIT = "#", ".", "E", "X"
ALLOWED = WALL + FREE + ENTRANCE + EXIT


@dataclass(frozen=True)
class RockOptions:
    """How the result is shown, and whether the seed's method runs beside the fast one (the
    answer never changes)."""

    drawing: bool = field(default=True, metadata={
        "help": "Leave out the value map (large mazes).", "flag": "--no-map"})
    method: Literal["fast", "seed"] = field(default="fast", metadata={
        "help": "fast: one BFS tree, the detour searches and label setting; seed: also "
                "run the seed's one BFS per cell and sweeps (at most 1,600 cells), check "
                "every cell agrees and compare the costs."})
    trace: bool = field(default=False, metadata={
        "help": "Print the seed's sweeps, what changed in each (implies --method seed)."})


@dataclass(frozen=True)
class Maze:
    """``nb`` the 4-neighbour table with walls left out (a wall is never a neighbour), ``open``
    the walkable cells (everything but walls), ``entrance``/``exit`` flat indices."""

    grid: Grid
    nb: np.ndarray
    open: np.ndarray
    entrance: int
    exit: int

    def name(self, i: int) -> str:
        """Cell name and position, e.g. 'c4 (row 4, column 3)'."""
        r, c = self.grid.coords(i)
        return f"{cell_name(r, c)} (row {r + 1}, column {c + 1})"

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def cols(self) -> int:
        return self.grid.cols


def maze_from_grid(grid: Grid) -> Maze:
    """Check that a grid has exactly one E and one X and build its maze."""
    for ch, what in ((ENTRANCE, "entrance"), (EXIT, "exit")):
        found = grid.find(ch)
        if len(found) != 1:
            where = ", ".join(cell_name(r, c) for r, c in found[:5])
            raise InputError(f"expected exactly one {what} '{ch}', found {len(found)}"
                             + (f" ({where})" if where else ""))
    (er, ec), (xr, xc) = grid.find(ENTRANCE)[0], grid.find(EXIT)[0]
    open_ = ~grid.mask(WALL)
    nb = neighbour_table(grid.rows, grid.cols, open_=open_)  # walls are nobody's neighbour
    return Maze(grid, nb, open_, grid.index(er, ec), grid.index(xr, xc))


def parse_maze(text: str) -> Maze:
    """A maze from text: the rows alone, or ``R C`` first."""
    return maze_from_grid(parse_grid(text, ALLOWED))
