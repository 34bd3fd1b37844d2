"""The Rock against an adversary: mazes hill-climbed to maximise the detour searches' work.

For each side (16, 32, 64, 128) the climb starts from the best maze of the side before,
tiled 2 x 2 with mirror images (random walls for the first), flips 1-3 cells at a time and
keeps every change that does not lower the score, pops (cells the detour searches pop, the
solver's own count) per open cell. E sits on the cell with the largest finite value, X in a
corner. Then the best 128 maze is tiled up to 1024 x 1024 and timed against one plain BFS
over the same grid, in the same process. Prints the growth table the README records.

    python benchmarks/rock_adversary.py [--quick] [--seconds S]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from common import best_of

from perfectplay.grid import Grid, bfs
from perfectplay.rock import maze_from_grid, solve

WALL, FREE = ord("#"), ord(".")


def place_ends(cells: np.ndarray) -> np.ndarray | None:
    """X in the top-left open cell, E on the open cell with the largest finite value; None
    when the maze has fewer than two open cells."""
    g = np.where(cells == WALL, WALL, FREE).astype(np.uint32)
    free = np.flatnonzero(g.ravel() == FREE)
    if free.size < 2:
        return None
    g.flat[free[0]] = ord("X")
    g.flat[free[1]] = ord("E")  # a placeholder, so the maze is valid
    f = solve(maze_from_grid(Grid(g.copy()))).f
    g.flat[free[1]] = FREE
    far = int(np.argmax(np.where(g.ravel() == FREE, f, -1)))
    if far == free[0] or f[far] < 0:
        return None
    g.flat[far] = ord("E")
    return g


#: The solver under attack (the climb maximises its pops): the hybrid, or the search alone.
HEAVY = True


def score(g: np.ndarray) -> float:
    sol = solve(maze_from_grid(Grid(g)), heavy=HEAVY)
    return sol.pops / max(1, int(sol.maze.open.sum()))


def climb(start: np.ndarray, seconds: float, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    best = place_ends(start)
    best_score = score(best) if best is not None else 0.0
    cells = start.copy()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        trial = cells.copy()
        for _ in range(rng.integers(1, 4)):
            r, c = rng.integers(0, trial.shape[0]), rng.integers(0, trial.shape[1])
            trial[r, c] = FREE if trial[r, c] == WALL else WALL
        g = place_ends(trial)
        if g is None:
            continue
        s = score(g)
        if s >= best_score:
            cells, best, best_score = trial, g, s
    return best, best_score


def tiled(g: np.ndarray, times: int = 2) -> np.ndarray:
    """The walls of ``g`` tiled times x times, alternate tiles mirrored (ends removed)."""
    walls = np.where(g == WALL, WALL, FREE).astype(np.uint32)
    rows = []
    for i in range(times):
        row = []
        for j in range(times):
            t = walls[::-1] if i % 2 else walls
            row.append(t[:, ::-1] if j % 2 else t)
        rows.append(np.hstack(row))
    return np.vstack(rows)


def attack(sides: list[int], seconds: float, heavy: bool) -> list[tuple]:
    """Hill-climb against one solver; for each side: (side, open cells, its pops per cell,
    the other solver's on the same maze, the maze)."""
    global HEAVY
    HEAVY = heavy
    rng = np.random.default_rng(19)
    best = None
    rows = []
    for side in sides:
        if best is None:
            start = np.where(rng.random((side, side)) < 0.3, WALL, FREE).astype(np.uint32)
        else:
            start = tiled(best)
        best, s = climb(start, seconds, rng)
        m = maze_from_grid(Grid(best))
        n = int(m.open.sum())
        rows.append((side, n, s, solve(m, heavy=not heavy).pops / n, best))
    return rows


def timed(g: np.ndarray) -> str:
    """Both solvers and one BFS on the maze ``g``, in this process."""
    m = maze_from_grid(Grid(g))
    n = int(m.open.sum())
    t_old = best_of(lambda: solve(m, heavy=False), 1)
    t_new = best_of(lambda: solve(m), 1)
    t_bfs = best_of(lambda: bfs(m.nb, m.open, m.exit), 3)
    old, new = solve(m, heavy=False), solve(m)
    assert np.array_equal(old.T, new.T) and np.array_equal(old.f, new.f)
    return (f"{g.shape[0]} x {g.shape[1]}, {n:,} open cells: search alone {t_old:.2f} s "
            f"({t_old / t_bfs:.0f}x one BFS, {old.pops / n:.1f} pops per cell), hybrid "
            f"{t_new:.2f} s ({t_new / t_bfs:.0f}x, {new.pops / n:.1f}); one BFS {t_bfs:.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="sides 16-64, 2 s a side")
    ap.add_argument("--seconds", type=float, default=None, help="climbing time per side")
    args = ap.parse_args()
    sides = [16, 32, 64] if args.quick else [16, 32, 64, 128]
    seconds = args.seconds or (2.0 if args.quick else 40.0)
    solve(maze_from_grid(Grid(np.array([[ord("E"), ord("X")]], np.uint32))))  # compile
    print(f"hill-climbing against pops per open cell ({seconds:g} s a side), each solver "
          "attacked by its own climb")
    old = attack(sides, seconds, heavy=False)
    new = attack(sides, seconds, heavy=True)
    print("| side | climbed against the search alone: its pops per cell | the hybrid's on "
          "those mazes | climbed against the hybrid: its pops per cell | the search's on "
          "those mazes |")
    print("|---|---|---|---|---|")
    for (side, _, so, sn, _), (_, _, hn, ho, _) in zip(old, new, strict=True):
        print(f"| {side} | {so:.1f} | {sn:.1f} | {hn:.1f} | {ho:.1f} |")
    for label, rows in (("search alone", old), ("hybrid", new)):
        (_, n0, p0, _, _), (_, n1, p1, _, _) = rows[0], rows[-1]
        e = math.log(p1 / p0) / math.log(n1 / n0)
        print(f"{label}: pops per cell grow as n^{e:.2f} under its own climb (total work "
              f"n^{1 + e:.2f})")
    times = 1024 // sides[-1] if not args.quick else 4
    for label, rows in (("search alone", old), ("hybrid", new)):
        big = place_ends(tiled(rows[-1][4], times))
        print(f"the {label}'s worst {sides[-1]} maze tiled: {timed(big)}")


if __name__ == "__main__":
    main()
