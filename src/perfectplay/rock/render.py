"""The Rock as text: why the value is what it is (the route, where the rock strikes, or why
the walker can never be sure to arrive) and the value map. Imports the model; reads the
result through :class:`Answer`, the fields and methods it needs, so the result (which calls
these functions) is never imported here.

>>> from perfectplay import rock
>>> print(rock.analyze(rock.parse("EX")).draw())  # doctest: +ELLIPSIS
  a b
1 E X
a number: the steps the walker can guarantee from that cell; E the entrance, X the exit, ...
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..grid import framed, undrawn
from ..seedrun import SeedRun
from ..textio import plural
from .model import WALL, Maze

#: A walk: (cells from E, the index where the rock blocks, the blocked cell).
Walk = tuple[list[int], int | None, int | None]


class Answer(Protocol):
    """What the text reads of a :class:`~perfectplay.rock.RockSolution`."""

    @property
    def maze(self) -> Maze: ...
    @property
    def f(self) -> np.ndarray: ...
    @property
    def d(self) -> np.ndarray: ...
    @property
    def seed(self) -> SeedRun | None: ...
    @property
    def value(self) -> int | None: ...
    def route(self) -> Walk: ...
    def strike(self) -> Walk: ...
    def cut_cell(self) -> int | None: ...


def infinite_reason(sol: Answer) -> str:
    m = sol.maze
    cut = sol.cut_cell()
    if cut is None:
        return "walls alone separate E from X: the walker can never arrive"
    return f"the rock cuts E off from X by blocking {m.name(cut)}"


def explain(sol: Answer) -> str:
    """Words a learner can follow: the answer, the plain distance, where the rock strikes;
    then the seed's method when it ran."""
    text = _explain_answer(sol)
    if sol.seed is not None:
        text += "\n\n" + "\n".join(sol.seed.lines())
    return text


def _explain_answer(sol: Answer) -> str:
    m = sol.maze
    if sol.value is None:
        return f"The walker cannot be sure to arrive: {infinite_reason(sol)}."
    d = int(sol.d[m.entrance])
    route, at, blocked = sol.strike()  # no detour search: only where the rock strikes
    lines = [f"The walker can guarantee to reach the exit in {plural(sol.value, 'step')} "
             f"(the shortest path is {d})."]
    if blocked is None and sol.value == d:
        lines.append("No single block can lengthen the walk: wherever the rock strikes, an "
                     "equally short way on remains.")
    elif blocked is None:
        lines.append(f"The shortest path is too exposed: on it the rock could force more. "
                     f"The walker takes a longer route of {plural(sol.value, 'step')} on which "
                     "every "
                     f"cell has a spare way onward, so the rock never gains by blocking.")
    else:
        assert at is not None  # a strike has its place on the route
        start = (f"the walker walks {plural(at, 'step')} to {m.name(route[at])}; there"
                 if at else f"at the start, on {m.name(route[0])},")
        lines.append(f"Perfect play: {start} the rock blocks {m.name(blocked)}, its only "
                     f"shortest way on, and the walker needs "
                     f"{plural(sol.value - at, 'more step', 'more steps')} around it.")
        lines.append("The walker's route avoids cells where the rock's threat would cost "
                     "more, even when that route is longer than the shortest path.")
    return "\n".join(lines)


def draw(sol: Answer, style: bool = False) -> str:
    """The maze with each cell's guaranteed steps f, the route (bold green) and the rock's
    block (R), with column letters and row numbers as cell names read. Walls are '#', E and
    X marked, an infinite cell '∞'. Mazes over DRAW_LIMIT cells get one line instead."""
    m = sol.maze
    too_large = undrawn(m.rows, m.cols, "map", "; --json has every cell")
    if too_large:
        return too_large
    route, _, blocked = sol.route()
    on_route = set(route)
    cells = []
    for r in range(m.rows):
        row = []
        for c in range(m.cols):
            i = m.grid.index(r, c)
            ch = chr(m.grid.cells[r, c])
            if ch == WALL:
                text, colour = "#", "dim"
            elif i == blocked:
                text, colour = "R", "bold red"
            elif sol.f[i] < 0:
                text, colour = "∞", "red"
            else:
                text = ch if ch in "EX" else str(int(sol.f[i]))
                colour = "bold green" if i in on_route else ""
            row.append((text, f"[{colour}]{text}[/]" if style and colour else text))
        cells.append(row)
    infinite = bool((sol.f[m.grid.cells.ravel() != ord(WALL)] < 0).any())
    return framed(cells) + "\n" + ROCK_LEGEND + (", ∞ no way to X" if infinite else "")


#: What the map's marks mean, printed under it.
ROCK_LEGEND = ("a number: the steps the walker can guarantee from that cell; E the "
               "entrance, X the exit, # a wall, R where the rock falls on perfect play"
               " (the route: bold green on a terminal)")
