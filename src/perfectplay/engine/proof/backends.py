"""Proof search's backends: a null-window probe by the numba kernel or by plain Python.

:func:`perfectplay.engine.proof.driver.search` drives one :class:`SearchBackend` with a
:class:`Budget`: it asks ``probe(pos, alpha, beta, budget)`` for a fail-soft score in the
window and a best move, and ``walk`` (when the backend has one) for the remoteness of a
position of known score. Two backends answer it:

- :class:`CompiledBackend` for a :class:`~perfectplay.engine.CompiledGame`: the kernel of
  :mod:`perfectplay.engine.proof.kernel`, no Python per node; ``workers`` threads share one
  lock-free table (:class:`~perfectplay.engine.proof.kernel.Shared`), each putting off the
  moves another is searching; the table is kept from one search of the same game to the
  next (:func:`clear_table` drops it);
- :class:`PythonBackend` for any other game: the same algorithm over the Python protocol, a
  dict for a table and recursion for the stack (:mod:`.pysearch`, which loads no numba).

Also here, from :mod:`.pysearch`: the rules through the Python protocol that the driver
shares with the Python backend (:func:`legal_moves`, :func:`end_score`, :func:`edge`) and
the kernel's two score maps in plain Python (:func:`parent_score`, :func:`child_bound`).

>>> parent_score(MATE - 3, True, 0, False) == -(MATE - 4)  # a win in 3 for the child
True
>>> child_bound(-(MATE - 4), True, 0, False) == MATE - 3
True
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import logging
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from ...errors import GameError, show
from ..compiled import CompiledGame, kernel_door
from ..protocol import Move, Position
from ..status import ABORTED, OK, status_error
from . import kernel as sk
from . import plan as pinplan
from .limits import Limits
from .pysearch import (
    Budget,
    PythonBackend,
    SearchBackend,
    Stopped,
    child_bound,
    edge,
    end_score,
    legal_moves,
    parent_score,
)
from .result import SearchScore, window_words

MATE, LIMIT, INF = sk.MATE, sk.LIMIT, sk.INF
__all__ = ["INF", "LIMIT", "MATE", "QUICK_NODES", "Budget", "CompiledBackend", "PythonBackend",
           "SearchBackend", "Stopped", "child_bound", "clear_table", "edge", "end_score",
           "legal_moves", "parent_score", "prepare_table"]
# The kernels take the game's rules as one NamedTuple of compiled functions, which numba
# calls "experimental"; it is what the engine relies on, so the warning is noise to users.
warnings.filterwarnings("ignore", message=".*First-class function type",
                        category=NumbaExperimentalFeatureWarning)
QUICK_NODES = 50_000  # a kernel call this small runs in the caller's thread
PROGRESS_SECONDS = 2.0  # between two progress lines
_log = logging.getLogger("perfectplay.search")  # the progress lines, at INFO


class CompiledBackend:
    """Null-window probes by the numba kernel; ``workers`` threads share one table."""

    name = "compiled"
    integral = True  # kernel scores are int64

    def __init__(self, game: CompiledGame, limits: Limits,
                 progress: Callable[[str], None] | None, leaf: sk.Leaf | None = None) -> None:
        self.game = game
        table_mb, workers, max_depth = limits.table_mb, limits.workers, limits.max_depth
        # the kernels cached on disk, if the rules have a digest
        (self._pin, self._walk_kernel), self.rules = kernel_door(
            game.rules, (sk.pin_many, sk.walk_remoteness),
            (sk.pin_many_cached, sk.walk_remoteness_cached))
        self.leaf = sk.no_leaf() if leaf is None else leaf
        self.table = _table_for(game, table_mb)  # (key ^ word, word) a slot
        self.halt = np.zeros(1, np.int64)
        self.stats = np.zeros(workers, np.int64)
        # positions being searched: threads only (one slot otherwise: 9 us a search saved)
        self.busy = np.zeros(1 << 16 if workers > 1 else 1, np.int64)
        self.branch_counts = np.zeros(8 * workers, np.int64)  # a cache line a thread
        self.shared = sk.Shared(self.table, self.busy, self.halt, self.stats,
                                self.branch_counts)
        self.workers = workers
        self.max_depth = max_depth
        self.spaces = _spaces_for(max_depth, game.max_moves, workers)
        self.walk_space: sk.WalkSpace | None = None
        self.kind = sk.Kind(scored=game.scored, with_player=game.has_player,
                            with_horizon=game.has_horizon, symmetric=game.symmetric,
                            acyclic=game.tiered, max_moves=game.max_moves,
                            parallel=workers > 1, ordered=game.has_search_moves,
                            bounded=game.has_margin_bound, with_leaf=leaf is not None,
                            stepped=game.has_step,
                            with_endgame=game.has_endgame)
        # what the types of its kernels' arguments depend on besides the rules (_call)
        self.types_key = _leaf_types(self.leaf, self.kind)
        self._pool: cf.ThreadPoolExecutor | None = None  # made when a call outgrows QUICK_NODES
        self.progress = progress
        self.last_report = time.monotonic()
        self.probes = 0

    @property
    def pool(self) -> cf.ThreadPoolExecutor:
        """The threads that run calls past QUICK_NODES (made on first use: most searches
        never need them, and making them cost 20 us a search)."""
        if self._pool is None:
            self._pool = cf.ThreadPoolExecutor(max_workers=self.workers)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        _give_back(self.max_depth, self.game.max_moves, self.spaces)
        self.spaces = []

    def warm(self, pos: Position, walk: bool) -> float:
        """Compile the kernels this search will call (numba compiles a kernel on its first
        call for a kind of game), by calling each on ``pos`` with a one-node budget: the
        seconds it took, so compiling is never counted as searching. A stopped call claims
        nothing and writes no entry it has not proven, so the search that follows is
        unchanged. The remoteness walk is compiled only for a game that can need it (a
        margin, or a tie with no ``horizon``): a win or a loss reads its remoteness off the
        score and a tie off the horizon (Connect Four: 4-6 s of compiling saved)."""
        began = time.perf_counter()
        walk = walk and (self.game.scored or not self.game.has_horizon)
        key = (self._pin, self._walk_kernel, id(self.rules), self.kind, walk)
        if key in _WARM:  # compiled in this process already: nothing to do
            return 0.0
        code = _code(pos)
        self._run(0, code, 0, 1, 1)
        if walk:
            self._walk(code, 0, 1)
        self.branch_counts[:] = 0
        _WARM.add(key)
        return time.perf_counter() - began

    def branching_nodes(self) -> int:
        return int(self.branch_counts.sum())

    def table_stats(self) -> dict[str, Any]:
        """Size and fill of the table; the fill is estimated from its first 2**12 slots
        (within 1.6 % at two standard deviations; a scan of a gigabyte table would cost
        more than a small search)."""
        words = self.table[1::2]
        sample = words[:1 << 12]  # positions land where their hash says: a fair sample
        return {"megabytes": 8 * self.table.size / 2**20, "entries": int(words.size),
                "filled": float(np.count_nonzero(sample)) / sample.size}

    def _run(self, thread: int, pos: int, alpha: int, beta: int, limit: int
             ) -> tuple[int, int, int, int]:
        """(status, score or code, move, nodes) of one null-window probe (alpha, beta =
        alpha + 1) by ``thread``: a plan of one probe (:func:`.plan.plan_one`)."""
        if beta != alpha + 1:
            raise ValueError(f"the compiled search probes null windows only, not "
                             f"({alpha}, {beta})")
        plans = np.zeros((1, pinplan.SIZE), np.int64)
        pinplan.plan_one(plans[0], np.int64(beta))
        status, code, nodes = self.pin_all(np.array([pos], np.int64), plans, False, False,
                                           limit, thread)[0, :3]
        if status != OK:
            return int(status), int(code), -1, int(nodes)
        return OK, int(plans[0, pinplan.LO]), int(plans[0, pinplan.BEST]), int(nodes)

    def pin_all(self, codes: np.ndarray, plans: np.ndarray, fresh: bool, want_best: bool,
                 limit: int, thread: int = 0) -> np.ndarray:
        """The rows (``sk.OUT_COLUMNS`` wide: status, code, nodes, branching, remoteness,
        ...) of :func:`.kernel.pin_many` over ``codes`` (int64) and their ``plans``
        (rows of :func:`.plan.new_plan`), each position given ``limit`` nodes, every
        position carried out (unless one's status is an error: the rows after it say
        ABORTED)."""
        out = np.zeros((codes.size, sk.OUT_COLUMNS), np.int64)
        out[:, sk.OUT_STATUS] = ABORTED
        self.pin_pass(codes, plans, out, fresh, want_best, limit, 2**62, True, thread)
        return out

    def pin_pass(self, codes: np.ndarray, plans: np.ndarray, out: np.ndarray, fresh: bool,
                 want_best: bool, limit: int, pass_nodes: int, want_remoteness: bool,
                 thread: int = 0) -> int:
        """:func:`.kernel.pin_many` over ``codes`` and their ``plans``, the rows in
        ``out``, each position given ``limit`` nodes, until the positions' nodes reach
        ``pass_nodes`` or a status is an error: how many positions it went through."""
        return int(cast(int, _call(
            self._pin, self.rules, self.types_key,
            (codes, plans, out, fresh, want_best, self.rules, self.kind, self.leaf,
             self.shared, self.spaces[thread], np.int64(limit), thread,
             np.int64(pass_nodes), want_remoteness))))

    def pin_quick(self, pos: Position, st: np.ndarray, want_best: bool,
                  budget: Budget) -> bool:
        """Carry out the plan ``st`` of ``pos`` in one kernel call in this thread, as far
        as QUICK_NODES nodes go (most searches end well within them: one call, not one a
        probe); True when the plan has ended, False when the nodes ran out first (``st`` is
        then where it was, for :meth:`probe` to carry on, with threads and the clock
        watched)."""
        budget.check()
        self.halt[0] = 0
        done = int(st[pinplan.PROBES])
        limit = budget.nodes_left()
        status, code, nodes = self.pin_all(np.array([_code(pos)], np.int64),
                                           st.reshape(1, -1), False, want_best,
                                           min(limit, QUICK_NODES))[0, :3]
        budget.nodes += int(nodes)
        self.probes += int(st[pinplan.PROBES]) - done
        if status == OK:
            return True
        if status != ABORTED:
            raise status_error(int(status), int(code), self.game, limit=LIMIT,
                               max_depth=self.max_depth)
        return False

    def _walk(self, pos: int, score: int, limit: int) -> Any:
        if self.walk_space is None:
            self.walk_space = sk.walk_workspace(self.max_depth, self.game.max_moves)
        return _call(self._walk_kernel, self.rules, self.types_key,
                     (np.int64(pos), np.int64(score), self.rules, self.kind, self.leaf,
                      self.shared, self.spaces[0], self.walk_space, np.int64(limit)))

    def walk(self, pos: Position, score: SearchScore,
             budget: Budget) -> tuple[int, Move | None]:
        """(remoteness, best move) of a position of known exact score, by the kernel's
        walk over the moves that keep it (see :func:`.kernel.walk_remoteness`)."""
        code, s = _code(pos), int(score)
        rem, best = self._submit([(self._walk, (code, s))], budget, s - 1, s)
        return int(rem), (None if best < 0 else int(best))

    def probe(self, pos: Position, alpha: SearchScore, beta: SearchScore,
              budget: Budget) -> tuple[SearchScore, Move | None]:
        """(score, best move) of one fail-soft search in (alpha, beta); Stopped when the
        budget runs out first."""
        code, lo, hi = _code(pos), int(alpha), int(beta)
        calls = [(self._run, (t, code, lo, hi)) for t in range(self.workers)]
        self.probes += 1
        score, best = self._submit(calls, budget, lo, hi)
        return int(score), (None if best < 0 else int(best))

    def _submit(self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]],
                budget: Budget, alpha: int, beta: int) -> tuple[int, int]:
        """Run kernel calls on the pool (the first to finish answers), minding the budget
        and Ctrl-C; their (status, number, move, nodes) becomes (number, move) or an
        error."""
        budget.check()
        self.halt[0] = 0
        self.stats[:] = 0
        if self.workers > 1:  # only threads mark nodes busy
            self.busy[:] = 0  # marks an aborted call left behind
        limit = budget.nodes_left()
        # Most calls of a search are small: the first QUICK_NODES run here, with no thread
        # handed the work (0.4 ms saved a call); a call not done by then goes on in the
        # pool, where the clock and Ctrl-C are watched (its finished subtrees are in the
        # table already, so it loses little).
        fn, args = calls[0]
        status, number, best, nodes = fn(*args, min(limit, QUICK_NODES))
        budget.nodes += int(nodes)
        if status == OK:
            return int(number), int(best)
        if status != ABORTED:
            raise status_error(int(status), int(number), self.game, limit=LIMIT,
                               max_depth=self.max_depth)
        limit = budget.nodes_left()
        if limit <= 0:
            budget.stopped = "nodes"
            raise Stopped
        futures = [self.pool.submit(fn, *args, limit) for fn, args in calls]
        try:
            self._wait(futures, budget, alpha, beta)
        except KeyboardInterrupt:
            self.halt[0] = 1
            cf.wait(futures)
            budget.stopped = "interrupt"
        results = [f.result() for f in futures]
        budget.nodes += sum(int(res[3]) for res in results)
        for status, number, best, _ in results:
            if status == OK:
                return int(number), int(best)
        for status, code, _, _ in results:
            if status != ABORTED:
                raise status_error(int(status), int(code), self.game, limit=LIMIT,
                                   max_depth=self.max_depth)
        if budget.stopped is None:
            budget.stopped = "nodes" if budget.nodes_left() <= 0 else "time"
        raise Stopped

    def _wait(self, futures: list[cf.Future[Any]], budget: Budget, alpha: int,
              beta: int) -> None:
        """Wait for the first thread to finish (then stop the others), watching the clock
        and reporting progress."""
        while True:
            done, _ = cf.wait(futures, timeout=0.1, return_when=cf.FIRST_COMPLETED)
            if done:
                self.halt[0] = 1  # one thread's answer is the answer
                cf.wait(futures)
                return
            if budget.out_of_time():
                budget.stopped = "time"
                self.halt[0] = 1
            now = time.monotonic()
            if ((self.progress or _log.isEnabledFor(logging.INFO))
                    and now - self.last_report >= PROGRESS_SECONDS):
                self.last_report = now
                nodes = budget.nodes + int(self.stats.sum())
                rate = nodes / max(now - budget.start, 1e-9)
                scored = self.game.scored
                line = (f"search {self.probes}: {window_words(alpha, beta, scored)} "
                        f"{nodes:,} nodes, {rate:,.0f} a second")
                _log.info("%s", line)
                if self.progress:
                    self.progress(line)


_LAST_TABLE: list[Any] = []  # [weak reference to the game, its size in MB, the table]
_FREE_SPACES: dict[tuple[int, int], list[sk.Workspace]] = {}  # probe stacks given back
_SPACES_LOCK = threading.Lock()
_WARM: set[tuple[Any, ...]] = set()  # (kernels, rules, kind, walk) compiled in this process
#: (kernel, id(rules), the leaf's and kind's types) -> (rules, the compiled entry point)
_ENTRIES: dict[tuple[object, ...], tuple[object, Callable[..., object]]] = {}


def _types_key(values: tuple[object, ...]) -> tuple[object, ...]:
    """What numba's type of a tuple of arrays and numbers depends on (for :func:`_call`):
    each array's class, dtype, dimensions, layout, and whether it is writable and aligned."""
    return tuple((type(v), v.dtype.str, v.ndim, v.flags.c_contiguous, v.flags.f_contiguous,
                  v.flags.writeable, v.flags.aligned) if isinstance(v, np.ndarray)
                 else type(v) for v in values)


