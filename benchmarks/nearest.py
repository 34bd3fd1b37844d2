"""Every piece's nearest piece: all_nearest on 10^6 pieces (open board) and on a 2000 x 2000
board with obstacles, beside the quadratic brute force at a size it can finish (same
process), and the seed's O(N^3) method for one start piece.

    python benchmarks/nearest.py
"""

from __future__ import annotations

import time

import numpy as np

from perfectplay.nearest import all_nearest, nearest, seed_nearest


def brute_all(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Quadratic: for each piece, the Manhattan distance to every other (numpy rows)."""
    idx = np.empty(len(p), np.int64)
    dist = np.empty(len(p), np.int64)
    for a in range(len(p)):
        d = np.abs(p[:, 0] - p[a, 0]) + np.abs(p[:, 1] - p[a, 1])
        d[a] = np.iinfo(np.int64).max
        idx[a] = int(np.argmin(d))
        dist[a] = d[idx[a]]
    return idx, dist


def pieces_on(rng: np.random.Generator, side: int, n: int) -> np.ndarray:
    cells = rng.choice(side * side, size=n, replace=False)
    return np.stack([cells // side, cells % side], 1)


def main() -> None:
    rng = np.random.default_rng(7)
    all_nearest(pieces_on(rng, 10, 10))  # load the kernels
    all_nearest(pieces_on(rng, 10, 10), walls=np.zeros((10, 10), bool))
    n_b = 20_000
    p = pieces_on(rng, n_b, n_b)
    t = time.perf_counter()
    ref = brute_all(p)
    t_brute = time.perf_counter() - t
    t = time.perf_counter()
    got = all_nearest(p)
    t_fast = time.perf_counter() - t
    assert np.array_equal(got[0], ref[0]) and np.array_equal(got[1], ref[1])
    print(f"open board, N = {n_b:,} pieces on {n_b:,} x {n_b:,}: brute force "
          f"{t_brute:.2f} s, all_nearest {t_fast:.3f} s ({t_brute / t_fast:,.0f}x), equal")
    for n in (10**5, 10**6):
        p = pieces_on(rng, n, n)
        t = time.perf_counter()
        all_nearest(p)
        dt = time.perf_counter() - t
        est = t_brute * (n / n_b) ** 2
        print(f"open board, N = {n:>9,} pieces: all_nearest {dt:6.2f} s (the brute force, "
              f"quadratic, would take ~{est:,.0f} s: {est / dt:,.0f}x)")
    side = 2000
    walls = rng.random((side, side)) < 0.25
    free = np.flatnonzero(~walls.ravel())
    cells = rng.choice(free, size=200_000, replace=False)
    p = np.stack([cells // side, cells % side], 1)
    t = time.perf_counter()
    idx, dist = all_nearest(p, walls=walls)
    dt = time.perf_counter() - t
    print(f"{side} x {side} board, 25% walls, {len(p):,} pieces: all_nearest with walls "
          f"{dt:.2f} s ({int((idx >= 0).sum()):,} pieces have a reachable neighbour)")
    n = 300
    p = pieces_on(rng, n, n)
    t = time.perf_counter()
    s = seed_nearest(p.tolist(), 0, n)
    t_seed = time.perf_counter() - t
    t = time.perf_counter()
    f = nearest(p, 0)
    t_one = time.perf_counter() - t
    assert (s.distance, s.pieces) == (f.distance, f.pieces)
    print(f"one start piece, N = {n}: the seed's O(N^3) BFS {t_seed:.2f} s, Manhattan "
          f"{t_one * 1000:.3f} ms ({t_seed / t_one:,.0f}x)")


if __name__ == "__main__":
    main()
