"""The solved row as data: the value, the first move, the line, the strategies, the seed's
tables, and the result that holds them (what the CLI, play, the pictures and the web page
render). Its text comes from :mod:`.render`, which reads it through its own protocol and
never imports this module; the value, the turns and the strategies live in :mod:`.model`.

>>> from perfectplay import coins
>>> res = coins.analyze([7, 9, 2, 6, 4, 3], line=True)
>>> res.value.first, res.first_move, [t.side for t in res.line][:3]
(18, 'R', ['R', 'R', 'R'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..notebook import HTMLView
from ..seedrun import SeedRun
from . import render
from .model import CoinsValue, StrategyReport, Turn

__all__ = ["CoinsResult", "CoinsValue", "StrategyReport", "Turn"]


@dataclass(frozen=True)
class CoinsResult(HTMLView):
    """A row solved: the value, the perfect first move (``"L"``, ``"R"``, None for no
    coins) and, when asked for, the optimal line, the strategy comparison and the seed's
    P/m tables (1-based, as the seed prints them)."""

    row: tuple[int, ...]
    value: CoinsValue
    first_move: str | None
    line: list[Turn] | None = None
    strategies: StrategyReport | None = None
    table: tuple[list[list[int | None]], list[list[str | None]]] | None = None
    seed: SeedRun | None = None  # the seed's method as run (method="seed")

    def explain(self) -> str:
        """Sentences a learner reads: the value and the first move, then the line of play
        and the strategy comparison when they were computed."""
        return render.explain(self)

    def draw(self, style: bool = False) -> str:
        """The seed's P/m table when it was computed; else the row with the perfect first
        move marked (``style``: rich markup)."""
        return render.draw(self, style)

    def to_json(self) -> dict[str, Any]:
        """Numbers as JSON numbers; the parts not computed are left out."""
        data: dict[str, Any] = {"row": list(self.row), "value": self.value.to_json(),
                                "first_move": self.first_move}
        if self.line is not None:
            data["line"] = [{"player": t.player, "side": t.side, "coin": t.coin,
                             "first_total": t.first_total, "second_total": t.second_total}
                            for t in self.line]
        if self.strategies is not None:
            data["strategies"] = self.strategies.to_json()
        if self.table is not None:
            n = len(self.row)
            P, m = self.table
            data["table"] = {"P": [r[1:n + 1] for r in P[1:n + 1]],
                             "m": [r[1:n + 1] for r in m[1:n + 1]]}
        if self.seed is not None:
            data["seed"] = self.seed.to_json()
        return data
