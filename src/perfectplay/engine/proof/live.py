"""Live analysis: every legal move's value, then its remoteness, as each is proven.

A front end (the terminal's ``play``, the web page's worker) asks for every move of a
position of a game too big to solve whole (standard Connect Four, Kalah(6,4)) and wants to
show answers as they come, not after the slowest move. :func:`analyze_moves` is a plain
iterator of :class:`MoveReport` events:

1. every move whose child an opening **book** (a store of the game's first tiers, see
   :mod:`perfectplay.store.book`) or an **endgame** store holds, exact at once;
2. every other move's **value** (win, lose or tie; a scored game's margin), proven by
   null-window searches of its child with one transposition table kept across the moves
   (a value costs two null windows, its remoteness a few more, so all values come first);
3. every move's **remoteness**: the child's exact score (a win or loss carries it), a tie's
   from the game's ``horizon`` or the walk of the moves that keep it.

A ``stop`` event or the ``time_limit`` ends the stream with one last report per unfinished
move carrying the bounds proven so far (``exact`` False), never a guess. The answers are the
engine's: the same value and remoteness as :func:`perfectplay.engine.solve` and
:func:`perfectplay.engine.search` (``analyze=True``) give, which the tests check.

>>> class Subtract:  # take 1 or 2 from a heap of 7; who cannot move loses
...     def initial(self): return 7
...     def moves(self, n): return [k for k in (1, 2) if k <= n]
...     def play(self, n, k): return n - k
...     def outcome(self, n): return None
>>> [(r.name, r.words) for r in analyze_moves(Subtract(), 7) if r.exact]
[('1', 'win in 5'), ('2', 'lose in 4')]

Complexity: a proof search per move that no store holds (see
:func:`perfectplay.engine.search`), its subtrees shared through the table; a store look-up
(O(1)) per move that one holds.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from ...errors import GameError, InputError, LimitError, show
from ..compiled import CompiledGame
from ..protocol import Game, Move, Position, Score, Value, Worth, capabilities
from ..solved import Solved, move_name, scored_option
from ..values import Counts, MoveValue, describe
from . import kernel as sk
from .backends import (
    Budget,
    CompiledBackend,
    PythonBackend,
    SearchBackend,
    Stopped,
    child_bound,
    edge,
    legal_moves,
    parent_score,
)
from .driver import SearchRun, check_endgame
from .limits import Limits
from .result import (
    TRIVIAL_LOWER,
    TRIVIAL_UPPER,
    SearchScore,
    bound_words,
    score_of,
    score_words,
    value_of,
)

__all__ = ["SOURCES", "LiveOracle", "MoveReport", "StoreLike", "analyze_moves"]

#: Where a report's answer comes from.
SOURCES = ("book", "store", "search")


class StoreLike(Protocol):
    """What :func:`analyze_moves` reads a book or an endgame store through: the engine's
    read interface (:class:`~perfectplay.engine.Solved`; a store from
    :func:`perfectplay.store.open_store`), ``value`` and ``remoteness`` raising a KeyError
    for a position it does not hold."""

    def value(self, pos: Position | None = None) -> Worth: ...

    def remoteness(self, pos: Position | None = None) -> int | None: ...


@dataclass(frozen=True)
class MoveReport:
    """One event about one legal move, for the player who makes it.

    ``value`` is what the mover gets (a :class:`~perfectplay.engine.Value`, or the point
    margin of a scored game), None while unknown; ``remoteness`` the moves to the end, this
    one included, None until proven (and for a draw). ``lower`` and ``upper`` bound the
    move's score in words (``score_words``: 'win in 3', 'tie', '+4', '-inf'); they are equal
    once it is exact. ``exact``: value and remoteness are both final. ``source``: "book",
    "store" (an endgame store) or "search".
    """

    move: Move
    name: str
    value: Worth | None
    remoteness: int | None
    lower: str
    upper: str
    exact: bool
    source: str

    @property
    def words(self) -> str:
        """The answer in words: 'win in 5', 'tie' (remoteness still being proven), or the
        bounds ('at least tie')."""
        if self.value is not None:
            if self.remoteness is None and self.value is not Value.DRAW and not self.exact:
                return describe(self.value, None)
            return describe(self.value, self.remoteness)
        return bound_words(self.lower, self.upper)

    def to_json(self) -> dict[str, object]:
        """JSON-ready: the move's name, value as a word or a number, remoteness, bounds."""
        value: object = self.value.value if isinstance(self.value, Value) else self.value
        return {"move": self.name, "value": value, "remoteness": self.remoteness,
                "lower": self.lower, "upper": self.upper, "exact": self.exact,
                "source": self.source, "words": self.words}


