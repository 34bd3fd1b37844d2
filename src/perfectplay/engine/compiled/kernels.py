"""numba kernels of the engine: plain integer arrays in, plain arrays out.

Each kernel runs as ordinary Python under ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The value codes, defined once in protocol.py (numba reads these module globals as
# compile-time constants).
from ..protocol import DRAW_CODE as DRAW
from ..protocol import LOSE_CODE as LOSE
from ..protocol import TIE_CODE as TIE
from ..protocol import UNKNOWN
from ..protocol import WIN_CODE as WIN
from ..status import BAD_PAYOFF_SIGN, OK, OVERFLOW


@njit(cache=True)
def retrograde(offsets, children, rev_off, rev_src, terminal, player, alternate):
    """Win/lose/tie/draw and remoteness of every position, by retrograde analysis.

    Phase 1 propagates wins and losses back from the terminal positions with a FIFO queue and
    a counter of unresolved moves per position: a position is WIN as soon as one move reaches
    a position lost for the opponent, LOSE when its last move is found to reach a position won
    for the opponent. Because the queue holds positions in nondecreasing remoteness, a win is
    recorded at its quickest and a loss at its slowest (the loser delays). A non-terminal
    position with no moves is LOSE (normal play). Phase 2 spreads TIE back from tied terminal
    positions through positions still unknown (a player with no win prefers to end level, and
    as soon as possible). What is still unknown after that is DRAW: neither side can force an
    end without conceding a win, so perfect play goes on forever — a certified draw.

    ``alternate`` true: every move passes the turn. Otherwise ``player[p] != player[c]`` says
    whether the move from p to c passes it.

    Time O(positions + moves), memory O(positions). Works unchanged on acyclic and cyclic
    games (on an acyclic game it is the reverse topological order). Reference: the classic
    retrograde analysis of Ströhlein (1970) and Thompson (1986); GamesCrafters' loopy solver.
    """
    n = offsets.size - 1
    value = np.zeros(n, np.int8)
    rem = np.full(n, -1, np.int32)  # in-memory graphs hold fewer than 2**31 positions
    queue = np.empty(n, np.int32)
    unresolved = offsets[1:] - offsets[:-1]  # moves not yet known to lose, per position
    tail = _seed_wins_losses(terminal, unresolved, value, rem, queue)
    _spread_wins_losses(rev_off, rev_src, player, alternate, unresolved, value, rem, queue,
                        tail)
    tail = 0
    for i in range(n):
        if terminal[i] == TIE:
            value[i] = TIE
            rem[i] = 0
            queue[tail] = i
            tail += 1
    _spread_ties(rev_off, rev_src, value, rem, queue, tail)
    for i in range(n):
        if value[i] == UNKNOWN:
            value[i] = DRAW
    return value, rem


@njit(cache=True)
def _seed_wins_losses(terminal, unresolved, value, rem, queue):
    """Queue the won and lost ends, and the non-terminal positions with no moves (lost:
    normal play), at remoteness 0. Returns the queue's length."""
    tail = 0
    for i in range(terminal.size):
        t = terminal[i]
        if t == WIN or t == LOSE or (t == UNKNOWN and unresolved[i] == 0):
            value[i] = t if t != UNKNOWN else LOSE
            rem[i] = 0
            queue[tail] = i
            tail += 1
    return tail


@njit(cache=True)
def _spread_wins_losses(rev_off, rev_src, player, alternate, unresolved, value, rem, queue,
                        tail):
    """Phase 1: from each settled child, its parents: a parent with a winning move is WIN
    (first found: quickest); a parent whose last move settles as losing is LOSE (slowest)."""
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        child_value = value[c]
        for k in range(rev_off[c], rev_off[c + 1]):
            p = rev_src[k]
            if value[p] != UNKNOWN:
                continue
            passes = alternate or player[p] != player[c]
            wins = (child_value == LOSE) if passes else (child_value == WIN)
            if wins:
                value[p] = WIN
            else:
                unresolved[p] -= 1
                if unresolved[p] != 0:
                    continue
                value[p] = LOSE
            rem[p] = rem[c] + 1
            queue[tail] = p
            tail += 1


@njit(cache=True)
def _spread_ties(rev_off, rev_src, value, rem, queue, tail):
    """Phase 2: TIE spreads from tied ends to every parent still unknown, nearest first."""
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(rev_off[c], rev_off[c + 1]):
            p = rev_src[k]
            if value[p] == UNKNOWN:
                value[p] = TIE
                rem[p] = rem[c] + 1
                queue[tail] = p
                tail += 1


