"""Proof search: the exact value and remoteness of one position, without enumerating the game.

The engine's third door. :func:`perfectplay.engine.solve` enumerates every reachable position;
:func:`search` proves the value of one position by alpha-beta search with a transposition
table, so it answers games far too big to enumerate (standard Connect Four: 4.5 x 10^12
positions) as long as the proof tree is small enough.

- **Scores** pack the value and remoteness into one number (a win in r plies scores
  ``MATE - r``, a loss ``-(MATE - r)``, a tie 0; scored games: the point margin), so each
  null-window search answers "is the score at least x?" and a handful of them (one MTD(f)
  step, then bisection) pin it exactly: the engine's own conventions, winner fastest, loser
  slowest.
- **Ties and margins** need one more step, as the engine orders them by remoteness in a way
  no single negamax score holds (both players hurry to a tie; a margin's winner hurries, its
  loser delays): the remoteness is then found by walking the moves that keep the proven value
  (:meth:`_Search.remoteness`), unless the game's ``horizon`` says how long a tied game lasts.
- **Two backends, one driver**: a :class:`~perfectplay.engine.CompiledGame` is searched by the
  numba kernel of :mod:`perfectplay.engine.searchkernel` (no Python per node; ``workers`` > 1
  runs threads sharing one lock-free table, each putting off the moves another is
  searching), any other game by the same algorithm in Python (for small games and for
  teaching: the same answers, slower).
- **Exact, or honestly partial**: ``time_limit``, ``node_limit`` and Ctrl-C stop the search;
  the result then holds the bounds proven so far (``exact`` is False), never a guess.

Cycles: a line of play that repeats a position stops the search with a clear error (use
``solve``, which certifies draws). A game that defines ``tier`` is acyclic and skips the check.

>>> from perfectplay.engine import CompiledGame, ONGOING
>>> def moves(n, out):            # take 1, 2 or 3 from a heap of n; who cannot move loses
...     k = 0
...     for take in range(1, 4):
...         if take <= n:
...             out[k] = take
...             k += 1
...     return k
>>> game = CompiledGame(21, moves, lambda n, t: n - t, lambda n: ONGOING, max_moves=3)
>>> r = search(game)
>>> r.value, r.remoteness, r.best_move, r.exact
(<Value.WIN: 'win'>, 11, 1, True)

Complexity: O(b^(d/2)) nodes for a game of branching b and depth d with perfect move ordering
(Knuth and Moore 1975), far less with the table; memory: the table (``table_mb``) plus the
search stack. References: Plaat, Schaeffer, Pijls and de Bruin (1996), "Best-first fixed-depth
minimax algorithms" (MTD(f)); Pascal Pons, "Solving Connect 4" (2019).
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import math
import sys
import time
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from ..errors import GameError, LimitError, show
from ..notebook import HTMLView
from . import searchkernel as sk
from .compiled import CompiledGame
from .graph import is_move_list, is_real, points
from .protocol import Value, has_player, is_scored
from .solution import MoveValue, describe, game_picture, move_lines, position_json
from .status import ABORTED, OK, cycle_error, status_error

MATE, LIMIT, INF = sk.MATE, sk.LIMIT, sk.INF
# The kernels take the game's rules as one NamedTuple of compiled functions, which numba
# calls "experimental"; it is what the engine relies on, so the warning is noise to users.
warnings.filterwarnings("ignore", message=".*First-class function type",
                        category=NumbaExperimentalFeatureWarning)
MAX_TABLE_MB = 16384
QUICK_NODES = 50_000  # a kernel call this small runs in the caller's thread
PROGRESS_SECONDS = 2.0  # between two progress lines
_log = logging.getLogger("perfectplay.search")  # the progress lines, at INFO


class _Stopped(Exception):
    """The budget ran out (time, nodes) or the user pressed Ctrl-C."""


# -- the result -------------------------------------------------------------------------------
@dataclass
class SearchResult(HTMLView):
    """What :func:`search` proved about one position.

    ``value`` is the value for the player to move (a :class:`Value`, or the point margin in a
    scored game) and ``remoteness`` the plies to the end under perfect play, both None when
    the search stopped before proving them (then ``exact`` is False and ``lower`` and
    ``upper`` say what was proven: the value lies between them, as words).
    """

    game: Any
    position: Any
    value: Any
    remoteness: int | None
    best_move: Any
    exact: bool
    lower: str
    upper: str
    moves: list[MoveValue] | None = None
    nodes: int = 0
    seconds: float = 0.0
    probes: int = 0
    workers: int = 1
    backend: str = "compiled"
    table: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None  # "time", "nodes" or "interrupt"
    note: str = ""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        """The value in words: 'win in 41', or the proven bounds when not exact."""
        if self.value is not None and self.remoteness is not None:
            return describe(self.value, self.remoteness)
        if self.value is not None:
            return f"{describe(self.value, None)} (remoteness not proven)"
        return f"not proven: between {self.lower} and {self.upper}"

    def explain(self) -> str:
        """The position's value, best move, every move (with ``analyze``) and the search's
        statistics, in words."""
        name = getattr(self.game, "name", None) or type(self.game).__name__
        lines = [f"search: {name}, position {show(self.position)}",
                 f"value: {self.describe()}" + ("" if self.exact else "  [NOT EXACT]")]
        if self.stopped:
            lines.append(f"stopped by: {self.stopped} (what is shown is proven; the rest is "
                         "not)")
        lines += move_lines(self.game, self.best_move, self.moves or [])
        lines.append(f"nodes: {self.nodes:,} in {self.seconds:.2f} s "
                     f"({self.nodes_per_second:,.0f} nodes/s), {self.probes} null-window "
                     f"searches, {self.workers} worker{'s' if self.workers > 1 else ''} "
                     f"({self.backend})")
        if "megabytes" not in self.table:
            lines.append(f"table: {self.table['entries']:,} positions (a dict)")
        else:
            lines.append(f"table: {self.table['megabytes']:.0f} MB, "
                         f"{self.table['entries']:,} entries, {self.table['filled']:.0%} "
                         "filled")
        if self.note:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)

    def draw(self, style: bool = False) -> str:
        """The game's picture of the position (its ``draw`` hook), or ""."""
        return game_picture(self.game, self.position, style)

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-ready data (values as strings or numbers; ``moves`` None
        without ``analyze``)."""
        data = position_json(self.position, self.value, self.remoteness, self.best_move,
                             self.moves or [])
        return {
            **data, "moves": None if self.moves is None else data["moves"],
            "exact": self.exact, "lower": self.lower, "upper": self.upper,
            "nodes": self.nodes, "seconds": round(self.seconds, 4),
            "nodes_per_second": round(self.nodes_per_second), "probes": self.probes,
            "workers": self.workers, "backend": self.backend, "table": self.table,
            "stopped": self.stopped, "note": self.note,
        }


# -- the budget -------------------------------------------------------------------------------
class _Budget:
    """Time and node limits, shared by every probe of one search."""

    def __init__(self, time_limit: float | None, node_limit: int | None) -> None:
        self.start = time.monotonic()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.nodes = 0
        self.stopped: str | None = None

    def nodes_left(self) -> int:
        if self.node_limit is None:
            return 2**62
        return max(0, self.node_limit - self.nodes)

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def check(self) -> None:
        if self.stopped:
            raise _Stopped
        if self.out_of_time():
            self.stopped = "time"
            raise _Stopped
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.stopped = "nodes"
            raise _Stopped


# -- backends: one probe, a window, a score ---------------------------------------------------
class _CompiledBackend:
    """Null-window probes by the numba kernel; ``workers`` threads share one table."""

    name = "compiled"

    def __init__(self, game: CompiledGame, table_mb: float, workers: int, max_depth: int,
                 progress: Callable[[str], None] | None, leaf: sk.Leaf | None = None) -> None:
        self.game = game
        self.leaf = sk.no_leaf() if leaf is None else leaf
        self.table = _table_for(game, table_mb)  # (key ^ word, word) a slot
        self.halt = np.zeros(1, np.int64)
        self.stats = np.zeros(workers, np.int64)
        self.workers = workers
        self.max_depth = max_depth
        self.spaces = [sk.workspace(max_depth, game.max_moves) for _ in range(workers)]
        self.walk_space: tuple[np.ndarray, ...] | None = None
        self.kind = sk.Kind(scored=game.scored, with_player=game.has_player,
                            with_horizon=game.has_horizon, symmetric=game.symmetric,
                            acyclic=game.tiered, max_moves=game.max_moves,
                            parallel=workers > 1, ordered=game.has_search_moves,
                            bounded=game.has_margin_bound, with_leaf=leaf is not None,
                            stepped=game.has_step)
        self.busy = np.zeros(1 << 16, np.int64)  # positions being searched (workers > 1)
        self.pool = cf.ThreadPoolExecutor(max_workers=workers)
        self.progress = progress
        self.last_report = time.monotonic()
        self.probes = 0

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    def table_stats(self) -> dict[str, Any]:
        """Size and fill of the table; the fill is estimated from its first 2**16 slots (a
        scan of a gigabyte table would cost more than a small search)."""
        words = self.table[1::2]
        sample = words[:1 << 16]  # positions land where their hash says: a fair sample
        return {"megabytes": 8 * self.table.size / 2**20, "entries": int(words.size),
                "filled": float(np.count_nonzero(sample)) / sample.size}

    def _run(self, thread: int, pos: int, alpha: int, beta: int, limit: int) -> Any:
        return sk.probe(np.int64(pos), np.int64(alpha), np.int64(beta), self.game.rules,
                        self.kind, self.leaf, self.table, self.busy, self.halt, self.stats,
                        self.spaces[thread], np.int64(limit), thread)

    def _walk(self, pos: int, score: int, limit: int) -> Any:
        if self.walk_space is None:
            self.walk_space = sk.workspace(self.max_depth, self.game.max_moves)
        return sk.walk_remoteness(np.int64(pos), np.int64(score), self.game.rules, self.kind,
                                  self.leaf, self.table, self.busy, self.halt, self.stats,
                                  self.spaces[0], self.walk_space, np.int64(limit))

    def walk(self, pos: Any, score: int, budget: _Budget) -> tuple[int, Any]:
        """(remoteness, best move) of a position of known exact score, by the kernel's
        walk over the moves that keep it (see :func:`searchkernel.walk_remoteness`)."""
        rem, best = self._submit([(self._walk, (pos, score))], budget, score - 1, score)
        return int(rem), (None if best < 0 else int(best))

    def probe(self, pos: Any, alpha: int, beta: int, budget: _Budget) -> tuple[int, Any]:
        """(score, best move) of one fail-soft search in (alpha, beta); _Stopped when the
        budget runs out first."""
        calls = [(self._run, (t, pos, alpha, beta)) for t in range(self.workers)]
        self.probes += 1
        score, best = self._submit(calls, budget, alpha, beta)
        return int(score), (None if best < 0 else int(best))

    def _submit(self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]],
                budget: _Budget, alpha: int, beta: int) -> tuple[int, int]:
        """Run kernel calls on the pool (the first to finish answers), minding the budget
        and Ctrl-C; their (status, number, move, nodes) becomes (number, move) or an
        error."""
        budget.check()
        self.halt[0] = 0
        self.stats[:] = 0
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
            raise _Stopped
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
        raise _Stopped

    def _wait(self, futures: list[cf.Future[Any]], budget: _Budget, alpha: int,
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
                line = (f"search {self.probes}: window ({_words(alpha, scored)}, "
                        f"{_words(beta, scored)}), {nodes:,} nodes, {rate:,.0f}/s")
                _log.info("%s", line)
                if self.progress:
                    self.progress(line)


class _PythonBackend:
    """The same search over the Python protocol (a dict for a table, recursion for the
    stack): slower, for small games and for reading."""

    name = "python"

    def __init__(self, game: Any, max_depth: int) -> None:
        self.game = game
        self.scored = is_scored(game)
        self.with_player = has_player(game)
        self.table: dict[Any, tuple[Any, Any, Any]] = {}
        self.max_depth = max_depth
        self.probes = 0
        hook = getattr(game, "search_moves", None)
        self.order = hook if callable(hook) else None
        bounds = getattr(game, "static_bounds", None)
        self.bounds = bounds if callable(bounds) else None
        self.tiered = callable(getattr(game, "tier", None))

    def close(self) -> None:
        pass

    def table_stats(self) -> dict[str, Any]:
        return {"entries": len(self.table)}

    def probe(self, pos: Any, alpha: Any, beta: Any, budget: _Budget) -> tuple[Any, Any]:
        budget.check()
        self.probes += 1
        self.budget = budget
        self.line: list[Any] = []
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.max_depth + 200))
        try:
            return self._node(pos, alpha, beta)
        except KeyboardInterrupt:
            budget.stopped = "interrupt"
            raise _Stopped from None
        finally:
            sys.setrecursionlimit(limit)

    def _moves(self, pos: Any) -> list[Any]:
        if self.order is None:
            return legal_moves(self.game, pos)
        moves = self.order(pos)
        if not is_move_list(moves):
            raise GameError(f"search_moves({show(pos)}) returned {show(moves)}: expected an "
                            "iterable of moves")
        moves = list(moves)
        if not moves and legal_moves(self.game, pos):
            raise GameError(f"search_moves({show(pos)}) listed no move where moves has some")
        return moves

    def _node(self, pos: Any, alpha: Any, beta: Any) -> tuple[Any, Any]:
        budget = self.budget
        budget.nodes += 1
        if budget.nodes & 1023 == 0:
            budget.check()
        result = self.game.outcome(pos)
        if result is not None:
            return end_score(pos, result, self.scored), None
        if not self.scored and beta > MATE - 1:
            beta = MATE - 1
            if alpha >= beta:
                return beta, None
        if self.bounds is not None:
            known = self.bounds(pos)
            if known & 1 and beta > 0:
                beta = 0
                if alpha >= beta:
                    return beta, None
            if known & 2 and alpha < 0:
                alpha = 0
                if alpha >= beta:
                    return alpha, None
        entry = self.table.get(pos)
        hint = None
        if entry is not None:
            t_lo, t_hi, hint = entry
            if t_lo >= beta:
                return t_lo, hint
            if t_hi <= alpha:
                return t_hi, hint
            alpha, beta = max(alpha, t_lo), min(beta, t_hi)
            if alpha >= beta:
                return alpha, hint
        moves = self._moves(pos)
        if not moves:
            return (0 if self.scored else -MATE), None
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        if len(self.line) >= self.max_depth:
            raise LimitError(f"a line deeper than {self.max_depth:,} plies; raise max_depth")
        self.line.append(pos)
        alpha0, best, best_move = alpha, None, None
        for move in moves:
            child, passes, pay = edge(self.game, pos, move, self.scored, self.with_player)
            if not self.tiered and child in self.line:
                raise cycle_error(child)
            lo_c = _child_bound(beta, passes, pay, self.scored)
            hi_c = _child_bound(alpha, passes, pay, self.scored)
            if lo_c > hi_c:
                lo_c, hi_c = hi_c, lo_c
            s, _ = self._node(child, lo_c, hi_c)
            s = _parent_score(s, passes, pay, self.scored)
            if best is None or s > best:
                best, best_move = s, move
            if s > alpha:
                alpha = s
                if alpha >= beta:
                    break
        self.line.pop()
        neg, pos_inf = (-math.inf, math.inf) if self.scored else (-INF, INF)
        lo = best if best > alpha0 else neg
        hi = best if best < beta else pos_inf
        if entry is not None and max(lo, entry[0]) <= min(hi, entry[1]):
            lo, hi = max(lo, entry[0]), min(hi, entry[1])
        self.table[pos] = (lo, hi, best_move)
        return best, best_move


_LAST_TABLE: list[Any] = []  # [weak reference to the game, its size in MB, the table]


def _table_for(game: CompiledGame, table_mb: float) -> np.ndarray:
    """The transposition table: the one the last search of the same game used when the size
    is the same (its entries stay true: scores are relative to their own position, so a
    position asked again, or a line through earlier proofs, costs nothing), else a new one.
    Only the last game's table is kept."""
    if _LAST_TABLE and _LAST_TABLE[0]() is game and _LAST_TABLE[1] == table_mb:
        return _LAST_TABLE[2]
    _LAST_TABLE.clear()
    entries = 1 << max(10, int(table_mb * 2**20 / 16).bit_length() - 1)
    table = _aligned_zeros(2 * entries)
    _LAST_TABLE.extend([weakref.ref(game), table_mb, table])
    return table


