"""Audit a store on disk: its files against the checksums written when it was made, its
manifest's counts, and sampled positions by retrograde consistency
(:mod:`perfectplay.engine.solved.verify`), their children looked up in batches.

A store holds no list of positions in Python: positions are drawn tier by tier (uniformly
over the whole store) straight from the packed tiers, as codes; their children come from
the game's own rules and are looked up in one batch a block (:meth:`~.reader.Store.lookup`, compiled
kernels), so the cost is about one bulk look-up per move.

Complexity: O(checked positions x moves) look-ups plus one pass over each sampled tier's
index; the files' checksums read every byte once (O(store size)).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numba import njit

from ..engine.compiled.game import ONGOING, CompiledGame, is_compiled
from ..engine.protocol import Game, Position, Score, Worth, capabilities
from ..engine.solved.verify import Child, Mismatch, VerifyReport, implied, same_entry
from ..engine.status import BAD_MOVE_COUNT, OK, status_error
from ..engine.values import UnknownPosition, describe
from ..errors import show
from .integrity import StoreDamaged
from .layout import checksums, read_manifest, tier_path
from .packed import set_ranks, slot_ranks, unranked
from .plies import book_layers
from .sortedtiers import unmix_all


class PackedStore(Protocol):
    """What :func:`verify_store` reads of a :class:`~perfectplay.store.Store`."""

    path: Path
    tables: dict[int, Any]
    tiers: list[int]

    @property
    def game(self) -> Any: ...

    @property
    def scored(self) -> bool: ...

    def __len__(self) -> int: ...

    def lookup(self, codes: Any) -> dict[str, np.ndarray]: ...

    def _score(self, pos: Position, value: Worth, rem: int | None) -> Score: ...


#: Positions checked a batch (their children are looked up together).
BATCH = 1 << 14
def store_problems(store: PackedStore) -> tuple[list[str], list[str]]:
    """(problems, notes) of the store's files and manifest: a file whose checksum differs
    or is missing, a tier whose recorded size differs from what its file holds."""
    manifest = read_manifest(store.path)
    problems: list[str] = []
    notes: list[str] = []
    if "seal" not in manifest:
        notes.append("the manifest was written before manifests were sealed: its value "
                     "tables are not under a checksum (its tier files are); build it "
                     "again into a new folder (solve --store, book) to seal it")
    recorded = manifest.get("checksums")
    if recorded is None:
        notes.append("no checksums recorded (a store written before they were): files "
                     "not checked")
    else:
        found = checksums(store.path)
        for name, digest in sorted(recorded.items()):
            if name not in found:
                problems.append(f"tiers/{name} is missing")
            elif found[name] != digest:
                problems.append(f"tiers/{name} has changed since the store was written "
                                "(its checksum differs)")
        for name in sorted(set(found) - set(recorded)):
            problems.append(f"tiers/{name} is not part of the store as written")
    for entry in manifest.get("tiers", []):
        t, size = int(entry["tier"]), int(entry["size"])
        cells = tier_path(store.path, t, "cells")
        width = int(entry["width"])
        if cells.exists() and cells.stat().st_size != size * width:
            problems.append(f"tier {t}: the manifest says {size:,} positions, its cells "
                            f"file holds {cells.stat().st_size // width:,}")
    return problems, notes


def sample_codes(store: PackedStore, sample: int | None, seed: int) -> Iterator[np.ndarray]:
    """The codes of ``sample`` positions drawn uniformly from the whole store (all of them
    when ``sample`` is None), a tier at a time."""
    sizes = {t: store.tables[t].size for t in store.tiers}
    total = sum(sizes.values())
    rng = random.Random(seed)
    picks: dict[int, np.ndarray | None] = {}
    if sample is None or sample >= total:
        picks = {t: None for t in store.tiers}
    else:
        chosen = sorted(rng.sample(range(total), sample))
        start, k = 0, 0
        for t in store.tiers:
            end = start + sizes[t]
            j = k
            while j < len(chosen) and chosen[j] < end:
                j += 1
            if j > k:
                picks[t] = np.array(chosen[k:j], np.int64) - start
            start, k = end, j
    for t, slots in picks.items():
        yield tier_codes(store, t, slots)


def tier_codes(store: PackedStore, t: int, slots: np.ndarray | None) -> np.ndarray:
    """The codes at ``slots`` of tier ``t`` (every slot when None)."""
    table = store.tables[t]
    if table.ranked:
        ranks = set_ranks(table.present) if slots is None else \
            slot_ranks(table.present, table.counts, slots)
        game = store.game
        return unranked(t, ranks, game.ranking.unrank)
    keys = np.asarray(table.keys)
    return unmix_all(keys if slots is None else keys[slots])


def verify_store(store: PackedStore, sample: int | None = 100_000, seed: int = 0) -> VerifyReport:
    """Check a store (see the module doc): its files, then ``sample`` positions (None: all)
    by retrograde consistency. Mismatches name positions as the game draws them."""
    began = time.perf_counter()
    report = VerifyReport(total=len(store))
    problems, notes = store_problems(store)
    report.problems.extend(problems)
    report.notes.extend(notes)
    with unchecked(store, bool(problems)):  # damage reported: now find its positions
        try:
            searched = book_promise(store, report)
            for codes in sample_codes(store, sample, seed):
                if searched is not None:
                    codes = codes[~np.isin(codes, searched)]
                for k in range(0, codes.size, BATCH):
                    _check_batch(store, codes[k:k + BATCH].tolist(), report)
        except StoreDamaged as exc:  # damage that stops the look-ups (an id past a table)
            report.problems.append(str(exc))
    report.seconds = time.perf_counter() - began
    return report


@contextmanager
def unchecked(store: PackedStore, off: bool) -> Iterator[None]:
    """With ``off``: the store's tier files read without their checksums for a while (a
    verify that has reported a damaged file goes on to name the positions it changed);
    then read, and checked, afresh."""
    if not off:
        yield
        return
    saved = {t: getattr(table, "digests", None) for t, table in store.tables.items()}
    for table in store.tables.values():
        table.digests = None
    try:
        yield
    finally:
        for t, table in store.tables.items():
            table.digests = saved[t]
            getattr(table, "_maps", {}).clear()


def book_promise(store: PackedStore, report: VerifyReport) -> np.ndarray | None:
    """For an opening book (None for any other store): check what a book promises, every
    position within its plies of the start held (a problem in ``report`` for each one
    missing), and return the codes of its last ply. Those were proven by search when the
    book was built and their children lie outside it, so retrograde consistency cannot
    check them: they are left out of the sample (and of ``report.total``), their bytes
    covered by the files' checksums. Every position before them follows from its children,
    which are all in the book. O(book positions x moves)."""
    held = read_manifest(store.path).get("book")
    if not isinstance(held, dict):
        return None
    plies = int(held.get("plies", 0))
    layers = book_layers(store.game, plies)
    every = np.concatenate(layers)
    found = store.lookup(every)["found"]
    missing = int(every.size - np.count_nonzero(found))
    if missing:
        report.problems.append(f"{missing:,} of the {every.size:,} positions within {plies} "
                               "plies of the start are not in the book")
    if len(store) != every.size:
        report.problems.append(f"the book holds {len(store):,} positions; its {plies} plies "
                               f"hold {every.size:,}")
    last = layers[-1]
    report.total = max(0, len(store) - int(last.size))
    report.notes.append(f"the {last.size:,} positions of ply {plies}, the last, were proven "
                        "by search when the book was built (their children lie outside it): "
                        "their files are checked by checksum, not their values by their "
                        "children")
    return last


def _check_batch(store: PackedStore, codes: list[int], report: VerifyReport) -> None:
    """Check the positions of ``codes``: their stored entries against the best of their
    children's, every child looked up in one batch."""
    game = store.game
    decode = capabilities(game).decode
    positions: list[Position] = [decode(c) if decode else c for c in codes]
    expand = _expand_compiled if is_compiled(game) else _expand_python
    ends, kids, child_codes = expand(game, positions)
    stored = store.lookup(codes)
    found = store.lookup(child_codes) if len(child_codes) else None
    for i, pos in enumerate(positions):
        report.checked += 1
        entry = _entry(stored, i)
        if entry is None:  # drawn from the store itself: cannot happen unless damaged
            report.add(Mismatch(show(pos), "nothing", "its own slot is unreadable"))
            continue
        try:
            expected = implied(store.scored, store._score, pos, ends[i],
                               _children(kids[i], found, child_codes))
        except UnknownPosition as exc:
            report.add(Mismatch(show(pos), describe(*entry), f"nothing: {exc}"))
            continue
        if not same_entry(entry, expected):
            report.add(Mismatch(show(pos), describe(*entry), describe(*expected)))