class _Budget(Budget):
    """The search's budget, also ended by a ``stop`` event."""

    def __init__(self, limits: Limits, stop: threading.Event | None) -> None:
        super().__init__(limits.time_limit, limits.node_limit)
        self.stop = stop

    def out_of_time(self) -> bool:
        return super().out_of_time() or (self.stop is not None and self.stop.is_set())


class _Move:
    """What is known of one move while the analysis runs (scores in the child's terms)."""

    def __init__(self, move: Move, name: str, child: Position, passes: bool,
                 pay: SearchScore, lo: SearchScore, hi: SearchScore) -> None:
        self.move, self.name, self.child = move, name, child
        self.passes, self.pay = passes, pay
        self.lo, self.hi = lo, hi
        self.full = (lo, hi)  # what nothing proven means
        self.value: Worth | None = None
        self.rem: int | None = None
        self.done = False


def analyze_moves(game: Game, position: Position | None = None, *,
                  limits: Limits | None = None,
                  book: StoreLike | None = None, endgame: StoreLike | None = None,
                  time_limit: float | None = None, table_mb: float | None = None,
                  workers: int | None = None,
                  stop: threading.Event | None = None) -> Iterator[MoveReport]:
    """Every legal move of ``position`` (default: the start) with its value, then its
    remoteness, as a stream of :class:`MoveReport` (see the module doc for the order).

    ``book`` and ``endgame``: stores of the game (an opening book, an endgame store) read
    before anything is searched; ``endgame`` also serves the search's leaves (compiled
    games), as in ``search(..., endgame=...)``. ``limits``
    (:class:`~perfectplay.engine.proof.limits.Limits`, or its fields as keywords, which
    override it): its ``time_limit`` (seconds, the whole analysis) and ``node_limit`` (the
    whole analysis' nodes), and ``stop`` (set from another thread), end the stream early
    with bounds; ``table_mb``, ``workers`` and ``max_depth`` as for
    :func:`~perfectplay.engine.search`. The limits are checked when the call is made,
    before the stream is read. A searched
    move is reported twice (its value with bounds, then exact, or once when both come
    together); a stopped analysis ends with a report of its bounds for each unfinished
    move. Numba compiling the kernels (once a process) is not counted in ``time_limit``.

    >>> class Take:  # take 1 from a heap of 3; who cannot move loses
    ...     def initial(self): return 3
    ...     def moves(self, n): return [1] if n else []
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> [r.words for r in analyze_moves(Take())]
    ['win', 'win in 3']
    """
    limits = Limits.given(limits, time_limit=time_limit, table_mb=table_mb, workers=workers)
    return _analysis(game, position, limits, book, endgame, stop)


def _analysis(game: Game, position: Position | None, limits: Limits,
              book: StoreLike | None, endgame: StoreLike | None,
              stop: threading.Event | None) -> Iterator[MoveReport]:
    """The stream of :func:`analyze_moves`, its limits checked."""
    if position is None:
        position = game.initial()
    caps = capabilities(game)
    if isinstance(game, CompiledGame):
        if isinstance(position, bool) or not isinstance(position, int):
            raise GameError(f"a position of {game.name} is an int code, not {show(position)}")
    elif endgame is not None:
        raise GameError("an endgame store helps compiled games only")
    check_endgame(game, endgame)
    made: list[SearchBackend] = []  # made when a move needs search (not for a book's)

    def backend() -> SearchBackend:
        if not made:
            made.append(_backend(game, limits, endgame))
        return made[0]

    try:
        yield from _stream(game, caps.scored, position, book, endgame, backend, limits, stop)
    finally:
        for b in made:
            b.close()