def clear_table() -> None:
    """Drop the kept table (its memory goes back at once)."""
    _LAST_TABLE.clear()


def _aligned_zeros(n: int) -> np.ndarray:
    """n zero int64 starting on a 64-byte boundary, so no 32-byte bucket straddles two cache
    lines."""
    raw = np.zeros(n + 8, np.int64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip:skip + n]


def legal_moves(game: Any, pos: Any) -> list[Any]:
    """``game.moves(pos)`` as a list, or a GameError when it is not an iterable of moves."""
    moves = game.moves(pos)
    if not is_move_list(moves):
        raise GameError(f"moves({show(pos)}) returned {show(moves)}: expected an iterable of "
                        "moves")
    return list(moves)


def end_score(pos: Any, result: Any, scored: bool) -> Any:
    """The score of an ended position whose ``outcome`` is ``result`` (the mover's points in
    a scored game, else a win, loss or tie at remoteness 0); a GameError for an outcome the
    protocol does not allow."""
    if scored:
        if result is Value.TIE:
            return 0
        if isinstance(result, Value):
            raise GameError(f"outcome({show(pos)}) is {result.name} in a scored game: "
                            "return Value.TIE or the final points for the player to move")
        return points(result, "outcome", pos)
    if result is Value.WIN:
        return MATE
    if result is Value.LOSE:
        return -MATE
    if result is Value.TIE:
        return 0
    raise GameError(f"outcome({show(pos)}) returned {show(result)}: expected None, "
                    "Value.WIN, Value.LOSE or Value.TIE")