_LEAF_TYPES: dict[tuple[int, sk.Kind], tuple[sk.Leaf, tuple[object, ...]]] = {}


def _leaf_types(leaf: sk.Leaf, kind: sk.Kind) -> tuple[object, ...]:
    """The :func:`_types_key` of a leaf and a kind, kept per leaf object (held, so its id
    is never another's): most searches share the one empty leaf."""
    hit = _LEAF_TYPES.get((id(leaf), kind))
    if hit is not None and hit[0] is leaf:
        return hit[1]
    key = _types_key((*leaf, *kind))
    if len(_LEAF_TYPES) >= 64:
        _LEAF_TYPES.clear()
    _LEAF_TYPES[(id(leaf), kind)] = (leaf, key)
    return key


def _call(kernel: Callable[..., object], rules: object, types_key: tuple[object, ...],
          args: tuple[object, ...]) -> object:
    """``kernel(*args)`` through the machine code numba compiled for these argument types,
    once a first call through the dispatcher has found it: the dispatcher types every
    argument on every call (the rules, the leaf, the stacks: about 7 us a call, three calls
    a small search). The types of a kernel's arguments are fixed by the rules object (held
    in the entry, so its id cannot be reused by another), the leaf's arrays and the kind's
    flags (``types_key``: their :func:`_types_key`); the rest (integers, the stacks, the
    tables) have one type. Anything numba did not compile (the jit disabled) is called as
    it is."""
    key = (kernel, id(rules), types_key)
    entry = _ENTRIES.get(key)
    if entry is not None and entry[0] is rules:
        return entry[1](*args)
    out = kernel(*args)
    overloads = getattr(kernel, "overloads", None)
    if overloads is not None:
        typeof = getattr(kernel, "typeof_pyval")  # noqa: B009  (a numba dispatcher's)
        compiled = overloads.get(tuple(typeof(a) for a in args))
        if compiled is not None:
            if len(_ENTRIES) >= 256:  # games come and go in a long process
                _ENTRIES.clear()
            _ENTRIES[key] = (rules, compiled.entry_point)
    return out


