"""Proof search of many positions in one call: :func:`search_many`.

A set of positions (a test set such as Pascal Pons' Connect Four sets, a judge's cases,
every position of an opening) searched one :func:`~perfectplay.engine.search.search` call at
a time pays Python's cost of a call, about 50 us, and an easy position's search costs less
than that in the kernel. :func:`search_many` gives the kernel every position at once: one
call runs each position's probes (:mod:`~perfectplay.engine.pinplan`) for up to
``QUICK_NODES`` nodes, with no Python between positions, and only the positions that need
more go on one at a time, with threads, the clock and Ctrl-C watched as ``search`` watches
them. Every answer is the one ``search`` gives: the same probes, the same table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast, overload

import numpy as np

from ..errors import GameError, LimitError, show
from . import pinplan
from . import searchkernel as sk
from .compiled import CompiledGame
from .protocol import Game, Position, capabilities
from .search import (
    LeafSource,
    _check_options,
    _leaf_of,
    _run,
    _Search,
    _stderr_line,
    _warm,
    search,
)
from .searchbackends import QUICK_NODES, Budget, CompiledBackend
from .searchresult import SearchResult, score_words, value_of
from .solution import move_name
from .status import ABORTED, OK, status_error

__all__ = ["MAX_POSITIONS", "SearchBatch", "search_many"]

#: the most positions one call takes (each holds a plan and a result: about 1 KB)
MAX_POSITIONS = 10_000_000
#: what a result proven in the kernel's pass says of its time (it has none of its own)
PASS_NOTE = "searched in the kernel's pass over the batch"
#: positions a kernel call: the clock and Ctrl-C are looked at between calls (at most
#: 32 x QUICK_NODES nodes, a fraction of a second)
CHUNK = 32


@dataclass
class SearchBatch(Sequence[SearchResult]):
    """What :func:`search_many` proved: a :class:`SearchResult` a position, in the order
    given, and the batch's totals. A position answered in the kernel's pass has
    ``seconds`` 0: its time is in the batch's ``seconds``, which is the clock around all
    of it (compiling excepted, in ``compile_seconds``)."""

    game: Game
    results: list[SearchResult] = field(default_factory=list)
    seconds: float = 0.0
    nodes: int = 0
    branching: int = 0
    probes: int = 0
    compile_seconds: float = 0.0
    stopped: str | None = None  # "time" or "interrupt": later positions were not finished

    def __len__(self) -> int:
        return len(self.results)

    @overload
    def __getitem__(self, i: int) -> SearchResult: ...

    @overload
    def __getitem__(self, i: slice) -> list[SearchResult]: ...

    def __getitem__(self, i: int | slice) -> SearchResult | list[SearchResult]:
        return self.results[i]

    def __iter__(self) -> Iterator[SearchResult]:
        return iter(self.results)

    @property
    def exact(self) -> bool:
        """Every position's value proven."""
        return all(r.exact for r in self.results)

    def describe(self) -> str:
        """The batch in one line: how many positions, how many proven, nodes and time."""
        proven = sum(r.exact for r in self.results)
        return (f"{len(self):,} positions of {capabilities(self.game).name}, {proven:,} "
                f"proven, {self.nodes:,} nodes in {self.seconds:.3f} s")

    def explain(self) -> str:
        """A line a position (where it is, its value, its best move by name) and the
        batch's totals, in words."""
        width = len(f"{len(self):,}")
        lines = [f"search: {capabilities(self.game).name}, {len(self):,} positions"]
        for i, r in enumerate(self.results, 1):
            where = r.where or f"position {show(r.position)}"
            best = "" if r.best_move is None else \
                f"; best move {move_name(self.game, r.best_move)}"
            lines.append(f"{i:>{width},}. {where}: {r.describe()}{best}"
                         + ("" if r.exact else "  [NOT EXACT]"))
        rate = self.nodes / self.seconds if self.seconds > 0 else 0.0
        lines.append(f"{self.describe()} ({rate:,.0f} nodes/s), {self.probes:,} null-window "
                     "searches")
        if self.stopped:
            lines.append(f"stopped by: {self.stopped} (what is shown is proven; the rest is "
                         "not)")
        limited = sum(r.stopped == "nodes" for r in self.results)
        if limited:
            lines.append(f"{limited:,} position{'s' if limited > 1 else ''} stopped by the "
                         "node limit (each position's)")
        if self.compile_seconds >= 0.05:
            lines.append(f"compiling: {self.compile_seconds:.2f} s before the search (numba's "
                         "first compile, or reading it from its disk cache)")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The totals and every position's :meth:`SearchResult.to_json` (with ``where``,
        the position's words, when the caller gave them)."""
        return {"game": capabilities(self.game).name, "positions": len(self),
                "exact": self.exact, "nodes": self.nodes, "branching": self.branching,
                "probes": self.probes, "seconds": round(self.seconds, 4),
                "compile_seconds": round(self.compile_seconds, 4), "stopped": self.stopped,
                "results": [{**r.to_json(), "where": r.where} for r in self.results]}


