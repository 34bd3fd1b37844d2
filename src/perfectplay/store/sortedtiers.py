"""Tiers as hash-sorted arrays: the kernels of a compiled game's out-of-core store.

A tier is held as its positions' **keys**: each code mixed by splitmix64's finaliser
(:func:`~perfectplay.engine.compiled.codetable.mix`, a bijection of 64-bit words, undone by
:func:`unmix`), sorted ascending as uint64. Mixed keys are spread evenly over the 64-bit
range, which buys three things a plain sort by code would not:

- **one-read look-ups**: a bucket index on the top ``bits`` of the key (about 8-16 keys a
  bucket) narrows any search to a few adjacent keys, two cache lines, however large the
  tier (:func:`~perfectplay.engine.tiers.kernels.find_key`); a binary search over the raw
  codes of a 10^8 tier touches ~27;
- **no merge**: equal key ranges of a tier can be sorted and deduplicated independently,
  by different workers, and simply laid end to end (:func:`sort_unique` per range);
- **linear sorting**: a counting sort on the top bits leaves buckets of a few keys, each
  finished by insertion sort: O(n) expected.

Every kernel takes plain arrays (NumPy memory maps included) and runs as Python under
``NUMBA_DISABLE_JIT=1``.

>>> import numpy as np
>>> keys = sort_unique(mix_all(np.array([5, 3, 5, 9], np.int64)))
>>> sorted(unmix_all(keys).tolist())
[3, 5, 9]
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.compiled.codetable import EMPTY, mix, unmix
from ..engine.compiled.game import LOSE, ONGOING, TIE, WIN
from ..engine.protocol import DRAW_CODE as DRAW
from ..engine.protocol import UNKNOWN
from ..engine.status import BAD_CODE, BAD_MOVE_COUNT, BAD_TIER, OK, OVERFLOW
from ..engine.tiers.kernels import better_option, move_option, sorted_find, tier_index

_U64 = np.uint64(64)
#: No tier's key index uses more than this many top bits (2**30 + 1 offsets, 8 GiB).
MAX_BITS = 30


@njit(cache=True)
def mix_all(codes):
    """Keys of an array of codes."""
    out = np.empty(codes.size, np.uint64)
    for i in range(codes.size):
        out[i] = mix(codes[i])
    return out


@njit(cache=True)
def unmix_all(keys):
    """Codes of an array of keys."""
    out = np.empty(keys.size, np.int64)
    for i in range(keys.size):
        out[i] = unmix(keys[i])
    return out


@njit(cache=True)
def sort_unique(keys):
    """The distinct values of ``keys`` (uint64), sorted: a counting sort on the top bits of
    the range the keys span (about eight keys a bucket), then insertion sort inside each
    bucket and one pass that drops repeats. O(n) expected for mixed keys, O(n log n) at
    worst (large buckets go to ``np.sort``); memory 2n words."""
    n = keys.size
    if n == 0:
        return np.empty(0, np.uint64)
    lo = keys[0]
    hi = keys[0]
    for i in range(n):
        k = keys[i]
        if k < lo:
            lo = k
        if k > hi:
            hi = k
    width = hi - lo
    target = np.uint64(max(2, n // 8))
    shift = np.uint64(0)
    while (width >> shift) >= target:
        shift += np.uint64(1)
    nb = np.int64(width >> shift) + 1
    start = np.zeros(nb + 1, np.int64)
    for i in range(n):
        start[np.int64((keys[i] - lo) >> shift) + 1] += 1
    for b in range(nb):
        start[b + 1] += start[b]
    fill = start[:nb].copy()
    out = np.empty(n, np.uint64)
    for i in range(n):
        bucket = np.int64((keys[i] - lo) >> shift)
        out[fill[bucket]] = keys[i]
        fill[bucket] += 1
    for b in range(nb):
        a, z = start[b], start[b + 1]
        if z - a > 48:
            out[a:z] = np.sort(out[a:z])
            continue
        for i in range(a + 1, z):
            k = out[i]
            j = i - 1
            while j >= a and out[j] > k:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = k
    m = 1
    for i in range(1, n):
        if out[i] != out[m - 1]:
            out[m] = out[i]
            m += 1
    return out[:m]


def index_bits(n: int) -> int:
    """Top bits a tier of ``n`` keys is indexed by: 8-16 keys a bucket."""
    return max(0, min(MAX_BITS, int(n).bit_length() - 4))


@njit(cache=True)
def build_index(keys, bits):
    """Bucket offsets of a sorted tier: ``index[b]`` is the first key whose top ``bits``
    bits are >= b, ``index[2**bits]`` the size. O(n + 2**bits)."""
    size = np.int64(1) << bits
    index = np.zeros(size + 1, np.int64)
    if bits == 0:
        index[1] = keys.size
        return index
    shift = _U64 - np.uint64(bits)
    for i in range(keys.size):
        index[np.int64(keys[i] >> shift) + 1] += 1
    for b in range(size):
        index[b + 1] += index[b]
    return index


@njit
def expand_range(rules, shape, keys, lo, hi, t, out_keys, out_tiers):
    """Children of the tier positions ``keys[lo:hi]`` (keys of canonical codes), as keys of
    their canonical codes with their tiers, until the buffers are full. Returns (next
    index, children written, status, offending code); a move may stay in tier ``t`` or
    climb, never go down."""
    buf = np.empty(shape.max_moves + 1, np.int64)
    cnt = 0
    i = lo
    while i < hi:
        code = unmix(keys[i])
        if rules.outcome(code) == ONGOING:
            if cnt + shape.max_moves > out_keys.size:
                return i, cnt, OK, 0
            k = rules.moves(code, buf)
            if k < 0 or k > shape.max_moves:
                return i, cnt, BAD_MOVE_COUNT, code
            for j in range(k):
                child = rules.play(code, buf[j])
                if child == EMPTY:
                    return i, cnt, BAD_CODE, code
                child = rules.canonical(child)
                tc = rules.tier(child)
                if tc < t:
                    return i, cnt, BAD_TIER, code
                out_keys[cnt] = mix(child)
                out_tiers[cnt] = tc
                cnt += 1
        i += 1
    return i, cnt, OK, 0


@njit(cache=True)
def expand_range_cached(rules, shape, keys, lo, hi, t, out_keys, out_tiers):
    """:func:`expand_range`, cached on disk (``rules`` a StaticRules)."""
    return expand_range(rules, shape, keys, lo, hi, t, out_keys, out_tiers)


class Inside(NamedTuple):
    """The open positions of a tier as a graph (:func:`inside_graph`): CSR ``offsets`` /
    ``children`` over indices into the open slots, each move's payoff and whether it
    passes the turn; each position's best option among its other moves (``seed_v``,
    ``seed_r``, ``has_seed``), whose children are solved; and who moves (``who``)."""

    offsets: np.ndarray
    children: np.ndarray
    pays: np.ndarray
    passes: np.ndarray
    seed_v: np.ndarray
    seed_r: np.ndarray
    has_seed: np.ndarray
    who: np.ndarray


@njit
def inside_graph(rules, shape, arena, ti, slots):
    """The open positions of tier ``ti`` (arena ``slots``, ascending) as an
    :class:`Inside` graph. Returns (status, code, graph)."""
    n = slots.size
    scored = shape.scored
    buf = np.empty(shape.max_moves + 1, np.int64)
    offsets = np.zeros(n + 1, np.int64)
    children = np.empty(n * shape.max_moves, np.int64)
    pays = np.zeros(n * shape.max_moves if scored else 0, np.int64)
    passes_ = np.ones(n * shape.max_moves, np.bool_)
    seed_v = np.zeros(n, np.int64)
    seed_r = np.zeros(n, np.int64)
    has_seed = np.zeros(n, np.bool_)
    who = np.zeros(n, np.int8)
    m = 0
    status = OK
    bad = np.int64(0)
    for i in range(n):
        code = unmix(arena.keys[slots[i]])
        k = rules.moves(code, buf)
        me = rules.player(code) if shape.with_player else 0
        who[i] = me
        for j in range(k):
            child = rules.play(code, buf[j])
            passes = True
            if shape.with_player:
                passes = rules.player(child) != me
            child = rules.canonical(child)
            cti = tier_index(arena.numbers, rules.tier(child), ti)
            cs = sorted_find(arena, cti, child) if cti >= 0 else -1
            if cs < 0:
                status, bad = BAD_TIER, code
                break
            pay = rules.payoff(code, buf[j]) if scored else 0
            if cti == ti and arena.vals[cs] == UNKNOWN:
                children[m] = np.searchsorted(slots, cs)
                passes_[m] = passes
                if scored:
                    pays[m] = pay
                m += 1
                continue
            ok, v, r = move_option(scored, passes, pay, arena.vals[cs], arena.rems[cs],
                                   arena.margins[cs] if scored else 0)
            if not ok:
                status, bad = OVERFLOW, code
                break
            if not has_seed[i] or better_option(scored, v, r, seed_v[i], seed_r[i]):
                has_seed[i] = True
                seed_v[i] = v
                seed_r[i] = r
        if status != OK:
            break
        offsets[i + 1] = m
    return status, bad, Inside(offsets, children[:m], pays[:m], passes_[:m], seed_v,
                               seed_r, has_seed, who)


@njit(cache=True)
def inside_graph_cached(rules, shape, arena, ti, slots):
    """:func:`inside_graph`, cached on disk (``rules`` a StaticRules)."""
    return inside_graph(rules, shape, arena, ti, slots)


@njit
def with_seed_chains(offsets, children, seed_v, seed_r, has_seed, who, alternate):
    """The graph of :func:`inside_graph` with each seed turned into a move to a shared
    chain of stand-in positions of exactly that value and remoteness (a win in k moves
    on to a loss in k - 1, ..., a terminal; a draw is a 2-cycle), so the engine's own
    :func:`~perfectplay.engine.compiled.kernels.retrograde` solves the tier unchanged. Returns
    (offsets, children, terminal, player) over the positions and then the stand-ins."""
    n = offsets.size - 1
    top = 0
    for i in range(n):
        if has_seed[i] and seed_r[i] > top:
            top = seed_r[i]
    # stand-in (kind, k, a): kind 0 win, 1 lose, 2 tie, 3 draw; k remoteness; a player
    stand = 4 * (top + 1) * 2
    extra = 0
    for i in range(n):
        if has_seed[i]:
            extra += 1
    off = np.zeros(n + stand + 1, np.int64)
    kids = np.empty(children.size + extra + stand, np.int64)
    terminal = np.zeros(n + stand, np.int8)
    players = np.zeros(n + stand, np.int8)
    m = 0
    for i in range(n):
        for e in range(offsets[i], offsets[i + 1]):
            kids[m] = children[e]
            m += 1
        if has_seed[i]:
            v = seed_v[i]
            kind = 2 if v == TIE else (3 if v == DRAW else (1 if v == WIN else 0))
            k = 0 if kind == 3 else seed_r[i] - 1  # the stand-in is the child: r - 1
            a = 0 if alternate else 1 - who[i]
            kids[m] = n + (kind * (top + 1) + k) * 2 + a
            m += 1
        players[i] = who[i]
        off[i + 1] = m
    for kind in range(4):
        for k in range(top + 1):
            for a in range(2):
                node = n + (kind * (top + 1) + k) * 2 + a
                players[node] = a
                b = a if alternate else 1 - a
                if kind == 3:
                    kids[m] = n + (3 * (top + 1)) * 2 + b
                    m += 1
                elif k == 0:
                    terminal[node] = WIN if kind == 0 else (LOSE if kind == 1 else TIE)
                else:
                    nxt = 1 - kind if kind < 2 else 2
                    kids[m] = n + (nxt * (top + 1) + k - 1) * 2 + b
                    m += 1
                off[node + 1] = m
    return off, kids[:m], terminal, players


@njit
def seeded_negamax(order, offsets, children, pays, passes, seed_v, seed_r, has_seed):
    """Margins and remoteness of the open positions of a scored tier with no cycle inside,
    children first (``order``): each one's best of its seed and its moves inside the tier.
    Returns (ok, margins, rems); ok False on an int64 overflow."""
    n = offsets.size - 1
    mv = np.zeros(n, np.int64)
    mr = np.zeros(n, np.int64)
    for idx in range(order.size):
        i = order[idx]
        have = has_seed[i]
        bv = seed_v[i]
        br = seed_r[i]
        for e in range(offsets[i], offsets[i + 1]):
            c = children[e]
            ok, v, r = move_option(True, passes[e], pays[e], TIE, mr[c], mv[c])
            if not ok:
                return False, mv, mr
            if not have or better_option(True, v, r, bv, br):
                have = True
                bv = v
                br = r
        mv[i] = bv
        mr[i] = br
    return True, mv, mr