def _table_for(game: CompiledGame, table_mb: float) -> np.ndarray:
    """The transposition table: the one the last search of the same game used when the size
    is the same (its entries stay true: scores are relative to their own position, so a
    position asked again, or a line through earlier proofs, costs nothing), else a new one.
    Only the last game's table is kept."""
    if _LAST_TABLE and _LAST_TABLE[0]() is game and _LAST_TABLE[1] == table_mb:
        return _LAST_TABLE[2]
    _LAST_TABLE.clear()
    table = aligned_zeros(2 * table_entries(table_mb, 16))
    _LAST_TABLE.extend([weakref.ref(game), table_mb, table])
    return table


def _spaces_for(max_depth: int, max_moves: int, workers: int) -> list[sk.Workspace]:
    """One probe stack a thread, taken from those earlier searches gave back (a stack holds
    nothing between calls but the history heuristic's counters, reset here so that a
    search's nodes never depend on the one before), else new: 20-30 us a search saved. A
    stack is never in two searches at once (:func:`_give_back` returns it at the end)."""
    with _SPACES_LOCK:
        free = _FREE_SPACES.get((max_depth, max_moves), [])
        spaces = [free.pop() for _ in range(min(workers, len(free)))]
    for space in spaces:
        space.history.fill(0)
    spaces += [sk.workspace(max_depth, max_moves) for _ in range(workers - len(spaces))]
    return spaces