def search_many(game: Game, positions: Iterable[Position], *, remoteness: bool = True,
                time_limit: float | None = None, node_limit: int | None = None,
                table_mb: float = 64, workers: int = 1, max_depth: int = 10_000,
                progress: Callable[[str], None] | bool | None = None,
                endgame: sk.Leaf | LeafSource | None = None) -> SearchBatch:
    """Prove the value, remoteness and a best move of every position, as
    :func:`~perfectplay.engine.search.search` proves one, sharing one table.

    For a compiled game the kernel makes every position's probes in one call, up to
    ``QUICK_NODES`` nodes each (the easy positions of a test set end there), and the rest
    go on one at a time as ``search`` would search them (``workers`` threads). ``time_limit``
    is the whole batch's: positions not proven by then are returned with the bounds proven
    (``exact`` False, ``stopped`` "time"). ``node_limit`` is each position's. The other
    options are ``search``'s. A Python game's positions are searched one ``search`` at a
    time. Time O(the searches' nodes); memory O(positions) besides the table.

    >>> from perfectplay.games import tictactoe
    >>> game = tictactoe()
    >>> batch = search_many(game, [game.initial(), game.play(game.initial(), 4)])
    >>> [r.describe() for r in batch]
    ['tie in 9', 'tie in 8']
    """
    _check_options(table_mb, workers, time_limit, node_limit, max_depth)
    items = _positions(positions)
    if progress is True:
        progress = _stderr_line
    if not isinstance(game, CompiledGame):
        return _one_by_one(game, items, remoteness, time_limit, node_limit, max_depth,
                           progress or None, endgame)
    codes = _codes(game, items)
    backend = CompiledBackend(game, table_mb, workers, max_depth, progress or None,
                              _leaf_of(endgame, game))
    batch = SearchBatch(game)
    try:
        if codes.size:
            batch.compile_seconds = _warm(backend, game, int(codes[0]), remoteness,
                                          progress or None)
        began = time.monotonic()
        deadline = None if time_limit is None else began + time_limit
        run = _Search(game, backend, Budget(None, node_limit))
        run.want_remoteness = remoteness
        rows = _kernel_pass(run, codes, node_limit, deadline)
        counted = [backend.branching_nodes()]  # the branching nodes counted so far
        for c, row in zip(codes.tolist(), rows, strict=True):
            try:
                result = _finish(run, c, row, node_limit, deadline, workers, counted)
            except KeyboardInterrupt:  # Ctrl-C in the caller's thread: this position and
                run.budget.stopped = "interrupt"  # every later one say what is proven
                result = _finish(run, c, row, node_limit, deadline, workers, counted)
            batch.results.append(result)
        batch.seconds = time.monotonic() - began
    finally:
        backend.close()
    _totals(batch)
    return batch


