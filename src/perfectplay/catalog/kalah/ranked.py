"""Kalah's ranked code, for boards too big for a bit field a house (Kalah(6, 3) to (6, 6)).

The 2m houses, holding at most N = 2mn seeds, are the bars of a stars-and-bars picture, bar j
at b_j = c_0 + ... + c_j + j, and their rank in the combinatorial number system is
sum_j C(b_j, j + 1) < C(N + 2m, 2m) (Knuth, TAOCP 7.2.1.3): C(60, 12) ~ 1.4e12 for (6, 4),
C(72, 12) ~ 1.5e13 for (6, 5). The code is ``rank << 15 | seeds in play << 8 | seeds on
south's side << 1 | player``, so the end, the final score and ``margin_bound`` (the seeds in
play: the mover cannot gain more) read the code without decoding it; a move decodes the
houses (O(N + m)), sows them and ranks them again. Ranks below C(k + 2m, 2m) are exactly the
boards with at most k seeds in play (:func:`positions_within`, the roots of an endgame
store).

The kernels are numba functions at module level taking the table of binomials and the
board's size, cached on disk by numba; :mod:`.rules` fixes them for one board.

>>> binom = binomials(4, 2)            # Kalah(1, 2): 2 houses, at most 4 seeds
>>> import numpy as np
>>> code = pack_ranked(np.array([2, 2]), 0, binom, 1)
>>> pits = np.empty(2, np.int64); unrank_pits(code >> 15, binom, 2, 4, pits); pits.tolist()
[2, 2]
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from .fields import pack_fields

#: The ranked code keeps seeds in play in 7 bits and the rank below 2**48.
MAX_SEEDS, MAX_RANK_BITS = 127, 48


def ranked_fits(houses: int, seeds: int) -> bool:
    """True when Kalah(houses, seeds) fits the ranked 63-bit code."""
    total, pits = 2 * houses * seeds, 2 * houses
    return total <= MAX_SEEDS and comb(total + pits, pits) < 1 << MAX_RANK_BITS


def binomials(top: int, houses: int) -> np.ndarray:
    """C(a, k) for a <= top + houses, k <= houses (the ranks' table)."""
    return np.array([[comb(a, k) for k in range(houses + 1)]
                     for a in range(top + houses + 1)], np.int64)


@njit(cache=True)
def unrank_pits(r, binom, houses, top, pits):
    """The houses of rank ``r`` (at most ``top`` seeds in all; module doc): the bars' places
    from the last down, each the largest b with C(b, j + 1) <= what is left, then the seeds
    between consecutive bars. O(top + houses)."""
    b = top + houses - 1
    for j in range(houses - 1, -1, -1):
        while binom[b, j + 1] > r:
            b -= 1
        r -= binom[b, j + 1]
        pits[j] = b
        b -= 1
    prev = 0
    for j in range(houses):
        bar = pits[j]
        pits[j] = bar - prev
        prev = bar + 1


@njit(cache=True)
def pack_ranked(pits, who, binom, m):
    """The ranked code of the houses ``pits`` (south's m, then north's), ``who`` to move."""
    rank = 0
    bar = -1
    south = 0
    on_board = 0
    for j in range(2 * m):
        bar += pits[j] + 1
        rank += binom[bar, j + 1]
        on_board += pits[j]
        if j < m:
            south += pits[j]
    return (rank << 15) | (on_board << 8) | (south << 1) | who


@njit(cache=True)
def decoded(code, binom, m, total):
    """The seeds of every house of ``code`` (south's 0..m-1, then north's)."""
    pits = np.empty(2 * m, np.int64)
    unrank_pits(code >> 15, binom, 2 * m, total, pits)
    return pits


@njit(cache=True)
def sow_pits(pits, who, move, m, empty_capture):
    """Sow house ``move`` of player ``who`` in ``pits`` (south's m houses, then north's),
    in place: (who moves next, seeds the mover stored), with the capture rule of
    :func:`~.fields.sow_fields`."""
    own = who * m
    other = m - own
    ring = 2 * m + 1  # the mover's houses, the mover's store, the opponent's houses
    seeds = pits[own + move]
    pits[own + move] = 0
    idx = move
    stored = 0
    for _ in range(seeds):
        idx += 1
        if idx == ring:
            idx = 0
        if idx < m:
            pits[own + idx] += 1
        elif idx == m:
            stored += 1
        else:
            pits[other + idx - m - 1] += 1
    if idx == m:
        return who, stored  # the last seed in the store: move again
    if idx < m and pits[own + idx] == 1:  # the last seed in an empty house
        opposite = other + m - 1 - idx
        if empty_capture or pits[opposite] > 0:
            stored += 1 + pits[opposite]
            pits[own + idx] = 0
            pits[opposite] = 0
    return 1 - who, stored


@njit(cache=True)
def step_ranked(code, move, binom, m, total, empty_capture):
    """(the next code, the seeds the mover stored): one decoding, one sowing, one ranking."""
    pits = decoded(code, binom, m, total)
    nxt, stored = sow_pits(pits, code & 1, move, m, empty_capture)
    return pack_ranked(pits, nxt, binom, m), stored


@njit(cache=True)
def moves_ranked(code, out, binom, m, total):
    """The mover's non-empty houses, into ``out``; their count."""
    pits = decoded(code, binom, m, total)
    own = (code & 1) * m
    k = 0
    for i in range(m):
        if pits[own + i] > 0:
            out[k] = i
            k += 1
    return k


@njit(cache=True)
def search_moves_ranked(code, out, binom, m, total):
    """Every move, those that end in the store (another move) first, then those whose last
    seed lands in an empty house of the mover's (a capture, or a full lap back to the house
    just emptied), then the rest; houses nearer the store first within each group."""
    pits = decoded(code, binom, m, total)
    own = (code & 1) * m
    k = 0
    for group in range(3):
        for i in range(m - 1, -1, -1):
            seeds = pits[own + i]
            if seeds == 0:
                continue
            land = (i + seeds) % (2 * m + 1)
            g = 0 if land == m else (
                1 if land < m and (pits[own + land] == 0 or seeds == 2 * m + 1) else 2)
            if g == group:
                out[k] = i
                k += 1
    return k


@njit(cache=True)
def sides_ranked(code):
    """(the mover's seeds on the board, the opponent's), read off the code."""
    south = (code >> 1) & 127
    north = ((code >> 8) & 127) - south
    return (north, south) if code & 1 else (south, north)


@njit(cache=True)
def tier_ranked(code, binom, m, total):
    """The tier of :func:`~.fields.tier_fields`, from the decoded houses."""
    pits = decoded(code, binom, m, total)
    pmax = total * m
    on_board = 0
    distance = 0
    for i in range(2 * m):
        on_board += pits[i]
        distance += pits[i] * (m - i % m)
    return (total - on_board) * (pmax + 1) + (pmax - distance)


@njit(cache=True)
def positions_within(k, binom, m, total, b):
    """The codes of every position with at most ``k`` seeds in play, both players to move:
    ranks 0 .. C(k + 2m, 2m) - 1 are exactly those houses. ``b`` > 0: bit-field codes of
    ``b`` bits a house; 0: ranked codes."""
    houses = 2 * m
    count = binom[k + houses, houses]
    out = np.empty(2 * count, np.int64)
    pits = np.empty(houses, np.int64)
    for r in range(count):
        unrank_pits(r, binom, houses, total, pits)
        for who in range(2):
            out[2 * r + who] = pack_fields(pits, who, m, b) if b else \
                pack_ranked(pits, who, binom, m)
    return out
