"""Tier-by-tier solving of a compiled game in memory: codes and values, no stored moves.

A game whose ``tier(pos)`` strictly increases along every move (Connect Four: stones on the
board; Kalah: seeds stored, then how far the seeds have travelled) is solved in two sweeps:

1. **forward**, lowest tier first: a tier's positions are the children of the positions of
   lower tiers, collected in an open-addressing table (:mod:`..compiled.codetable`). When a
   tier's turn comes every parent has been expanded, so the tier is complete; it is repacked
   at load 0.8 and its children are generated into the tables of the tiers above;
2. **backward**, highest tier first: each position's children are generated again (never
   stored) and looked up in the tiers above, already solved; the value is the negamax of
   theirs with the engine's tie-breaks (win quickly, lose slowly, tie quickly; margins: more
   points, then the winner hurries and the loser delays).

Memory is the codes and values of every tier at load 0.8: 8 + 1 + 1 bytes a slot for a
win/lose game of at most 100 tiers (a remoteness in one byte, :func:`remoteness_type`), 8
more for a margin, plus the children of one chunk while the forward sweep runs. Large
tables are two halves filled by two threads; the backward sweep moves the tiers into one
flat arena and solves each tier's slots in parallel blocks. Time is O(moves) expected,
each move generated twice and looked up once; the tables of a large game are far larger
than the cache, so both sweeps mostly wait on memory, and each asks for its slots ahead
(:func:`~perfectplay.engine.compiled.codetable.prefetch`: a few codes ahead when inserting,
all of a position's children before looking any of them up), which overlaps those waits.
This is the tier solver of GamesCrafters' GamesmanOne in spirit, held in memory; the
out-of-core store is :mod:`perfectplay.store`.
"""

from __future__ import annotations

import ctypes
import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit, prange

from ...errors import LimitError, show
from ...progress import Progress
from ..compiled import (
    EMPTY,
    ONGOING,
    CompiledGame,
    capacity_for,
    kernel_door,
    key_find,
    key_insert_many,
    key_rebuild,
    new_keys,
)
from ..protocol import Position, Value, Worth
from ..solved import (
    MARGIN,
    WINLOSE,
    Counts,
    Solved,
    UnknownPosition,
    counts_of,
    summary_json,
)
from ..status import BAD_CODE, BAD_MOVE_COUNT, BAD_TIER, OK, raise_status
from .kernels import Arena, Shape, solve_range, solve_range_cached

_CHUNK = 1 << 20  # children generated per kernel call in the forward sweep


@dataclass
class Tiers:
    """Every tier of a solved game: ``numbers[i]`` is tier i's number, ``keys[i]`` its codes
    (an open-addressing table, :data:`EMPTY` in free slots), and ``values[i]`` / ``rems[i]``
    / ``margins[i]`` arrays parallel to ``keys[i]``."""

    numbers: np.ndarray
    keys: list[np.ndarray]
    values: list[np.ndarray] = field(default_factory=list)
    rems: list[np.ndarray] = field(default_factory=list)
    margins: list[np.ndarray] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.sizes)

    def find(self, game: CompiledGame, code: int) -> tuple[int, int]:
        """(tier index, slot) of ``code``, or (-1, -1) when it is not a position."""
        t = int(game.rules.tier(np.int64(code)))
        i = int(np.searchsorted(self.numbers, t))
        if i == self.numbers.size or self.numbers[i] != t:
            return -1, -1
        s = int(key_find(self.keys[i], np.int64(code)))
        return (i, s) if s >= 0 else (-1, -1)


@njit
def _expand(keys, slot, t, rules, max_moves, out_codes, out_tiers):
    """Children of the tier's positions from ``slot`` on, until the buffers are full.
    Returns (next slot, children written, status, offending code)."""
    moves, play, outcome, tier = rules.moves, rules.play, rules.outcome, rules.tier
    buf = np.empty(max_moves + 1, np.int64)
    cnt = 0
    s = slot
    while s < keys.size:
        code = keys[s]
        if code != EMPTY:
            o = outcome(code)
            if o == ONGOING:
                if cnt + max_moves > out_codes.size:
                    return s, cnt, OK, 0
                k = moves(code, buf)
                if k < 0 or k > max_moves:
                    return s, cnt, BAD_MOVE_COUNT, code
                for j in range(k):
                    child = play(code, buf[j])
                    if child == EMPTY:
                        return s, cnt, BAD_CODE, code
                    tc = tier(child)
                    if tc <= t:
                        return s, cnt, BAD_TIER, code
                    out_codes[cnt] = child
                    out_tiers[cnt] = tc
                    cnt += 1
        s += 1
    return s, cnt, OK, 0


