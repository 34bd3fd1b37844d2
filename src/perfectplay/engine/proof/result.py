"""What proof search proved: :class:`SearchResult`, and search scores in words.

A search score packs a value and its remoteness into one number (see
:mod:`perfectplay.engine.proof.kernel`: a win in r plies scores ``MATE - r``, a loss
``-(MATE - r)``, a tie 0; a scored game's score is its point margin). :func:`score_words`
says one as the engine does ("win in 3", "tie", "+4"), :func:`value_of` turns an exact one
back into a value and remoteness.

>>> score_words(MATE - 3, False), score_words(0, False), score_words(4, True)
('win in 3', 'tie', '+4')
>>> value_of(-(MATE - 8), False)
(<Value.LOSE: 'lose'>, 8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ...errors import GameError, show
from ...notebook import HTMLView
from ..protocol import Game, Move, Position, Value, Worth, capabilities
from ..solved import game_picture, move_lines, position_json
from ..values import MoveValue, describe
from .pysearch import INF, MATE, SearchScore


@dataclass
class SearchResult(HTMLView):
    """What :func:`~perfectplay.engine.proof.driver.search` proved about one position.

    ``value`` is the value for the player to move (a :class:`Value`, or the point margin in a
    scored game) and ``remoteness`` the plies to the end under perfect play, both None when
    the search stopped before proving them (then ``exact`` is False and ``lower`` and
    ``upper`` say what was proven: the value lies between them, as words).
    """

    game: Game
    position: Position
    value: Worth | None
    remoteness: int | None
    best_move: Move | None
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
    compile_seconds: float = 0.0  # numba compiling the kernels, before the clock started
    #: the nodes that went on to search two or more moves (and each probe's root that
    #: searched its moves): the count to set
    #: beside Steininger's c4, which plays forced moves and reads ended games and table
    #: cut-offs without counting a node (``nodes`` counts every position entered)
    branching: int = 0
    #: where the position comes from, for the header: "after 4,4,3; the second player to
    #: move" (the command line fills it in; empty: the position's own words)
    where: str = ""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        """The value in words: 'win in 41', or the proven bounds when not exact."""
        if self.value is not None and self.remoteness is not None:
            return describe(self.value, self.remoteness)
        if self.value is not None:
            return f"{describe(self.value, None)} (remoteness not proven)"
        return f"not proven yet: {bound_words(self.lower, self.upper)}"

    def explain(self) -> str:
        """The position's value, best move, every move (with ``analyze``) and the search's
        statistics, in words."""
        where = self.where or f"position {show(self.position)}"
        lines = [f"search: {capabilities(self.game).name}, {where}",
                 f"value: {self.describe()}" + ("" if self.exact else "  [NOT EXACT]")]
        if self.stopped:
            lines.append(f"stopped by: {self.stopped} (what is shown is proven; the rest is "
                         "not)")
        if self.best_move is None and not self.exact:
            lines.append("best move: not proven yet")
        else:
            lines += move_lines(self.game, self.best_move, self.moves or [])
        lines.append(f"nodes: {self.nodes:,} in {self.seconds:.2f} s "
                     f"({self.nodes_per_second:,.0f} nodes/s; {self.branching:,} of them "
                     f"chose among moves), {self.probes} null-window "
                     f"searches, {self.workers} worker{'s' if self.workers > 1 else ''} "
                     f"({self.backend})")
        if self.compile_seconds >= 0.05:
            lines.append(f"compiling: {self.compile_seconds:.2f} s before the search (numba's "
                         "first compile, or reading it from its disk cache)")
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
        data = position_json(self.game, self.position, self.value, self.remoteness, self.best_move,
                             self.moves or [])
        return {
            **data, "moves": None if self.moves is None else data["moves"],
            "exact": self.exact, "lower": self.lower, "upper": self.upper,
            "nodes": self.nodes, "branching": self.branching,
            "seconds": round(self.seconds, 4),
            "nodes_per_second": round(self.nodes_per_second), "probes": self.probes,
            "workers": self.workers, "backend": self.backend, "table": self.table,
            "stopped": self.stopped, "note": self.note,
            "compile_seconds": round(self.compile_seconds, 4),
        }


#: The bounds every position starts with, in words: proving them says nothing.
TRIVIAL_LOWER = ("lose in 1", "-inf")
TRIVIAL_UPPER = ("win in 1", "+inf")


def bound_words(lower: str, upper: str) -> str:
    """What a stopped search proved, for people: "nothing is proven of its value", "at
    least a tie", "at most lose in 12", or "between tie and win in 9".

    >>> bound_words("tie", "win in 1")
    'at least tie'
    """
    if lower in TRIVIAL_LOWER and upper in TRIVIAL_UPPER:
        return "nothing is proven of its value"
    if upper in TRIVIAL_UPPER:
        return f"at least {lower}"
    if lower in TRIVIAL_LOWER:
        return f"at most {upper}"
    return f"between {lower} and {upper}"


def window_words(alpha: SearchScore, beta: SearchScore, scored: bool) -> str:
    """The question a null-window probe asks, for progress lines: "better than tie?"
    rather than the window's raw bounds (a win's bound in a null window is a sentinel
    such as 'win in 524287').

    >>> window_words(0, 1, False)
    'is it better than a tie?'
    """
    if not scored and beta == alpha + 1:
        if alpha == 0:
            return "is it better than a tie?"
        if alpha == -1:
            return "is it at least a tie?"
        return f"is it better than {score_words(alpha, scored)}?"
    if scored and beta == alpha + 1:
        return f"is the margin above {score_words(alpha, scored)}?"
    return f"is it between {score_words(alpha, scored)} and {score_words(beta, scored)}?"


def score_words(s: SearchScore, scored: bool) -> str:
    """A score as the engine says it: 'win in 3', 'tie', '+4' ('+inf'/'-inf': no bound)."""
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


def score_of(value: Worth, remoteness: int | None, scored: bool) -> SearchScore | None:
    """The search's exact score of a value and remoteness (what a store holds), the
    inverse of :func:`value_of`: a win in r is MATE - r, a loss in r -(MATE - r), a tie 0,
    a margin itself; None for a win or loss without its remoteness.

    >>> score_of(Value.TIE, 12, False), score_of(Value.WIN, 3, False) == MATE - 3
    (0, True)
    """
    if scored:
        return 0 if isinstance(value, Value) else value
    if not isinstance(value, Value):
        raise GameError(f"a store of a win/lose game answered {show(value)}")
    if value is Value.TIE:
        return 0
    if remoteness is None:
        return None
    return MATE - remoteness if value is Value.WIN else -(MATE - remoteness)


def value_of(s: SearchScore, scored: bool) -> tuple[Worth, int | None]:
    """(value, remoteness) of an exact score; a tie's or a margin's remoteness is None (it
    needs its own pass)."""
    if scored:
        return s, None
    if s > 0:
        return Value.WIN, int(MATE - s)
    if s < 0:
        return Value.LOSE, int(MATE + s)
    return Value.TIE, None
