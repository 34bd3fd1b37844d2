"""Bit tricks on 64-bit words, shared by the numba kernels that keep sets of cells or
positions as bitmasks (the Portal's proof search, packed stores, the search kernel).

Both run in constant time (no loop over the bits) and, like every kernel here, as plain
Python under ``NUMBA_DISABLE_JIT=1``.

>>> int(popcount(0b1011)), int(lowest_bit(0b1000))
(3, 3)
"""

from __future__ import annotations

import numpy as np
from numba import njit

_M1, _M2, _M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), \
    np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_ONE, _TWO, _FOUR, _U56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)


@njit(cache=True)
def popcount(x):
    """Set bits of a 64-bit word (SWAR: Warren, *Hacker's Delight*, 5-1). O(1)."""
    x = np.uint64(x)
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> _TWO) & _M2)
    x = (x + (x >> _FOUR)) & _M4
    return np.int64((x * _H01) >> _U56)


@njit(cache=True)
def lowest_bit(x):
    """The index of the lowest set bit of ``x`` (x != 0): the bits below it, counted. O(1)."""
    return popcount((x & -x) - 1)
