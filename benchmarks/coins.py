"""Coins in a line: the O(n) fusion value at n = 10^5, 10^6, 10^7 (and the ratio that shows
linear growth), beside the seed's O(n^2) table and the O(n^2) difference DP at n = 5,000,
all in the same process.

    python benchmarks/coins.py
"""

from __future__ import annotations

import time

import numpy as np
from common import best_of

from perfectplay import coins


def seed_table_total(v: list[int]) -> int:
    """The seed's algorithm as printed: P(i, j) filled by diagonals, O(n^2) time and memory,
    plain Python."""
    n = len(v)
    P = [[0] * (n + 2) for _ in range(n + 2)]
    a = [0] + v
    for i in range(1, n + 1):
        P[i][i] = a[i]
    for k in range(2, n + 1):
        for i in range(1, n - k + 2):
            j = i + k - 1
            p1 = min(P[i + 2][j] if i + 2 <= j else 0, P[i + 1][j - 1] if i + 1 <= j - 1
                     else 0) + a[i]
            p2 = min(P[i + 1][j - 1] if i + 1 <= j - 1 else 0, P[i][j - 2] if i <= j - 2
                     else 0) + a[j]
            P[i][j] = p1 if p1 > p2 else p2
    return P[1][n]


def main() -> None:
    rng = np.random.default_rng(1)
    coins.value(np.arange(10))  # load the kernels
    coins.margin_dp(np.arange(10))
    times = {}
    for n in (10**5, 10**6, 10**7):
        row = rng.integers(1, 10**9, size=n)
        times[n] = best_of(lambda row=row: coins.value(row))
        print(f"value, n = {n:>10,}: {times[n]:7.3f} s")
    print(f"ratio 10^7 / 10^6: {times[10**7] / times[10**6]:.1f} (linear growth is 10)")
    n = 5000
    row = rng.integers(1, 10**9, size=n)
    vals = [int(x) for x in row]
    t = time.perf_counter()
    seed = seed_table_total(vals)
    t_seed = time.perf_counter() - t
    t_dp = best_of(lambda: coins.margin_dp(row))
    t_fast = best_of(lambda: coins.value(row), 20)
    assert seed == coins.value(row).first
    print(f"n = {n:,}: seed's table {t_seed:.2f} s, O(n^2) DP in numba {t_dp * 1000:.1f} ms, "
          f"fusion {t_fast * 1e6:.0f} us; speed-up over the seed {t_seed / t_fast:,.0f}x, "
          f"over the DP {t_dp / t_fast:,.0f}x")


if __name__ == "__main__":
    main()
