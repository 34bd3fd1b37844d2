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
  (:meth:`SearchRun.remoteness`), unless the game's ``horizon`` says how long a tied game lasts.
- **Two backends, one driver**: a :class:`~perfectplay.engine.CompiledGame` is searched by the
  numba kernel of :mod:`perfectplay.engine.proof.kernel` (no Python per node; ``workers`` > 1
  runs threads sharing one lock-free table, each putting off the moves another is
  searching), any other game by the same algorithm in Python (for small games and for
  teaching: the same answers, slower).
- **Exact, or honestly partial**: ``time_limit``, ``node_limit`` and Ctrl-C stop the search;
  the result then holds the bounds proven so far (``exact`` is False), never a guess.

Cycles: a line of play that repeats a position stops the search with a clear error (use
``solve``, which certifies draws). A game that defines ``tier`` is acyclic and skips the check.

Where things are: this module is the driver (:func:`search`: the MTD(f) steps, the
remoteness walk, ``analyze``); :mod:`perfectplay.engine.proof.backends` the two backends
behind the :class:`~perfectplay.engine.proof.backends.SearchBackend` protocol and the budget;
:mod:`perfectplay.engine.proof.result` the :class:`SearchResult` and scores in words;
:mod:`perfectplay.engine.proof.kernel` the compiled kernel.

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

