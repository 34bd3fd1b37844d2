"""What the generators, the stress tester and the checker need about a judge problem, and
the grid families the grid games share.

A game package describes each of its judge problems with a :class:`Problem` (how to make a
case, write cases in the judge's format, check a case is valid, shrink it, explain its
answer) and lists them in its :class:`~perfectplay.registry.GameSpec`;
:mod:`perfectplay.gen` and :mod:`perfectplay.stress` run them. The grid families (DFS mazes,
snakes, rooms, noise) and the grid shrinker live here once for every grid game.

>>> import random
>>> grid_rows(snake(random.Random(1), 3, 4))
['....', '#.#.', '....']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Case = Any


@dataclass(frozen=True)
class Problem:
    """Everything the generator, the stress tester and the checker need about a problem."""

    problem: str
    families: tuple[str, ...]
    make: Callable[[random.Random, int, str], Case]  # (rng, size, family) -> case
    write: Callable[[list[Case]], str]  # cases -> the judge's input text
    valid: Callable[[Case], bool]
    shrink: Callable[[Case], Iterator[Case]]  # smaller candidates, biggest cuts first
    explain: Callable[[Case], str]
    answer: str  # regular expression one output line must match
    default_size: int
    max_size: int
    single_case: bool = False  # the judge reads one case per input
    grid: bool = False  # a case is about size^2 characters (else about 12 a value)


def grid_rows(cells: np.ndarray) -> list[str]:
    return ["".join(row) for row in cells.tolist()]


def noise(rng: random.Random, rows: int, cols: int, rate: float) -> np.ndarray:
    return np.array([["#" if rng.random() < rate else "." for _ in range(cols)]
                     for _ in range(rows)], dtype="<U1")


def maze(rng: random.Random, rows: int, cols: int, braid: float) -> np.ndarray:
    """A DFS (recursive backtracker, iterative) maze on odd cells, with a share of extra
    openings so that single blocks do not cut it (``braid``)."""
    g = np.full((rows, cols), "#", dtype="<U1")
    starts = [(r, c) for r in range(0, rows, 2) for c in range(0, cols, 2)]
    r0, c0 = rng.choice(starts)
    g[r0, c0] = "."
    stack = [(r0, c0)]
    while stack:
        r, c = stack[-1]
        nxt = [(r + dr, c + dc, dr, dc) for dr, dc in ((0, 2), (0, -2), (2, 0), (-2, 0))
               if 0 <= r + dr < rows and 0 <= c + dc < cols and g[r + dr, c + dc] == "#"]
        if not nxt:
            stack.pop()
            continue
        nr, nc, dr, dc = rng.choice(nxt)
        g[r + dr // 2, c + dc // 2] = "."
        g[nr, nc] = "."
        stack.append((nr, nc))
    for r in range(rows):
        for c in range(cols):
            if g[r, c] == "#" and rng.random() < braid:
                g[r, c] = "."
    return g


def snake(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    """Horizontal walls with alternating gaps: one long corridor folded up, plus a second
    gap per wall so a single block does not cut it."""
    g = np.full((rows, cols), ".", dtype="<U1")
    for r in range(1, rows, 2):
        g[r, :] = "#"
        gaps = [cols - 1, 0] if (r // 2) % 2 == 0 else [0, cols - 1]
        g[r, gaps[0]] = "."
        g[r, rng.randrange(cols)] = "."
    return g


def rooms(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    g = noise(rng, rows, cols, 0.0)
    for _ in range(max(1, rows * cols // 30)):
        r, c = rng.randrange(rows), rng.randrange(cols)
        if rng.random() < 0.5:
            g[r, max(0, c - 3):c + 3] = "#"
        else:
            g[max(0, r - 3):r + 3, c] = "#"
    return g


def place(rng: random.Random, g: np.ndarray, marks: str) -> bool:
    free = [(r, c) for r in range(g.shape[0]) for c in range(g.shape[1]) if g[r, c] == "."]
    if len(free) < len(marks):
        return False
    for ch, (r, c) in zip(marks, rng.sample(free, len(marks)), strict=True):
        g[r, c] = ch
    return True


def grid_maker(marks: str, valid: Callable[[Case], bool], braid: float,
               rates: tuple[float, ...], min_cells: int, fallback: list[str],
               special: dict[str, Callable[[random.Random, int], Case | None]] | None = None,
               ) -> Callable[[random.Random, int, str], Case]:
    """A generator of grids with ``marks`` placed on free cells, drawn until ``valid``.

    The families ``maze``, ``snake``, ``rooms`` and ``largest`` are drawn here, any other as
    uniform noise; ``special`` adds a game's own families: ``(rng, size) -> rows``, taken
    when valid (else the grid is drawn as noise).
    """

    def make(rng: random.Random, size: int, family: str) -> Case:
        if special and family in special:
            case = special[family](rng, size)
            if case is not None and valid(case):
                return case
        for _ in range(200):
            rows, cols = rng.randint(1, size), rng.randint(1, size)
            if family == "largest":
                rows = cols = size
            if rows * cols < min_cells:
                continue
            if family == "maze":
                g = maze(rng, rows, cols, braid)
            elif family == "snake":
                g = snake(rng, rows, cols)
            elif family == "rooms":
                g = rooms(rng, rows, cols)
            else:
                g = noise(rng, rows, cols, rng.choice(rates))
            if place(rng, g, marks) and valid(grid_rows(g)):
                return grid_rows(g)
        return fallback

    return make


def shrink_grid(fixed: str) -> Callable[[Case], Iterator[Case]]:
    """Drop a row, drop a column, then turn a wall into a free cell and back."""

    def shrink(rows: list[str]) -> Iterator[Case]:
        for r in range(len(rows)):
            if len(rows) > 1:
                yield rows[:r] + rows[r + 1:]
        for c in range(len(rows[0])):
            if len(rows[0]) > 1:
                yield [row[:c] + row[c + 1:] for row in rows]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in fixed:
                    continue
                flip = "." if ch == "#" else "#"
                yield rows[:r] + [row[:c] + flip + row[c + 1:]] + rows[r + 1:]

    return shrink


def write_grids(cases: list[Case]) -> str:
    out = [str(len(cases))]
    for rows in cases:
        out.append(f"{len(rows)} {len(rows[0])}")
        out += rows
    return "\n".join(out) + "\n"
