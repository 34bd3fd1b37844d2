"""Kalah's bit-field code, for boards small enough: the houses and the player to move in one
int64, bit 0 the player, then one field of ``b = bit_length(2mn)`` bits per house (south's m
houses, then north's), so sowing is additions to the code, with no decoding and no
allocation. It fits when 2m * b + 1 <= 63: (6, 2), (5, 4), (4, 4), ...

The kernels are numba functions at module level that take the board's size (``m`` houses a
side, ``b`` bits a house) and the capture rule as arguments, so numba caches them on disk;
:mod:`.rules` fixes those numbers for one board.

>>> import numpy as np
>>> code = pack_fields(np.array([3, 3, 3, 3]), 0, 2, 4)   # Kalah(2, 3), south to move
>>> [int(seeds_at(code, h, 4)) for h in range(4)], int(code & 1)
([3, 3, 3, 3], 0)
>>> nxt, stored = sow_fields(code, 0, 2, 4, True)  # south's house a: 3 seeds, one stored
>>> [int(seeds_at(nxt, h, 4)) for h in range(4)], int(nxt & 1), int(stored)
([0, 4, 4, 3], 1, 1)
"""

from __future__ import annotations

from numba import njit

from ...engine import ONGOING, TIE


@njit(cache=True)
def seeds_at(code, house, b):
    """The seeds in ``house`` (0..m-1 south's, m..2m-1 north's)."""
    return (code >> (1 + house * b)) & ((1 << b) - 1)


@njit(cache=True)
def sow_fields(code, move, m, b, empty_capture):
    """(next code, seeds stored by the mover) after sowing the mover's house ``move``: all
    in the code's bit fields. A last seed in the mover's store gives another move; a last
    seed in an empty house of the mover's captures it and the seeds opposite (with
    ``empty_capture``, even when the house opposite is empty)."""
    who = code & 1
    own = who * m
    other = m - own
    ring = 2 * m + 1  # the mover's houses, the mover's store, the opponent's houses
    seeds = seeds_at(code, own + move, b)
    code -= seeds << (1 + (own + move) * b)
    idx = move
    stored = 0
    for _ in range(seeds):
        idx += 1
        if idx == ring:
            idx = 0
        if idx < m:
            code += 1 << (1 + (own + idx) * b)
        elif idx == m:
            stored += 1
        else:
            code += 1 << (1 + (other + idx - m - 1) * b)
    nxt = 1 - who
    if idx == m:
        nxt = who  # the last seed in the store: move again
    elif idx < m and seeds_at(code, own + idx, b) == 1:  # the last seed in an empty house
        opposite = other + m - 1 - idx
        taken = seeds_at(code, opposite, b)
        if empty_capture or taken > 0:
            stored += 1 + taken
            code -= (1 << (1 + (own + idx) * b)) + (taken << (1 + opposite * b))
    return (code & ~1) | nxt, stored


@njit(cache=True)
def moves_fields(code, out, m, b):
    """The mover's non-empty houses (0..m-1 from the left end of their row), into ``out``."""
    own = (code & 1) * m
    k = 0
    for i in range(m):
        if seeds_at(code, own + i, b) > 0:
            out[k] = i
            k += 1
    return k


@njit(cache=True)
def sides_fields(code, m, b):
    """(the mover's seeds on the board, the opponent's)."""
    own = (code & 1) * m
    mine = 0
    theirs = 0
    for i in range(m):
        mine += seeds_at(code, own + i, b)
        theirs += seeds_at(code, m - own + i, b)
    return mine, theirs


@njit(cache=True)
def outcome_of(mine, theirs):
    """The game ends when a side is empty (each player then stores their own side)."""
    return TIE if mine == 0 or theirs == 0 else ONGOING


@njit(cache=True)
def in_play_fields(code, m, b):
    """The seeds on the board: the mover cannot gain more (``margin_bound``)."""
    on_board = 0
    for i in range(2 * m):
        on_board += seeds_at(code, i, b)
    return on_board


@njit(cache=True)
def tier_fields(code, m, b, total):
    """(seeds stored, then how far the seeds on the board still are from their stores) as
    one number: every move stores a seed or moves seeds towards their store, so it rises."""
    pmax = total * m
    on_board = 0
    distance = 0
    for i in range(2 * m):
        c = seeds_at(code, i, b)
        on_board += c
        distance += c * (m - i % m)
    return (total - on_board) * (pmax + 1) + (pmax - distance)


@njit(cache=True)
def pack_fields(pits, who, m, b):
    """The code of the houses ``pits`` (south's m, then north's) with ``who`` to move."""
    code = who
    for i in range(2 * m):
        code += pits[i] << (1 + i * b)
    return code
