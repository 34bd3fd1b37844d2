"""The seed's own method for No, runnable and traced (``method="seed"``).

The seed (a KTH exam answer, "Algorithm 1") runs a breadth-first search over the whole board
from the start piece, frontier by frontier, and for every cell it reaches checks the list of
pieces (``slump.contains``), keeping the nearest: O(cells x pieces), O(N^3) on the N x N
board with N pieces it describes. It does not stop at the first piece found. Walls (drawn
boards) are cells the search never enters; with ``block`` another piece is reached but not
walked through, as the fast method does.

>>> seed_nearest([(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)], 2, 5).pieces
[0, 3, 4]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..errors import LimitError
from ..grid import cell_name
from ..seedrun import Tracer
from ..textio import plural
from .result import Nearest

#: Cells times pieces the seed's method runs on (its list lookup per reached cell).
SEED_WORK = 10_000_000
#: Cells a frontier's line names.
NAMED = 8


def check_size(rows: int, cols: int, pieces: int) -> None:
    """A :class:`LimitError` before any work when the board is too large for the seed."""
    if rows * cols * max(pieces, 1) > SEED_WORK:
        raise LimitError(f"the seed's method checks the list of pieces at every cell: "
                         f"cells x pieces must be at most {SEED_WORK:,}, got {rows:,} x "
                         f"{cols:,} cells and {pieces:,} pieces")


def seed_nearest(pieces: Sequence[Sequence[int]], start: int, size: int) -> Nearest:
    """The seed's algorithm on an open ``size`` x ``size`` board: BFS from the start piece,
    and for every cell reached a linear search of the piece list. O(N^2 * N) = O(N^3)."""
    return seed_search(pieces, start, size, size)[0]


def seed_search(pieces: Sequence[Sequence[int]], start: int, rows: int, cols: int,
                walls: np.ndarray | None = None, block: bool = False,
                tracer: Tracer | None = None,
                name: Callable[[int], str] = lambda i: f"P{i + 1}") -> tuple[Nearest, int]:
    """The seed's frontier search and its work (cells reached times pieces looked through);
    ``tracer`` records each frontier: its distance, its cells, the pieces it finds."""
    slump = [(int(q[0]), int(q[1])) for q in pieces]
    blocking = set(slump) - {slump[start]} if block else set()
    sr, sc = slump[start]
    dist = {(sr, sc): 0}
    frontier = [(sr, sc)]
    best: list[int] = []
    best_d: int | None = None
    work, k = 0, 0
    on = tracer is not None and tracer.on
    while frontier:
        k += 1
        new_frontier: list[tuple[int, int]] = []
        found: list[int] = []
        for r, c in frontier:
            if (r, c) in blocking:
                continue  # a piece is reached, not walked through
            for nr, nc in ((r + 1, c), (r, c - 1), (r, c + 1), (r - 1, c)):
                if not (0 <= nr < rows and 0 <= nc < cols) or (nr, nc) in dist:
                    continue
                if walls is not None and walls[nr, nc]:
                    continue
                dist[(nr, nc)] = k
                new_frontier.append((nr, nc))
                work += len(slump)
                for i, q in enumerate(slump):  # the seed's slump.contains(...)
                    if q == (nr, nc) and i != start:
                        found.append(i)
                        if best_d is None or k < best_d:
                            best_d, best = k, [i]
                        elif k == best_d:
                            best.append(i)
        if on and new_frontier:
            assert tracer is not None
            _trace_frontier(tracer, k, new_frontier, found, best_d, best, name)
        frontier = new_frontier
    return Nearest(start, best_d, sorted(best), []), work


def _trace_frontier(tracer: Tracer, k: int, cells: list[tuple[int, int]], found: list[int],
                    best_d: int | None, best: list[int], name: Callable[[int], str]) -> None:
    named = ", ".join(cell_name(r, c) for r, c in cells[:NAMED])
    more = f" and {len(cells) - NAMED:,} more" if len(cells) > NAMED else ""
    text = f"{plural(len(cells), 'cell')} at distance {k}: {named}{more}"
    if found:
        text += "; pieces here: " + ", ".join(name(i) for i in found)
    if best_d is not None:
        text += f"; nearest so far: {', '.join(name(i) for i in best)} ({best_d})"
    tracer.add(f"frontier {k}", text, cells=cells, values=[k] * len(cells))
