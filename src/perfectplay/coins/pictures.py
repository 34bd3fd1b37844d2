"""Coins as a picture (extra ``perfectplay[plot]``): the seed's P table as a heat map with
the move table, through :mod:`perfectplay.plot` (which imports matplotlib on first use)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .. import plot
from ..plot import Picture
from .result import CoinsResult
from .seed import seed_tables


def matplotlib_patches() -> Any:
    """matplotlib's patches module, after plot's clear error when matplotlib is missing."""
    plot.matplotlib_pyplot()
    import matplotlib.patches

    return matplotlib.patches


def picture(result: CoinsResult, path: str | Path) -> Picture:
    """The seed's P table of ``result``'s row as a heat map, with the move table's bars
    (see :mod:`perfectplay.plot`); rows of at most SEED_TABLE_LIMIT coins."""
    coins = list(result.row)
    P, m = result.table or seed_tables(coins)
    n = len(coins)
    vals = np.array([[P[i][j] if j >= i else 0 for j in range(1, n + 1)]
                     for i in range(1, n + 1)], dtype=float)
    top = float(vals.max()) if n else 1.0
    colours = plot.heat(vals, top)
    img = np.full((n, n, 3), plot.PAPER, np.uint8)
    for i in range(n):
        for j in range(i, n):
            img[i, j] = colours[i, j]
    fig, ax, layout = plot.board_figure(img, "Coins: P(i, j), the best total on coins i..j")
    ax.set_xticks(range(n), [str(j + 1) for j in range(n)])
    ax.set_yticks(range(n), [str(i + 1) for i in range(n)])
    ax.set_xlabel("j (last coin)")
    ax.set_ylabel("i (first coin)")
    Rectangle = matplotlib_patches().Rectangle
    for i in range(n):
        for j in range(i, n):
            x0 = j - 0.5 + (0.03 if m[i + 1][j + 1] == "i" else 0.77)
            ax.add_patch(Rectangle((x0, i - 0.4), 0.2, 0.8, color=np.array(plot.INK) / 255,
                                   linewidth=0))
            dark = vals[i, j] / max(top, 1) < 0.6
            plot.label(ax, i, j, str(P[i + 1][j + 1]), layout.cell, "white" if dark else "black")
    plot.colour_bar(fig, layout, n, n, top, "P(i, j)")
    plot.legend(fig, [(plot.INK, "the move: a bar on the left\ntakes coin i, on the right coin j")])
    return plot.save(fig, layout, path)
