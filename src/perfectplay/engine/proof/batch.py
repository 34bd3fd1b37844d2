"""Proof search of many positions in one call: :func:`search_many`.

A set of positions (a test set such as Pascal Pons' Connect Four sets, a judge's cases,
every position of an opening) searched one :func:`~perfectplay.engine.proof.driver.search` call at
a time pays Python's cost of a call, about 50 us, and an easy position's search costs less
than that in the kernel. :func:`search_many` gives the kernel every position at once: one
call runs each position's probes (:mod:`~perfectplay.engine.proof.plan`) for up to
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
from numba import types as numba_types

from ...errors import GameError, LimitError, show
from ..check import precheck
from ..compiled import CompiledGame
from ..protocol import Game, Position, capabilities
from ..solved import move_name
from ..status import ABORTED, OK, status_error
from . import kernel as sk
from . import plan as pinplan
from .backends import QUICK_NODES, Budget, CompiledBackend
from .driver import (
    LeafSource,
    SearchRun,
    leaf_of,
    run_search,
    search,
    stderr_line,
    warm_up,
)
from .limits import Limits
from .result import SearchResult, score_words, value_of

__all__ = ["MAX_POSITIONS", "SearchBatch", "search_many"]

#: the most positions one call takes (about 300 bytes each during the call, its plan and
#: its row; about 90 after, its row, until its result is read: about 1 KB each made)
MAX_POSITIONS = 10_000_000
#: what a result proven in the kernel's pass says of its time (it has none of its own)
PASS_NOTE = "searched in the kernel's pass over the batch"
#: nodes a kernel call of the pass: the clock and Ctrl-C are looked at between calls (a
#: fraction of a second; a call ends with the position that reaches them, so at most
#: PASS_NODES + QUICK_NODES nodes), and a set of easy positions is one call
PASS_NODES = 32 * QUICK_NODES


@dataclass
class SearchBatch(Sequence[SearchResult]):
    """What :func:`search_many` proved: a :class:`SearchResult` a position, in the order
    given, and the batch's totals. A position answered in the kernel's pass has
    ``seconds`` 0: its time is in the batch's ``seconds``, which is the clock around all
    of it (compiling excepted, in ``compile_seconds``). The results of the positions the
    pass proved are kept as the kernel's rows (about 90 bytes a position, not a result
    object's 1 KB) and each is made when it is first read, then kept: a batch of millions
    of easy positions holds arrays, not millions of objects."""

    game: Game
    seconds: float = 0.0
    nodes: int = 0
    branching: int = 0
    probes: int = 0
    compile_seconds: float = 0.0
    stopped: str | None = None  # "time" or "interrupt": later positions were not finished
    #: a result a position, None where it is still a row of ``_pass`` (made when read)
    _results: list[SearchResult | None] = field(default_factory=list, repr=False)
    _pass: _PassRows | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self._results)

    @overload
    def __getitem__(self, i: int) -> SearchResult: ...

    @overload
    def __getitem__(self, i: slice) -> list[SearchResult]: ...

    def __getitem__(self, i: int | slice) -> SearchResult | list[SearchResult]:
        if isinstance(i, slice):
            return [self._result(j) for j in range(len(self._results))[i]]
        return self._result(range(len(self._results))[i])  # an IndexError out of range

    def __iter__(self) -> Iterator[SearchResult]:
        return (self._result(j) for j in range(len(self._results)))

    def _result(self, i: int) -> SearchResult:
        """Position i's result, made from the pass's row the first time it is read."""
        r = self._results[i]
        if r is None:
            assert self._pass is not None
            r = self._results[i] = self._pass.result(i)
        return r

    @property
    def results(self) -> list[SearchResult]:
        """Every position's result, in the order given (all made now)."""
        return list(self)

    @property
    def exact(self) -> bool:
        """Every position's value proven."""
        return all(r is None or r.exact for r in self._results)  # a row: proven whole

    def describe(self) -> str:
        """The batch in one line: how many positions, how many proven, nodes and time."""
        proven = sum(r is None or r.exact for r in self._results)
        return (f"{len(self):,} positions of {capabilities(self.game).name}, {proven:,} "
                f"proven, {self.nodes:,} nodes in {self.seconds:.3f} s")

    def explain(self) -> str:
        """A line a position (where it is, its value, its best move by name) and the
        batch's totals, in words."""
        width = len(f"{len(self):,}")
        lines = [f"search: {capabilities(self.game).name}, {len(self):,} positions"]
        for i, r in enumerate(self, 1):
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
        limited = sum(r is not None and r.stopped == "nodes" for r in self._results)
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
                "results": [{**r.to_json(), "where": r.where} for r in self]}


