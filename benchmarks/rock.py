"""The Rock at scale: first the three measures of issue 32, repeated (a random 1000 x 1000
maze with 20 % walls, the corridor-and-room maze of side 700, and the adversary's worst 128
maze tiled to 1024 x 1024), each as whole processes (`perfectplay rock --no-map FILE` against
a process that parses the same file and runs one BFS) and in this process (solve against one
plain BFS over the same grid); then solve beside one BFS on random grids, the corridor-and-room
family with and without chain sharing, and the seed's algorithm at 60x60.

    python benchmarks/rock.py [--quick] [--repeat R] [--tiled FILE] [--climb-seconds S]

The adversarial maze: FILE as written by `python benchmarks/rock_adversary.py --save DIR`
(DIR/hybrid-tiled.txt, after its 40 s climbs), else a shorter climb of S seconds a side.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from common import best_of, rock_process_times, rock_processes

from perfectplay.grid import Grid, bfs
from perfectplay.rock import Maze, maze_from_grid, parse_maze, seed_values
from perfectplay.rock.families import corridor_room, place_ends, tiled
from perfectplay.rock.solver import solve_with_stats


def solve(maze, **switches):
    """The solver through its statistics entry point (``chains``, ``heavy``), with the
    counts on the answer: ``.f``, ``.T``, ``.value``, ``.pops``, ``.light_pops``."""
    sol, stats = solve_with_stats(maze, **switches)
    return SimpleNamespace(f=sol.f, T=sol.T, value=sol.value, pops=stats.pops,
                           light_pops=stats.light_pops)

def random_maze(rng: np.random.Generator, side: int, walls: float):
    """Random walls; X at the centre (inside the big component) and E on the cell with the
    largest finite value, so the whole grid takes part and the answer is a real number."""
    cells = np.where(rng.random((side, side)) < walls, ord("#"), ord(".")).astype(np.uint32)
    centre = (side // 2) * side + side // 2
    cells.flat[centre] = ord("X")
    cells.flat[centre + 1] = ord("E")  # a placeholder to make the maze valid
    f = solve(maze_from_grid(Grid(cells.copy()))).f
    cells.flat[centre + 1] = ord(".")
    cells.flat[int(np.argmax(f))] = ord("E")
    return maze_from_grid(Grid(cells))


def adversarial_tiling(path: Path | None, seconds: float, quick: bool) -> Maze:
    """The hybrid's worst 128 maze (rock_adversary.py's climb) tiled to 1024 x 1024: read
    from ``path``, else climbed here for ``seconds`` a side (a shorter climb: the maze is
    less hard than the 40 s one). Quick: the worst 32 maze tiled to 256 x 256."""
    if path is not None:
        return parse_maze(path.read_text())
    from rock_adversary import attack, walls

    sides = [16, 32] if quick else [16, 32, 64, 128]
    worst = attack(sides, seconds, heavy=True)[-1][4]
    return place_ends(tiled(walls(worst), (256 if quick else 1024) // sides[-1]))


def ratio_range(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}x"


def issue_rows(args: argparse.Namespace) -> None:
    """Issue 32's three measures, ``args.repeat`` times each: whole processes (the ratio of
    each rock/BFS pair run back to back, and the fastest of each) and in this process (the
    best of three solves over the best of three BFS, per repeat)."""
    side, room = (300, 200) if args.quick else (1000, 700)
    rows = [(f"random {side} x {side}, 20 % walls", random_maze(np.random.default_rng(5), side,
                                                               0.2)),
            (f"corridor/room {room}", corridor_room(room)),
            ("adversarial tiling", adversarial_tiling(args.tiled, args.climb_seconds,
                                                      args.quick))]
    print(f"issue 32: whole processes and in process, {args.repeat} repeats")
    for name, m in rows:
        inner = [best_of(lambda m=m: solve(m)) / best_of(lambda m=m: bfs(m.nb, m.open, m.exit))
                 for _ in range(args.repeat)]
        runs = rock_process_times(m, args.repeat)
        t_rock, t_bfs, t_plain = (min(r[k] for r in runs) for k in range(3))
        sol = solve(m)
        n = int(m.open.sum())
        print(f"  {name} ({m.rows} x {m.cols}, {n:,} open cells, {sol.pops / n:.2f} pops per "
              f"cell): processes rock {t_rock:.2f} s, one BFS {t_bfs:.2f} s, ratio "
              f"{t_rock / t_bfs:.2f}x (pairs {ratio_range([r / b for r, b, _ in runs])}); "
              f"plain BFS (no perfectplay) {t_plain:.2f} s, ratio {t_rock / t_plain:.2f}x "
              f"(pairs {ratio_range([r / p for r, _, p in runs])}); in process solve/BFS "
              f"{ratio_range(inner)}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    ap.add_argument("--repeat", type=int, default=5, help="repeats of issue 32's measures")
    ap.add_argument("--tiled", type=Path, default=None,
                    help="the adversarial maze (rock_adversary.py --save DIR: hybrid-tiled.txt)")
    ap.add_argument("--climb-seconds", type=float, default=5.0,
                    help="climbing time a side when no --tiled maze is given")
    ap.add_argument("--only-issue", action="store_true", help="issue 32's measures only")
    args = ap.parse_args()
    rng = np.random.default_rng(3)
    solve(random_maze(rng, 10, 0.2))  # load the compiled kernels
    issue_rows(args)
    if args.only_issue:
        return
    side = 300 if args.quick else 1000
    print("random grids: solve vs one plain BFS over the same grid")
    cases = [(side, 0.0), (side, 0.2), (side, 0.35), (2 * side, 0.0)]
    for s, walls in cases:
        m = random_maze(rng, s, walls)
        t_bfs = best_of(lambda m=m: bfs(m.nb, m.open, m.exit))
        t_solve = best_of(lambda m=m: solve(m))
        t_search = best_of(lambda m=m: solve(m, heavy=False))
        sol = solve(m)
        n = int(m.open.sum())
        print(f"  {s}x{s} walls {walls:4.0%}: {n:>9,} cells  BFS {t_bfs:6.3f}s  solve "
              f"{t_solve:6.3f}s  ratio {t_solve / t_bfs:5.1f}x  (the search alone "
              f"{t_search / t_bfs:5.1f}x)  pops/cell {sol.pops / n:5.2f}  value "
              f"{sol.value}")
        if s == side and walls > 0:
            print(f"    {rock_processes(m)}")
    print("corridor-and-room family (room s x s behind a short and a long corridor)")
    sizes = [25, 50, 100] if args.quick else [50, 100, 200, 400]
    rows = []
    for s in sizes:
        m = corridor_room(s)
        n = int(m.open.sum())
        t_chain = best_of(lambda m=m: solve(m), 1)
        t_plain = best_of(lambda m=m: solve(m, chains=False, heavy=False), 1)
        p_chain, p_plain = solve(m).pops, solve(m, chains=False, heavy=False).pops
        rows.append((n, t_chain, t_plain, p_chain, p_plain))
        print(f"  s={s:4d}: {n:>7,} cells  solve {t_chain:7.3f}s ({p_chain / n:6.2f} pops"
              f"/cell)  plain search {t_plain:7.3f}s ({p_plain / n:7.2f} pops/cell)")
    (n0, _, _, pc0, pp0), (n1, _, _, pc1, pp1) = rows[0], rows[-1]
    grow = math.log(n1 / n0)
    print(f"  growth exponent of pops in n: solve {math.log(pc1 / pc0) / grow:.2f}, "
          f"plain {math.log(pp1 / pp0) / grow:.2f}")
    print("the seed's algorithm (BFS per blocked cell + sweeps, plain Python) at 60x60")
    m = random_maze(rng, 60, 0.2)
    t = time.perf_counter()
    seed = seed_values(m)[m.entrance]
    t_seed = time.perf_counter() - t
    t_fast = best_of(lambda: solve(m), 5)
    assert seed == (math.inf if solve(m).value is None else solve(m).value)
    print(f"  seed {t_seed:.2f}s  perfectplay {t_fast * 1000:.2f} ms  speed-up "
          f"{t_seed / t_fast:,.0f}x (value {seed})")


if __name__ == "__main__":
    main()