def _positions(positions: Iterable[Position]) -> list[Position]:
    """The positions as a list, within MAX_POSITIONS (a LimitError before any work)."""
    if isinstance(positions, str | bytes) or not isinstance(positions, Iterable):
        raise GameError(f"positions must be a list of positions, not "
                        f"{type(positions).__name__}")
    items: list[Position] = []
    for p in positions:
        items.append(p)
        if len(items) > MAX_POSITIONS:
            raise LimitError(f"at most {MAX_POSITIONS:,} positions a call")
    return items


def _codes(game: CompiledGame, items: list[Position]) -> np.ndarray:
    """The positions as int64 codes, each checked to name a position of the game (a
    GameError naming the first that does not, and where it is in the list)."""
    if not items:
        return np.zeros(0, np.int64)
    ints = cast(list[int], items)  # the usual case, checked at a glance (a Python int is
    if all(type(p) is int for p in ints) and min(ints) > -(2**63) and \
            max(ints) < 2**63 and (not game.has_valid or all(game.valid(c) for c in ints)):
        return np.array(ints, np.int64)  # typed faster than an int64)
    for i, p in enumerate(items):  # else the first that names no position, in words
        problem = game.code_problem(p)
        if problem is not None:
            raise GameError(f"position {i + 1:,} of {len(items):,}: {problem}")
    return np.array([int(cast(int, p)) for p in items], np.int64)


def _kernel_pass(run: _Search, codes: np.ndarray, node_limit: int | None,
                 deadline: float | None) -> list[list[int]]:
    """Every position's plan carried out by the kernel, CHUNK positions a call, up to
    QUICK_NODES nodes each (node_limit if smaller): the (status, code, nodes, branching,
    remoteness or -1, probes) rows. A position proven here leaves its score and best move
    in the run's caches; one the kernel stopped leaves its plan there for
    :meth:`_Search.pin` to carry on; a position of a chunk the clock did not reach has
    status ABORTED and no plan."""
    backend = run.backend
    assert isinstance(backend, CompiledBackend)
    plans = np.zeros((codes.size, pinplan.SIZE), np.int64)
    out = np.zeros((codes.size, 5), np.int64)
    out[:, 0] = ABORTED
    out[:, 4] = -1
    limit = min(QUICK_NODES, node_limit or QUICK_NODES)
    want_best = run.kernel_names_best
    try:
        for start in range(0, codes.size, CHUNK):
            if deadline is not None and time.monotonic() >= deadline:
                break
            part = slice(start, start + CHUNK)
            out[part] = backend.pin_all(codes[part], plans[part], True, want_best, limit)
            backend.probes += int(plans[part, pinplan.PROBES].sum())
            _raise_errors(out[part], backend)  # a broken hook says so at once
    except KeyboardInterrupt:  # what the pass proved stands; the rest is not searched
        run.budget.stopped = "interrupt"
    kept = plans[:, [pinplan.PHASE, pinplan.LO, pinplan.BEST, pinplan.PROBES]].tolist()
    rows = out.tolist()  # Python ints from here: a numpy scalar costs 0.1 us a read
    for i, (c, row, (phase, score, best, probes)) in enumerate(
            zip(codes.tolist(), rows, kept, strict=True)):
        status = row[0]
        if status == OK and phase == pinplan.DONE:
            run.exact_scores[c] = score
            if best >= 0:
                run.best_known[c] = best
        elif status == OK or (status == ABORTED and probes > 0):
            run.plans[c] = plans[i]  # a contradiction pin reports, or probes to carry on
        row.append(probes)
    return rows


def _raise_errors(rows: np.ndarray, backend: CompiledBackend) -> None:
    """The error of the first row whose status is neither OK nor ABORTED (a game's hook
    that answered out of range, a cycle, a line too deep), as ``search`` raises it."""
    bad = np.flatnonzero((rows[:, 0] != OK) & (rows[:, 0] != ABORTED))
    if bad.size:
        status, code = int(rows[bad[0], 0]), int(rows[bad[0], 1])
        raise status_error(status, code, backend.game, limit=sk.LIMIT,
                           max_depth=backend.max_depth)