@njit(cache=True)
def topological_order(offsets, rev_off, rev_src):
    """Positions ordered so that every position comes after all of its children (Kahn's
    algorithm on the reversed moves). Returns (order, k): only ``order[:k]`` is ordered, and
    k < positions exactly when the game has a cycle. O(positions + moves)."""
    n = offsets.size - 1
    count = np.empty(n, np.int64)
    order = np.empty(n, np.int64)
    tail = 0
    for i in range(n):
        count[i] = offsets[i + 1] - offsets[i]
        if count[i] == 0:
            order[tail] = i
            tail += 1
    head = 0
    while head < tail:
        c = order[head]
        head += 1
        for k in range(rev_off[c], rev_off[c + 1]):
            p = rev_src[k]
            count[p] -= 1
            if count[p] == 0:
                order[tail] = p
                tail += 1
    return order, tail


@njit(cache=True)
def bfs_parity(offsets, children):
    """Parity of the shortest path from position 0 to every position, and the first move
    (parent, child) joining two positions of the same parity, or (-1, -1). O(n + m)."""
    n = offsets.size - 1
    parity = np.full(n, -1, np.int8)
    queue = np.empty(n, np.int64)
    parity[0] = 0
    queue[0] = 0
    head = 0
    tail = 1
    bad_p = -1
    bad_c = -1
    while head < tail:
        p = queue[head]
        head += 1
        for k in range(offsets[p], offsets[p + 1]):
            c = children[k]
            if parity[c] < 0:
                parity[c] = 1 - parity[p]
                queue[tail] = c
                tail += 1
            elif parity[c] == parity[p] and bad_p < 0:
                bad_p = p
                bad_c = c
    return parity, bad_p, bad_c


@njit(cache=True)
def reverse_csr(offsets, children, with_edges):
    """Parents in CSR form by counting sort: ``src[off[c]:off[c+1]]`` are the positions with a
    move into c (same integer type as ``children``) and, with ``with_edges``, ``edge[...]``
    those moves' indices (else an empty array), in increasing order. O(n + m)."""
    n = offsets.size - 1
    m = children.size
    off = np.zeros(n + 1, np.int64)
    for k in range(m):
        off[children[k] + 1] += 1
    for i in range(n):
        off[i + 1] += off[i]
    fill = off[:-1].copy()
    src = np.empty(m, children.dtype)
    edge = np.empty(m if with_edges else 0, np.int64)
    for p in range(n):
        for k in range(offsets[p], offsets[p + 1]):
            c = children[k]
            src[fill[c]] = p
            if with_edges:
                edge[fill[c]] = k
            fill[c] += 1
    return off, src, edge


@njit(cache=True)
def margin_of_move(pay, child, passes):
    """(ok, margin) a move gives its mover: the payoff minus the child's margin when the
    move passes the turn, plus it when it does not; ok is False on int64 overflow (the sign
    test of two's-complement addition)."""
    if passes:
        v = pay - child
        return ((pay ^ child) & (pay ^ v)) >= 0, v
    v = pay + child
    return ((pay ^ v) & (child ^ v)) >= 0, v


@njit(cache=True)
def better_margin(v, r, best_v, best_r):
    """True when (margin v, remoteness r) beats the best so far, in the order of
    :class:`perfectplay.engine.protocol.Score`: more points; then a winner (v >= 0)
    hurries and a loser delays."""
    return v > best_v or (v == best_v and ((v >= 0 and r < best_r) or (v < 0 and r > best_r)))


@njit(cache=True)
def negamax_int64(order, offsets, children, payoffs, finals, player, alternate):
    """Margins and remoteness of an acyclic scored game in int64, positions taken in
    ``order`` (children first). The margin of a position is the best over its moves of the
    payoff minus (or, when the move keeps the turn, plus) the child's margin; among equal
    margins a winner (margin >= 0) hurries and a loser delays; the first such move counts.
    Returns (ok, margins, remoteness): ok is False when a sum overflows int64, and the
    caller then solves in exact Python integers. O(positions + moves)."""
    n = offsets.size - 1
    vals = np.zeros(n, np.int64)
    rems = np.zeros(n, np.int64)
    for idx in range(order.size):
        p = order[idx]
        lo = offsets[p]
        hi = offsets[p + 1]
        if lo == hi:
            vals[p] = finals[p]
            continue
        best_v = np.int64(0)
        best_r = np.int64(0)
        for k in range(lo, hi):
            c = children[k]
            ok, v = margin_of_move(payoffs[k], vals[c], alternate or player[p] != player[c])
            if not ok:
                return False, vals, rems
            r = rems[c] + 1
            if k == lo or better_margin(v, r, best_v, best_r):
                best_v = v
                best_r = r
        vals[p] = best_v
        rems[p] = best_r
    return True, vals, rems


