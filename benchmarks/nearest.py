"""Every piece's nearest piece: all_nearest on 10^6 pieces (open board) and on a 2000 x 2000
board with obstacles, beside the quadratic brute force at a size it can finish (same
process), against scipy's cKDTree (k=2, p=1, workers=1, build + query; best of 3 each, same
process) on 10^6 random pieces and two skewed boards (one row; clusters beside far pieces),
and the seed's O(N^3) method for one start piece.

    python benchmarks/nearest.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from perfectplay.no import all_nearest, nearest, seed_nearest


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


def best_of(fn: Callable[[], object], runs: int = 3) -> float:
    """The fastest of ``runs`` timings of fn() in seconds (the machine is shared)."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def skewed_boards(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """One row of n pieces over 10n columns; n pieces in 50 clusters of spreads 10^2..10^5
    on a 10^7 board, with pieces at the far corners of the coordinate range."""
    cols = rng.choice(10 * n, size=n, replace=False)
    centres = rng.integers(0, 10**7, (50, 2))
    spread = rng.choice([100, 1000, 10_000, 100_000], 50)
    k = rng.integers(0, 50, 2 * n)
    pts = centres[k] + (rng.standard_normal((2 * n, 2)) * spread[k, None]).astype(np.int64)
    far = 2**31 - 1
    pts = np.unique(np.vstack([pts, [[far, far], [-far, -far], [-far, far]]]), axis=0)
    return {"one row": np.stack([np.full(n, 3), cols], 1),
            "clusters": pts[rng.permutation(len(pts))[:n]]}


def against_kdtree(rng: np.random.Generator, n: int) -> None:
    """all_nearest against scipy's cKDTree (k=2: the piece itself and its nearest; p=1:
    Manhattan; workers=1; build + query), best of 3 each, on 10^6 random pieces and the
    skewed boards; the distances must agree (the indices may differ on ties)."""
    try:
        from scipy.spatial import cKDTree
    except ImportError:
        print("scipy is not installed: the comparison with cKDTree is skipped")
        return

    def kdtree(p: np.ndarray) -> np.ndarray:
        return cKDTree(p).query(p, k=2, p=1, workers=1)[0][:, 1]

    boards = {"random": pieces_on(rng, n, n), **skewed_boards(rng, n)}
    for name, p in boards.items():
        assert np.array_equal(all_nearest(p)[1], kdtree(p).astype(np.int64))
        ours = best_of(lambda p=p: all_nearest(p))
        theirs = best_of(lambda p=p: kdtree(p))
        print(f"open board, {name}, N = {len(p):,}: all_nearest {ours:.3f} s, cKDTree "
              f"{theirs:.3f} s: ratio {ours / theirs:.2f} (best of 3, same distances)")


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
    against_kdtree(rng, 10**6)
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
