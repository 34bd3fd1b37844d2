"""Pictures that read on their own (optional extra ``perfectplay[plot]``; matplotlib is
imported only here, lazily). PNG or SVG, by the file's suffix.

Every picture has a title, the board's column letters and row numbers (the same cell names
the text uses), a legend or a colour bar, and cells large enough to read (the board is at
least about 600 px wide unless it is tiny). Each cell is one flat colour, documented here and
checked pixel by pixel in the tests:

- The Rock: each walkable cell's guaranteed steps f on the viridis scale (colour bar), walls
  black, cells the walker can never leave red-grey, the rock's block solid red; the walker's
  route as white dots; E and X written in their cells.
- Closing the Portal: empty safe cells green, cut cells red, walls black, portals blue with
  an "O"; a portal-to-portal path as white dots.
- Coins: the seed's P(i, j) table on the viridis scale (colour bar; empty below the
  diagonal), with the move m(i, j) as a dark bar along the cell's left (take coin i) or
  right edge (take coin j) and the value written in the cell.

The games draw their own pictures (each game package's ``picture`` module) with the helpers
here: :func:`board_figure`, :func:`label`, :func:`dots`, :func:`legend`, :func:`colour_bar`,
:func:`heat` and :func:`save`. Each picture is a :class:`Picture`: where it was saved and
where each cell is in it, in pixels (the figure is laid out to exact pixel positions, never
"tight").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .errors import PerfectplayError
from .grid import cell_name

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
RED = (220, 30, 30)
GREEN = (60, 170, 80)
BLUE = (40, 90, 220)
GREY_RED = (140, 90, 90)
PAPER = (250, 250, 250)
INK = (30, 30, 30)

MIN_WIDTH = 600  # pixels of board, unless the board is tiny
MAX_CELL = 64
MIN_CELL = 2
MAX_PIXELS = 40_000_000
LEFT, RIGHT, TOP, BOTTOM = 70, 230, 90, 40  # margins: labels, legend / colour bar, title
DPI = 100


@dataclass(frozen=True)
class Picture:
    """A saved picture and its layout: cell (r, c) spans ``cell`` pixels from
    (``left + c * cell``, ``top + r * cell``), origin at the image's top-left."""

    path: Path
    width: int
    height: int
    left: int
    top: int
    cell: int

    def centre(self, r: int, c: int) -> tuple[int, int]:
        """(x, y) pixel of the middle of cell (r, c)."""
        return self.left + c * self.cell + self.cell // 2, self.top + r * self.cell + \
            self.cell // 2

    def inside(self, r: int, c: int) -> tuple[int, int]:
        """(x, y) pixel near the top-left corner of cell (r, c), clear of dots and labels."""
        k = max(1, self.cell // 8)
        return self.left + c * self.cell + k, self.top + r * self.cell + k


def matplotlib_pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PerfectplayError("pictures need matplotlib: pip install 'perfectplay[plot]'") \
            from None
    return plt


def cell_size(rows: int, cols: int) -> int:
    """Pixels a cell: the board at least MIN_WIDTH wide, cells at most MAX_CELL, the whole
    picture within MAX_PIXELS (a :class:`PerfectplayError` when even MIN_CELL is too big)."""
    cell = max(MIN_CELL, min(MAX_CELL, -(-MIN_WIDTH // max(cols, 1))))
    while cell > MIN_CELL and (cols * cell + LEFT + RIGHT) * (rows * cell + TOP + BOTTOM) \
            > MAX_PIXELS:
        cell -= 1
    if (cols * cell + LEFT + RIGHT) * (rows * cell + TOP + BOTTOM) > MAX_PIXELS:
        raise PerfectplayError(f"a {rows} x {cols} picture is too large (more than "
                               f"{MAX_PIXELS:,} pixels even at {MIN_CELL} px a cell)")
    return cell


def heat(values: np.ndarray, top: float) -> np.ndarray:
    """viridis colours (uint8 RGB) of values scaled by ``top``."""
    matplotlib_pyplot()  # a clear error, not a traceback, without the plot extra
    from matplotlib import colormaps

    scaled = np.clip(values / max(top, 1), 0, 1)
    return (colormaps["viridis"](scaled)[..., :3] * 255).round().astype(np.uint8)


def _ticks(n: int, most: int = 26) -> list[int]:
    step = max(1, -(-n // most))
    return list(range(0, n, step))


def board_figure(img: np.ndarray, title: str) -> tuple[Any, Any, Picture]:
    """A figure laid out to the pixel: the cell image, column letters on top, row numbers
    on the left, the title above. Returns (figure, axes, layout without a path)."""
    plt = matplotlib_pyplot()
    rows, cols = img.shape[:2]
    cell = cell_size(rows, cols)
    width, height = cols * cell + LEFT + RIGHT, rows * cell + TOP + BOTTOM
    fig = plt.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((LEFT / width, BOTTOM / height, cols * cell / width,
                       rows * cell / height))
    ax.imshow(img, interpolation="nearest", extent=(-0.5, cols - 0.5, rows - 0.5, -0.5),
              aspect="auto")
    xs, ys = _ticks(cols), _ticks(rows)
    ax.set_xticks(xs, [cell_name(0, c)[:-1] for c in xs])
    ax.set_yticks(ys, [str(r + 1) for r in ys])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    fig.suptitle(title, y=1 - 12 / height, va="top", fontsize=12)
    return fig, ax, Picture(Path(), width, height, LEFT, TOP, cell)


def label(ax: Any, r: int, c: int, text: str, cell: int, colour: str = "white") -> None:
    if cell >= 10:
        ax.text(c, r, text, ha="center", va="center", color=colour,
                fontsize=max(6, min(14, cell * 0.45)), fontweight="bold")


def dots(ax: Any, cells: list[tuple[int, int]], cell: int) -> None:
    if cells:
        ys, xs = zip(*cells, strict=True)
        ax.scatter(xs, ys, s=max(1.0, (cell * 0.3) ** 2), c="white", marker="o",
                   linewidths=0)


def legend(fig: Any, entries: list[tuple[tuple[int, int, int], str]]) -> None:
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=(colour[0] / 255, colour[1] / 255, colour[2] / 255),
                     edgecolor="grey", label=label) for colour, label in entries]
    fig.legend(handles=handles, loc="upper right", fontsize=8, frameon=False,
               bbox_to_anchor=(0.995, 1 - 30 / fig.get_figheight() / DPI))


def colour_bar(fig: Any, layout: Picture, rows: int, cols: int, top: float,
                label: str) -> None:
    """A colour bar in the right margin, below the legend, never moving the board."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    w, h = layout.width, layout.height
    x = LEFT + cols * layout.cell + 30
    height = max(60, min(rows * layout.cell, h - TOP - BOTTOM) * 0.55)
    cax = fig.add_axes((x / w, BOTTOM / h, 14 / w, height / h))
    bar = fig.colorbar(ScalarMappable(Normalize(0, max(top, 1)), colormaps["viridis"]),
                       cax=cax)
    bar.set_label(label, fontsize=8)


def position_picture(draw_on: Any, text: str, title: str, path: str | Path) -> Path:
    """Save one position of an engine game: ``draw_on(ax)`` draws the board (the game's
    ``plot(pos, ax)`` hook, e.g. the catalog's boards) or, when it is None, ``text`` (the
    game's ``draw``) in a monospaced font; ``title`` above (value, whose turn, best move)."""
    picture_format(path, bare=None)
    plt = matplotlib_pyplot()
    fig = plt.figure(figsize=(7, 7.5), dpi=DPI)
    ax = fig.add_axes((0.05, 0.03, 0.9, 0.82))
    if draw_on is not None:
        draw_on(ax)
    else:
        ax.text(0.5, 0.5, text or "(the game draws no picture)", family="monospace",
                fontsize=14, ha="center", va="center", transform=ax.transAxes)
        ax.axis("off")
    fig.suptitle(title, fontsize=13, wrap=True)
    target = Path(path)
    fig.savefig(target)
    plt.close(fig)
    return target


def picture_format(path: str | Path, bare: str | None = "png") -> str:
    """"png" or "svg", by the file's suffix (none: ``bare``; None makes a suffix required);
    anything else is an error, checked by the CLI before any work and here before any
    drawing."""
    out = Path(path)
    kind = out.suffix.lower().lstrip(".") or bare
    if kind not in ("png", "svg"):
        raise PerfectplayError(f"pictures are PNG or SVG: name the file .png or .svg, not "
                               f"{out.name}")
    return kind


def save(fig: Any, layout: Picture, path: str | Path) -> Picture:
    plt = matplotlib_pyplot()
    out = Path(path)
    try:
        kind = picture_format(out)
    except PerfectplayError:
        plt.close(fig)
        raise
    fig.savefig(out, dpi=DPI, format=kind)
    plt.close(fig)
    return Picture(out, layout.width, layout.height, layout.left, layout.top, layout.cell)

