"""Packed tiers: the kernels that write and read a store's tier files.

Two ways to say which positions a tier holds (see :mod:`perfectplay.store.layout`):

- **keys**: the positions' keys (codes mixed by a bijection, sorted; a bucket index on their
  top bits makes a look-up one bucket and a few comparisons, see
  :mod:`perfectplay.store.sortedtiers`). 8 bytes a position plus about one for the index.
- **present**: with a game's ``rank`` (a dense number inside the tier), one bit per rank
  and the count of set bits before every block of 512 (Jacobson's rank directory, 1/8 bit a
  rank): a position's slot is the number of set bits before its rank, two cache lines
  away. Connect Four 7x4: 4.6 x 10^9 ranks for 1.1 x 10^9 stored positions, 0.6 bytes a
  position.

Values are **palette ids**: each tier lists its distinct (value, remoteness) pairs (for a
scored game, (margin, remoteness)), and a position keeps only its pair's number, in one
byte when the tier has at most 256 pairs. Look-ups stay random-access at memory speed, which
block compression (zstd and the like) would trade for a decompression per look-up; see the
benchmarks page (docs/benchmarks.md) for the measured trade.

Every kernel takes plain arrays (memory maps included) and runs as Python under
``NUMBA_DISABLE_JIT=1``.

>>> import numpy as np
>>> present = np.zeros(2, np.uint64); present[0] = 0b1011; present[1] = 1
>>> counts = count_blocks(present)
>>> [bit_slot(present, counts, r) for r in (0, 1, 2, 3, 64, 65)]
[0, 1, -1, 2, 3, -1]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import popcount
from ..engine.compiled.codetable import mix, unmix
from ..engine.tiers.kernels import find_key

#: Words a rank directory block covers (512 bits).
BLOCK_WORDS = 8
_ONE = np.uint64(1)
_EMPTY = np.int64(-1)


@njit(cache=True)
def count_blocks(present):
    """``counts[b]``: set bits of ``present`` before block b (BLOCK_WORDS words a block);
    one entry more than there are blocks, the last being the total. O(words)."""
    nb = (present.size + BLOCK_WORDS - 1) // BLOCK_WORDS
    counts = np.zeros(nb + 1, np.int64)
    for b in range(nb):
        s = 0
        for w in range(b * BLOCK_WORDS, min(present.size, (b + 1) * BLOCK_WORDS)):
            s += popcount(present[w])
        counts[b + 1] = counts[b] + s
    return counts


@njit(cache=True)
def bit_slot(present, counts, r):
    """The slot of rank ``r`` (set bits before it), or -1 when its bit is clear. O(1): one
    directory entry and at most BLOCK_WORDS words."""
    w = r >> 6
    if r < 0 or w >= present.size:
        return _EMPTY
    word = np.uint64(present[w])
    bit = np.uint64(r & 63)
    if not (word >> bit) & _ONE:
        return _EMPTY
    b = w // BLOCK_WORDS
    s = counts[b]
    for k in range(b * BLOCK_WORDS, w):
        s += popcount(present[k])
    return s + popcount(word & ((_ONE << bit) - _ONE))


# -- palettes --------------------------------------------------------------------------------
@njit(cache=True)
def _pair_word(v, r):
    return (np.int64(v) << 20) | (np.int64(r) + 1)


@njit(cache=True)
def _hash(m, vr, mask):
    return np.int64(mix(m ^ (vr << 32) ^ vr) & np.uint64(mask))


@njit(cache=True)
def _table_of(pal_m, pal_vr):
    size = 16
    while size < 4 * pal_m.size:
        size *= 2
    tm = np.zeros(size, np.int64)
    tv = np.full(size, -1, np.int64)
    tid = np.zeros(size, np.int64)
    for i in range(pal_m.size):
        h = _hash(pal_m[i], pal_vr[i], size - 1)
        while tv[h] != -1:
            h = (h + 1) & (size - 1)
        tm[h] = pal_m[i]
        tv[h] = pal_vr[i]
        tid[h] = i
    return tm, tv, tid


@njit(cache=True)
def _id_of(tm, tv, tid, m, vr):
    mask = tm.size - 1
    h = _hash(m, vr, mask)
    while tv[h] != -1:
        if tv[h] == vr and tm[h] == m:
            return tid[h]
        h = (h + 1) & mask
    return _EMPTY


@njit(cache=True)
def palette_of(vals, rems, margins, scored, lo, hi, cap):
    """The distinct (margin, value and remoteness) pairs of slots ``lo..hi-1``, in the
    order first met, as two int64 arrays (margin, ``value << 20 | remoteness + 1``); or
    (-1, ...) when there are more than ``cap``. O(slots) with a hash table of 4 cap."""
    size = 16
    while size < 4 * cap:
        size *= 2
    tm = np.zeros(size, np.int64)
    tv = np.full(size, -1, np.int64)
    pal_m = np.empty(cap, np.int64)
    pal_vr = np.empty(cap, np.int64)
    n = 0
    for s in range(lo, hi):
        m = margins[s] if scored else np.int64(0)
        vr = _pair_word(vals[s], rems[s])
        h = _hash(m, vr, size - 1)
        while tv[h] != -1 and not (tv[h] == vr and tm[h] == m):
            h = (h + 1) & (size - 1)
        if tv[h] == -1:
            if n == cap:
                return -1, pal_m[:0], pal_vr[:0]
            tm[h] = m
            tv[h] = vr
            pal_m[n] = m
            pal_vr[n] = vr
            n += 1
    return n, pal_m[:n], pal_vr[:n]


@njit(cache=True)
def cells_in_order(vals, rems, margins, scored, lo, hi, pal_m, pal_vr, cells):
    """``cells[s - lo]``: the palette id of slot s, for s in lo..hi-1."""
    tm, tv, tid = _table_of(pal_m, pal_vr)
    for s in range(lo, hi):
        m = margins[s] if scored else np.int64(0)
        cells[s - lo] = _id_of(tm, tv, tid, m, _pair_word(vals[s], rems[s]))


# -- ranks -----------------------------------------------------------------------------------
@njit
def ranks_of(keys, lo, hi, rank, out):
    """``out[s - lo]``: the rank of the position keyed ``keys[s]``, for s in lo..hi-1;
    returns one more than the largest (the bits the tier needs)."""
    top = np.int64(-1)
    for s in range(lo, hi):
        r = rank(unmix(keys[s]))
        out[s - lo] = r
        if r > top:
            top = r
    return top + 1


@njit(cache=True)
def mark_present(ranks, present):
    """Set the bit of every rank; False when two positions share a rank (a rank that is
    not one-to-one)."""
    for i in range(ranks.size):
        r = ranks[i]
        w = r >> 6
        bit = np.uint64(1) << np.uint64(r & 63)
        if np.uint64(present[w]) & bit:
            return False
        present[w] = np.uint64(present[w]) | bit
    return True


@njit(cache=True)
def cells_by_rank(ranks, present, counts, vals, rems, margins, scored, lo, pal_m, pal_vr,
                  cells):
    """``cells[slot of ranks[i]]``: the palette id of arena slot lo + i."""
    tm, tv, tid = _table_of(pal_m, pal_vr)
    for i in range(ranks.size):
        s = lo + i
        m = margins[s] if scored else np.int64(0)
        cells[bit_slot(present, counts, ranks[i])] = \
            _id_of(tm, tv, tid, m, _pair_word(vals[s], rems[s]))


# -- look-ups --------------------------------------------------------------------------------
@njit
def ranked_slots(codes, rank, present, counts):
    """Slots of canonical ``codes`` of one tier (-1 where not stored), by rank."""
    out = np.empty(codes.size, np.int64)
    for i in range(codes.size):
        out[i] = bit_slot(present, counts, rank(codes[i]))
    return out


@njit(cache=True)
def keyed_slots(codes, keys, index, bits):
    """Slots of canonical ``codes`` of one tier (-1 where not stored), by key."""
    out = np.empty(codes.size, np.int64)
    for i in range(codes.size):
        out[i] = find_key(keys, 0, keys.size, index, 0, bits, mix(codes[i]))
    return out


@njit
def canonical_tiers(codes, canonical, tier, valid):
    """Each code made canonical, and its tier (-1 for a code ``valid`` refuses: no
    position's, so no table holds it)."""
    out = np.empty(codes.size, np.int64)
    tiers = np.empty(codes.size, np.int64)
    for i in range(codes.size):
        if not valid(codes[i]):
            out[i], tiers[i] = codes[i], -1
            continue
        c = canonical(codes[i])
        out[i] = c
        tiers[i] = tier(c)
    return out, tiers


@njit
def refused(codes, valid):
    """The indexes of the codes ``valid`` refuses (names of no position)."""
    out = np.empty(codes.size, np.int64)
    k = 0
    for i in range(codes.size):
        if not valid(codes[i]):
            out[k] = i
            k += 1
    return out[:k]


@njit
def unranked(t, ranks, unrank):
    """The codes of ``ranks`` in tier ``t``."""
    out = np.empty(ranks.size, np.int64)
    for i in range(ranks.size):
        out[i] = unrank(t, ranks[i])
    return out


@njit(cache=True)
def slot_ranks(present, counts, slots):
    """The ranks at ``slots`` (the rank of the s-th set bit, for each s): the inverse of
    :func:`bit_slot`, through the same rank directory (a binary search of ``counts``, then
    at most BLOCK_WORDS words), so a sample of a tier never unpacks the whole bitmap.
    O(len(slots) x log(blocks)).

    >>> present = np.zeros(2, np.uint64); present[0] = 0b1011; present[1] = 1
    >>> slot_ranks(present, count_blocks(present), np.array([0, 1, 2, 3])).tolist()
    [0, 1, 3, 64]
    """
    out = np.empty(slots.size, np.int64)
    for i in range(slots.size):
        s = slots[i]
        b = np.searchsorted(counts, s, side="right") - 1
        left = s - counts[b]
        w = b * BLOCK_WORDS
        word = np.uint64(present[w])
        c = popcount(word)
        while left >= c:
            left -= c
            w += 1
            word = np.uint64(present[w])
            c = popcount(word)
        while left > 0:  # clear the lowest set bits before the one wanted
            word &= word - _ONE
            left -= 1
        out[i] = w * 64 + popcount((word & (~word + _ONE)) - _ONE)
    return out


def set_ranks(present: np.ndarray) -> np.ndarray:
    """The ranks whose bits are set, ascending (slot order). O(bits): for every slot of a
    tier; a sample uses :func:`slot_ranks`."""
    bits = np.unpackbits(np.ascontiguousarray(present).view(np.uint8), bitorder="little")
    return np.flatnonzero(bits).astype(np.int64)