def edge(game: Any, pos: Any, move: Any, scored: bool, with_player: bool
         ) -> tuple[Any, bool, Any]:
    """(child, passes, pay) of ``move`` from ``pos``: the next position, whether the turn
    passes (``player``), the mover's payoff (0 unless scored); GameErrors name bad answers."""
    child = game.play(pos, move)
    if child is None:
        raise GameError(f"play({show(pos)}, {show(move)}) returned None: it must return "
                        "the new position")
    passes = True
    if with_player:
        passes = _player(game, pos) != _player(game, child)
    pay = points(game.payoff(pos, move), "payoff", pos, move) \
        if scored else 0
    return child, passes, pay


def _player(game: Any, pos: Any) -> int:
    who = game.player(pos)
    if who not in (0, 1) or isinstance(who, bool):
        raise GameError(f"player({show(pos)}) returned {show(who)}: expected 0 or 1")
    return int(who)


def _parent_score(s: Any, passes: bool, pay: Any, scored: bool) -> Any:
    """The kernel's :func:`~perfectplay.engine.searchkernel.parent_score` in plain Python
    (a numba call per node would cost more than the node)."""
    if scored:
        return pay - s if passes else pay + s
    s = -s if passes else s
    return s - 1 if s > 0 else s + 1 if s < 0 else s


