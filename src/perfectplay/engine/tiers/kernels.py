"""The loop every tier solver runs: one position valued from its solved children.

The in-memory tier solver (:mod:`.solver`, codes in open-addressing tables) and the store's
compiled backend (:mod:`perfectplay.store.compiled`, mixed keys sorted per tier) run the
same :func:`solve_range`; they differ only in how a slot's code is read and how a child's
slot is found (:func:`code_at`, :func:`find_slot`), which the keys' type chooses when the
loop is compiled: a store's keys are mixed codes (uint64) sorted per tier, the in-memory
solver's the codes themselves (int64) in open-addressing tables. Chosen by type, not passed
in as functions, because numba cannot cache on disk a kernel that takes functions as
values: :func:`solve_range_cached` is the same loop for rules given as a
:class:`~perfectplay.engine.compiled.staticrules.StaticRules`, compiled once a machine rather than
once a process. The arrays that travel together travel as one :class:`Arena`, the game's
compiled functions as its :class:`~perfectplay.engine.compiled.game.Rules`, the switches as one
:class:`Shape`.

The rule for one move is written once here (:func:`move_option`): a win/lose value is
flipped when the move passes the turn, a margin is the payoff minus (or plus) the child's;
:func:`better_option` orders options with the engine's tie-breaks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..compiled import (
    EMPTY,
    LOSE,
    ONGOING,
    TIE,
    WIN,
    better_margin,
    ended,
    home_slot,
    margin_of_move,
    mix,
    prefetch,
    probe,
    unmix,
)
from ..protocol import DRAW_CODE as DRAW
from ..protocol import UNKNOWN
from ..status import BAD_CODE, BAD_MOVE_COUNT, BAD_PLAYER, BAD_TIER, OK, OVERFLOW

_U64 = np.uint64(64)


class Arena(NamedTuple):
    """Every tier's positions and values, laid end to end: tier i (number ``numbers[i]``)
    holds slots ``base[i]..base[i+1]-1`` of ``keys`` and of the value arrays. A store's
    ``keys`` are mixed codes sorted per tier, with a bucket index (``ibase``, ``bits``,
    ``buckets``); the in-memory solver's are codes in open-addressing tables (the index
    arrays empty)."""

    numbers: np.ndarray
    base: np.ndarray
    keys: np.ndarray
    ibase: np.ndarray
    bits: np.ndarray
    buckets: np.ndarray
    vals: np.ndarray
    rems: np.ndarray
    margins: np.ndarray


class Shape(NamedTuple):
    """A game's switches: scored, with a ``player`` function, at most ``max_moves`` moves,
    and whether children are made canonical before they are looked up (stores)."""

    scored: bool
    with_player: bool
    max_moves: int
    canon: bool


@njit(cache=True)
def find_key(keys, base, size, index, ibase, bits, key):
    """The arena slot of ``key`` in the tier stored at ``keys[base:base + size]`` with its
    index at ``index[ibase:]``, or -1: the bucket of its top bits, then a binary search of
    the few keys in it. O(1) expected."""
    if size == 0:
        return -1
    lo = np.int64(0)
    hi = np.int64(size)
    if bits > 0:
        b = np.int64(key >> (_U64 - np.uint64(bits)))
        lo = index[ibase + b]
        hi = index[ibase + b + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        k = keys[base + mid]
        if k < key:
            lo = mid + 1
        elif k > key:
            hi = mid
        else:
            return base + mid
    return -1


@njit(cache=True)
def tier_index(numbers, t, guess):
    if numbers[guess] == t:
        return guess
    lo = 0
    hi = numbers.size
    while lo < hi:
        mid = (lo + hi) // 2
        if numbers[mid] < t:
            lo = mid + 1
        else:
            hi = mid
    if lo < numbers.size and numbers[lo] == t:
        return lo
    return -1


@njit
def open_moves(code, s, outcome, score, moves, player, scored, with_player, max_moves, buf,
               vals, rems, margins):
    """The start of solving one position (slot ``s``) from its children: an ended position
    or one without moves (a loss by normal play, margin 0) is settled here, in place;
    otherwise its moves go into ``buf``. Returns (status, k, mover): k the number of moves,
    -1 when settled."""
    o = outcome(code)
    if o != ONGOING:
        status, vals[s], final = ended(o, code, score, scored)
        rems[s] = 0
        if scored:
            margins[s] = final
        return status, -1, 0
    k = moves(code, buf)
    if k < 0 or k > max_moves:
        return BAD_MOVE_COUNT, -1, 0
    me = 0
    if with_player:
        me = player(code)
        if me != 0 and me != 1:
            return BAD_PLAYER, -1, 0
    if k == 0:
        vals[s] = TIE if scored else LOSE
        rems[s] = 0
        if scored:
            margins[s] = 0
        return OK, -1, me
    return OK, k, me


@njit(cache=True)
def _rank(v):
    """Win above tie above draw above loss (a tie ends the game level; a draw never ends)."""
    if v == WIN:
        return 3
    if v == TIE:
        return 2
    if v == DRAW:
        return 1
    return 0


@njit(cache=True)
def move_option(scored, passes, pay, vc, rc, mc):
    """(ok, value, remoteness) a move offers its mover, from the child's value code ``vc``,
    remoteness ``rc`` and margin ``mc``: a win/lose value flipped when the move passes the
    turn, or the margin of the move (:func:`margin_of_move`; ok is False on overflow)."""
    r = np.int64(rc) + 1
    if scored:
        ok, v = margin_of_move(pay, mc, passes)
        return ok, v, r
    if vc == DRAW:
        return True, np.int64(DRAW), np.int64(-1)  # a draw has no remoteness
    v = np.int64(vc)
    if passes and vc == WIN:
        v = np.int64(LOSE)
    elif passes and vc == LOSE:
        v = np.int64(WIN)
    return True, v, r


@njit(cache=True)
def better_option(scored, v, r, best_v, best_r):
    """Does option (v, r) beat the best so far? The engine's tie-breaks: win quickly, lose
    slowly, tie quickly; margins by :func:`better_margin`."""
    if scored:
        return better_margin(v, r, best_v, best_r)
    return _rank(v) > _rank(best_v) or (
        v == best_v and ((v != LOSE and r < best_r) or (v == LOSE and r > best_r)))


@njit(cache=True)
def hashed_code(arena, s):
    """The code in slot ``s`` of an open-addressing arena (EMPTY for a free slot)."""
    return arena.keys[s]


@njit(cache=True)
def hashed_find(arena, ti, child):
    """The slot of ``child`` in tier ``ti`` of an open-addressing arena, or -1."""
    cs = probe(arena.keys, arena.base[ti], arena.base[ti + 1] - arena.base[ti], child)
    return cs if arena.keys[cs] == child else -1


@njit(cache=True)
def sorted_code(arena, s):
    """The code in slot ``s`` of a sorted-key arena."""
    return unmix(arena.keys[s])


@njit(cache=True)
def sorted_find(arena, ti, child):
    """The slot of ``child`` in tier ``ti`` of a sorted-key arena, or -1."""
    return find_key(arena.keys, arena.base[ti], arena.base[ti + 1] - arena.base[ti],
                    arena.buckets, arena.ibase[ti], arena.bits[ti], mix(child))


def _sorted(arena: Arena) -> bool:
    return bool(arena.keys.dtype == np.uint64)


def code_at(arena: Arena, s: int) -> int:
    """The code in arena slot ``s``: :func:`sorted_code` for a store's mixed keys (uint64),
    :func:`hashed_code` for codes in open-addressing tables (int64). Compiled code chooses
    by the keys' type once (see the overload below); this is the plain-Python twin."""
    return int(sorted_code(arena, s) if _sorted(arena) else hashed_code(arena, s))


