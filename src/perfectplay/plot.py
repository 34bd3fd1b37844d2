"""Pictures (optional extra ``perfectplay[plot]``; matplotlib is imported only here, lazily).

Every picture is a grid of square cells of ``CELL`` pixels, composed as an RGB array and
saved with matplotlib, so a cell's colour is exact and documented:

- The Rock: each walkable cell's guaranteed steps f as a viridis heat map (0 = the exit end
  of the scale), walls black, cells the walker can never leave red-grey, the walker's route
  as a white dot in the cell centre, the rock's block solid red.
- Closing the Portal: empty safe cells green, cut cells red, walls black, portals blue, the
  portal-to-portal path as a white centre dot.
- Coins: the seed's P(i, j) table as a viridis heat map (row i, column j; empty below the
  diagonal), and the move m(i, j) as a dark bar on the cell's left (take coin i) or right
  third (take coin j).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .errors import PerfectplayError

CELL = 16
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
RED = (220, 30, 30)
GREEN = (60, 170, 80)
BLUE = (40, 90, 220)
GREY_RED = (140, 90, 90)
PAPER = (250, 250, 250)
INK = (30, 30, 30)
MAX_PIXELS = 40_000_000


def _matplotlib() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PerfectplayError("pictures need matplotlib: pip install 'perfectplay[plot]'") \
            from None
    return plt


def _canvas(rows: int, cols: int, cell: int) -> np.ndarray:
    if rows * cols * cell * cell > MAX_PIXELS:
        raise PerfectplayError(f"a {rows} x {cols} picture at {cell} px a cell is too large; "
                               "use a smaller maze or board")
    return np.full((rows * cell, cols * cell, 3), PAPER, dtype=np.uint8)


def _fill(img: np.ndarray, r: int, c: int, colour: Any, cell: int) -> None:
    img[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell] = colour


def _dot(img: np.ndarray, r: int, c: int, colour: Any, cell: int) -> None:
    a, b = cell // 3, cell - cell // 3
    img[r * cell + a:r * cell + b, c * cell + a:c * cell + b] = colour


def heat(values: np.ndarray, top: float) -> np.ndarray:
    """viridis colours (uint8 RGB) of values scaled by ``top``."""
    from matplotlib import colormaps

    scaled = np.clip(values / max(top, 1), 0, 1)
    return (colormaps["viridis"](scaled)[..., :3] * 255).round().astype(np.uint8)


def _save(img: np.ndarray, path: str | Path) -> Path:
    plt = _matplotlib()
    out = Path(path)
    plt.imsave(out, img)
    return out


def rock_png(sol: Any, path: str | Path, cell: int = CELL) -> Path:
    """The Rock's value map (see the module doc)."""
    _matplotlib()
    m = sol.maze
    img = _canvas(m.rows, m.cols, cell)
    f = sol.f.astype(float)
    colours = heat(f, float(f.max()) if f.size else 1.0)
    route, _, blocked = sol.route()
    for i in range(m.rows * m.cols):
        r, c = m.grid.coords(i)
        if not m.open[i]:
            _fill(img, r, c, BLACK, cell)
        elif sol.f[i] < 0:
            _fill(img, r, c, GREY_RED, cell)
        else:
            _fill(img, r, c, colours[i], cell)
    for i in route:
        _dot(img, *m.grid.coords(i), WHITE, cell)
    if blocked is not None:
        _fill(img, *m.grid.coords(blocked), RED, cell)
    return _save(img, path)


def portal_png(board: Any, moves: Any, path: str | Path, cell: int = CELL) -> Path:
    """Closing the Portal: safe and cut cells and a path (see the module doc)."""
    _matplotlib()
    g = board.grid
    if g is None:
        raise PerfectplayError("only boards drawn as grids can be pictured")
    img = _canvas(g.rows, g.cols, cell)
    cut = set(moves.cut)
    for i in range(g.size):
        r, c = g.coords(i)
        if i in board.portals:
            _fill(img, r, c, BLUE, cell)
        elif not board.empty[i]:
            _fill(img, r, c, BLACK, cell)
        else:
            _fill(img, r, c, RED if i in cut else GREEN, cell)
    for i in moves.path[1:-1]:
        _dot(img, *g.coords(i), WHITE, cell)
    return _save(img, path)


def coins_png(coins: Any, path: str | Path, cell: int = 24) -> Path:
    """The seed's P table as a heat map with the move table's bars (see the module doc)."""
    from .coins import seed_tables

    _matplotlib()
    P, m = seed_tables(coins)
    n = len(coins)
    img = _canvas(n, n, cell)
    vals = np.array([[P[i][j] if j >= i else 0 for j in range(1, n + 1)]
                     for i in range(1, n + 1)], dtype=float)
    colours = heat(vals, float(vals.max()) if n else 1.0)
    third = cell // 3
    for i in range(n):
        for j in range(i, n):
            _fill(img, i, j, colours[i, j], cell)
            x0 = j * cell + (0 if m[i + 1][j + 1] == "i" else cell - third)
            img[i * cell + 2:(i + 1) * cell - 2, x0:x0 + third] = INK
    return _save(img, path)