def warm_up(game: Game, position: Position, endgame: StoreLike | None = None) -> float:
    """Compile the search kernels an analysis of ``game`` will call (numba, once a process,
    or read from its disk cache), so that a caller timing several analyses does not count
    it: the seconds it took (0 for a Python game, or when nothing needs a search).

    >>> from perfectplay.games import connect4
    >>> game = connect4(width=4, height=4)
    >>> warm_up(game, game.initial()) >= 0
    True
    """
    if not isinstance(game, CompiledGame) or not isinstance(position, int) \
            or game.outcome(position) is not None:
        return 0.0
    check_endgame(game, endgame)
    engine = _backend(game, Limits(table_mb=1), endgame)
    try:
        return engine.warm(position, True)
    finally:
        engine.close()


def _backend(game: Game, limits: Limits, endgame: StoreLike | None) -> SearchBackend:
    if not isinstance(game, CompiledGame):
        return PythonBackend(game, limits.max_depth)
    leaf = None
    if endgame is not None:
        leaf = endgame.leaf()  # type: ignore[attr-defined]  # checked by check_endgame
        if not isinstance(leaf, sk.Leaf):
            raise GameError("endgame.leaf() did not give the search's leaves")
    return CompiledBackend(game, limits, None, leaf)


def _stream(game: Game, scored: bool, position: Position, book: StoreLike | None,
            endgame: StoreLike | None, backend: Callable[[], SearchBackend],
            limits: Limits, stop: threading.Event | None) -> Iterator[MoveReport]:
    caps = capabilities(game)
    if game.outcome(position) is not None:
        return
    moves = []
    for move in legal_moves(game, position):
        child, passes, pay = edge(game, caps, position, move)
        moves.append(_Move(move, move_name(game, move), child, passes, pay, 0, 0))
    # 1. the stores
    searched = []
    for m in moves:
        for store, source in ((book, "book"), (endgame, "store")):
            if store is not None and _from_store(m, store, scored):
                yield _report(m, scored, source)
                break
        else:
            searched.append(m)
    if not searched:
        return
    engine = backend()
    engine.warm(searched[0].child, True)  # numba compiles once a process: not timed
    run = SearchRun(game, engine, _Budget(limits, stop))  # the clock starts here
    known = _known_score(position, (book, endgame), scored)
    for m in searched:
        m.lo, m.hi = m.full = run.bounds(m.child)
        if known is not None:
            _bound_by_parent(m, known, scored)
    try:
        # 2. values
        for m in searched:
            _prove_value(run, m, scored)
            yield _report(m, scored, "search")
        # 3. remoteness
        for m in searched:
            if not m.done:
                _prove_remoteness(run, m, scored)
                yield _report(m, scored, "search")
    except Stopped:
        for m in searched:
            if not m.done:
                yield _report(m, scored, "search")


def _known_score(position: Position, stores: tuple[StoreLike | None, ...],
                 scored: bool) -> SearchScore | None:
    """The exact score of the position analysed when a store holds it though not all its
    children (an opening book's last ply), else None."""
    for store in stores:
        if store is None:
            continue
        try:
            value, rem = store.value(position), store.remoteness(position)
        except KeyError:
            continue
        return score_of(value, rem, scored)
    return None


def _bound_by_parent(m: _Move, known: SearchScore, scored: bool) -> None:
    """No move is better for its mover than the position's exact score ``known``: a bound
    on the move's child (below it when the turn passes, above it when the mover moves
    again), so its search starts inside it: the position's best moves are settled by
    one probe, and a lost position's moves need no probe for their value at all."""
    bound = child_bound(known, m.passes, m.pay, scored)
    if m.passes:
        m.lo = max(m.lo, bound)
    else:
        m.hi = min(m.hi, bound)