def _child_bound(x: Any, passes: bool, pay: Any, scored: bool) -> Any:
    """The kernel's :func:`~perfectplay.engine.searchkernel.child_bound` in plain Python."""
    if scored:
        return pay - x if passes else x - pay
    if isinstance(x, float):  # an infinite bound stays infinite
        return -x if passes else x
    x = -x if passes else x
    return x + 1 if x > 0 else x - 1 if x < 0 else x


# -- words for scores -------------------------------------------------------------------------
def _words(s: Any, scored: bool) -> str:
    """A score as the engine says it: 'win in 3', 'tie', '+4'."""
    if scored:
        if isinstance(s, float) and math.isinf(s):
            return "+inf" if s > 0 else "-inf"
        return f"{'+' if s > 0 else ''}{s}"
    if s >= INF:
        return "+inf"
    if s <= -INF:
        return "-inf"
    if s > 0:
        return f"win in {MATE - s}"
    if s < 0:
        return f"lose in {MATE + s}"
    return "tie"


def _value_of(s: Any, scored: bool) -> tuple[Any, int | None]:
    """(value, remoteness) of an exact score; a tie's or a margin's remoteness is None (it
    needs its own pass)."""
    if scored:
        return s, None
    if s > 0:
        return Value.WIN, int(MATE - s)
    if s < 0:
        return Value.LOSE, int(MATE + s)
    return Value.TIE, None


