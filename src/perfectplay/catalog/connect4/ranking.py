"""Connect Four's dense numbering inside a tier, for the out-of-core store (numba kernels at
module level, the board's tables passed in).

A board of t stones is its columns' heights (a composition of t into W parts of at most H)
and which t // 2 of its stones are the mover's. Heights are ranked among the compositions of
t (``ways[c, s]``: fillings of columns c.. with s stones), the mover's stones among the
C(t, t // 2) choices by the combinatorial number system (Knuth, TAOCP 7.2.1.3) over the
stones in column-major order, bottom up. 7x4: 4.6e9 ranks for 2.3e9 positions.

>>> binom, ways = tables(4, 4)
>>> code = 0b00001_00001_00001_00010  # 4x4: one stone in column 0, the second player to move
>>> r = rank_of(code, 4, 5, 31, binom, ways)
>>> int(r), int(unrank_of(1, r, 4, 5, binom, ways)) == code
(3, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit


def tables(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(C(n, k) for n, k <= W * H + 1; ways[c, s], the fillings of columns c.. with s
    stones), the tables :func:`rank_of` and :func:`unrank_of` read."""
    cells = width * height
    binom = np.zeros((cells + 2, cells + 2), np.int64)
    for n in range(cells + 2):
        binom[n, 0] = 1
        for k in range(1, n + 1):
            binom[n, k] = binom[n - 1, k - 1] + binom[n - 1, k]
    ways = np.zeros((width + 1, cells + 1), np.int64)
    ways[width, 0] = 1
    for c in range(width - 1, -1, -1):
        for s in range(cells + 1):
            ways[c, s] = sum(ways[c + 1, s - h] for h in range(min(height, s) + 1))
    return binom, ways


@njit(cache=True)
def height(code, c, H1, col_mask):
    """(column c's field: the mover's stones under a marker bit, its height)."""
    f = (code >> (c * H1)) & col_mask
    h = 0
    while f >> (h + 1):
        h += 1
    return f, h


@njit(cache=True)
def rank_of(code, W, H1, col_mask, binom, ways):
    """The rank of ``code`` among the codes of its tier (its number of stones)."""
    t = 0
    for c in range(W):
        t += height(code, c, H1, col_mask)[1]
    left = t
    hrank = 0
    crank = 0
    p = 0
    j = 0
    for c in range(W):
        f, h = height(code, c, H1, col_mask)
        for g in range(h):
            hrank += ways[c + 1, left - g]
            if (f >> g) & 1:
                j += 1
                crank += binom[p, j]
            p += 1
        left -= h
    return hrank * binom[t, t // 2] + crank


@njit(cache=True)
def unrank_of(t, r, W, H1, binom, ways):
    """The code of rank ``r`` among the boards of ``t`` stones (the inverse of rank_of)."""
    k = t // 2
    hrank = r // binom[t, k]
    crank = r % binom[t, k]
    mine = np.zeros(binom.shape[0], np.bool_)  # which stones, by column-major index
    for j in range(k, 0, -1):
        p = j - 1
        while binom[p + 1, j] <= crank:
            p += 1
        mine[p] = True
        crank -= binom[p, j]
    code = 0
    left = t
    p = 0
    for c in range(W):
        h = 0
        while hrank >= ways[c + 1, left - h]:
            hrank -= ways[c + 1, left - h]
            h += 1
        f = 1 << h
        for g in range(h):
            if mine[p]:
                f |= 1 << g
            p += 1
        code |= f << (c * H1)
        left -= h
    return code
