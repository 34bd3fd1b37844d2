"""The numba kernels of No: every piece's nearest piece on an open board by buckets (a
uniform grid of square cells over the pieces' bounding box, crowded buckets split by grids
of their own, searched ring by ring), the octant sweep (a Fenwick tree of prefix minima) it
falls back on if the searches ever run over their budget, and the multi-source BFS that
labels every cell with its nearest piece. Plain arrays in and out; each runs as plain
Python under NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import LimitError

#: A bucket holding more pieces than this gets a grid of its own (recursively), so crowded
#: places (a cluster, a diagonal) are split as finely as sparse ones.
DENSE = 12
#: The searches give up for the sweep after looking at WORK_PER_PIECE * n pieces and
#: buckets: an insurance that keeps every input O(n log n). Measured at 10^6 pieces: at most
#: 20 a piece on random, one-row, diagonal, circle, lattice, spiral and clustered boards.
WORK_PER_PIECE = 100

# the columns of the grid table and of the bucket table
OX, OY, SIDE, GH, GW, BASE = range(6)
LO, HI, CHILD = range(3)


@njit(cache=True)
def _grid_shape(h, w, k):
    """(cell side s, bucket rows, bucket columns) for k pieces in an h x w box: about the
    smallest side giving at most k buckets (one piece a bucket), at least max(h, w) / k so
    one row of pieces gets one row of cells. O(log) steps."""
    s = max(1, int(np.sqrt(float(h) * float(w) / k)), (max(h, w) + k - 1) // k)
    while ((h - 1) // s + 1) * ((w - 1) // s + 1) > k:
        s += max(1, s >> 6)
    return s, (h - 1) // s + 1, (w - 1) // s + 1


@njit(cache=True)
def _grow(a, rows):
    """``a`` with room for at least ``rows`` rows (doubling, so appends are amortised
    O(1))."""
    if rows <= a.shape[0]:
        return a
    b = np.empty((max(rows, 2 * a.shape[0]), a.shape[1]), np.int64)
    b[:a.shape[0]] = a
    return b


@njit(cache=True)
def _build_grids(px, py):
    """The bucket tree: a uniform grid over the pieces' bounding box (about one piece a
    bucket), and in every bucket holding more than DENSE pieces a grid over that bucket's
    pieces, recursively (a queue of grids, no recursion). Returns (grid table, bucket table,
    piece rows, piece columns, piece indices, ok); ok is False when more than DENSE pieces
    share one cell.

    ``px``, ``py`` (the rows and columns) are counting-sorted bucket by bucket in place, so
    every bucket (and every grid) holds a contiguous range of pieces. O(n) a level; more
    than DENSE pieces in an s x s bucket get cells of side about s / sqrt(DENSE) or less,
    so the depth is O(log coordinate span), in practice 1 to 4.
    """
    n = px.size
    pid = np.arange(n)
    tx = np.empty(n, np.int64)
    ty = np.empty(n, np.int64)
    ti = np.empty(n, np.int64)
    grids = np.empty((16, 6), np.int64)
    spans = np.empty((16, 2), np.int64)  # each grid's range of pieces
    buckets = np.empty((2 * n + 16, 3), np.int64)
    ng = 1
    nb = 0
    spans[0, 0] = 0
    spans[0, 1] = n
    g = 0
    while g < ng:
        lo, hi = spans[g, 0], spans[g, 1]
        ox, oy = px[lo:hi].min(), py[lo:hi].min()
        h, w = px[lo:hi].max() - ox + 1, py[lo:hi].max() - oy + 1
        if h == 1 and w == 1:
            return grids, buckets, px, py, pid, False
        s, gh, gw = _grid_shape(h, w, hi - lo)
        grids[g, OX], grids[g, OY], grids[g, SIDE] = ox, oy, s
        grids[g, GH], grids[g, GW], grids[g, BASE] = gh, gw, nb
        buckets = _grow(buckets, nb + gh * gw)
        for b in range(nb, nb + gh * gw):
            buckets[b, LO] = 0
            buckets[b, CHILD] = -1
        for t in range(lo, hi):
            buckets[nb + ((px[t] - ox) // s) * gw + (py[t] - oy) // s, LO] += 1
        at = lo
        for b in range(nb, nb + gh * gw):
            size = buckets[b, LO]
            buckets[b, LO] = at
            buckets[b, HI] = at
            at += size
        for t in range(lo, hi):
            b = nb + ((px[t] - ox) // s) * gw + (py[t] - oy) // s
            q = buckets[b, HI]
            buckets[b, HI] = q + 1
            tx[q], ty[q], ti[q] = px[t], py[t], pid[t]
        px[lo:hi], py[lo:hi], pid[lo:hi] = tx[lo:hi], ty[lo:hi], ti[lo:hi]
        for b in range(nb, nb + gh * gw):
            if buckets[b, HI] - buckets[b, LO] > DENSE:
                grids = _grow(grids, ng + 1)
                spans = _grow(spans, ng + 1)
                spans[ng, 0], spans[ng, 1] = buckets[b, LO], buckets[b, HI]
                buckets[b, CHILD] = ng
                ng += 1
        nb += gh * gw
        g += 1
    return grids[:ng], buckets[:nb], px, py, pid, True


@njit(cache=True)
def _ring_bound(qx, qy, s, gh, gw, bi, bj, k):
    """A lower bound on the distance from (qx, qy) (grid offsets, in bucket (bi, bj)) to
    any bucket of ring k (the buckets k steps away, Chebyshev-wise): the distance out of
    the inner (2k-1)^2 block on a side where ring k has buckets; -1 when it has none."""
    ox = qx - bi * s
    oy = qy - bj * s
    lb = -1
    if bi - k >= 0:
        lb = ox + (k - 1) * s + 1
    if bi + k < gh:
        d = (s - ox) + (k - 1) * s
        lb = d if lb < 0 or d < lb else lb
    if bj - k >= 0:
        d = oy + (k - 1) * s + 1
        lb = d if lb < 0 or d < lb else lb
    if bj + k < gw:
        d = (s - oy) + (k - 1) * s
        lb = d if lb < 0 or d < lb else lb
    return lb


@njit(cache=True)
def _search_grid(grids, buckets, px, py, pid, stack, top, g, on_path, x, y, i, bd, bk):
    """Offer piece i (at x, y) the pieces in grid g's leaf buckets: the nearer one, or the
    lower index at equal distance, replaces (bd, bk); buckets with grids of their own go
    on ``stack`` (above ``top``) to be searched the same way, except, on i's own path
    (``on_path``), the one holding i. Returns (bd, bk, pieces and buckets looked at, top).

    The search starts at the bucket of q, the point of g's rectangle nearest (x, y), and
    goes ring by ring outward; any point z of the rectangle has d(p, z) = d(p, q) + d(q, z)
    (Manhattan, axis-aligned), so it stops at the first ring whose bound plus d(p, q)
    exceeds bd. A bucket farther than bd is skipped. Only pieces strictly farther than bd
    are ever skipped, so every tied piece is compared by index.
    """
    ox, oy, s = grids[g, OX], grids[g, OY], grids[g, SIDE]
    gh, gw, base = grids[g, GH], grids[g, GW], grids[g, BASE]
    qx = min(max(x - ox, 0), gh * s - 1)
    qy = min(max(y - oy, 0), gw * s - 1)
    off = abs(x - ox - qx) + abs(y - oy - qy)
    bi, bj = qx // s, qy // s
    work = 0
    k = 0
    while True:
        if k > 0:
            lb = _ring_bound(qx, qy, s, gh, gw, bi, bj, k)
            if lb < 0 or off + lb > bd:
                return bd, bk, work, top
        for u in range(max(0, bi - k), min(gh - 1, bi + k) + 1):
            row = ox + u * s
            dr = max(0, row - x, x - (row + s - 1))
            if dr > bd:
                continue
            edge = u == bi - k or u == bi + k
            v = max(0, bj - k) if edge else bj - k
            while v <= min(gw - 1, bj + k):
                col = oy + v * s
                if v >= 0 and dr + max(0, col - y, y - (col + s - 1)) <= bd:
                    b = base + u * gw + v
                    work += 1
                    if buckets[b, CHILD] >= 0:
                        if not (on_path and k == 0):
                            stack[top] = buckets[b, CHILD]
                            top += 1
                    else:
                        for t in range(buckets[b, LO], buckets[b, HI]):
                            j = pid[t]
                            d = abs(px[t] - x) + abs(py[t] - y)
                            if (d < bd or (d == bd and j < bk)) and j != i:
                                bd = d
                                bk = j
                        work += buckets[b, HI] - buckets[b, LO]
                v += 1 if edge else 2 * k
        k += 1


@njit(cache=True)
def _search(grids, buckets, px, py, pid, stack, x, y, i, far):
    """Piece i's nearest piece (lowest index on ties): (distance, index, work).

    The grids holding i, top to bottom, go on ``stack`` (as -1 - g: "on the path") and
    are searched deepest first, so i's own leaf bucket and its neighbours give a close
    bound early; grids found in the way are searched before the ones above. An explicit
    stack, not recursion (numba's cache cannot reload recursive functions). Each grid is
    searched at most once, so the stack needs at most (grids + depth) entries.
    """
    top = 0
    g = 0
    while g >= 0:
        stack[top] = -1 - g
        top += 1
        b = grids[g, BASE] + ((x - grids[g, OX]) // grids[g, SIDE]) * grids[g, GW] + \
            (y - grids[g, OY]) // grids[g, SIDE]
        g = buckets[b, CHILD]
    bd, bk, work = far, -1, 0
    while top > 0:
        top -= 1
        g = stack[top]
        on_path = g < 0
        bd, bk, w, top = _search_grid(grids, buckets, px, py, pid, stack, top,
                                      -1 - g if on_path else g, on_path, x, y, i, bd, bk)
        work += w
    return bd, bk, work


@njit(cache=True)
def _grid_nearest(grids, buckets, px, py, pid, far, budget, best_j, best_d):
    """Every piece's nearest piece by :func:`_search`, pieces in bucket order (neighbours
    in cache). False, with the answers unfinished, once more than ``budget`` pieces and
    buckets were looked at."""
    stack = np.empty(2 * grids.shape[0] + 1, np.int64)
    work = 0
    for t in range(px.size):
        i = pid[t]
        d, j, w = _search(grids, buckets, px, py, pid, stack, px[t], py[t], i, far)
        best_d[i] = d
        best_j[i] = j
        work += w
        if work > budget:
            return False
    return True


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
    # x descending, then y - x descending (two keys: packed in one, x span * key span can
    # pass 2^63 when the coordinates spread over more than about 2^31 both ways)
    order = np.lexsort((-key, -x))
    if span <= 4 * key.size + 16:  # small range (always on an N x N board): rank = offset
        rank, m = key - lo, span
    else:
        values, rank = np.unique(key, return_inverse=True)
        m = int(values.size)
    s = x + y
    vmin = int(s.min())
    shift = max(1, int(key.size - 1).bit_length())
    _octant_sweep(x, y, order, rank.astype(np.int64), m, shift, vmin, best_d, best_j)


def grid_nearest(p: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Every piece's nearest piece (lowest index on ties) by buckets, or None when the
    searches look at more than WORK_PER_PIECE * n pieces and buckets, or pieces share a
    cell in a crowded bucket (the sweep then answers, and finds them).

    Buckets are square cells of a uniform grid over the pieces' bounding box, about one
    piece a bucket, and crowded buckets get grids of their own (:func:`_build_grids`). A
    piece searches its own bucket, then rings of buckets outward, skipping buckets farther
    than the best found and stopping at the first ring whose lower bound exceeds it, grid
    by grid from its own (:func:`_search`). Exact with the tie rule: a piece is only
    skipped when strictly farther than the best, so every tied piece is compared by index.
    O(n depth) to build (counting sorts); a search costs the pieces and buckets within its
    nearest distance plus a cell, O(1) expected on uniform pieces. O(n depth) memory.
    """
    n = p.shape[0]
    grids, buckets, px, py, pid, ok = _build_grids(p[:, 0].copy(), p[:, 1].copy())
    if not ok:
        return None
    best_d = np.empty(n, np.int64)
    best_j = np.empty(n, np.int64)
    far = int(p[:, 0].max() - p[:, 0].min() + p[:, 1].max() - p[:, 1].min()) + 1
    if not _grid_nearest(grids, buckets, px, py, pid, far, WORK_PER_PIECE * n, best_j,
                         best_d):
        return None
    return best_j, best_d


def sweep_nearest(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every piece's nearest piece (lowest index on ties) by the octant sweep: O(n log n)
    on any input; the fallback of :func:`grid_nearest`."""
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


def all_nearest_open(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every piece's nearest piece on an open board, (index, distance), lowest index on
    ties: the buckets of :func:`grid_nearest`, or the sweep when they give up.
    ``p`` is (n, 2) int64 with n >= 2."""
    found = grid_nearest(p)
    return sweep_nearest(p) if found is None else found


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
