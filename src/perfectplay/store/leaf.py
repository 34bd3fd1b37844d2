"""A store as the search's leaves: every position it holds, with its search score.

:func:`perfectplay.engine.search` reads a position of an endgame store (a store built from
``roots``: the game's last tiers) instead of searching it, as Irving, Donkers and Uiterwijk
(2000) read their Kalah endgame databases. :func:`leaf_of` lays the store's tiers end to end
in memory in the shape the search kernel looks up (:class:`~perfectplay.engine.searchkernel.
Leaf`): per tier its sorted mixed keys and bucket index, and per position its score (a
margin, or MATE - r for a win in r plies) and remoteness. A tier kept by rank is turned into
keys here. Memory: 8 bytes of key and 4 each of score and remoteness a position (8 when a
margin does not fit int32), plus the index (about one word per 8-16 positions).
O(positions) to build; a look-up is one tier search (O(log tiers)) and one bucket (O(1)
expected).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..engine.codetable import unmix
from ..engine.protocol import Value, capabilities
from ..engine.searchkernel import LIMIT, MATE, Leaf
from ..engine.sortedtiers import build_index, index_bits, mix_all
from .layout import StoreError


def _palette_scores(table: Any, scored: bool) -> np.ndarray:
    """The search score of each palette entry of a tier (a draw has none: refused)."""
    out = np.empty(len(table.rems), np.int64)
    for i, (v, r) in enumerate(zip(table.values, table.rems.tolist(), strict=True)):
        if scored:
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


def _gate(store: Any, keys: list[np.ndarray]) -> int:
    """The search looks a position up only when its ``margin_bound`` is at most this (the
    largest bound of any held position), so that a position far from the endgame costs
    nothing; LIMIT (always look) for a game without ``margin_bound``."""
    try:
        game = store.game
    except StoreError:  # a store that does not name its game: look every position up
        return LIMIT
    if not capabilities(game).has_margin_bound:
        return LIMIT
    top = -1
    for k in keys:
        top = _largest_bound(k, game.rules.margin_bound, top)
    return int(top)


def _narrow(a: np.ndarray) -> np.ndarray:
    """int32 when every value fits (half the memory), else int64 as it is."""
    if a.size == 0 or (int(a.min()) >= -(2**31) and int(a.max()) < 2**31):
        return a.astype(np.int32)
    return a


def _cat(arrays: list[np.ndarray], dtype: Any) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype)


def leaf_of(store: Any) -> Leaf:
    """The search's :class:`Leaf` of an opened store (see the module doc).

    >>> from perfectplay.engine.searchkernel import no_leaf
    >>> no_leaf().keys.size
    0
    """
    game = store.game if any(store.tables[t].ranked for t in store.tiers) else None
    unrank = game.ranking.unrank if game is not None else None
    parts = [(t, *_tier_keys(store.tables[t], unrank)) for t in store.tiers]
    sizes = np.array([p[1].size for p in parts], np.int64)
    index_sizes = np.array([p[2].size for p in parts], np.int64)
    scores, rems = [], []
    for t, _, _, _, ids in parts:
        table = store.tables[t]
        scores.append(_palette_scores(table, store.scored)[ids])
        rems.append(np.asarray(table.rems, np.int64)[ids])
    return Leaf(numbers=np.array([p[0] for p in parts] or [0], np.int64),
                base=np.r_[0, np.cumsum(sizes)].astype(np.int64),
                keys=_cat([p[1] for p in parts], np.uint64),
                ibase=np.r_[0, np.cumsum(index_sizes)[:-1]].astype(np.int64),
                bits=np.array([p[3] for p in parts] or [0], np.int64),
                buckets=_cat([p[2] for p in parts], np.int64),
                scores=_narrow(_cat(scores, np.int64)), rems=_narrow(_cat(rems, np.int64)),
                gate=_gate(store, [p[1] for p in parts]))