def _from_store(m: _Move, store: StoreLike, scored: bool) -> bool:
    """Fill ``m`` from a store that holds its child: True, else False."""
    try:
        value = store.value(m.child)
        rem = store.remoteness(m.child)
    except KeyError:
        return False
    _exact_from_child(m, value, rem, scored)
    return True


def _exact_from_child(m: _Move, value: Worth, rem: int | None, scored: bool) -> None:
    """The move's value and remoteness from its child's (the mover's terms)."""
    if scored:
        if isinstance(value, Value):  # a scored game's tie is a margin of 0
            value = 0
        m.value, r = scored_option(m.pay, value, rem or 0, m.passes)
        m.rem = None if rem is None else r
    else:
        if not isinstance(value, Value):
            raise GameError(f"a store of a win/lose game answered {show(value)}")
        m.value = value.flipped() if m.passes else value
        m.rem = None if rem is None else rem + 1
    m.done = True


def _prove_value(run: SearchRun, m: _Move, scored: bool) -> None:
    """The move's value: two null windows of a win/lose game's child (better than a tie?
    worse?), the exact margin of a scored game's; a win or loss comes with its remoteness."""
    if scored:
        lo, hi, _ = run.pin(m.child, (m.lo, m.hi))
        m.lo = m.hi = lo
        m.value = parent_score(lo, m.passes, m.pay, True)
        return
    end = run.ended(m.child)
    if end is not None or not legal_moves(run.game, m.child):
        lo, _, _ = run.pin(m.child)
        _settle(m, lo, run)
        return
    if m.child in run.exact_scores:
        _settle(m, run.exact_scores[m.child], run)
        return
    if m.lo < 1 <= m.hi:  # a win not ruled in or out yet
        s, _ = run.backend.probe(m.child, 0, 1, run.budget)
        if s >= 1:
            m.lo = max(m.lo, s)
        else:
            m.hi = min(m.hi, s)
    if m.lo <= -1 < 0 <= m.hi:  # a tie or a loss, not told apart yet
        s, _ = run.backend.probe(m.child, -1, 0, run.budget)
        if s <= -1:
            m.hi = min(m.hi, s)
        else:
            m.lo = max(m.lo, s)
    if m.lo == m.hi:
        _settle(m, m.lo, run)
        return
    child_value = Value.WIN if m.lo > 0 else Value.LOSE if m.hi < 0 else Value.TIE
    m.value = child_value.flipped() if m.passes else child_value


def _prove_remoteness(run: SearchRun, m: _Move, scored: bool) -> None:
    """The move's exact score (a few null windows more, the table warm), then a tie's or a
    margin's remoteness by the game's horizon or the walk."""
    lo, _, _ = run.pin(m.child, (m.lo, m.hi))
    m.lo = m.hi = lo
    if scored:
        rem, _ = run.remoteness(m.child, lo)
        m.value, m.rem = scored_option(m.pay, lo, rem, m.passes)
        m.done = True
        return
    _settle(m, lo, run)


def _settle(m: _Move, s: SearchScore, run: SearchRun) -> None:
    """A win/lose game's move from its child's exact score ``s``."""
    m.lo = m.hi = s
    value, rem = value_of(parent_score(s, m.passes, m.pay, False), False)
    if rem is None:
        rem = run.remoteness(m.child, s)[0] + 1
    m.value, m.rem, m.done = value, rem, True


def _report(m: _Move, scored: bool, source: str) -> MoveReport:
    if m.done and scored:
        lo = hi = score_words(m.value, True)  # type: ignore[arg-type]  # a margin
    else:
        ends = sorted([(parent_score(m.lo, m.passes, m.pay, scored), m.lo == m.full[0]),
                       (parent_score(m.hi, m.passes, m.pay, scored), m.hi == m.full[1])],
                      key=lambda end: end[0])
        # a bound nothing has moved yet is said as "nothing proven" words (bound_words')
        lo = TRIVIAL_LOWER[scored] if ends[0][1] else score_words(ends[0][0], scored)
        hi = TRIVIAL_UPPER[scored] if ends[1][1] else score_words(ends[1][0], scored)
        if m.done and not scored:
            lo = hi = describe(m.value, m.rem) if m.value is not None else lo
    return MoveReport(move=m.move, name=m.name, value=m.value, remoteness=m.rem, lower=lo,
                      upper=hi, exact=m.done, source=source)


