"""The search of a Python game: the backend that runs the proof search over the Python
protocol (a dict for a table, recursion for the stack), the budget every backend shares,
and the rules through the protocol and the kernel's two score maps in plain Python, which
the driver shares with it.

Nothing here loads numba or numpy, so the search of a Python game starts as fast as its
solve (``import perfectplay`` and one search of a small game load neither); the compiled
door is :mod:`perfectplay.engine.proof.backends`, which takes the names of this module
from here.

>>> parent_score(MATE - 3, True, 0, False) == -(MATE - 4)  # a win in 3 for the child
True
>>> child_bound(-(MATE - 4), True, 0, False) == MATE - 3
True
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ...errors import GameError, LimitError, show
from ..discovery import is_move_list, points
from ..protocol import (
    CANNOT_LOSE,
    CANNOT_WIN,
    LOSES_IN_2,
    MUST_LOSE,
    NOT_SOONER,
    WINS_IN_1,
    Capabilities,
    Game,
    Move,
    Outcome,
    Position,
    Value,
    capabilities,
)
from ..status import cycle_error
from .limits import Limits

if TYPE_CHECKING:
    import numpy as np

#: the search kernel's scores (:mod:`perfectplay.engine.proof.kernel`, which a test holds
#: equal): a win in r plies scores MATE - r, a loss -(MATE - r); LIMIT the largest margin;
#: INF "no bound"
MATE = 1 << 19
LIMIT = MATE - 2
INF = MATE + 1
#: A search score: an int (a kernel's, or a Python game's win/lose or integer margin) or a
#: float (a Python game's margins that need not be integers; +-inf for "no bound").
SearchScore = int | float


class Stopped(Exception):
    """The budget ran out (time, nodes) or the user pressed Ctrl-C."""


class Budget:
    """Time and node limits, shared by every probe of one search."""

    @classmethod
    def of(cls, limits: Limits) -> Budget:
        """The budget of a search with ``limits``: its clock starts now."""
        return cls(limits.time_limit, limits.node_limit)

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
            raise Stopped
        if self.out_of_time():
            self.stopped = "time"
            raise Stopped
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.stopped = "nodes"
            raise Stopped



class SearchBackend(Protocol):
    """What the search driver asks of a backend (see the module doc)."""

    #: what :attr:`SearchResult.backend` says: "compiled" or "python"
    name: str
    #: null-window probes so far
    probes: int
    #: True when every score is an integer, so null windows pin a score exactly (False: a
    #: Python game's margins may be fractions, and the driver probes a full window instead)
    integral: bool

    def probe(self, pos: Position, alpha: SearchScore, beta: SearchScore,
              budget: Budget) -> tuple[SearchScore, Move | None]:
        """(score, best move) of one fail-soft search of ``pos`` in the window (alpha, beta)
        (see :func:`~perfectplay.engine.proof.kernel.probe` for what the score bounds);
        :class:`Stopped` when the budget runs out first."""
        ...

    def pin_quick(self, pos: Position, st: np.ndarray, want_best: bool,
                  budget: Budget) -> bool:
        """Carry out the plan ``st`` (:mod:`.plan`) of ``pos`` as far as a quick call
        goes: True when it has ended, False to leave it to :meth:`probe`."""
        ...

    def walk(self, pos: Position, score: SearchScore,
             budget: Budget) -> tuple[int, Move | None] | None:
        """(remoteness, best move) of ``pos`` whose exact score is ``score``, when the
        backend walks the moves that keep it itself; None: the driver walks with probes."""
        ...

    def table_stats(self) -> dict[str, Any]:
        """The table's size and fill, for :attr:`SearchResult.table`."""
        ...

    def branching_nodes(self) -> int:
        """The nodes so far that went on to search two or more moves, or were a probe's
        root (see :attr:`SearchResult.branching`)."""
        ...

    def close(self) -> None:
        """Let go of threads (the table may be kept for the next search)."""
        ...

    def warm(self, pos: Position, walk: bool) -> float:
        """Compile what the search will call (seconds taken; 0 when nothing compiles)."""
        ...


