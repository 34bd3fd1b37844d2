"""The Rock against an adversary: mazes hill-climbed to maximise the detour searches' work.

For each side (16, 32, 64, 128) the climb (:func:`perfectplay.rock.families.climb`) starts
from the best maze of the side before, tiled 2 x 2 with mirror images (random walls for the
first), flips 1-3 cells at a time and keeps every change that does not lower the score, pops
(cells the detour searches pop, the solver's own count) per open cell. E sits on the cell
with the largest finite value, X in a corner. Each solver (the search alone, the hybrid) is
attacked by its own climb and also run on the other's mazes. A third, targeted climb
maximises only the hybrid's light children's search pops per cell
(:func:`perfectplay.rock.families.light_work_per_cell`), the one part of its work with no
proven bound.

Then each worst 128 maze is tiled up to 1024 x 1024 and timed two ways: in this process
against one plain BFS over the same grid, and as whole processes, ``perfectplay rock
--no-map FILE`` against a process that reads the same file and runs one BFS (the measure of
the issue: what a user waits for).

    python benchmarks/rock_adversary.py [--quick] [--seconds S] [--save DIR]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from common import best_of, rock_processes

from perfectplay.grid import Grid, bfs
from perfectplay.rock import Maze, maze_from_grid
from perfectplay.rock.families import (
    FREE,
    WALL,
    climb,
    light_work_per_cell,
    place_ends,
    tiled,
    work_per_cell,
)
from perfectplay.rock.solver import solve_with_stats


def solve(maze, **switches):
    """The solver through its statistics entry point (``chains``, ``heavy``), with the
    counts on the answer: ``.f``, ``.T``, ``.value``, ``.pops``, ``.light_pops``."""
    sol, stats = solve_with_stats(maze, **switches)
    return SimpleNamespace(f=sol.f, T=sol.T, value=sol.value, pops=stats.pops,
                           light_pops=stats.light_pops)

def walls(maze: Maze) -> np.ndarray:
    return maze.grid.cells


def attack(sides: list[int], seconds: float, heavy: bool, score=work_per_cell) -> list[tuple]:
    """Hill-climb against one solver's ``score``; for each side: (side, open cells, the
    score, the other solver's pops per cell on the same maze, the maze)."""
    rng = np.random.default_rng(19)
    best: Maze | None = None
    rows = []
    for side in sides:
        if best is None:
            start = np.where(rng.random((side, side)) < 0.3, WALL, FREE).astype(np.uint32)
        else:
            start = tiled(walls(best))
        deadline = time.perf_counter() + seconds
        value = 0.0
        for maze, s in climb(start, rng, 10**9, heavy, score):
            best, value = maze, s
            if time.perf_counter() > deadline:
                break
        n = int(best.open.sum())
        rows.append((side, n, value, work_per_cell(best, not heavy), best))
    return rows


def timed(maze: Maze) -> str:
    """Both solvers and one BFS on ``maze``, in this process."""
    n = int(maze.open.sum())
    t_old = best_of(lambda: solve(maze, heavy=False), 1)
    t_new = best_of(lambda: solve(maze), 3)
    t_bfs = best_of(lambda: bfs(maze.nb, maze.open, maze.exit), 3)
    old, new = solve(maze, heavy=False), solve(maze)
    assert np.array_equal(old.T, new.T) and np.array_equal(old.f, new.f)
    return (f"{maze.rows} x {maze.cols}, {n:,} open cells: search alone {t_old:.2f} s "
            f"({t_old / t_bfs:.0f}x one BFS, {old.pops / n:.1f} pops per cell), hybrid "
            f"{t_new:.2f} s ({t_new / t_bfs:.0f}x, {new.pops / n:.1f}); one BFS "
            f"{t_bfs:.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="sides 16-64, 2 s a side")
    ap.add_argument("--seconds", type=float, default=None, help="climbing time per side")
    ap.add_argument("--save", type=Path, default=None, help="write the worst mazes here")
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
        per_log = ", ".join(f"{p / math.log2(n):.2f}" for _, n, p, _, _ in rows)
        print(f"{label}: pops per cell grow as n^{e:.2f} under its own climb (total work "
              f"n^{1 + e:.2f}); pops per cell / log2 n: {per_log}")
    # the targeted adversary: the hybrid's light children's searches, the one part of its
    # work without a proven bound
    aimed = attack(sides, seconds, heavy=True, score=light_work_per_cell)
    print("climbed against the hybrid's light children's pops (the unproven part):")
    print("| side | open cells | light pops per cell | all its pops per cell | the search "
          "alone's |")
    print("|---|---|---|---|---|")
    for side, n, light, search, maze in aimed:
        print(f"| {side} | {n} | {light:.2f} | {work_per_cell(maze):.1f} | {search:.1f} |")
    times = 1024 // sides[-1] if not args.quick else 4
    for label, rows in (("search alone", old), ("hybrid", new)):
        big = place_ends(tiled(walls(rows[-1][4]), times))
        print(f"the {label}'s worst {sides[-1]} maze tiled: {timed(big)}")
        print(f"  {rock_processes(big)}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            tag = label.replace(" ", "-")
            for side, _, _, _, maze in rows:
                (args.save / f"{tag}-{side}.txt").write_text(maze.grid.text() + "\n")
            (args.save / f"{tag}-tiled.txt").write_text(big.grid.text() + "\n")


if __name__ == "__main__":
    main()