class LiveOracle(Solved):
    """The engine's read interface (:class:`~perfectplay.engine.Solved`) over any position
    of a game too big to solve: a position or move the ``book`` (or ``endgame`` store)
    holds is read, any other is searched live (:func:`analyze_moves`, one table kept
    across the game), and every answer is kept. What ``perfectplay play`` plays standard
    Connect Four with; each answer is exact (no time limit), so a deep position may take
    the search's time. ``limits`` (or ``table_mb`` and ``workers``): the searches' table
    and threads (:class:`~perfectplay.engine.proof.limits.Limits`; a time or node limit is
    refused, a LimitError).

    >>> class Take:  # take 1 or 2 from a heap of 5; who cannot move loses
    ...     def initial(self): return 5
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> oracle = LiveOracle(Take())
    >>> oracle.value(), oracle.remoteness(), [m.describe() for m in oracle.move_values()]
    (<Value.WIN: 'win'>, 3, ['win in 3', 'lose in 4'])
    """

    def __init__(self, game: Game, *, book: StoreLike | None = None,
                 endgame: StoreLike | None = None, limits: Limits | None = None,
                 table_mb: float | None = None, workers: int | None = None) -> None:
        self.game = game
        self.book, self.endgame = book, endgame
        #: the searches' limits (``limits``, with ``table_mb`` and ``workers`` put in):
        #: no time or node limit, as every answer is exact
        self.limits = Limits.given(limits, table_mb=table_mb, workers=workers)
        if self.limits.time_limit is not None or self.limits.node_limit is not None:
            raise LimitError("a LiveOracle's answers are exact: its limits take no "
                             "time_limit or node_limit")
        self._scored = capabilities(game).scored
        self._moves: dict[Position, list[MoveValue]] = {}
        self._values: dict[Position, tuple[Worth, int | None]] = {}

    @property
    def scored(self) -> bool:
        return self._scored

    def _entry(self, pos: Position) -> tuple[Worth, int | None]:
        if pos in self._values:
            return self._values[pos]
        got: tuple[Worth, int | None] | None = None
        for store in (self.book, self.endgame):
            if store is not None and got is None:
                with contextlib.suppress(KeyError):
                    got = store.value(pos), store.remoteness(pos)
        if got is None:
            end = self.game.outcome(pos)
            moves = self.move_values(pos)
            if end is not None:  # a scored game's tie is a margin of 0
                got = (0 if self.scored and isinstance(end, Value) else end), 0
            elif not moves:
                got = (0 if self.scored else Value.LOSE), 0
            else:
                got = moves[0].value, moves[0].remoteness
        self._values[pos] = got
        return got

    def move_values(self, pos: Position | None = None) -> list[MoveValue]:
        """Every move from ``pos`` with the value and remoteness it gives its mover, best
        first (equal ones in the game's order), proven live where no store holds them."""
        here = self._here(pos)
        if here not in self._moves:
            last: dict[Move, MoveReport] = {}
            for r in analyze_moves(self.game, here, book=self.book, endgame=self.endgame,
                                   limits=self.limits):
                last[r.move] = r
            out = [MoveValue(r.move, r.value, r.remoteness) for r in last.values()
                   if r.value is not None]
            if len(out) != len(last):  # cannot happen without a time limit or a stop
                raise GameError("the live analysis stopped before every move was proven")
            out.sort(key=lambda mv: Score(mv.value, mv.remoteness).key, reverse=True)
            self._moves[here] = out
        return self._moves[here]

    def counts(self) -> Counts:
        raise InputError("a live analysis cannot count the positions of the game")

    def _summary(self) -> list[str]:
        return ["answers come from the book where it holds them, else from live search"]