@njit(cache=True)
def _heap_less(hc, hr, hi, a, b):
    return hc[a] < hc[b] or (hc[a] == hc[b] and (hr[a] < hr[b] or (
        hr[a] == hr[b] and hi[a] < hi[b])))


@njit(cache=True)
def _heap_swap(hc, hr, hi, a, b):
    hc[a], hc[b] = hc[b], hc[a]
    hr[a], hr[b] = hr[b], hr[a]
    hi[a], hi[b] = hi[b], hi[a]


@njit(cache=True)
def heap_push(hc, hr, hi, size, cost, rem, node):
    """Push ``node`` with key (cost, rem) onto the binary min-heap in ``hc``/``hr``/``hi``
    (ties by node); returns the new size. O(log size)."""
    hc[size] = cost
    hr[size] = rem
    hi[size] = node
    j = size
    while j > 0:
        parent = (j - 1) // 2
        if not _heap_less(hc, hr, hi, j, parent):
            break
        _heap_swap(hc, hr, hi, j, parent)
        j = parent
    return size + 1


@njit(cache=True)
def heap_pop(hc, hr, hi, size):
    """Drop the heap's top (read it first at index 0); returns the new size."""
    size -= 1
    _heap_swap(hc, hr, hi, 0, size)
    j = 0
    while True:
        left = 2 * j + 1
        if left >= size:
            break
        best = left
        if left + 1 < size and _heap_less(hc, hr, hi, left + 1, left):
            best = left + 1
        if not _heap_less(hc, hr, hi, best, j):
            break
        _heap_swap(hc, hr, hi, best, j)
        j = best
    return size


@njit(cache=True)
def label_setting_int64(offsets, rev_off, rev_src, rev_edge, payoffs, finals, player, payer):
    """Costs and remoteness of a cost game in int64: Knuth's generalisation of Dijkstra's
    algorithm (Knuth 1977), the numba twin of
    :func:`perfectplay.engine.solved.scored.label_setting`.

    Positions are fixed in increasing (cost, remoteness): a payer's position when it is the
    cheapest open one, the other player's once all its moves are known (the largest cost,
    then the longest). Returns (status, edge, cost, rem, fixed): status OK, BAD_PAYOFF_SIGN
    at ``edge``, or OVERFLOW (:mod:`..status`; the caller then uses exact Python).
    O(moves log moves)."""
    n = offsets.size - 1
    m = rev_src.size
    cost = np.zeros(n, np.int64)
    rem = np.zeros(n, np.int64)
    fixed = np.zeros(n, np.bool_)
    has_best = np.zeros(n, np.bool_)
    best_c = np.zeros(n, np.int64)
    best_r = np.zeros(n, np.int64)
    pending = np.empty(n, np.int64)
    cap = n + m + 1
    hc = np.empty(cap, np.int64)
    hr = np.empty(cap, np.int64)
    hi = np.empty(cap, np.int64)
    size = 0
    limit = np.iinfo(np.int64).max
    for i in range(n):
        pending[i] = offsets[i + 1] - offsets[i]
        if pending[i] == 0:
            score = finals[i]
            if player[i] == payer:
                if score == -limit - 1:
                    return OVERFLOW, -1, cost, rem, fixed
                score = -score
            size = heap_push(hc, hr, hi, size, score, 0, i)
    while size > 0:
        c_cost = hc[0]
        c_rem = hr[0]
        c = hi[0]
        size = heap_pop(hc, hr, hi, size)
        if fixed[c]:
            continue
        fixed[c] = True
        cost[c] = c_cost
        rem[c] = c_rem
        for k in range(rev_off[c], rev_off[c + 1]):
            p = rev_src[k]
            if fixed[p]:
                continue
            pay = payoffs[rev_edge[k]]
            step = -pay if player[p] == payer else pay
            if step < 0:
                return BAD_PAYOFF_SIGN, rev_edge[k], cost, rem, fixed
            if c_cost > limit - step:
                return OVERFLOW, rev_edge[k], cost, rem, fixed
            cand_c = c_cost + step
            cand_r = c_rem + 1
            if player[p] == payer:
                if not has_best[p] or cand_c < best_c[p] or (
                        cand_c == best_c[p] and cand_r < best_r[p]):
                    has_best[p] = True
                    best_c[p] = cand_c
                    best_r[p] = cand_r
                    size = heap_push(hc, hr, hi, size, cand_c, cand_r, p)
            else:
                if not has_best[p] or cand_c > best_c[p] or (
                        cand_c == best_c[p] and cand_r > best_r[p]):
                    has_best[p] = True
                    best_c[p] = cand_c
                    best_r[p] = cand_r
                pending[p] -= 1
                if pending[p] == 0:
                    size = heap_push(hc, hr, hi, size, best_c[p], best_r[p], p)
    return OK, -1, cost, rem, fixed
