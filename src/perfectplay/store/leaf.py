"""A store as the search's leaves: every position it holds, with its search score.

:func:`perfectplay.engine.search` reads a position of an endgame store (a store built from
``roots``: the game's last tiers) instead of searching it, as Irving, Donkers and Uiterwijk
(2000) read their Kalah endgame databases. :func:`leaf_of` lays the store's tiers end to end
in memory in the shape the search kernel looks up (:class:`~perfectplay.engine.proof.kernel.
Leaf`): per tier its sorted mixed keys and bucket index, and per position its score (a
margin, or MATE - r for a win in r plies) and remoteness. A tier kept by rank is turned into
keys here. Memory: 8 bytes of key and 4 each of score and remoteness a position, plus the
index (about one word per 8-16 positions); a margin beyond the search's LIMIT is refused.
O(positions) to build; a look-up is one tier search (O(log tiers)) and one bucket (O(1)
expected).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..engine.compiled.codetable import unmix
from ..engine.proof.kernel import LIMIT, MATE, Leaf
from ..engine.protocol import Value, capabilities
from .layout import StoreError
from .sortedtiers import build_index, index_bits, mix_all


def _palette_scores(table: Any, scored: bool) -> np.ndarray:
    """The search score of each palette entry of a tier (a draw has none: refused)."""
    out = np.empty(len(table.rems), np.int64)
    for i, (v, r) in enumerate(zip(table.values, table.rems.tolist(), strict=True)):
        if scored:
            if not -LIMIT <= int(v) <= LIMIT:
                raise StoreError(f"the store holds a margin of {int(v):,}, beyond the "
                                 f"search's limit of {LIMIT:,} points")
            out[i] = int(v)
        elif v == Value.WIN:
            out[i] = MATE - r
        elif v == Value.LOSE:
            out[i] = -(MATE - r)
        elif v == Value.TIE:
            out[i] = 0
        else:
            raise StoreError("the store holds draws (positions that never end); the search "
                             "proves games that end and cannot take it")
    return out


def _tier_keys(table: Any, unrank: Any) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    """(sorted keys, index, bits, palette ids in key order) of one tier."""
    if not table.ranked:
        return (np.asarray(table.keys), np.asarray(table.index), int(table.bits),
                np.asarray(table.cells).astype(np.int64))
    keys = mix_all(table.codes(unrank))
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    bits = index_bits(keys.size)
    return keys, build_index(keys, bits), bits, np.asarray(table.cells)[order].astype(np.int64)


@njit
def _largest_bound(keys, margin_bound, top):
    """The largest ``margin_bound`` of the positions of mixed ``keys`` (at least ``top``)."""
    for i in range(keys.size):
        top = max(top, margin_bound(unmix(keys[i])))
    return top


def _bound_of(store: Any) -> Any:
    """The game's ``margin_bound``, or None (a store that does not name its game, or a
    game without the hook). With it the search looks a position up only when its bound is
    at most the largest bound of any held position (the leaf's ``gate``), so that a
    position far from the endgame costs nothing; without it, every position is looked up."""
    try:
        game = store.game
    except StoreError:
        return None
    return game.rules.margin_bound if capabilities(game).has_margin_bound else None


def _cat(arrays: list[np.ndarray], dtype: Any) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype)


def leaf_of(store: Any) -> Leaf:
    """The search's :class:`Leaf` of an opened store (see the module doc).

    The three per-position arrays are allocated once and filled a tier at a time, so the
    peak memory is the leaf itself plus one tier's worth (an endgame store of 451 million
    Kalah positions loads in 7.2 GB; stacking every tier's pieces first would have held
    about 18 GB at once).

    >>> from perfectplay.engine.proof.kernel import no_leaf
    >>> no_leaf().keys.size
    0
    """
    game = store.game if any(store.tables[t].ranked for t in store.tiers) else None
    unrank = game.ranking.unrank if game is not None else None
    tiers = list(store.tiers)
    sizes = np.array([store.tables[t].size for t in tiers], np.int64)
    base = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    keys = np.empty(int(base[-1]), np.uint64)
    scores = np.empty(keys.size, np.int32)  # |score| <= MATE < 2**31 (proof.kernel)
    rems = np.empty(keys.size, np.int32)
    buckets, bits, top = [], [], -1
    bound = _bound_of(store)
    for i, t in enumerate(tiers):
        table = store.tables[t]
        tier_keys, index, tier_bits, ids = _tier_keys(table, unrank)
        lo, hi = int(base[i]), int(base[i + 1])
        keys[lo:hi] = tier_keys
        scores[lo:hi] = _palette_scores(table, store.scored)[ids]
        rems[lo:hi] = np.asarray(table.rems, np.int64)[ids]
        buckets.append(np.asarray(index, np.int64))
        bits.append(tier_bits)
        if bound is not None:
            top = _largest_bound(keys[lo:hi], bound, top)
    index_sizes = np.array([b.size for b in buckets], np.int64)
    return Leaf(numbers=np.array(tiers or [0], np.int64), base=base, keys=keys,
                ibase=np.r_[0, np.cumsum(index_sizes)[:-1]].astype(np.int64),
                bits=np.array(bits or [0], np.int64),
                buckets=_cat(buckets, np.int64), scores=scores, rems=rems,
                gate=LIMIT if bound is None else int(top))