class PythonBackend:
    """The same search over the Python protocol (a dict for a table, recursion for the
    stack): slower, for small games and for reading."""

    name = "python"

    def __init__(self, game: Game, max_depth: int) -> None:
        self.game = game
        self.caps = capabilities(game)
        self.scored = self.caps.scored
        self.integral = not self.scored  # margins may be fractions
        self.table: dict[Position, tuple[SearchScore, SearchScore, Move | None]] = {}
        self.max_depth = max_depth
        self.probes = 0
        self.order = self.caps.search_moves
        self.bounds = self.caps.static_bounds
        self.horizon = self.caps.horizon
        self.tiered = self.caps.tier is not None
        self.budget = Budget(None, None)  # each probe's own
        self.branching = 0  # nodes that searched two or more moves, or a probe's root
        self.line: list[Position] = []  # the positions above the node searched
        self.on_line: set[Position] = set()  # the same, for a cycle check without a scan
        self.plain = self.caps.player is None and self.caps.payoff is None  # turns alternate
        self.after = self.caps.outcome_after  # asked of a new child instead of outcome

    def warm(self, pos: Position, walk: bool) -> float:
        """Nothing to compile: Python runs as it is."""
        return 0.0

    def close(self) -> None:
        pass

    def table_stats(self) -> dict[str, Any]:
        return {"entries": len(self.table)}

    def branching_nodes(self) -> int:
        return self.branching

    def pin_quick(self, pos: Position, st: np.ndarray, want_best: bool,
                  budget: Budget) -> bool:
        """Nothing to do at once: the driver makes each probe (False)."""
        return False

    def walk(self, pos: Position, score: SearchScore,
             budget: Budget) -> tuple[int, Move | None] | None:
        """None: the driver walks the moves that keep the score with probes."""
        return None

    def probe(self, pos: Position, alpha: SearchScore, beta: SearchScore,
              budget: Budget) -> tuple[SearchScore, Move | None]:
        budget.check()
        self.probes += 1
        self.budget = budget
        self.line = []
        self.on_line = set()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.max_depth + 200))
        try:
            return self._node(pos, alpha, beta)
        except KeyboardInterrupt:
            budget.stopped = "interrupt"
            raise Stopped from None
        finally:
            sys.setrecursionlimit(limit)

    def _moves(self, pos: Position) -> list[Move]:
        """The moves of ``pos`` in the order to try them, as a list of the search's own (it
        puts the table's move first): ``search_moves`` when the game has it, else ``moves``
        (a list is taken as it is, copied; anything else is checked first)."""
        if self.order is None:
            moves = self.game.moves(pos)
            return moves.copy() if type(moves) is list else legal_moves(self.game, pos)
        moves = self.order(pos)
        if not is_move_list(moves):
            raise GameError(f"search_moves({show(pos)}) returned {show(moves)}: expected an "
                            "iterable of moves")
        moves = list(moves)
        if not moves and legal_moves(self.game, pos):
            raise GameError(f"search_moves({show(pos)}) listed no move where moves has some")
        return moves

    def _node(self, pos: Position, alpha: SearchScore, beta: SearchScore,
              asked: bool = False) -> tuple[SearchScore, Move | None]:
        """The fail-soft score of ``pos`` in the window (alpha, beta) and its best move
        (None where none was searched). The table is looked at before the rules: a position
        in it has not ended, so its ``outcome`` is not asked (nor when ``asked``: the parent
        asked ``outcome_after``)."""
        budget = self.budget
        budget.nodes += 1
        if budget.nodes & 1023 == 0:
            budget.check()
        entry = self.table.get(pos)
        if entry is None and not asked:
            result = self.game.outcome(pos)
            if result is not None:
                return end_score(pos, result, self.scored), None
        if not self.scored and beta > MATE - 1:
            beta = MATE - 1
            if alpha >= beta:
                return beta, None
        if self.bounds is not None:
            alpha, beta, cut = self._bounded(pos, alpha, beta)
            if cut is not None:
                return cut, None
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
        if len(moves) > 1 or not self.line:
            self.branching += 1
        if len(self.line) >= self.max_depth:
            raise LimitError(f"a line deeper than {self.max_depth:,} plies; raise max_depth")
        self.line.append(pos)
        self.on_line.add(pos)
        try:
            best, best_move = self._children(pos, moves, alpha, beta)
        finally:
            self.line.pop()
            self.on_line.discard(pos)
        self._store(pos, entry, best, best_move, alpha, beta)
        return best, best_move

    def _bounded(self, pos: Position, alpha: SearchScore, beta: SearchScore
                 ) -> tuple[SearchScore, SearchScore, SearchScore | None]:
        """The window narrowed by the game's ``static_bounds``, and the score when they
        settle it (else None)."""
        known = self.bounds(pos)  # type: ignore[misc]
        if not self.scored and known & (WINS_IN_1 | LOSES_IN_2):  # exact at once
            return alpha, beta, exact_score(known)
        if not self.scored and known & NOT_SOONER:  # a win takes 3 plies, a loss 4
            beta = min(beta, MATE - 3)
            alpha = max(alpha, -(MATE - 4))
            if alpha >= beta:
                return alpha, beta, (beta if beta == MATE - 3 else alpha)
        if known & CANNOT_WIN and beta > 0:
            beta = 0
            if alpha >= beta:
                return alpha, beta, beta
        if known & CANNOT_LOSE and alpha < 0:
            alpha = 0
            if alpha >= beta:
                return alpha, beta, alpha
        if known & MUST_LOSE and not self.scored:  # a loss within the horizon
            # (margins here may be fractions: "below 0" is no bound a null window takes)
            cap = -(MATE - self.horizon(pos)) if self.horizon is not None \
                else -(MATE - LIMIT)
            if beta > cap:
                beta = cap
                if alpha >= beta:
                    return alpha, beta, beta
        return alpha, beta, None

    def _edges(self, pos: Position, moves: list[Move]
               ) -> list[tuple[Move, Position, bool, SearchScore]]:
        """(move, child, passes, pay) of each move (:func:`edge`; a game without player or
        payoff hooks has ``play`` called directly: the turn passes, nothing is paid)."""
        if not self.plain:
            return [(move, *edge(self.game, self.caps, pos, move)) for move in moves]
        play = self.game.play
        out: list[tuple[Move, Position, bool, SearchScore]] = []
        for move in moves:
            child = play(pos, move)
            if child is None:
                edge(self.game, self.caps, pos, move)  # its error
            out.append((move, child, True, 0))
        return out

    def _children(self, pos: Position, moves: list[Move], alpha: SearchScore,
                  beta: SearchScore) -> tuple[SearchScore, Move | None]:
        """The best score of ``pos``'s moves in the window and its move. First each child
        is looked up in the table: one whose proven bound already refutes the window ends
        the node with no search (an enhanced transposition cutoff, Plaat et al. 1996);
        then the children are searched in order, a game's ``outcome_after`` asked of each
        child not in the table on the way (so the child need not ask ``outcome``)."""
        scored, table, after = self.scored, self.table, self.after
        check_cycles, on_line = not self.tiered, self.on_line
        edges = self._edges(pos, moves)
        for move, child, passes, pay in edges:
            if check_cycles and child in on_line:  # (an entry of a position on the line
                raise cycle_error(child)  # holds no proof for this line)
            known = table.get(child)
            if known is not None:
                s = parent_score(known[1] if passes else known[0], passes, pay, scored)
                if s >= beta:
                    return s, move
        best: SearchScore | None = None
        best_move = None
        for move, child, passes, pay in edges:
            if passes and not scored:  # child_bound's two calls, inline: (-beta, -alpha)
                lo_c = 1 - beta if beta < 0 else -1 - beta if beta > 0 else 0  # a ply away
                hi_c = 1 - alpha if alpha < 0 else -1 - alpha if alpha > 0 else 0
            else:
                lo_c = child_bound(beta, passes, pay, scored)
                hi_c = child_bound(alpha, passes, pay, scored)
                if lo_c > hi_c:
                    lo_c, hi_c = hi_c, lo_c
            result = None
            if after is not None and child not in table:
                result = after(pos, move, child)
            if result is not None:
                self.budget.nodes += 1
                s = end_score(child, result, scored)
            else:
                s, _ = self._node(child, lo_c, hi_c, after is not None)
            if passes and not scored:  # parent_score, inline: -s, a ply nearer
                s = -s - 1 if s < 0 else 1 - s if s > 0 else 0
            else:
                s = parent_score(s, passes, pay, scored)
            if best is None or s > best:
                best, best_move = s, move
            if s > alpha:
                alpha = s
                if alpha >= beta:
                    break
        assert best is not None  # moves is not empty
        return best, best_move

    def _store(self, pos: Position, entry: tuple[SearchScore, SearchScore, Move | None] | None,
               best: SearchScore, best_move: Move | None, alpha: SearchScore,
               beta: SearchScore) -> None:
        """Keep what the search of ``pos`` in (alpha, beta) proved: ``best`` is exact inside
        the window, a lower bound at or above beta, an upper bound at or below alpha; within
        the bounds the table held already, when they agree."""
        neg, pos_inf = (-math.inf, math.inf) if self.scored else (-INF, INF)
        lo = best if best > alpha else neg
        hi = best if best < beta else pos_inf
        if entry is not None and max(lo, entry[0]) <= min(hi, entry[1]):
            lo, hi = max(lo, entry[0]), min(hi, entry[1])
        self.table[pos] = (lo, hi, best_move)


