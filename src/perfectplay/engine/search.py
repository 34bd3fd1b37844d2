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

Where things are: this module is the driver (:func:`search`: the MTD(f) steps, the
remoteness walk, ``analyze``); :mod:`perfectplay.engine.searchbackends` the two backends
behind the :class:`~perfectplay.engine.searchbackends.SearchBackend` protocol and the budget;
:mod:`perfectplay.engine.searchresult` the :class:`SearchResult` and scores in words;
:mod:`perfectplay.engine.searchkernel` the compiled kernel.

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

import logging
import math
import sys
import time
from collections.abc import Callable
from typing import Protocol, cast

import numpy as np

from ..errors import GameError, LimitError, show
from . import searchkernel as sk
from .compiled import CompiledGame
from .expand import is_real
from .protocol import Game, Move, Position, Worth, capabilities
from .searchbackends import (
    Budget,
    CompiledBackend,
    PythonBackend,
    SearchBackend,
    Stopped,
    child_bound,
    clear_table,
    edge,
    end_score,
    legal_moves,
    parent_score,
    prepare_table,
)
from .searchresult import SearchResult, SearchScore, score_words, value_of
from .values import MoveValue

__all__ = ["INF", "LIMIT", "MATE", "MAX_TABLE_MB", "SearchResult", "clear_table", "prepare_table",
           "search"]

MATE, LIMIT, INF = sk.MATE, sk.LIMIT, sk.INF
#: the longest distance (plies to a win or a loss) the quick probes of :meth:`_Search.pin`
#: ask about before "a win at all?": with 16, Pons' opening_L1 set takes 6x fewer nodes
#: and the other yardsticks of benchmarks/search_nodes.py stay within 0.5 %
#: (docs/benchmarks.md)
QUICK_PLIES = 16
MAX_TABLE_MB = 16384
_log = logging.getLogger("perfectplay.search")  # a line when a search starts and ends, at INFO