#: What the expansion of a batch gives :func:`_check_batch`: each position's outcome (None
#: while the game goes on), its moves as (index into the child codes, payoff, whether the
#: move passes the turn), and the children's codes.
Expansion = tuple[list["Worth | None"], list[list[tuple[int, Any, bool]]], Any]


def _expand_python(game: Game, positions: list[Position]) -> Expansion:
    """The children of ``positions`` through the game's Python hooks, one call a move."""
    caps = capabilities(game)
    encode = caps.encode
    ends: list[Worth | None] = []
    kids: list[list[tuple[int, Any, bool]]] = []
    child_codes: list[int] = []
    for pos in positions:
        out = game.outcome(pos)
        ends.append(out)
        row: list[tuple[int, Any, bool]] = []
        if out is None:
            mover = caps.player(pos) if caps.player is not None else None
            for move in game.moves(pos):
                child = game.play(pos, move)
                pay = caps.payoff(pos, move) if caps.payoff is not None else None
                passes = mover is None or caps.player(child) != mover  # type: ignore[misc]
                row.append((len(child_codes), pay, passes))
                child_codes.append(int(encode(child)) if encode else int(child))
        kids.append(row)
    return ends, kids, child_codes


def _expand_compiled(game: CompiledGame, positions: list[Position]) -> Expansion:
    """The children of ``positions`` of a compiled game in one kernel call
    (:func:`expand_codes`); only ended positions go back to Python, for their outcome."""
    r = game.rules
    codes = np.asarray(positions, np.int64)
    status, bad, ongoing, offsets, children, pays, passes = expand_codes(
        codes, r.moves, r.play, r.outcome, r.payoff, r.player, game.scored, game.has_player,
        game.max_moves)
    if status != OK:
        raise status_error(status, int(bad), game)
    ends: list[Worth | None] = [None if on else game.outcome(int(c))
                                for c, on in zip(codes.tolist(), ongoing.tolist(), strict=True)]
    bounds = offsets.tolist()
    pay = pays.tolist() if game.scored else None
    turn = passes.tolist()
    kids = [[(j, None if pay is None else pay[j], turn[j]) for j in range(lo, hi)]
            for lo, hi in zip(bounds, bounds[1:], strict=False)]
    return ends, kids, children