# -- the driver -------------------------------------------------------------------------------
class _Search:
    """One search: a backend, a budget, and the exact scores and remoteness found so far."""

    def __init__(self, game: Any, backend: Any, budget: _Budget) -> None:
        self.game = game
        self.backend = backend
        self.budget = budget
        self.scored = is_scored(game)
        self.with_player = has_player(game)
        self.exact_scores: dict[Any, Any] = {}
        self.rems: dict[Any, tuple[int, Any]] = {}
        self.integral = not self.scored or isinstance(backend, _CompiledBackend)
        self.want_remoteness = True
        hook = getattr(game, "horizon", None)
        self.horizon = hook if callable(hook) else None

    # the rules, through the Python protocol (a few calls per search, not per node)
    def ended(self, pos: Any) -> Any:
        """The score of ``pos`` if the game has ended there, else None."""
        result = self.game.outcome(pos)
        return None if result is None else end_score(pos, result, self.scored)

    def edges(self, pos: Any) -> list[tuple[Any, Any, bool, Any]]:
        """(move, child, passes, pay) of every legal move, in the game's order (none once
        the game has ended, whatever ``moves`` says there)."""
        out: list[tuple[Any, Any, bool, Any]] = []
        if self.ended(pos) is not None:
            return out
        for move in legal_moves(self.game, pos):
            out.append((move, *edge(self.game, pos, move, self.scored, self.with_player)))
        return out

    def bounds(self) -> tuple[Any, Any]:
        if self.scored:
            return (-LIMIT, LIMIT) if self.integral else (-math.inf, math.inf)
        return -(MATE - 1), MATE - 1

    def pin(self, pos: Any) -> tuple[Any, Any, Any]:
        """(lo, hi, best move): lo <= score <= hi; lo == hi unless the budget ran out
        (_Stopped carries on up after ``self.partial`` is set)."""
        if pos in self.exact_scores:
            return self.exact_scores[pos], self.exact_scores[pos], None
        end = self.ended(pos)
        if end is not None:
            self.exact_scores[pos] = end
            return end, end, None
        if not legal_moves(self.game, pos):
            s = 0 if self.scored else -MATE
            self.exact_scores[pos] = s
            return s, s, None
        lo, hi = self.bounds()
        best = None
        if not self.integral:  # margins that need not be integers: one full window
            s, best = self.backend.probe(pos, -math.inf, math.inf, self.budget)
            self.exact_scores[pos] = s
            return s, s, best
        self.partial = (lo, hi, best)
        x = 1 if lo < 1 <= hi else (lo + hi + 1) // 2
        stepped = False
        while lo < hi:
            s, move = self.backend.probe(pos, x - 1, x, self.budget)
            if s >= x:
                lo, best = max(lo, s), move if move is not None else best
            else:
                hi = min(hi, s)
            self.partial = (lo, hi, best)
            if not stepped or self.scored:  # MTD(f)'s step: is the bound just found exact?
                stepped = True  # (margins: always, as small margins are a few steps apart)
                x = lo + 1 if s >= x else hi
            else:  # then bisect what the fail-soft bounds left; probes for quick wins
                x = lo + (hi - lo + 1) // 2  # and slow losses are short (depth-limited)
        self.exact_scores[pos] = lo
        return lo, hi, best

    def equals(self, pos: Any, target: Any) -> bool:
        """Is the exact score of ``pos`` ``target``? Two null windows (one full search for
        margins that need not be integers), or the known score."""
        if pos in self.exact_scores:
            return bool(self.exact_scores[pos] == target)
        end = self.ended(pos)
        if end is not None or not legal_moves(self.game, pos) or not self.integral:
            lo, _, _ = self.pin(pos)
            return bool(lo == target)
        s, _ = self.backend.probe(pos, target - 1, target, self.budget)
        if s < target:
            return False
        s, _ = self.backend.probe(pos, target, target + 1, self.budget)
        if s > target:
            return False
        self.exact_scores[pos] = target
        return True

    def remoteness(self, pos: Any, s: Any) -> tuple[int, Any]:
        """(remoteness, best move) of ``pos`` whose exact score is ``s``: win and loss read
        it off the score; a tie takes the game's horizon when it has one; otherwise the
        moves that keep the score are followed, as the engine's solvers define it (a tie:
        the quickest; a margin: the winner's quickest, the loser's slowest; the first such
        move of the game's order)."""
        if not self.scored and s != 0:
            return int(MATE - abs(s)), None
        if pos in self.rems:
            return self.rems[pos]
        if self.ended(pos) is not None or not legal_moves(self.game, pos):
            return 0, None
        if not self.scored and self.horizon is not None:
            return int(self.horizon(pos)), None
        if isinstance(self.backend, _CompiledBackend):
            self.rems[pos] = self.backend.walk(pos, s, self.budget)
            return self.rems[pos]
        self.budget.check()
        hurry = (not self.scored) or s >= 0
        best_r, best_move = None, None
        for move, child, passes, pay in self.edges(pos):
            target = _child_bound(s, passes, pay, self.scored)
            if not self.equals(child, target):
                continue
            r = self.remoteness(child, target)[0] + 1
            if best_r is None or (r < best_r if hurry else r > best_r):
                best_r, best_move = r, move
        if best_r is None:  # cannot happen when the score is right
            raise GameError(f"no move from {show(pos)} keeps its value: the game's rules "
                            "changed between calls?")
        self.rems[pos] = (best_r, best_move)
        return best_r, best_move

    def move_values(self, pos: Any) -> list[MoveValue]:
        """Every legal move's exact value and remoteness for its mover, in the game's
        order (what ``analyze`` shows)."""
        out = []
        for move, child, passes, pay in self.edges(pos):
            lo, _, _ = self.pin(child)
            s = _parent_score(lo, passes, pay, self.scored)
            value, rem = _value_of(s, self.scored)
            if rem is None and self.want_remoteness:
                rem = self.remoteness(child, lo)[0] + 1
            out.append(MoveValue(move, value, rem))
        return out


