"""Closing the Portal as a picture (extra ``perfectplay[plot]``): safe and cut cells, walls,
portals and a portal path, through :mod:`perfectplay.plot`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import plot
from ..errors import PerfectplayError
from ..plot import Picture
from .result import PortalResult


def picture(result: PortalResult, path: str | Path) -> Picture:
    """Closing the Portal: safe and cut cells and a path (see :mod:`perfectplay.plot`)."""
    board, moves = result.board, result.moves
    if board is None:
        raise PerfectplayError("this result was made without its board")
    g = board.grid
    if g is None:
        raise PerfectplayError("only boards drawn as grids can be pictured")
    cut = set(moves.cut)
    img = np.zeros((g.rows, g.cols, 3), np.uint8)
    for i in range(g.size):
        r, c = g.coords(i)
        img[r, c] = (plot.BLUE if i in board.portals else plot.BLACK if not board.empty[i]
                     else plot.RED if i in cut else plot.GREEN)
    fig, ax, layout = plot.board_figure(img, "Closing the Portal: safe and cut cells")
    plot.dots(ax, [g.coords(i) for i in moves.path[1:-1]], layout.cell)
    for p in board.portals:
        plot.label(ax, *g.coords(p), "O", layout.cell)
    plot.legend(fig, [(plot.GREEN, "safe to wall"), (plot.RED, "cut: walling it loses"),
                      (plot.BLACK, "wall"), (plot.BLUE, "portal (O)"),
                      (plot.WHITE, "a portal path")])
    return plot.save(fig, layout, path)
