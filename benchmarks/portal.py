"""Closing the Portal at scale: solve and safe_moves on a 2000 x 2000 board beside one plain
BFS over the same board (same process, same neighbour table), and the exhaustive search's
positions per second on 4 x 5 boards.

    python benchmarks/portal.py [--side 2000]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from common import best_of

from perfectplay import solve as engine_solve
from perfectplay.grid import Grid, bfs
from perfectplay.portal import PortalGame, board_from_grid, exact_winner, safe_moves, solve


def random_grid(rng: np.random.Generator, side: int, walls: float) -> Grid:
    """Random walls; the portals are the two ends of a long shortest path inside the
    component of the centre, so the solvers have the whole board to work on."""
    cells = np.where(rng.random((side, side)) < walls, ord("#"), ord(".")).astype(np.uint32)
    centre = (side // 2) * side + side // 2
    cells.flat[centre] = ord(".")
    g = Grid(cells)
    from perfectplay.grid import neighbour_table

    nb = neighbour_table(side, side)
    d = bfs(nb, g.mask("."), centre)
    a = int(np.argmax(d))
    d2 = bfs(nb, g.mask("."), a)
    b = int(np.argmax(d2))
    cells.flat[a] = cells.flat[b] = ord("O")
    return Grid(cells)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--side", type=int, default=2000)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    warm = board_from_grid(random_grid(rng, 8, 0.0))
    solve(warm), safe_moves(warm), bfs(warm.nb, warm.open, 0)
    print(f"{'board':>22s} {'path':>6s} {'plain BFS':>10s} {'solve':>8s} {'ratio':>6s} "
          f"{'safe_moves':>10s} {'ratio':>6s}")
    for walls in (0.0, 0.2, 0.35):
        board = board_from_grid(random_grid(rng, args.side, walls))
        t_bfs = best_of(lambda b=board: bfs(b.nb, b.open, b.portals[0]))
        t_solve = best_of(lambda b=board: solve(b))
        t_safe = best_of(lambda b=board: safe_moves(b))
        n_path = solve(board).path_cells
        print(f"{args.side}x{args.side} walls {walls:4.0%} {n_path:6d} {t_bfs:9.3f}s "
              f"{t_solve:7.3f}s {t_solve / t_bfs:5.1f}x {t_safe:9.3f}s {t_safe / t_bfs:5.1f}x")
    # exhaustive search on 4 x 5 boards: the engine (the oracle) and the Grundy kernel
    prng = random.Random(5)
    positions, t_engine, t_grundy, boards = 0, 0.0, 0.0, 0
    while boards < 20:
        cells = np.array([[ord("#") if prng.random() < 0.1 else ord(".") for _ in range(5)]
                          for _ in range(4)], dtype=np.uint32)
        a, b = prng.sample(range(20), 2)
        cells[a // 5, a % 5] = cells[b // 5, b % 5] = ord("O")
        try:
            board = board_from_grid(Grid(cells))
        except Exception:  # noqa: BLE001 - adjacent portals, draw again
            continue
        t = time.perf_counter()
        s = engine_solve(PortalGame(board))
        t_engine += time.perf_counter() - t
        positions += len(s)
        t = time.perf_counter()
        exact_winner(board)
        t_grundy += time.perf_counter() - t
        boards += 1
    print(f"exhaustive search, {boards} boards 4x5: engine {positions:,} positions in "
          f"{t_engine:.2f} s = {positions / t_engine:,.0f} positions/s; Grundy kernel "
          f"{t_grundy:.3f} s ({t_engine / t_grundy:.0f}x faster)")


if __name__ == "__main__":
    main()