def search_many(game: Game, positions: Iterable[Position], *, limits: Limits | None = None,
                remoteness: bool = True, time_limit: float | None = None,
                node_limit: int | None = None, table_mb: float | None = None,
                workers: int | None = None, max_depth: int | None = None,
                progress: Callable[[str], None] | bool | None = None,
                endgame: sk.Leaf | LeafSource | None = None,
                check: bool = True) -> SearchBatch:
    """Prove the value, remoteness and a best move of every position, as
    :func:`~perfectplay.engine.proof.driver.search` proves one, sharing one table.

    For a compiled game the kernel makes every position's probes in one call, up to
    ``QUICK_NODES`` nodes each (the easy positions of a test set end there), and the rest
    go on one at a time as ``search`` would search them (``workers`` threads). ``limits``
    (:class:`~perfectplay.engine.proof.limits.Limits`, or its fields as keywords, which
    override it) as for ``search``, but its ``time_limit`` is the whole batch's: positions
    not proven by then are returned with the bounds proven (``exact`` False, ``stopped``
    "time"); ``node_limit`` is each position's. The other options are ``search``'s. A
    Python game's positions are searched one ``search`` at a time. Time O(the searches'
    nodes); memory O(positions) besides the table. ``check``: the game is checked once
    first, as ``search`` checks it (``check=False`` skips it).

    >>> from perfectplay.games import tictactoe
    >>> game = tictactoe()
    >>> batch = search_many(game, [game.initial(), game.play(game.initial(), 4)])
    >>> [r.describe() for r in batch]
    ['tie in 9', 'tie in 8']

    :param game: a Python game or a :class:`~perfectplay.engine.CompiledGame`.
    :param positions: the positions to prove (a compiled game's int codes), at most
        ``MAX_POSITIONS``.
    :param limits: what the search may spend; its ``time_limit`` is the whole batch's, its
        ``node_limit`` each position's.
    :param remoteness: prove the remoteness too (False: the value and a best move).
    :param time_limit: seconds for the whole batch, overriding ``limits``.
    :param node_limit: nodes a position, overriding ``limits``.
    :param table_mb: the shared transposition table in MB, overriding ``limits``.
    :param workers: threads, overriding ``limits``.
    :param max_depth: the deepest line followed, overriding ``limits``.
    :param progress: a callable taking a line, or True for lines on stderr.
    :param endgame: a solved store of the game's last tiers, read instead of searched.
    :param check: run the bounded check of the game once first.
    :returns: a :class:`~perfectplay.engine.SearchBatch`: one
        :class:`~perfectplay.engine.SearchResult` a position, in the order given, with the
        batch's nodes and time.
    :raises LimitError: a limit out of range, or more positions than one call takes.
    :raises GameError: the game fails its check, ``positions`` is not a list of positions,
        or one of them is not the game's.
    """
    limits = Limits.given(limits, time_limit=time_limit, node_limit=node_limit,
                          table_mb=table_mb, workers=workers, max_depth=max_depth)
    time_limit, node_limit, workers = limits.time_limit, limits.node_limit, limits.workers
    if check:
        precheck(game)
    items = _positions(positions)
    if progress is True:
        progress = stderr_line
    if not isinstance(game, CompiledGame):
        return _one_by_one(game, items, remoteness, limits, progress or None, endgame)
    codes = _codes(game, items)
    backend = CompiledBackend(game, limits, progress or None, leaf_of(endgame, game))
    batch = SearchBatch(game)
    try:
        if codes.size:
            batch.compile_seconds = warm_up(backend, game, int(codes[0]), remoteness,
                                          progress or None)
        began = time.monotonic()
        deadline = None if time_limit is None else began + time_limit
        run = SearchRun(game, backend, Budget(None, node_limit))
        run.want_remoteness = remoteness
        rows = _kernel_pass(run, codes, node_limit, deadline, workers)
        batch._pass = rows
        batch._results = [None] * codes.size
        counted: list[int] = []  # the branching nodes counted so far (read when needed)
        for i in rows.unfinished():
            row = rows.row(i)
            c = int(codes[i])
            try:
                result = _finish(run, c, row, node_limit, deadline, workers, counted)
            except KeyboardInterrupt:  # Ctrl-C in the caller's thread: this position and
                run.budget.stopped = "interrupt"  # every later one say what is proven
                result = _finish(run, c, row, node_limit, deadline, workers, counted)
            batch._results[i] = result
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
    if isinstance(positions, list | tuple):  # sized: counted at once
        if len(positions) > MAX_POSITIONS:
            raise LimitError(f"at most {MAX_POSITIONS:,} positions a call")
        return list(positions)
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
            max(ints) < 2**63 and (not game.has_valid or all(map(_valid_of(game), ints))):
        return np.array(ints, np.int64)  # typed faster than an int64)
    for i, p in enumerate(items):  # else the first that names no position, in words
        problem = game.code_problem(p)
        if problem is not None:
            raise GameError(f"position {i + 1:,} of {len(items):,}: {problem}")
    return np.array([int(cast(int, p)) for p in items], np.int64)