def search(game: Any, position: Any = None, *, analyze: bool = False,
           time_limit: float | None = None, node_limit: int | None = None,
           table_mb: float = 64, workers: int = 1, max_depth: int = 10_000,
           progress: Callable[[str], None] | bool | None = None, endgame: Any = None,
           remoteness: bool = True) -> SearchResult:
    """Prove the value and remoteness of one position (default: the start) by search.

    Same conventions as :func:`perfectplay.engine.solve` (value for the player to move;
    winner fastest, loser slowest; ties and margins as ``solve`` defines them), so the two
    agree wherever both run. ``analyze`` also proves every legal move's value and
    remoteness. ``time_limit`` (seconds), ``node_limit`` and Ctrl-C stop the search with
    what is proven so far (``exact`` False, bounds in ``lower`` and ``upper``).
    ``table_mb`` sizes the transposition table (compiled games; a power-of-two number of
    16-byte entries), ``workers`` > 1 searches with that many threads sharing it (ABDADA-style).
    ``progress``: a callable taking a line, or True for lines on stderr.

    A game may help with three optional hooks: ``search_moves`` (moves best first, possibly
    pruned; see :mod:`perfectplay.engine.compiled`), ``static_bounds`` (cannot win, cannot
    lose) and ``horizon`` (plies left; a tied game lasts exactly that long). A
    :class:`CompiledGame`'s ``canonical`` shares table entries between symmetric positions,
    and its ``margin_bound`` (scored games) cuts windows to the margin still possible.

    ``endgame``: a solved store of the game's last tiers (:func:`perfectplay.store.open_store`
    of a store built with ``solve_tiered(..., roots=...)``, or its :class:`Leaf`): every
    position it holds is read, not searched (Irving et al.'s endgame databases). It never
    changes an answer, only the work. ``remoteness=False`` proves the value and a best move
    only (a margin's remoteness can cost more than its value).

    >>> class Subtract:  # take 1 or 2 from a heap of 7; who cannot move loses
    ...     def initial(self): return 7
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> r = search(Subtract(), analyze=True)
    >>> r.describe(), r.best_move, [m.describe() for m in r.moves]
    ('win in 5', 1, ['win in 5', 'lose in 4'])
    """
    _check_options(table_mb, workers, time_limit, node_limit, max_depth)
    if position is None:
        position = game.initial()
    if progress is True:
        progress = _stderr_line
    budget = _Budget(time_limit, node_limit)
    if isinstance(game, CompiledGame):
        if isinstance(position, bool) or not isinstance(position, int | np.integer):
            raise GameError(f"a position of {game.name} is an int code, not {show(position)}")
        position = int(position)
        backend: Any = _CompiledBackend(game, table_mb, workers, max_depth,
                                        progress or None, _leaf_of(endgame, game))
    elif endgame is not None:
        raise GameError("an endgame store helps compiled games only (the search of a Python "
                        "game runs in Python)")
    else:
        workers = 1
        backend = _PythonBackend(game, max_depth)
    run = _Search(game, backend, budget)
    run.want_remoteness = bool(remoteness)
    _log.info("search of %s: started", getattr(game, "name", type(game).__name__))
    try:
        result = _run(run, game, position, analyze, workers)
    finally:
        backend.close()
    _log.info("search of %s: %s after %s nodes", getattr(game, "name", type(game).__name__),
              result.describe() if result.exact else "stopped", f"{result.nodes:,}")
    return result


