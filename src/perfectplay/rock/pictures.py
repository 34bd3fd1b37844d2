"""The Rock as a picture (extra ``perfectplay[plot]``): each cell's guaranteed steps on a
colour scale, walls, the walker's route and the rock's block, through :mod:`perfectplay.plot`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import plot
from ..plot import Picture
from .result import RockSolution


def picture(sol: RockSolution, path: str | Path) -> Picture:
    """The Rock's value map: guaranteed steps as colours, the route, the rock's block (see
    :mod:`perfectplay.plot`)."""
    m = sol.maze
    f = sol.f.astype(float)
    top = float(f.max()) if f.size else 1.0
    colours = plot.heat(f, top)
    img = np.zeros((m.rows, m.cols, 3), np.uint8)
    route, _, blocked = sol.route()
    for i in range(m.rows * m.cols):
        r, c = m.grid.coords(i)
        img[r, c] = (plot.BLACK if not m.open[i] else plot.GREY_RED if sol.f[i] < 0
                     else colours[i])
    if blocked is not None:
        img[m.grid.coords(blocked)] = plot.RED
    value = "infinite" if sol.value is None else f"{sol.value} steps"
    fig, ax, layout = plot.board_figure(img, f"The Rock: the walker can guarantee {value}")
    plot.dots(ax, [m.grid.coords(i) for i in route if i not in (m.entrance, m.exit)],
              layout.cell)
    plot.label(ax, *m.grid.coords(m.entrance), "E", layout.cell)
    plot.label(ax, *m.grid.coords(m.exit), "X", layout.cell)
    if blocked is not None:
        plot.label(ax, *m.grid.coords(blocked), "R", layout.cell)
    plot.colour_bar(fig, layout, m.rows, m.cols, top, "guaranteed steps")
    plot.legend(fig, [(plot.BLACK, "wall"), (plot.RED, "the rock's block (R)"),
                      (plot.GREY_RED, "cut off: infinite"),
                      (plot.WHITE, "the walker's route")])
    return plot.save(fig, layout, path)
