"""The numba kernels of No: the Manhattan nearest-neighbour sweep over one octant (a Fenwick
tree of prefix minima), and the multi-source BFS that labels every cell with its nearest
piece. Plain arrays in and out; each runs as plain Python under NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import LimitError


@njit(cache=True)
def _octant_sweep(x, y, order, rank, m, shift, vmin, best_d, best_j):
    """One octant: for every point i, the point j != i with x_j >= x_i and
    y_j - x_j >= y_i - x_i minimising (x_j + y_j) - (x_i + y_i), lowest index on ties.

    ``order`` sorts the points by x descending, then y - x descending, so every point of
    the octant is already in the tree when i asks and i itself is not; ``rank`` is the rank
    of y - x among m values. A Fenwick tree over reversed ranks keeps, packed in one int64,
    ((x + y - vmin) << shift) | index: the minimum is the nearest, lowest index on ties.
    O(N log N).
    """
    big = np.iinfo(np.int64).max
    tree = np.full(m + 1, big, np.int64)
    mask = (1 << shift) - 1
    for q in range(order.size):
        i = order[q]
        pos = m - rank[i]
        best = big
        while pos > 0:
            if tree[pos] < best:
                best = tree[pos]
            pos -= pos & -pos
        if best != big:
            j = best & mask
            d = (best >> shift) + vmin - x[i] - y[i]
            if d < best_d[i] or (d == best_d[i] and j < best_j[i]):
                best_d[i] = d
                best_j[i] = j
        pos = m - rank[i]
        v = ((x[i] + y[i] - vmin) << shift) | i
        while pos <= m:
            if v < tree[pos]:
                tree[pos] = v
            pos += pos & -pos


def _sweep(x: np.ndarray, y: np.ndarray, best_d: np.ndarray, best_j: np.ndarray) -> None:
    key = y - x
    lo, hi = int(key.min()), int(key.max())
    span = hi - lo + 1
    # x descending, then y - x descending, as one integer key (one sort, not two)
    order = np.argsort(-(x - int(x.min())) * span - (key - lo), kind="stable")
    if span <= 4 * key.size + 16:  # small range (always on an N x N board): rank = offset
        rank, m = key - lo, span
    else:
        values, rank = np.unique(key, return_inverse=True)
        m = int(values.size)
    s = x + y
    vmin = int(s.min())
    shift = max(1, int(key.size - 1).bit_length())
    _octant_sweep(x, y, order, rank.astype(np.int64), m, shift, vmin, best_d, best_j)


def all_nearest_open(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = p.shape[0]
    span = int(p.max()) - int(p.min()) + 1
    if 4 * span << max(1, (n - 1).bit_length()) >= 1 << 62:
        raise LimitError(f"coordinates spread over {span:,} cells are too far apart for "
                         f"{n:,} pieces (the sweep packs distance and index in 64 bits)")
    best_d = np.full(n, np.iinfo(np.int64).max, np.int64)
    best_j = np.full(n, -1, np.int64)
    r, c = p[:, 0].copy(), p[:, 1].copy()
    # four transforms cover the eight octants (each query sees one half-plane wedge; the
    # other four wedges are the same pairs seen from the other point)
    for xs, ys in ((r, c), (c, r), (-r, c), (c, -r)):
        _sweep(xs, ys, best_d, best_j)
        _sweep(-xs, -ys, best_d, best_j)
    return best_j, best_d


@njit(cache=True)
def all_nearest_walls(nb, open_, sources):
    """Multi-source BFS labelling every open cell with its nearest piece (lowest index on
    equal distance: sources enter the queue in index order), then every edge (u, v) with
    different labels offers L(u) the piece L(v) at d(u) + 1 + d(v). O(cells * k).

    Why it is exact: on a shortest path from piece a to its nearest b, the last cell
    labelled a and the next cell (labelled c, at least as near to it as b is) give a
    candidate no longer than the path.
    """
    n = nb.shape[0]
    label = np.full(n, -1, np.int64)
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    tail = 0
    for i in range(sources.size):
        s = sources[i]
        label[s] = i
        dist[s] = 0
        queue[tail] = s
        tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w >= 0 and open_[w] and dist[w] < 0:
                dist[w] = dist[u] + 1
                label[w] = label[u]
                queue[tail] = w
                tail += 1
    m = sources.size
    best_d = np.full(m, np.iinfo(np.int64).max, np.int64)
    best_j = np.full(m, -1, np.int64)
    for u in range(n):
        if label[u] < 0:
            continue
        for t in range(nb.shape[1]):
            v = nb[u, t]
            if v < 0 or label[v] < 0 or label[v] == label[u]:
                continue
            a = label[u]
            b = label[v]
            d = dist[u] + 1 + dist[v]
            if d < best_d[a] or (d == best_d[a] and b < best_j[a]):
                best_d[a] = d
                best_j[a] = b
    return best_j, best_d