@njit(cache=True)
def _expand_cached(keys, slot, t, rules, max_moves, out_codes, out_tiers):
    """:func:`_expand`, cached on disk (``rules`` a StaticRules)."""
    return _expand(keys, slot, t, rules, max_moves, out_codes, out_tiers)


def enumerate_tiers(game: CompiledGame, max_positions: int,
                    progress: bool | None = None) -> Tiers:
    """The forward sweep: every reachable position, grouped by tier (see the module doc)."""
    r = game.rules
    expand, rules = kernel_door(r, _expand, _expand_cached)
    start = np.int64(game.start_code)
    t0 = int(r.tier(start))
    # tier -> (table, distinct codes, codes inserted with repeats)
    pending: dict[int, tuple[np.ndarray, int, int]] = {}
    keys0, n0 = key_insert_many(new_keys(16), 0, np.array([start], np.int64))
    pending[t0] = (keys0, n0, 1)
    heap = [t0]
    numbers: list[int] = []
    tables: list[np.ndarray] = []
    sizes: list[int] = []
    out_codes = np.empty(_CHUNK, np.int64)
    out_tiers = np.empty(_CHUNK, np.int64)
    total = 0
    with Progress("enumerating tiers", enabled=progress) as bar:
        while heap:
            t = heapq.heappop(heap)
            keys, count, inserted = pending.pop(t)
            unique = count / inserted  # the share of distinct codes, for the guesses below
            keys = key_rebuild(keys, capacity_for(count, 0.8))
            numbers.append(t)
            tables.append(keys)
            sizes.append(count)
            total += count
            if total > max_positions:
                raise LimitError(f"more than {max_positions:,} positions; raise max_positions "
                                 "if the memory allows (about 16 bytes a position, 25 in a "
                                 "scored game)")
            bar.update(total)
            slot = 0
            while slot < keys.size:
                slot, cnt, status, bad = expand(keys, slot, np.int64(t), rules,
                                                game.max_moves, out_codes, out_tiers)
                raise_status(status, int(bad), game)
                if cnt:
                    done = slot / keys.size  # the share of this tier expanded so far
                    _file_children(out_codes[:cnt], out_tiers[:cnt], pending, heap,
                                   2 * count, done / max(unique, 1e-6))
    return Tiers(numbers=np.array(numbers, np.int64), keys=tables, sizes=sizes)