def _finish(run: _Search, code: int, row: list[int], node_limit: int | None,
            deadline: float | None, workers: int, counted: list[int]) -> SearchResult:
    """A position's result (``row``: its row of :func:`_kernel_pass`): its remoteness and
    best move where the kernel pass left them out, and its search carried on where the
    pass stopped (a budget of its own: the node_limit less the pass's nodes, the batch's
    deadline). ``counted``: the backend's branching nodes before this position."""
    backend = run.backend
    if row[0] == OK and (row[4] >= 0 or not run.want_remoteness) and \
            code in run.exact_scores and (code in run.best_known or row[4] == 0):
        return _read_result(run, code, row, workers)
    interrupted = run.budget.stopped == "interrupt"  # Ctrl-C stops every later position
    run.budget = Budget(None, node_limit)
    run.budget.deadline = deadline
    run.budget.stopped = "interrupt" if interrupted else None
    run.budget.nodes = nodes = row[2]
    probes = backend.probes
    result = _run(run, run.game, code, False, workers, table={})
    result.branching = row[3]
    if result.nodes != nodes:  # searched on here: the kernel's counts went on
        now = backend.branching_nodes()
        result.branching += now - counted[0]
        counted[0] = now
    result.probes = row[5] + backend.probes - probes
    if not result.exact:
        result.table = backend.table_stats()
    if result.nodes == nodes and result.exact:  # nothing searched after the pass
        result.seconds = 0.0
        result.note = result.note or PASS_NOTE
    return result


def _read_result(run: _Search, code: int, row: list[int], workers: int) -> SearchResult:
    """The result of a position the kernel's pass proved whole: its score, best move and
    remoteness (read off the score or the horizon) as the pass left them, no rule called
    again (what ``_run`` would find, at a few microseconds a position, not tens)."""
    s = run.exact_scores[code]
    value, remoteness = value_of(s, run.scored)  # a win's or a loss's, always
    if remoteness is None and run.want_remoteness:
        remoteness = row[4]  # a tie's, read off the horizon
    words = score_words(s, run.scored)
    return SearchResult(game=run.game, position=code, value=value, remoteness=remoteness,
                        best_move=run.best_known.get(code), exact=True, lower=words,
                        upper=words, nodes=row[2], branching=row[3],
                        probes=row[5], workers=workers, backend=run.backend.name,
                        note=PASS_NOTE)


def _one_by_one(game: Game, items: list[Position], remoteness: bool,
                time_limit: float | None, node_limit: int | None, max_depth: int,
                progress: Callable[[str], None] | None,
                endgame: sk.Leaf | LeafSource | None) -> SearchBatch:
    """A Python game's batch: one ``search`` a position, the clock shared."""
    if endgame is not None:
        raise GameError("an endgame store helps compiled games only (the search of a Python "
                        "game runs in Python)")
    began = time.monotonic()
    batch = SearchBatch(game)
    for p in items:
        left = None if time_limit is None else max(1e-9, time_limit - (time.monotonic() - began))
        batch.results.append(search(game, p, remoteness=remoteness, time_limit=left,
                                    node_limit=node_limit, max_depth=max_depth,
                                    progress=progress))
    batch.seconds = time.monotonic() - began
    _totals(batch)
    return batch


def _totals(batch: SearchBatch) -> None:
    """The batch's node, branching and probe counts, and what stopped it."""
    batch.nodes = sum(r.nodes for r in batch.results)
    batch.branching = sum(r.branching for r in batch.results)
    batch.probes = sum(r.probes for r in batch.results)
    stops = [r.stopped for r in batch.results if r.stopped in ("time", "interrupt")]
    batch.stopped = stops[0] if stops else None