def _run(run: _Search, game: Any, position: Any, analyze: bool, workers: int) -> SearchResult:
    value = remoteness = best = moves = None
    exact, note = False, ""
    lo, hi = run.bounds()
    try:
        lo, hi, best = run.pin(position)
        value, remoteness = _value_of(lo, run.scored)
        if remoteness is None and run.want_remoteness:
            remoteness, walked = run.remoteness(position, lo)
            best = walked if walked is not None else best
        if best is None and run.edges(position):
            best = _best_of(run, position, lo)
        if analyze:
            moves = run.move_values(position)
        exact = True
    except _Stopped:
        if value is None:
            lo, hi, best = getattr(run, "partial", (lo, hi, best))
        elif remoteness is None:
            note = "the value is proven; its remoteness was not, before the search stopped"
        else:
            note = "the value is proven; the analysis of every move was not finished"
    budget = run.budget
    seconds = time.monotonic() - budget.start
    return SearchResult(
        game=game, position=position, value=value, remoteness=remoteness, best_move=best,
        exact=exact and value is not None, lower=_words(lo, run.scored),
        upper=_words(hi, run.scored), moves=moves, nodes=budget.nodes, seconds=seconds,
        probes=run.backend.probes, workers=workers, backend=run.backend.name,
        table=run.backend.table_stats(), stopped=budget.stopped, note=note)