class _Search:
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
        self.horizon = self.caps.horizon
        #: (lo, hi, best move) proven so far by the :meth:`pin` under way
        self.partial: tuple[SearchScore, SearchScore, Move | None] | None = None

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
            top = LIMIT
            if self.caps.has_margin_bound and isinstance(self.game, CompiledGame):
                bound = self.game.rules.margin_bound(np.int64(cast(int, pos)))
                top = min(LIMIT, max(0, int(bound)))
            return -top, top
        return -(MATE - 1), MATE - 1

    def pin(self, pos: Position, known: tuple[SearchScore, SearchScore] | None = None
            ) -> tuple[SearchScore, SearchScore, Move | None]:
        """(lo, hi, best move): lo <= score <= hi; lo == hi unless the budget ran out
        (Stopped carries on up after ``self.partial`` is set). ``known``: bounds already
        proven (earlier probes, the parent's exact score from a book): the probes start
        inside them; when they fix the sign, the first probe asks whether the narrowed
        bound is exact (a lost parent's best moves are exactly at it: one probe)."""
        if pos in self.exact_scores:
            return self.exact_scores[pos], self.exact_scores[pos], None
        end = self.ended(pos)
        if end is not None:
            self.exact_scores[pos] = end
            return end, end, None
        if not legal_moves(self.game, pos):
            none: SearchScore = 0 if self.scored else -MATE
            self.exact_scores[pos] = none
            return none, none, None
        lo, hi = base = self.bounds(pos)
        best = None
        if not self.integral:  # margins that need not be integers: one full window
            full, best = self.backend.probe(pos, -math.inf, math.inf, self.budget)
            self.exact_scores[pos] = full
            return full, full, best
        if known is not None:
            lo, hi = max(lo, known[0]), min(hi, known[1])
            if lo > hi:
                raise GameError(f"the bounds known for {show(pos)} ({known[0]}, {known[1]}) "
                                "are outside its score range")
        quick = False
        if known is None and not self.scored and self.horizon is not None:
            left = int(self.horizon(pos))
            if 0 < left < MATE - 1:
                lo, hi, best = self._quick_probes(pos, left)
                quick = (lo, hi) != (rank_score(-left, left), rank_score(left, left))
        stepped = False
        x: SearchScore
        if lo < 1 <= hi:  # win or not first: the sign settles most of the range
            x = 1
        elif quick:  # the quick probes' bisection goes on
            x, stepped = lo + (hi - lo + 1) // 2, True
        elif (lo, hi) != base:  # a sign known: is the narrowed bound exact?
            x, stepped = (lo + 1 if lo > base[0] else hi), True
        else:
            x = (lo + hi + 1) // 2
        self.partial = (lo, hi, best)
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
        if lo > hi:  # only a known bound can cross the probes' own
            raise GameError(f"the bounds known for {show(pos)} were wrong: the search "
                            f"proves at most {hi} where {lo} was given as proven")
        self.exact_scores[pos] = lo
        return lo, hi, best

    def _quick_probes(self, pos: Position, left: int
                      ) -> tuple[SearchScore, SearchScore, Move | None]:
        """(lo, hi, best move) after the cheap probes of a win/lose/tie game whose
        ``horizon`` says at most ``left`` plies are left: is there a win, or a loss, within
        a few plies? Such a probe is a search only as deep as its distance (a window above
        every slower result cuts each line there), so it costs little beside "a win at
        all?", and it settles a quick win or loss at once, where "a win at all?" proves the
        win first and then searches again for its length.

        The reachable scores (the wins, the tie, the losses) are ranked by
        :func:`distance_rank`, and the rank is bisected as Pascal Pons' Connect Four solver
        bisects its score (``Solver::solve``, github.com/PascalPons/connect4: each probe's
        middle pulled half-way to the nearer end, so quick results are asked about first),
        while the probe's distance is at most ``QUICK_PLIES``; :meth:`pin` takes the rest.
        Probes: O(log left)."""
        lo_c, hi_c = -left, left
        best: Move | None = None
        while lo_c < hi_c:
            med = lo_c + (hi_c - lo_c) // 2
            if med <= 0 and int(lo_c / 2) < med:
                med = int(lo_c / 2)
            elif med >= 0 and int(hi_c / 2) > med:
                med = int(hi_c / 2)
            if rank_distance(med, left) > QUICK_PLIES:  # too deep: within QUICK_PLIES
                near = [m for m in (QUICK_PLIES - left - 1, left - QUICK_PLIES)
                        if lo_c <= m < hi_c]  # no loss within it; a win within it
                if not near:
                    break
                med = near[0] if med < 0 or len(near) == 1 else near[1]
            x = rank_score(med + 1, left)  # "is the rank above med?"
            s, move = self.backend.probe(pos, x - 1, x, self.budget)
            if s >= x:
                lo_c = max(lo_c, rank_at_least(s, left))
                best = move if move is not None else best
            else:
                hi_c = min(hi_c, rank_at_most(s, left))
            # a move is named by a stopped search only once it is proven to win
            self.partial = (rank_score(lo_c, left), rank_score(hi_c, left),
                            best if lo_c > 0 else None)
        if lo_c > hi_c:
            raise GameError(f"the search of {show(pos)} found a score beyond its horizon "
                            f"({left} plies): the game's horizon hook is wrong")
        return rank_score(lo_c, left), rank_score(hi_c, left), best

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
        order (what ``analyze`` shows)."""
        out = []
        for move, child, passes, pay in self.edges(pos):
            lo, _, _ = self.pin(child)
            s = parent_score(lo, passes, pay, self.scored)
            value, rem = value_of(s, self.scored)
            if rem is None and self.want_remoteness:
                rem = self.remoteness(child, lo)[0] + 1
            out.append(MoveValue(move, value, rem))
        return out


class LeafSource(Protocol):
    """What ``endgame`` may be besides a :class:`~perfectplay.engine.searchkernel.Leaf`: a
    solved store (:func:`perfectplay.store.open_store`) that loads its leaf."""

    def leaf(self) -> sk.Leaf: ...


def search(game: Game, position: Position | None = None, *, analyze: bool = False,
           time_limit: float | None = None, node_limit: int | None = None,
           table_mb: float = 64, workers: int = 1, max_depth: int = 10_000,
           progress: Callable[[str], None] | bool | None = None,
           endgame: sk.Leaf | LeafSource | None = None,
           remoteness: bool = True,
           known: tuple[SearchScore, SearchScore] | None = None) -> SearchResult:
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
    only (a margin's remoteness can cost more than its value). ``known``: bounds (lo, hi)
    already proven on the position's score, in the search's units
    (:func:`~perfectplay.engine.searchresult.score_of`; e.g. from a parent's exact score,
    which no move beats, as an opening book's build gives them): the probes start inside
    them, and the best move is the one a probe found, if any (``best`` may be None: an
    opening book needs only the score). Bounds that are wrong make a wrong answer or a
    GameError.

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
    backend: SearchBackend
    if isinstance(game, CompiledGame):
        if isinstance(position, bool) or not isinstance(position, int | np.integer):
            raise GameError(f"a position of {game.name} is an int code, not {show(position)}")
        problem = game.code_problem(position)
        if problem is not None:
            raise GameError(problem)
        position = int(position)
        backend = CompiledBackend(game, table_mb, workers, max_depth, progress or None,
                                  _leaf_of(endgame, game))
    elif endgame is not None:
        raise GameError("an endgame store helps compiled games only (the search of a Python "
                        "game runs in Python)")
    else:
        workers = 1
        backend = PythonBackend(game, max_depth)
    compiling = _warm(backend, game, position, bool(remoteness), progress or None)
    run = _Search(game, backend, Budget(time_limit, node_limit))  # the clock starts here
    run.want_remoteness = bool(remoteness)
    _log.info("search of %s: started", run.caps.name)
    try:
        result = _run(run, game, position, analyze, workers, known)
        result.compile_seconds = compiling
    finally:
        backend.close()
    _log.info("search of %s: %s after %s nodes", run.caps.name,
              result.describe() if result.exact else "stopped", f"{result.nodes:,}")
    return result


def _run(run: _Search, game: Game, position: Position, analyze: bool,
         workers: int, known: tuple[SearchScore, SearchScore] | None = None) -> SearchResult:
    value: Worth | None = None
    remoteness: int | None = None
    best: Move | None = None
    moves: list[MoveValue] | None = None
    exact, note = False, ""
    lo, hi = run.bounds(position)
    try:
        lo, hi, best = run.pin(position, known)
        value, remoteness = value_of(lo, run.scored)
        if remoteness is None and run.want_remoteness:
            remoteness, walked = run.remoteness(position, lo)
            best = walked if walked is not None else best
        if best is None and known is None and run.edges(position):
            best = _best_of(run, position, lo)
        if analyze:
            moves = run.move_values(position)
        exact = True
    except Stopped:
        if value is None and run.partial is not None:
            lo, hi, best = run.partial
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
        table=run.backend.table_stats(), stopped=budget.stopped, note=note)


def distance_rank(s: SearchScore, left: int) -> int:
    """The rank of a reachable win/lose/tie score when at most ``left`` plies are left: a win
    in r plies ``left - r + 1`` (1 to ``left``), a tie 0, a loss in r plies ``r - left - 1``
    (-1 for the slowest, ``-left`` for a loss at once). O(1)."""
    if s > 0:
        return int(s - (MATE - left) + 1)
    if s < 0:
        return int(s + (MATE - left) - 1)
    return 0


def rank_score(c: int, left: int) -> SearchScore:
    """The score of rank ``c`` (the inverse of :func:`distance_rank`). O(1)."""
    if c > 0:
        return c + MATE - left - 1
    if c < 0:
        return c - (MATE - left) + 1
    return 0


def rank_distance(med: int, left: int) -> int:
    """The plies to the result a probe "is the rank above ``med``?" asks about: a win within
    ``left - med`` plies (``med`` >= 0), or no loss within ``med + left + 1`` (below 0)."""
    return left - med if med >= 0 else med + left + 1


def rank_at_least(s: SearchScore, left: int) -> int:
    """The least rank of a score >= ``s`` (``s`` a probe's fail-soft bound, which may fall
    between the reachable scores)."""
    if 0 < s < MATE - left:
        return 1
    if -(MATE - left) < s < 0:
        return 0
    return max(-left, min(left + 1, distance_rank(s, left)))


def rank_at_most(s: SearchScore, left: int) -> int:
    """The greatest rank of a score <= ``s``."""
    if 0 < s < MATE - left:
        return 0
    if -(MATE - left) < s < 0:
        return -1
    return max(-left - 1, min(left, distance_rank(s, left)))


def _warm(backend: SearchBackend, game: Game, position: Position, walk: bool,
          progress: Callable[[str], None] | None) -> float:
    """Compile the backend's kernels before the clock starts (a notice first, as it can
    take seconds): the seconds it took, 0 for a backend with nothing to compile."""
    if not isinstance(game, CompiledGame):
        return backend.warm(position, walk)
    if progress is not None:
        progress(f"compiling the search for {capabilities(game).name} (numba: the first "
                 "time; then read from its disk cache; not counted as search time) ...")
    seconds = backend.warm(position, walk)
    if progress is not None:
        progress(f"ready in {seconds:.1f} s; searching ...")
    return seconds


def check_endgame(game: Game, endgame: object) -> None:
    """A :class:`GameError` unless ``endgame`` is None, a :class:`Leaf` or a store of this
    very game (one of another game would answer its positions wrongly): what every
    caller taking an endgame store checks before any work.

    >>> from perfectplay.games import tictactoe
    >>> check_endgame(tictactoe(), None)
    """
    if endgame is None or isinstance(endgame, sk.Leaf):
        return
    name, mine = getattr(endgame, "game_name", None), capabilities(game).name
    if name is not None and name != mine:
        raise GameError(f"the endgame store holds {name}, not {mine}")
    if not callable(getattr(endgame, "leaf", None)):
        raise GameError(f"endgame must be a store (open_store) or a Leaf, not "
                        f"{type(endgame).__name__}")


def _leaf_of(endgame: sk.Leaf | LeafSource | None, game: CompiledGame) -> sk.Leaf | None:
    """The :class:`Leaf` of an ``endgame`` argument: a Leaf, or anything with ``leaf()``
    (a store of this game, :func:`check_endgame`)."""
    check_endgame(game, endgame)
    if endgame is None or isinstance(endgame, sk.Leaf):
        return endgame
    return endgame.leaf()


def _best_of(run: _Search, pos: Position, s: SearchScore) -> Move | None:
    """A move that keeps the exact score ``s`` (the first, in the game's order), when the
    probes did not name one."""
    for move, child, passes, pay in run.edges(pos):
        if run.equals(child, child_bound(s, passes, pay, run.scored)):
            return move
    return None


def _check_options(table_mb: float, workers: int, time_limit: float | None,
                   node_limit: int | None, max_depth: int) -> None:
    """LimitErrors for options out of range (or of the wrong type: callers need not be
    typed)."""
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