def _valid_of(game: CompiledGame) -> Callable[[int], bool]:
    """The game's ``valid`` hook as the machine code numba compiled for an int64 (called
    from Python without the dispatcher's typing of its argument: 0.14 us a call, not
    0.25), or the hook itself before its first compile."""
    valid = game.valid
    overloads = getattr(valid, "overloads", None)
    compiled = None if overloads is None else overloads.get((numba_types.int64,))
    return valid if compiled is None else cast(Callable[[int], bool], compiled.entry_point)


def _kernel_pass(run: SearchRun, codes: np.ndarray, node_limit: int | None,
                 deadline: float | None, workers: int) -> _PassRows:
    """Every position's plan carried out by the kernel, about PASS_NODES nodes a call, up
    to QUICK_NODES nodes each (node_limit if smaller): the kernel's rows, each position
    marked proven whole or not (:class:`_PassRows`). A position proven but not whole (a
    tie's remoteness to walk) leaves its score and best move in the run's caches; one the
    kernel stopped leaves its plan there for :meth:`SearchRun.pin` to carry on; a position
    the clock did not reach has status ABORTED and no plan. O(positions) numpy steps and
    Python steps for the positions not proven whole only."""
    backend = run.backend
    assert isinstance(backend, CompiledBackend)
    plans = np.zeros((codes.size, pinplan.SIZE), np.int64)
    out = np.zeros((codes.size, sk.OUT_COLUMNS), np.int64)
    out[:, sk.OUT_STATUS] = ABORTED
    out[:, sk.OUT_REMOTENESS] = -1
    out[:, sk.OUT_BEST] = -1
    limit = min(QUICK_NODES, node_limit or QUICK_NODES)
    want_best = run.kernel_names_best
    start = 0
    try:
        while start < codes.size:
            if deadline is not None and time.monotonic() >= deadline:
                break
            end = start + backend.pin_pass(codes[start:], plans[start:], out[start:], True,
                                           want_best, limit, PASS_NODES,
                                           run.want_remoteness)
            _raise_error(out[end - 1], backend)  # a broken hook says so at once
            start = end
    except KeyboardInterrupt:  # what the pass proved stands; the rest is not searched
        run.budget.stopped = "interrupt"
    rows = _PassRows(run, codes, out, workers)
    backend.probes += int(out[:, sk.OUT_PROBES].sum())
    for i in rows.unfinished():
        c, status = int(codes[i]), int(out[i, sk.OUT_STATUS])
        phase, score, best, probes = (int(x) for x in plans[i, [
            pinplan.PHASE, pinplan.LO, pinplan.BEST, pinplan.PROBES]])
        if status == OK and phase == pinplan.DONE:
            run.exact_scores[c] = score
            if best >= 0:
                run.best_known[c] = best
        elif status == OK or (status == ABORTED and probes > 0):
            run.plans[c] = plans[i]  # a contradiction pin reports, or probes to carry on
    return rows