@njit
def expand_codes(codes, moves, play, outcome, payoff, player, scored, with_player,
                 max_moves):
    """(status, bad code, ongoing, offsets, children, payoffs, passes) of ``codes``: which
    positions go on, and the moves of each as CSR arrays (the children's codes, each move's
    payoff in a scored game, whether it passes the turn). O(positions + moves)."""
    n = codes.size
    ongoing = np.zeros(n, np.bool_)
    offsets = np.zeros(n + 1, np.int64)
    children = np.empty(n * max_moves, np.int64)
    pays = np.zeros(n * max_moves if scored else 0, np.int64)
    passes = np.ones(n * max_moves, np.bool_)
    buf = np.empty(max_moves + 1, np.int64)
    m = 0
    for i in range(n):
        code = codes[i]
        if outcome(code) == ONGOING:
            ongoing[i] = True
            k = moves(code, buf)
            if k < 0 or k > max_moves:
                return BAD_MOVE_COUNT, code, ongoing, offsets, children, pays, passes
            mover = player(code) if with_player else 0
            for j in range(k):
                child = play(code, buf[j])
                children[m] = child
                if scored:
                    pays[m] = payoff(code, buf[j])
                if with_player:
                    passes[m] = player(child) != mover
                m += 1
        offsets[i + 1] = m
    return OK, 0, ongoing, offsets, children[:m], pays[:m], passes[:m]


def _entry(looked: dict[str, np.ndarray], i: int) -> tuple[Worth, int | None] | None:
    if not looked["found"][i]:
        return None
    rem = int(looked["remoteness"][i])
    return looked["value"][i], None if rem < 0 else rem


def _children(row: list[tuple[int, Any, bool]], found: dict[str, np.ndarray] | None,
              child_codes: list[int]) -> Iterator[Child]:
    """The moves of one position as :func:`implied` reads them, from the batch's
    look-ups (a child not in the store raises :class:`UnknownPosition`)."""
    for j, pay, passes in row:
        child = None if found is None else _entry(found, j)
        if child is None:
            raise UnknownPosition(f"its child {child_codes[j]} (a code) is not in the store")
        yield pay, child[0], child[1], passes