def find_slot(arena: Arena, ti: int, child: int) -> int:
    """The slot of ``child`` in tier ``ti``, or -1: :func:`sorted_find` or
    :func:`hashed_find` by the keys' type, as :func:`code_at` chooses."""
    return int(sorted_find(arena, ti, child) if _sorted(arena) else hashed_find(arena, ti, child))


def asks(arena: Arena) -> bool:
    """Does :func:`ask_child` do anything for this arena (its keys in hash tables)?"""
    return not _sorted(arena)


def ask_child(arena: Arena, ti: int, child: int) -> None:
    """Ask the processor for the cache lines where :func:`find_slot` will look for
    ``child`` in tier ``ti`` (:func:`~perfectplay.engine.compiled.codetable.prefetch`: the
    code's first slot and its value and remoteness there), so that the look-ups of one
    position's children wait on memory together instead of one after another. A hint
    only; nothing for a store's sorted keys (their bucket is found by reading the index)."""


def _keys_are_mixed(arena: types.NamedTuple) -> bool:
    """Does the numba type of an :class:`Arena` hold a store's mixed keys (uint64)?"""
    fields = dict(zip(arena.fields, arena.types, strict=True))
    return bool(fields["keys"].dtype == types.uint64)


@overload(code_at)
def _code_at_compiled(arena, s):
    return (lambda arena, s: sorted_code(arena, s)) if _keys_are_mixed(arena) else \
        (lambda arena, s: hashed_code(arena, s))