class _PassRows:
    """What the kernel's pass left of every position: its row of
    :func:`~perfectplay.engine.proof.kernel.pin_many` (status, code, nodes, branching,
    remoteness or -1, the plan's score, best move and probes, and whether that is all of
    its result). A whole position's :class:`SearchResult` is made from its row when it is
    read (:meth:`result`), at a microsecond or two, no rule called again: what ``run_search``
    would find."""

    def __init__(self, run: SearchRun, codes: np.ndarray, out: np.ndarray,
                 workers: int) -> None:
        self.game = run.game
        self.scored = run.scored
        self.want_remoteness = run.want_remoteness
        self.workers = workers
        self.backend = run.backend.name
        self.codes = codes
        self.out = out
        #: each score's (value, remoteness, words) met so far
        self.words: dict[int, tuple[Any, int | None, str]] = {}

    def unfinished(self) -> list[int]:
        """The positions (indexes) whose result the pass did not prove whole."""
        return np.flatnonzero(self.out[:, sk.OUT_WHOLE] == 0).tolist()

    def row(self, i: int) -> list[int]:
        """Position i's (status, code, nodes, branching, remoteness or -1, probes)."""
        row = self.out[i].tolist()
        return [*row[:sk.OUT_SCORE], row[sk.OUT_PROBES]]

    def totals(self) -> tuple[int, int, int]:
        """(nodes, branching nodes, probes) of the positions proven whole."""
        whole = self.out[:, sk.OUT_WHOLE]
        counts = whole @ self.out[:, [sk.OUT_NODES, sk.OUT_BRANCHING, sk.OUT_PROBES]]
        nodes, branching, probes = (int(n) for n in counts)
        return nodes, branching, probes

    def result(self, i: int) -> SearchResult:
        """The result of position i, proven whole in the pass: its remoteness read off the
        score (a win's, a loss's) or off the horizon (a tie's) as the pass left it."""
        _, _, nodes, branching, rem, s, best, probes, _ = self.out[i].tolist()
        said = self.words.get(s)
        if said is None:
            said = self.words[s] = (*value_of(s, self.scored), score_words(s, self.scored))
        value, remoteness, text = said
        if remoteness is None and self.want_remoteness:
            remoteness = rem  # a tie's, read off the horizon
        return SearchResult(game=self.game, position=int(self.codes[i]), value=value,
                            remoteness=remoteness, best_move=None if best < 0 else best,
                            exact=True, lower=text, upper=text, nodes=nodes,
                            branching=branching, probes=probes, workers=self.workers,
                            backend=self.backend, note=PASS_NOTE)


def _raise_error(row: np.ndarray, backend: CompiledBackend) -> None:
    """The error of the last row of a kernel call when its status is neither OK nor
    ABORTED (a game's hook that answered out of range, a cycle, a line too deep: the call
    stops there), as ``search`` raises it."""
    status = int(row[0])
    if status != OK and status != ABORTED:
        raise status_error(status, int(row[1]), backend.game, limit=sk.LIMIT,
                           max_depth=backend.max_depth)


def _finish(run: SearchRun, code: int, row: list[int], node_limit: int | None,
            deadline: float | None, workers: int, counted: list[int]) -> SearchResult:
    """A position's result (``row``: its row of :func:`_kernel_pass`): its remoteness and
    best move where the kernel pass left them out, and its search carried on where the
    pass stopped (a budget of its own: the node_limit less the pass's nodes, the batch's
    deadline). ``counted``: the backend's branching nodes before this position (read here
    for the first position searched on: none changed them since the pass)."""
    backend = run.backend
    if not counted:
        counted.append(backend.branching_nodes())
    interrupted = run.budget.stopped == "interrupt"  # Ctrl-C stops every later position
    run.budget = Budget(None, node_limit)
    run.budget.deadline = deadline
    run.budget.stopped = "interrupt" if interrupted else None
    run.budget.nodes = nodes = row[2]
    probes = backend.probes
    result = run_search(run, run.game, code, False, workers, table={})
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


def _one_by_one(game: Game, items: list[Position], remoteness: bool, limits: Limits,
                progress: Callable[[str], None] | None,
                endgame: sk.Leaf | LeafSource | None) -> SearchBatch:
    """A Python game's batch: one ``search`` a position, the clock shared."""
    if endgame is not None:
        raise GameError("an endgame store helps compiled games only (the search of a Python "
                        "game runs in Python)")
    began = time.monotonic()
    batch = SearchBatch(game)
    time_limit = limits.time_limit
    for p in items:
        left = None if time_limit is None else max(1e-9, time_limit - (time.monotonic() - began))
        batch._results.append(search(game, p, limits=limits.replace(time_limit=left),
                                    remoteness=remoteness, progress=progress,
                                    check=False))  # checked once, by search_many
    batch.seconds = time.monotonic() - began
    _totals(batch)
    return batch


def _totals(batch: SearchBatch) -> None:
    """The batch's node, branching and probe counts, and what stopped it."""
    made = [r for r in batch._results if r is not None]
    nodes, branching, probes = (0, 0, 0) if batch._pass is None else batch._pass.totals()
    batch.nodes = nodes + sum(r.nodes for r in made)
    batch.branching = branching + sum(r.branching for r in made)
    batch.probes = probes + sum(r.probes for r in made)
    stops = [r.stopped for r in made if r.stopped in ("time", "interrupt")]
    batch.stopped = stops[0] if stops else None
