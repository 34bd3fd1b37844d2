"""Closing the Portal's answers as data: the winner, how it was found, the safe and cut
cells, and the result :func:`~perfectplay.portal.analyze` returns (its text comes from
:mod:`.render`, which reads it through its own protocol and never imports this module; the
winner, the method and the safe moves live in :mod:`.model`, below both).

>>> from perfectplay import portal
>>> res = portal.analyze(portal.parse("O..\\n.#.\\n..O"))
>>> res.winner, res.method, res.turns
(<Winner.ALIF: 'Alif'>, <Method.PARITY: 'parity'>, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import InputError
from ..notebook import HTMLView
from ..seedrun import SeedRun
from . import render
from .model import ALIF, BELLA, Board, Method, SafeMoves, Winner

__all__ = ["ALIF", "BELLA", "Method", "PortalResult", "SafeMoves", "Winner"]


@dataclass(frozen=True)
class PortalResult(HTMLView):
    """Who wins and why, for one board; ``draw()`` and the safe and cut cells come from
    ``split`` (the solver's :func:`~perfectplay.portal.safe_moves`) on first use."""

    winner: Winner
    connected: bool
    empty: int
    path: list[int]
    turns: int | None  # safe moves if the game ends on ``path``; its parity is every game's
    method: Method
    grundy: int | None = None
    free_cells: int | None = None
    # proof search (Method.SEARCH): the cells on some portal path, the positions searched,
    # the seconds, and the first player's winning cells (empty when the first player loses)
    core_cells: int | None = None
    nodes: int | None = None
    seconds: float | None = None
    winning: list[int] | None = None
    unchecked: list[int] | None = None  # first moves the time limit left unproven
    seed: SeedRun | None = None  # the seed's method as run (method="seed")
    names: dict[int, str] = field(default_factory=dict, repr=False)
    board: Board | None = field(default=None, repr=False, compare=False)
    # how the safe and cut cells are found (the solver's safe_moves), called on first use
    split: Callable[[Board], SafeMoves] | None = field(default=None, repr=False,
                                                        compare=False)

    def _name(self, cell: int) -> str:
        return self.board.name(cell) if self.board is not None else str(cell)

    @property
    def path_cells(self) -> int:
        return len(self.path)

    @cached_property
    def moves(self) -> SafeMoves:
        """The safe and the cut cells (O(cells * k), computed once)."""
        if self.board is None or self.split is None:
            raise InputError("this result was made without its board")
        return self.split(self.board)

    def draw(self, style: bool = False) -> str:
        """The board with cut cells X, the path *, coordinates (see :func:`.render.draw`)."""
        return "" if self.board is None else render.draw(self.board, self.moves, style)

    def explain(self) -> str:
        """The argument, with this board's numbers (see :func:`.render.explain`)."""
        return render.explain(self)

    def summary(self) -> str:
        """The cut cells in words (the line under the explanation)."""
        return render.summary(self)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": str(self.winner), "connected": self.connected, "empty": self.empty,
            "path": [self.names.get(c, c) for c in self.path], "path_cells": self.path_cells,
            "turns": self.turns, "method": str(self.method), "grundy": self.grundy,
            "free_cells": self.free_cells, "explanation": self.explain(),
        }
        if self.method == Method.SEARCH:
            data.update(core_cells=self.core_cells, nodes=self.nodes, seconds=self.seconds,
                        winning_moves=[self._name(c) for c in self.winning or []],
                        unchecked_moves=[self._name(c) for c in self.unchecked or []])
        if self.seed is not None:
            data["seed"] = self.seed.to_json()
        if self.board is not None:
            data["safe"] = [self.board.name(int(c)) for c in self.moves.safe]
            data["cut"] = [self.board.name(c) for c in self.moves.cut]
        return data