def _give_back(max_depth: int, max_moves: int, spaces: list[sk.Workspace]) -> None:
    """Keep a finished search's stacks for the next search of that shape (at most 8)."""
    with _SPACES_LOCK:
        free = _FREE_SPACES.setdefault((max_depth, max_moves), [])
        free.extend(spaces[:max(0, 8 - len(free))])


def clear_table() -> None:
    """Drop the kept table (its memory goes back at once)."""
    _LAST_TABLE.clear()


def prepare_table(game: CompiledGame, table_mb: float | None = None) -> float:
    """Make the table the next searches of ``game`` with ``table_mb`` will keep, empty, and
    write every page of it once, as Pascal Pons' solver clears its table when it starts: the
    searches then pay no first touch of a page (on this machine 125-180 ms for 64 MB,
    2.5 s for 1 GB, spread over the first searches). The table kept for the same game and
    size is cleared where it is (a new one's pages are zeroed by the kernel as they are
    first written, which leaves the caches cold for the searches that follow: the first
    small call after it pays about 17 us more). For a server or a benchmark that runs
    many small searches; a one-off search need not call it. ``table_mb``: the searches'
    (default :class:`~perfectplay.engine.proof.limits.Limits`'s). The seconds it took. O(size).

    >>> from perfectplay.games import tictactoe
    >>> prepare_table(tictactoe(), 1) >= 0
    True
    """
    began = time.perf_counter()
    _clear(_table_for(game, Limits.given(table_mb=table_mb).table_mb))
    return time.perf_counter() - began