@overload(find_slot)
def _find_slot_compiled(arena, ti, child):
    return (lambda arena, ti, child: sorted_find(arena, ti, child)) if _keys_are_mixed(arena) \
        else (lambda arena, ti, child: hashed_find(arena, ti, child))


@overload(asks)
def _asks_compiled(arena):
    return (lambda arena: False) if _keys_are_mixed(arena) else (lambda arena: True)


@overload(ask_child)
def _ask_child_compiled(arena, ti, child):
    if _keys_are_mixed(arena):
        return lambda arena, ti, child: None

    def ask(arena, ti, child):
        first = arena.base[ti]
        s = first + home_slot(child, arena.base[ti + 1] - first)
        prefetch(arena.keys, s)
        prefetch(arena.vals, s)
        prefetch(arena.rems, s)
    return ask


@njit(nogil=True)
def solve_range(rules, shape, arena, ti, lo, hi, best, inside):
    """Values of the positions in arena slots ``lo..hi-1`` of tier ``ti``, every child
    looked up in the solved tiers above; ``best[s - lo]`` gets the best move (EMPTY at an end) when
    ``best`` is not empty. The negamax with the engine's tie-breaks (:func:`move_option`,
    :func:`better_option`). It holds no lock (``nogil``): disjoint ranges of one tier are
    solved on threads at once, each position reading only the tiers above.

    A position with a move inside its own tier is left open (value UNKNOWN) unless
    ``inside`` says the tier's values are final. Returns (status, code, positions left
    open). O(moves of the range), each child generated again and looked up once."""
    buf = np.empty(shape.max_moves + 1, np.int64)
    kids = np.empty(shape.max_moves + 1, np.int64)
    guess = 0
    left = 0
    keep_best = best.size > 0
    for s in range(lo, hi):
        code = code_at(arena, s)
        if code == EMPTY:
            continue
        if keep_best:
            best[s - lo] = EMPTY
        status, k, me = open_moves(code, s, rules.outcome, rules.score, rules.moves,
                                   rules.player, shape.scored, shape.with_player,
                                   shape.max_moves, buf, arena.vals, arena.rems,
                                   arena.margins)
        if status != OK:
            return status, code, left
        if k < 0:
            continue
        for j in range(k):  # every child first, its slots asked for (ask_child)
            kids[j] = rules.play(code, buf[j])
            if asks(arena) and kids[j] != EMPTY and not shape.canon:
                cti = tier_index(arena.numbers, rules.tier(kids[j]), guess)
                if cti >= 0:
                    ask_child(arena, cti, kids[j])
        best_v = 0  # win/lose: the mover's value code; scored: the margin
        best_r = 0
        have = False
        open_ = False
        for j in range(k):
            child = kids[j]
            if child == EMPTY:
                return BAD_CODE, code, left
            passes = True
            if shape.with_player:
                passes = rules.player(child) != me
            if shape.canon:
                child = rules.canonical(child)
            cti = tier_index(arena.numbers, rules.tier(child), guess)
            if cti < 0 or cti < ti:
                return BAD_TIER, code, left
            if cti == ti and not inside:
                open_ = True
                break
            guess = cti
            cs = find_slot(arena, cti, child)
            if cs < 0:
                return BAD_TIER, code, left
            ok, v, r = move_option(shape.scored, passes,
                                   rules.payoff(code, buf[j]) if shape.scored else 0,
                                   arena.vals[cs], arena.rems[cs],
                                   arena.margins[cs] if shape.scored else 0)
            if not ok:
                return OVERFLOW, code, left
            if not have or better_option(shape.scored, v, r, best_v, best_r):
                have = True
                best_v = v
                best_r = r
                if keep_best:
                    best[s - lo] = buf[j]
        if open_:
            arena.vals[s] = UNKNOWN
            left += 1
            continue
        arena.rems[s] = best_r
        if shape.scored:
            arena.vals[s] = TIE
            arena.margins[s] = best_v
        else:
            arena.vals[s] = best_v
    return OK, 0, left


@njit(nogil=True, cache=True)
def solve_range_cached(rules, shape, arena, ti, lo, hi, best, inside):
    """:func:`solve_range`, cached on disk (``rules`` a StaticRules: see
    :mod:`~perfectplay.engine.compiled.staticrules`)."""
    return solve_range(rules, shape, arena, ti, lo, hi, best, inside)