def by_tier(codes: np.ndarray, tiers: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """``codes`` split by their ``tiers`` (parallel arrays): (tier, its codes) pairs in
    increasing tier, each group in its original order (one stable sort; none when all
    share a tier, the usual case).

    >>> by_tier(np.array([7, 8, 9]), np.array([2, 1, 2]))
    [(1, array([8])), (2, array([7, 9]))]
    """
    lo, hi = int(tiers.min()), int(tiers.max())
    if lo == hi:
        return [(lo, codes)]
    order = np.argsort(tiers, kind="stable")
    st, sc = tiers[order], codes[order]
    cuts = np.flatnonzero(np.diff(st)) + 1
    return [(int(st[a]), sc[a:b]) for a, b in
            zip(np.r_[0, cuts], np.r_[cuts, st.size], strict=True)]


def _file_children(codes: np.ndarray, tiers: np.ndarray,
                   pending: dict[int, tuple[np.ndarray, int, int]], heap: list[int],
                   most: int, scale: float) -> None:
    """Insert children into the tables of their tiers. A new tier's table starts at the
    size its share of this chunk extrapolates to (``/ scale``: the share of the current
    tier expanded so far over the share of distinct codes among the codes inserted into
    the last tier), at most ``most``: that saves most of the rebuilds while it grows, and
    the repack when the tier is complete fixes any overshoot."""
    for tc, cs in by_tier(codes, tiers):
        if tc not in pending:
            guess = min(most, int(cs.size / max(scale, 1e-3)))
            pending[tc] = (new_keys(capacity_for(guess, 0.7)), 0, 0)
            heapq.heappush(heap, tc)
        keys, count, inserted = pending[tc]
        keys, count = key_insert_many(keys, count, cs)
        pending[tc] = (keys, count, inserted + cs.size)


#: Tiers of fewer slots are solved on the calling thread; larger ones in parallel blocks.
PARALLEL_SLOTS = 1 << 16
_NO_BEST = np.empty(0, np.int64)


def _tier_blocks(rules, shape, arena, ti):
    """Values of one tier from the tiers above (see the module doc), its slots split into
    blocks solved in parallel by :func:`~.kernels.solve_range` (each position reads
    only the tiers above, and writes only its own slot). Returns (status, code) of the
    first problem, or (OK, 0)."""
    first = arena.base[ti]
    size = arena.base[ti + 1] - first
    blocks = 64
    step = (size + blocks - 1) // blocks
    status = np.zeros(blocks, np.int64)
    bad = np.zeros(blocks, np.int64)
    no_best = np.empty(0, np.int64)
    for b in prange(blocks):
        status[b], bad[b], _ = solve_range(
            rules, shape, arena, ti, first + min(size, b * step),
            first + min(size, (b + 1) * step), no_best, True)
    for b in range(blocks):
        if status[b] != OK:
            return status[b], bad[b]
    return OK, 0


#: :func:`_tier_blocks` for rules as a NamedTuple (compiled once a process) and as a
#: StaticRules (cached on disk).
_solve_blocks = njit(parallel=True)(_tier_blocks)
_solve_blocks_cached = njit(parallel=True, cache=True)(_tier_blocks)


#: A compiled kernel as Python sees it (a numba dispatcher): it returns a status tuple.
Kernel = Callable[..., tuple[int, ...]]


def _solve_tier(kernels: tuple[Kernel, Kernel], rules: object, shape: Shape, arena: Arena,
                ti: int) -> tuple[int, int]:
    """Values of one tier: a large one by ``kernels[1]`` (:func:`_tier_blocks`, in
    parallel), a small one by ``kernels[0]`` (:func:`~.kernels.solve_range`) on this
    thread. A parallel region costs more than it saves on a small tier, and OpenMP's
    spinning threads stalled the solve of Kalah(3, 2) (121 small tiers) 15x when another
    process kept the cores busy. Returns (status, code) of the first problem, or (OK, 0)."""
    first = int(arena.base[ti])
    size = int(arena.base[ti + 1]) - first
    if size >= PARALLEL_SLOTS:
        status, bad = kernels[1](rules, shape, arena, np.int64(ti))
    else:
        status, bad, _ = kernels[0](rules, shape, arena, np.int64(ti), np.int64(first),
                                    np.int64(first + size), _NO_BEST, True)
    return int(status), int(bad)


def solve_tiers(game: CompiledGame, tiers: Tiers, progress: bool | None = None) -> Tiers:
    """The backward sweep: fill ``tiers`` with values, highest tier first.

    The tiers move into one flat arena (``keys`` and the value arrays), tier i at
    ``base[i]``, so a child is found by probing inside its tier's segment with no per-tier
    object to fetch. The arena is allocated uncommitted (``np.empty``: the system gives it
    pages only when they are written) and each tier's table is copied in and freed just
    before the tier is solved, so the peak stays at one copy of the codes."""
    n = len(tiers.keys)
    rem_type = remoteness_type(n)
    caps = np.array([k.size for k in tiers.keys], np.int64)
    base = np.zeros(n + 1, np.int64)
    np.cumsum(caps, out=base[1:])
    total = int(base[-1])
    keys_all = np.empty(total, np.int64)
    vals_all = np.empty(total, np.int8)
    rems_all = np.empty(total, rem_type)
    margins_all = np.empty(total if game.scored else 0, np.int64)
    none = np.zeros(0, np.int64)
    arena = Arena(tiers.numbers, base, keys_all, none, none, none, vals_all, rems_all,
                  margins_all)
    shape = Shape(game.scored, game.has_player, game.max_moves, False)
    kernels, rules = kernel_door(game.rules, (solve_range, _solve_blocks),
                                 (solve_range_cached, _solve_blocks_cached))
    done = freed = 0
    with Progress("solving tiers", total=tiers.total, enabled=progress) as bar:
        for i in range(n - 1, -1, -1):
            lo, hi = int(base[i]), int(base[i + 1])
            keys_all[lo:hi] = tiers.keys[i]
            tiers.keys[i] = keys_all[lo:hi]  # frees the tier's own table
            freed += (hi - lo) * 8
            if freed > 2**28:  # small tables go back to the C heap, which keeps them
                _trim_heap()
                freed = 0
            status, bad = _solve_tier(kernels, rules, shape, arena, i)
            raise_status(status, bad, game)
            done += tiers.sizes[i]
            bar.update(done)
    tiers.values = [vals_all[base[i]:base[i + 1]] for i in range(n)]
    tiers.rems = [rems_all[base[i]:base[i + 1]] for i in range(n)]
    tiers.margins = [margins_all[base[i]:base[i + 1]] if game.scored else margins_all
                     for i in range(n)]
    return tiers


def remoteness_type(tiers: int) -> type[np.generic]:
    """The smallest integer type that holds every remoteness of a game of ``tiers`` tiers:
    each move rises a tier, so a remoteness is below the number of tiers (and -1 for a
    draw). int8 up to 100 tiers (Connect Four up to 7x6: one byte a slot instead of two,
    and fewer cache lines read per child looked up), int16 up to 2**15 - 1.

    >>> [remoteness_type(n).__name__ for n in (26, 101, 40_000)]
    ['int8', 'int16', 'int64']
    """
    if tiers <= 100:
        return np.int8
    return np.int16 if tiers < 2**15 else np.int64


def _trim_heap() -> None:
    """Give freed heap memory back to the system (glibc's malloc_trim; elsewhere nothing):
    tables under glibc's mmap threshold are freed into the heap, which would otherwise keep
    them while the arena fills, doubling the peak for games of many small tiers."""
    global _LIBC
    if _LIBC is None:
        try:
            _LIBC = ctypes.CDLL("libc.so.6")
            _LIBC.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _LIBC = False
    if isinstance(_LIBC, ctypes.CDLL):
        _LIBC.malloc_trim(0)


_LIBC: ctypes.CDLL | bool | None = None  # None: not looked for yet; False: none


class TierSolution(Solved):
    """A solved compiled game held as tiers of codes (see :class:`Tiers`), read through the
    engine's read interface: its own look-ups only (a code's tier, then its slot), each
    position's moves generated again by the game when asked."""

    graph = None
    cyclic = False
    game: CompiledGame

    def __init__(self, game: CompiledGame, tiers: Tiers) -> None:
        self.game = game
        self.tiers = tiers
        self.mode = MARGIN if game.scored else WINLOSE

    def __repr__(self) -> str:
        return f"<Solution of {self.game.name}: {len(self):,} positions in tiers>"

    @property
    def scored(self) -> bool:
        return bool(self.game.scored)

    def __len__(self) -> int:
        return self.tiers.total

    def __iter__(self) -> Iterator[int]:
        return self.positions()

    def positions(self) -> Iterator[int]:
        """Every position's code, tier after tier."""
        for keys in self.tiers.keys:
            yield from (int(k) for k in keys[keys != EMPTY])

    def _entry(self, pos: Position) -> tuple[Worth, int | None]:
        if isinstance(pos, bool) or not isinstance(pos, int | np.integer) \
                or not -(2**63) < int(pos) < 2**63:
            raise UnknownPosition(f"{show(pos)} cannot be a position of this game (codes "
                                  "are int64)")
        ti, s = self.tiers.find(self.game, int(pos))
        if ti < 0:
            raise UnknownPosition(f"position {show(pos)} is not reachable from the start")
        t = self.tiers
        value = int(t.margins[ti][s]) if self.scored else Value.from_code(t.values[ti][s])
        return value, int(t.rems[ti][s])

    def counts(self) -> Counts:
        t = self.tiers
        src = t.margins if self.scored else t.values
        chunks = ((v[keys != EMPTY], r[keys != EMPTY])
                  for keys, v, r in zip(t.keys, src, t.rems, strict=True))
        return counts_of(chunks, self.mode, len(self))

    def to_json(self, pos: Position | None = None) -> dict[str, Any]:
        """The start (or ``pos``): value, remoteness, every move, and the position counts."""
        return summary_json(self, super().to_json(pos))