def _leaf_of(endgame: Any, game: CompiledGame) -> sk.Leaf | None:
    """The :class:`Leaf` of an ``endgame`` argument: a Leaf, or anything with ``leaf()``
    (a store, which must be of this game: one of another game would answer wrongly)."""
    if endgame is None or isinstance(endgame, sk.Leaf):
        return endgame
    name = getattr(endgame, "game_name", None)
    if name is not None and name != game.name:
        raise GameError(f"the endgame store holds {name}, not {game.name}")
    if not callable(getattr(endgame, "leaf", None)):
        raise GameError(f"endgame must be a store (open_store) or a Leaf, not "
                        f"{type(endgame).__name__}")
    return endgame.leaf()


def _best_of(run: _Search, pos: Any, s: Any) -> Any:
    """A move that keeps the exact score ``s`` (the first, in the game's order), when the
    probes did not name one."""
    for move, child, passes, pay in run.edges(pos):
        if run.equals(child, _child_bound(s, passes, pay, run.scored)):
            return move
    return None


def _check_options(table_mb: Any, workers: Any, time_limit: Any, node_limit: Any,
                   max_depth: Any) -> None:
    if not is_real(table_mb) or not 0 < table_mb <= MAX_TABLE_MB:
        raise LimitError(f"table_mb must be a number in (0, {MAX_TABLE_MB}], not "
                         f"{show(table_mb)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 64:
        raise LimitError(f"workers must be an int from 1 to 64, not {show(workers)}")
    if time_limit is not None and (not is_real(time_limit) or not time_limit > 0):
        raise LimitError(f"time_limit must be a positive number of seconds, not "
                         f"{show(time_limit)}")
    if node_limit is not None and (isinstance(node_limit, bool) or
                                   not isinstance(node_limit, int) or node_limit < 1):
        raise LimitError(f"node_limit must be a positive int, not {show(node_limit)}")
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or \
            not 1 <= max_depth <= 1_000_000:
        raise LimitError(f"max_depth must be an int from 1 to 1,000,000, not "
                         f"{show(max_depth)}")


def _stderr_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)