import builtins
import functools
import importlib.util
import logging
import math
import sys
import time
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from ...errors import GameError, show
from ...lazy import lazy_names
from ..check import precheck
from ..protocol import (
    Game,
    Move,
    Position,
    Value,
    Worth,
    cannot_tie,
    capabilities,
    is_compiled,
)
from ..values import MoveValue
from .limits import MAX_TABLE_MB, Limits
from .pysearch import (
    INF,
    LIMIT,
    MATE,
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
from .result import SearchResult, SearchScore, score_words, value_of

if TYPE_CHECKING:
    from ..compiled import CompiledGame
    from . import kernel as sk
    from .backends import clear_table, prepare_table

__all__ = ["INF", "LIMIT", "MATE", "MAX_TABLE_MB", "Limits", "SearchResult", "clear_table",
           "prepare_table", "search"]
#: the compiled door's table, read from :mod:`.backends` on first use (a Python game's
#: search loads no numba)
__getattr__, __dir__ = lazy_names(__name__, {
    "clear_table": "perfectplay.engine.proof.backends",
    "prepare_table": "perfectplay.engine.proof.backends"}, globals())
_log = logging.getLogger("perfectplay.search")  # a line when a search starts and ends, at INFO


class SearchRun:
    """One search: a backend, a budget, and the exact scores and remoteness found so far."""

    def __init__(self, game: Game, backend: SearchBackend, budget: Budget) -> None:
        self.game = game
        self.caps = capabilities(game)
        self.backend = backend
        self.budget = budget
        self.scored = self.caps.scored
        self.exact_scores: dict[Position, SearchScore] = {}
        self.rems: dict[Position, tuple[int, Move | None]] = {}
        self.integral = backend.integral
        self.want_remoteness = True
        #: the value alone (``search(value_only=True)``): a win/lose game's plans end once
        #: the score's sign is proven (:func:`~perfectplay.engine.proof.plan.plan_value`)
        self.value_only = False
        self.no_tie = cannot_tie(game)
        #: the plan's functions: compiled for a compiled game, plain Python for a Python
        #: game (whose search then never calls into numba: :func:`python_plan`)
        self.plan = compiled_plan() if is_compiled(game) else pinplan
        self.horizon = self.caps.horizon
        #: a scored game's ``first_guess(pos)``, an estimate of the margin (or None) its
        #: probes start from (:func:`~perfectplay.engine.proof.plan.plan_guess`)
        self.guess: Callable[[Position], int | None] | None = self.caps.first_guess
        #: plans begun elsewhere (a batch's kernel pass), carried on by :meth:`pin`, and
        #: best moves found with an exact score (what :meth:`pin` gives with it)
        self.plans: dict[Position, np.ndarray] = {}
        self.best_known: dict[Position, Move] = {}
        #: (lo, hi, best move) proven so far by the :meth:`pin` under way
        self.partial: tuple[SearchScore, SearchScore, Move | None] | None = None

    @property
    def kernel_names_best(self) -> bool:
        """Whether the kernel should find a best move where the probes named none: unless
        the remoteness walk will (a margin's), which names one itself."""
        return not (self.scored and self.want_remoteness)

    # the rules, through the Python protocol (a few calls per search, not per node)
    def ended(self, pos: Position) -> SearchScore | None:
        """The score of ``pos`` if the game has ended there, else None."""
        result = self.game.outcome(pos)
        return None if result is None else end_score(pos, result, self.scored)

    def edges(self, pos: Position) -> list[tuple[Move, Position, bool, SearchScore]]:
        """(move, child, passes, pay) of every legal move, in the game's order (none once
        the game has ended, whatever ``moves`` says there)."""
        out: list[tuple[Move, Position, bool, SearchScore]] = []
        if self.ended(pos) is not None:
            return out
        for move in legal_moves(self.game, pos):
            out.append((move, *edge(self.game, self.caps, pos, move)))
        return out

    def bounds(self, pos: Position) -> tuple[SearchScore, SearchScore]:
        """The score range of ``pos`` before any probe: a margin within the game's
        ``margin_bound`` (Kalah: the seeds in play), so that a search stopped early reports
        bounds a person can read rather than the kernel's LIMIT."""
        if self.scored:
            if not self.integral:
                return -math.inf, math.inf
            bound = LIMIT
            if self.caps.has_margin_bound and is_compiled(self.game):
                rules = cast("CompiledGame", self.game).rules
                bound = int(rules.margin_bound(np.int64(cast(int, pos))))
        else:
            bound = 0
        top = int(self.plan.score_top(self.scored, bound))  # the kernel's own rule (start_plan)
        return -top, top

    def pin(self, pos: Position, known: tuple[SearchScore, SearchScore] | None = None,
            want_best: bool = False, guess: int | None = None
            ) -> tuple[SearchScore, SearchScore, Move | None]:
        """(lo, hi, best move): lo <= score <= hi; lo == hi unless the budget ran out
        (Stopped carries on up after ``self.partial`` is set). ``known``: bounds already
        proven (earlier probes, the parent's exact score from a book): the probes start
        inside them; when they fix the sign, the first probe asks whether the narrowed
        bound is exact (a lost parent's best moves are exactly at it: one probe). The
        probes are :mod:`~perfectplay.engine.proof.plan`'s. ``want_best``: the compiled
        kernel also finds a best move when the probes name none (else :func:`_best_of`
        does, a probe at a time). ``guess``: a scored score's first guess (None: the
        game's ``first_guess``, if any), where the probes start (:func:`.plan.plan_guess`)."""
        if pos in self.exact_scores:
            return self.exact_scores[pos], self.exact_scores[pos], self.best_known.get(pos)
        st = self.plans.pop(pos, None)
        if st is None:
            end = self.ended(pos)
            if end is not None:
                self.exact_scores[pos] = end
                return end, end, None
            if not legal_moves(self.game, pos):
                none: SearchScore = 0 if self.scored else -MATE
                self.exact_scores[pos] = none
                return none, none, None
            if not self.integral:  # margins that need not be integers: one full window
                full, best = self.backend.probe(pos, -math.inf, math.inf, self.budget)
                self.exact_scores[pos] = full
                return full, full, best
            st = self._plan(pos, known, guess)
        best = self._follow(pos, st, want_best)
        lo, hi = int(st[pinplan.LO]), int(st[pinplan.HI])
        if st[pinplan.PHASE] == pinplan.HORIZON_WRONG:
            raise GameError(f"the search of {show(pos)} found a score beyond its horizon "
                            f"({st[pinplan.LEFT]} plies): the game's horizon hook is wrong")
        if st[pinplan.PHASE] == pinplan.KNOWN_WRONG and known is None:  # (plan_value's)
            raise GameError(f"the search of {show(pos)} proves neither a win nor a loss: "
                            "the game's cannot_tie (or its horizon) is wrong")
        if st[pinplan.PHASE] == pinplan.KNOWN_WRONG:  # only a known bound can cross
            raise GameError(f"the bounds known for {show(pos)} were wrong: the search "
                            f"proves at most {hi} where {lo} was given as proven")
        if st[pinplan.PHASE] == pinplan.VALUE:  # the value alone: a bound, not the score
            return lo, hi, best
        self.exact_scores[pos] = lo
        return lo, hi, best

    def _plan(self, pos: Position, known: tuple[SearchScore, SearchScore] | None,
              guess: int | None = None) -> np.ndarray:
        """A new plan of ``pos``'s probes: its score range narrowed to ``known``, and the
        quick probes when nothing is known and the game has a ``horizon``."""
        lo, hi = base = self.bounds(pos)
        if known is not None:
            lo, hi = max(lo, known[0]), min(hi, known[1])
            if lo > hi:
                raise GameError(f"the bounds known for {show(pos)} ({known[0]}, {known[1]}) "
                                "are outside its score range")
        left = 0
        sign = self.value_only and not self.scored  # the value alone: no quick probes
        if known is None and self.horizon is not None and not sign:
            left = int(self.plan.quick_left(self.scored, int(self.horizon(pos))))
        st = pinplan.new_plan()
        self.plan.plan_start(st, int(lo), int(hi), int(base[0]), int(base[1]), left,
                             int(self.scored))
        if sign or self.no_tie:
            gap = MATE - int(self.horizon(pos)) if self.horizon is not None else MATE - LIMIT
            self.plan.plan_value(st, int(sign), int(self.no_tie), gap)
        if known is None and self.scored:
            g = guess if guess is not None or self.guess is None else self.guess(pos)
            if g is not None:  # MTD(f) from the game's first guess (plan.plan_guess)
                self.plan.plan_guess(st, int(g))
        return st

    def _follow(self, pos: Position, st: np.ndarray, want_best: bool) -> Move | None:
        """Carry out the plan ``st`` (:mod:`~perfectplay.engine.proof.plan`) of ``pos``: the
        backend's quick call first (the compiled kernel makes every probe of a small search
        in one call), then a probe at a time; the best move a probe proved (None: none).
        ``self.partial`` follows what is proven, for a search stopped on the way."""
        integer_moves = is_compiled(self.game)
        named = int(st[pinplan.BEST]) if integer_moves and st[pinplan.BEST] >= 0 else None
        bounds = self.plan.plan_bounds
        self.partial = _partial(st, named, bounds)  # (a plan carried on may have named one)
        self.backend.pin_quick(pos, st, want_best, self.budget)
        best: Move | None = int(st[pinplan.BEST]) if st[pinplan.BEST] >= 0 else None
        self.partial = _partial(st, best, bounds)
        while True:
            x = int(self.plan.plan_next(st))
            if st[pinplan.PHASE] not in (pinplan.QUICK, pinplan.MAIN):
                return best
            s, move = self.backend.probe(pos, x - 1, x, self.budget)
            if s >= x and move is not None:
                best = move
            self.plan.plan_result(st, s, move if integer_moves and move is not None else -1)
            self.partial = _partial(st, best, bounds)

    def equals(self, pos: Position, target: SearchScore) -> bool:
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

    def remoteness(self, pos: Position, s: SearchScore) -> tuple[int, Move | None]:
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
        walked = self.backend.walk(pos, s, self.budget)
        if walked is not None:  # the backend walks the moves that keep the score itself
            self.rems[pos] = walked
            return walked
        self.budget.check()
        hurry = (not self.scored) or s >= 0
        best_r, best_move = None, None
        for move, child, passes, pay in self.edges(pos):
            target = child_bound(s, passes, pay, self.scored)
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

    def move_values(self, pos: Position) -> list[MoveValue]:
        """Every legal move's exact value and remoteness for its mover, in the game's
        order (what ``analyze`` shows). A scored game's child is probed first at the score
        that keeps the parent's, when that is known: the best moves' exact score, so a
        best move costs two null windows (MTD(f) from the right guess)."""
        out = []
        parent = self.exact_scores.get(pos) if self.scored and self.integral else None
        for move, child, passes, pay in self.edges(pos):
            guess = None if parent is None else int(child_bound(parent, passes, pay, True))
            lo, hi, _ = self.pin(child, guess=guess)
            if lo != hi:  # the value alone (value_only): the child's, flipped if it passes
                sign = sign_value(lo, hi)
                out.append(MoveValue(move, sign.flipped() if passes else sign, None))
                continue
            s = parent_score(lo, passes, pay, self.scored)
            value, rem = value_of(s, self.scored)
            if rem is None and self.want_remoteness:
                rem = self.remoteness(child, lo)[0] + 1
            out.append(MoveValue(move, value, rem))
        return out


class LeafSource(Protocol):
    """What ``endgame`` may be besides a :class:`~perfectplay.engine.proof.kernel.Leaf`: a
    solved store (:func:`perfectplay.store.open_store`) that loads its leaf."""

    def leaf(self) -> sk.Leaf: ...


def search(game: Game, position: Position | None = None, *, limits: Limits | None = None,
           analyze: bool = False, time_limit: float | None = None,
           node_limit: int | None = None, table_mb: float | None = None,
           workers: int | None = None, max_depth: int | None = None,
           progress: Callable[[str], None] | bool | None = None,
           endgame: sk.Leaf | LeafSource | None = None,
           remoteness: bool = True,
           known: tuple[SearchScore, SearchScore] | None = None,
           check: bool = True, value_only: bool = False) -> SearchResult:
    """Prove the value and remoteness of one position (default: the start) by search.

    Same conventions as :func:`perfectplay.engine.solve` (value for the player to move;
    winner fastest, loser slowest; ties and margins as ``solve`` defines them), so the two
    agree wherever both run. ``analyze`` also proves every legal move's value and
    remoteness. ``limits`` (:class:`~perfectplay.engine.proof.limits.Limits`, or its
    fields as keywords, which override it; defaults: no time or node limit, a 64 MB table,
    one worker): ``time_limit`` (seconds), ``node_limit`` and Ctrl-C stop the search with
    what is proven so far (``exact`` False, bounds in ``lower`` and ``upper``).
    ``table_mb`` sizes the transposition table (compiled games; a power-of-two number of
    16-byte entries), ``workers`` > 1 searches with that many threads sharing it (ABDADA-style).
    ``progress``: a callable taking a line, or True for lines on stderr.

    A game may help with three optional hooks: ``search_moves`` (moves best first, possibly
    pruned; see :mod:`perfectplay.engine.compiled`), ``static_bounds`` (cannot win, cannot
    lose) and ``horizon`` (plies left; a tied game lasts exactly that long). A
    :class:`CompiledGame`'s ``canonical`` shares table entries between symmetric positions,
    and its ``margin_bound`` (scored games) cuts windows to the margin still possible.
    A scored game's method ``first_guess(pos)`` (an int, or None) is where the probes of
    its margin start: MTD(f)'s first guess (Othello: 0; else the first probe asks "a
    win?"); an analysis probes each move first at the score that keeps the parent's.

    ``endgame``: a solved store of the game's last tiers (:func:`perfectplay.store.open_store`
    of a store built with ``solve_tiered(..., roots=...)``, or its :class:`~.kernel.Leaf`): every
    position it holds is read, not searched (Irving et al.'s endgame databases). It never
    changes an answer, only the work. ``remoteness=False`` proves the value and a best move
    only (a margin's remoteness can cost more than its value). ``value_only=True`` asks no
    more than the value (and implies ``remoteness=False``): a win/lose game's search stops
    once the winner is proven, with no remoteness (the first null window, "a win?", where
    the exact score takes several; a game that declares ``cannot_tie`` needs no second), a
    scored game's margin is pinned as with ``remoteness=False``. ``known``: bounds (lo, hi)
    already proven on the position's score, in the search's units
    (:func:`~perfectplay.engine.proof.result.score_of`; e.g. from a parent's exact score,
    which no move beats, as an opening book's build gives them): the probes start inside
    them, and the best move is the one a probe found, if any (``best`` may be None: an
    opening book needs only the score). Bounds that are wrong make a wrong answer or a
    GameError. ``check`` (on by default): the game is checked first, as ``solve`` checks
    it (:func:`~perfectplay.engine.check.precheck`); ``check=False`` skips it.

    >>> class Subtract:  # take 1 or 2 from a heap of 7; who cannot move loses
    ...     def initial(self): return 7
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> r = search(Subtract(), analyze=True)
    >>> r.describe(), r.best_move, [m.describe() for m in r.moves]
    ('win in 5', 1, ['win in 5', 'lose in 4'])

    :param game: a Python game or a :class:`~perfectplay.engine.CompiledGame`.
    :param position: the position to prove (None: the start); a compiled game's int code.
    :param limits: what the search may spend (None: no time or node limit, a 64 MB table,
        one worker).
    :param analyze: also prove every legal move's value and remoteness.
    :param time_limit: seconds, overriding ``limits``.
    :param node_limit: nodes, overriding ``limits``.
    :param table_mb: the transposition table in MB, overriding ``limits``.
    :param workers: threads, overriding ``limits``.
    :param max_depth: the deepest line followed, overriding ``limits``.
    :param progress: a callable taking a line, or True for lines on stderr.
    :param endgame: a solved store of the game's last tiers (or its leaf), read instead
        of searched.
    :param remoteness: prove the remoteness too (False: the value and a best move).
    :param known: bounds already proven on the position's score, in the search's units.
    :param check: run the bounded check of the game first.
    :param value_only: prove the value alone.
    :returns: a :class:`~perfectplay.engine.SearchResult`: exact (value, remoteness, best
        move, every move's if ``analyze``) or, when stopped, the bounds proven (``exact``
        False, ``lower``, ``upper``, ``stopped``).
    :raises LimitError: a limit out of range, named (before any work).
    :raises GameError: the game fails its check, the position is not one of the game's, an
        endgame is given for a Python game, or a line runs deeper than ``max_depth``.
    """
    limits = Limits.given(limits, time_limit=time_limit, node_limit=node_limit,
                          table_mb=table_mb, workers=workers, max_depth=max_depth)
    if check:
        precheck(game)
    if position is None:
        position = game.initial()
    if progress is True:
        progress = stderr_line
    backend: SearchBackend
    if is_compiled(game):
        from ..compiled import CompiledGame  # numba: the compiled door only
        from .backends import CompiledBackend
        assert isinstance(game, CompiledGame)
        if isinstance(position, bool) or not isinstance(position, int | np.integer):
            raise GameError(f"a position of {game.name} is an int code, not {show(position)}")
        problem = game.code_problem(position)
        if problem is not None:
            raise GameError(problem)
        position = int(position)
        backend = CompiledBackend(game, limits, progress or None, leaf_of(endgame, game))
    elif endgame is not None:
        raise GameError("an endgame store helps compiled games only (the search of a Python "
                        "game runs in Python)")
    else:
        limits = limits.replace(workers=1)
        backend = PythonBackend(game, limits.max_depth)
    compiling = warm_up(backend, game, position, bool(remoteness) and not value_only,
                        progress or None)
    run = SearchRun(game, backend, Budget.of(limits))  # the clock starts here
    run.want_remoteness = bool(remoteness) and not value_only
    run.value_only = bool(value_only)
    _log.info("search of %s: started", run.caps.name)
    try:
        result = run_search(run, game, position, analyze, limits.workers, known)
        result.compile_seconds = compiling
    finally:
        backend.close()
    _log.info("search of %s: %s after %s nodes", run.caps.name,
              result.describe() if result.exact else "stopped", f"{result.nodes:,}")
    return result


def run_search(run: SearchRun, game: Game, position: Position, analyze: bool,
         workers: int, known: tuple[SearchScore, SearchScore] | None = None,
         table: dict[str, float] | None = None) -> SearchResult:
    """The search of one position by ``run``, as a :class:`SearchResult` (``table``: the
    table's statistics when the caller has them, else the backend's)."""
    value: Worth | None = None
    remoteness: int | None = None
    best: Move | None = None
    moves: list[MoveValue] | None = None
    exact, note = False, ""
    lo, hi = run.bounds(position)
    try:
        want_best = known is None and run.kernel_names_best
        lo, hi, best = run.pin(position, known, want_best)
        value, remoteness = value_of(lo, run.scored) if lo == hi else (sign_value(lo, hi),
                                                                       None)
        if remoteness is None and run.want_remoteness:
            remoteness, walked = run.remoteness(position, lo)
            best = walked if walked is not None else best
        if best is None and known is None and run.edges(position):
            best = _best_of(run, position, lo) if lo == hi else _best_of_value(run, position,
                                                                                value)
        if analyze:
            moves = run.move_values(position)
        exact = True
    except Stopped:
        if value is None and run.partial is not None:
            lo, hi, best = run.partial
            if (run.value_only or run.no_tie) and not run.scored and (lo > 0 or hi < 0):
                value = sign_value(lo, hi)  # the winner is proven, if not the remoteness
                note = "the value is proven; its remoteness was not, before the search stopped"
        elif value is not None and run.value_only and not run.scored and remoteness is None:
            note = "the value is proven; a best move was not, before the search stopped"
        elif remoteness is None:
            note = "the value is proven; its remoteness was not, before the search stopped"
        else:
            note = "the value is proven; the analysis of every move was not finished"
    budget = run.budget
    seconds = time.monotonic() - budget.start
    return SearchResult(
        game=game, position=position, value=value, remoteness=remoteness, best_move=best,
        exact=exact and value is not None, lower=score_words(lo, run.scored),
        upper=score_words(hi, run.scored), moves=moves, nodes=budget.nodes,
        branching=run.backend.branching_nodes(), seconds=seconds,
        probes=run.backend.probes, workers=workers, backend=run.backend.name,
        table=run.backend.table_stats() if table is None else table,
        stopped=budget.stopped, note=note)


def _partial(st: np.ndarray, best: Move | None,
             bounds: Callable[[np.ndarray], tuple[int, int, int]] | None = None
             ) -> tuple[SearchScore, SearchScore, Move | None]:
    """(lo, hi, best move) a plan has proven so far (:func:`.plan.plan_bounds`; a move
    named by the quick probes only once it is proven to win)."""
    lo, hi, _ = (bounds or pinplan.plan_bounds)(st)
    named = st[pinplan.PHASE] != pinplan.QUICK or st[pinplan.LO_C] > 0
    return lo, hi, best if named else None


@functools.cache
def python_plan() -> types.SimpleNamespace:
    """The names of :mod:`~perfectplay.engine.proof.plan` with its functions as plain Python,
    calling one another as plain Python: the module's code run with numba's ``njit`` as
    the identity (what ``NUMBA_DISABLE_JIT`` does), for the search of a Python game, which
    makes a few probes and never needs numba: importing numba and its first call cost
    0.5-0.8 s of a process, a third of Connect Four 4x5's root value. Made once.

    >>> python_plan().score_top(0, 0) == MATE - 1
    True
    """
    spec = importlib.util.find_spec(f"{__package__}.plan")
    assert spec is not None and spec.loader is not None and spec.origin is not None
    source = spec.loader.get_source(spec.name)  # type: ignore[attr-defined]
    env: dict[str, Any] = {"__name__": spec.name, "__package__": __package__,
                           "__file__": spec.origin,
                           "__builtins__": {**vars(builtins), "__import__": _without_numba}}
    exec(compile(source, spec.origin, "exec"), env)  # noqa: S102 - the package's own file
    return types.SimpleNamespace(**env)


def _without_numba(name: str, *args: Any, **kwargs: Any) -> Any:
    """``__import__`` for :func:`python_plan`: numba is a stand-in whose ``njit`` leaves a
    function as it is; any other module is imported as usual."""
    if name == "numba":
        return types.SimpleNamespace(njit=_no_jit)
    return builtins.__import__(name, *args, **kwargs)


def _no_jit(*args: Any, **kwargs: Any) -> Any:
    """``njit`` as the identity: ``@njit`` and ``@njit(cache=True)`` alike."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def compiled_plan() -> types.ModuleType:
    """:mod:`~perfectplay.engine.proof.plan` itself (numba's compiled functions, which the
    search kernel runs too), for a compiled game's search."""
    from . import plan  # numba: the compiled door only
    return plan


#: the plan's names (its phases and fields for any search; its functions for a Python
#: game's)
pinplan = python_plan()


def warm_up(backend: SearchBackend, game: Game, position: Position, walk: bool,
          progress: Callable[[str], None] | None) -> float:
    """Compile the backend's kernels before the clock starts (a notice first, as it can
    take seconds): the seconds it took, 0 for a backend with nothing to compile."""
    if not is_compiled(game):
        return backend.warm(position, walk)
    if progress is not None:
        progress(f"compiling the search for {capabilities(game).name} (numba: the first "
                 "time; then read from its disk cache; not counted as search time) ...")
    seconds = backend.warm(position, walk)
    if progress is not None:
        progress(f"ready in {seconds:.1f} s; searching ...")
    return seconds


def check_endgame(game: Game, endgame: object) -> None:
    """A :class:`GameError` unless ``endgame`` is None, a :class:`~.kernel.Leaf` or a store of this
    very game (one of another game would answer its positions wrongly): what every
    caller taking an endgame store checks before any work.

    >>> from perfectplay.games import tictactoe
    >>> check_endgame(tictactoe(), None)
    """
    if endgame is None:
        return
    from . import kernel  # numba: an endgame helps compiled games only
    if isinstance(endgame, kernel.Leaf):
        return
    name, mine = getattr(endgame, "game_name", None), capabilities(game).name
    if name is not None and name != mine:
        raise GameError(f"the endgame store holds {name}, not {mine}")
    if not callable(getattr(endgame, "leaf", None)):
        raise GameError(f"endgame must be a store (open_store) or a Leaf, not "
                        f"{type(endgame).__name__}")


def leaf_of(endgame: sk.Leaf | LeafSource | None, game: CompiledGame) -> sk.Leaf | None:
    """The :class:`~.kernel.Leaf` of an ``endgame`` argument: a Leaf, or anything with ``leaf()``
    (a store of this game, :func:`check_endgame`)."""
    check_endgame(game, endgame)
    from . import kernel  # numba: a compiled game's search
    if endgame is None or isinstance(endgame, kernel.Leaf):
        return endgame
    return endgame.leaf()


def sign_value(lo: SearchScore, hi: SearchScore) -> Value:
    """The value of a win/lose game's position whose score is proven to lie in [lo, hi]
    on one side of 0 (its sign, without the remoteness: ``search(value_only=True)``), or
    exactly 0 (a tie).

    >>> sign_value(3, MATE - 5), sign_value(-MATE, -(MATE - 40))
    (<Value.WIN: 'win'>, <Value.LOSE: 'lose'>)
    """
    if lo > 0:
        return Value.WIN
    if hi < 0:
        return Value.LOSE
    if lo == hi == 0:
        return Value.TIE
    raise GameError(f"the score lies in [{lo}, {hi}]: its sign is not proven")


def _best_of_value(run: SearchRun, pos: Position, value: Worth) -> Move | None:
    """A move that keeps ``value``, proven by the value alone (value_only), when the probes
    named none (a position decided by its static bounds): a win's first move (in the
    game's order) to a child proven lost for its mover; a loss's first move (every move
    loses)."""
    edges = run.edges(pos)
    if value is not Value.WIN:
        return edges[0][0] if edges else None
    for move, child, passes, _ in edges:
        lo, hi, _ = run.pin(child)
        child_value = sign_value(lo, hi)  # (exact: its sign too)
        if (child_value.flipped() if passes else child_value) is Value.WIN:
            return move
    return None


def _best_of(run: SearchRun, pos: Position, s: SearchScore) -> Move | None:
    """A move that keeps the exact score ``s`` (the first, in the game's order), when the
    probes did not name one."""
    for move, child, passes, pay in run.edges(pos):
        if run.equals(child, child_bound(s, passes, pay, run.scored)):
            return move
    return None


def stderr_line(line: str) -> None:
    """The default progress: one line on stderr, flushed (a search's notices as they come)."""
    print(line, file=sys.stderr, flush=True)