def _clear(table: np.ndarray) -> None:
    """Write zeros over ``table`` (contiguous) with the C library's ``memset``, which writes
    a large block past the caches (non-temporal stores, as glibc does above a few MB), so
    the code and data of the searches that follow stay cached; numpy's ``fill`` writes
    through them and leaves them cold (50 easy Connect Four positions in one call, 0.82 ms
    after ``fill``, 0.76 ms after ``memset``, measured 2026-12-06)."""
    assert table.flags.c_contiguous
    ctypes.memset(table.ctypes.data, 0, table.nbytes)


def table_entries(table_mb: float, entry_bytes: int) -> int:
    """The most entries of ``entry_bytes`` a table of at most ``table_mb`` MB holds, as a
    power of two (a key's bucket is its low bits), and at least 1,024.

    >>> table_entries(1, 16), table_entries(0.001, 32)
    (65536, 1024)
    """
    return 1 << max(10, int(table_mb * 2**20 / entry_bytes).bit_length() - 1)


def aligned_zeros(n: int) -> np.ndarray:
    """n zero int64 starting on a 64-byte boundary, so no 32-byte bucket straddles two cache
    lines. (numpy already asks Linux for huge pages for arrays of 4 MB or more.)"""
    raw = np.zeros(n + 8, np.int64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip:skip + n]


def _code(pos: Position) -> int:
    """A compiled game's position: an int code (the driver made the start one, and the
    game's ``play`` returns them)."""
    if not isinstance(pos, int):
        raise GameError(f"a compiled game's position is an int code, not {show(pos)}")
    return pos