def legal_moves(game: Game, pos: Position) -> list[Move]:
    """``game.moves(pos)`` as a list, or a GameError when it is not an iterable of moves."""
    moves = game.moves(pos)
    if not is_move_list(moves):
        raise GameError(f"moves({show(pos)}) returned {show(moves)}: expected an iterable of "
                        "moves")
    return list(moves)


def end_score(pos: Position, result: Outcome, scored: bool) -> SearchScore:
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


def edge(game: Game, caps: Capabilities, pos: Position,
         move: Move) -> tuple[Position, bool, SearchScore]:
    """(child, passes, pay) of ``move`` from ``pos``: the next position, whether the turn
    passes (the game's ``player``, in ``caps``), the mover's payoff (0 unless scored);
    GameErrors name bad answers."""
    child = game.play(pos, move)
    if child is None:
        raise GameError(f"play({show(pos)}, {show(move)}) returned None: it must return "
                        "the new position")
    passes = True
    if caps.player is not None:
        passes = _player(caps.player, pos) != _player(caps.player, child)
    pay = points(caps.payoff(pos, move), "payoff", pos, move) \
        if caps.payoff is not None else 0
    return child, passes, pay


def _player(player: Callable[[Position], Any], pos: Position) -> int:
    who = player(pos)
    if who not in (0, 1) or isinstance(who, bool):
        raise GameError(f"player({show(pos)}) returned {show(who)}: expected 0 or 1")
    return int(who)


def parent_score(s: SearchScore, passes: bool, pay: SearchScore,
                 scored: bool) -> SearchScore:
    """The kernel's :func:`~perfectplay.engine.proof.kernel.parent_score` in plain Python
    (a numba call per node would cost more than the node)."""
    if scored:
        return pay - s if passes else pay + s
    s = -s if passes else s
    return s - 1 if s > 0 else s + 1 if s < 0 else s


def child_bound(x: SearchScore, passes: bool, pay: SearchScore, scored: bool) -> SearchScore:
    """The kernel's :func:`~perfectplay.engine.proof.kernel.child_bound` in plain Python."""
    if scored:
        return pay - x if passes else x - pay
    if isinstance(x, float):  # an infinite bound stays infinite
        return -x if passes else x
    x = -x if passes else x
    return x + 1 if x > 0 else x - 1 if x < 0 else x


def exact_score(known: int) -> int:
    """The kernel's :func:`~perfectplay.engine.proof.kernel.exact_score` in plain Python: a
    win in 1 for ``WINS_IN_1``, else a loss in 2 (``LOSES_IN_2``)."""
    return MATE - 1 if known & WINS_IN_1 else -(MATE - 2)
