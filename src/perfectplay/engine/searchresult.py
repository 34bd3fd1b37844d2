"""What proof search proved: :class:`SearchResult`, and search scores in words.

A search score packs a value and its remoteness into one number (see
:mod:`perfectplay.engine.searchkernel`: a win in r plies scores ``MATE - r``, a loss
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

from ..errors import show
from ..notebook import HTMLView
from .protocol import Game, Move, Position, Value, Worth, capabilities
from .searchkernel import INF, MATE
from .solution import game_picture, move_lines, position_json
from .values import MoveValue, describe

#: A search score: an int (a kernel's, or a Python game's win/lose or integer margin) or a
#: float (a Python game's margins that need not be integers; +-inf for "no bound").
SearchScore = int | float


@dataclass
class SearchResult(HTMLView):
    """What :func:`~perfectplay.engine.search.search` proved about one position.

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
        lines = [f"search: {capabilities(self.game).name}, position {show(self.position)}",
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
