"""Values of Closing the Portal position by position, for play on boards too big for the
engine's full solution: the oracle :mod:`perfectplay.play` asks for every position's
value. Each position is answered by :func:`~perfectplay.portal.analyze` on the board with
that game's walls: the parity rule, the Grundy table or proof search."""

from __future__ import annotations

from typing import Any, cast

from ..engine import MoveValue, Value
from ..engine.solved.solution import Solved, winlose_key
from ..errors import PerfectplayError
from .model import ALIF, KindName, PortalOptions
from .rules import PortalGame
from .solver import analyze


class PortalOracle(Solved):
    """Values of Closing the Portal for boards too big for the engine's full solution: a
    position (the set of walled cells, as in :class:`~perfectplay.portal.PortalGame`) is
    the board with those walls, and the mover is its first player, so
    :func:`~perfectplay.portal.analyze` (with ``options``: the method, the search's time)
    says who wins; answers are kept. On a bipartite board the mover wins exactly when the
    number of safe moves left is odd. The exact remoteness is known only for a cut move (a
    loss in 1); other remoteness is reported as unknown (None) rather than guessed."""

    game: PortalGame

    def __init__(self, game: PortalGame, options: PortalOptions | None = None) -> None:
        self.game = game
        self.options = options or PortalOptions(kind=cast(KindName, game.board.kind.value))
        self._known: dict[int, bool] = {}

    @property
    def scored(self) -> bool:
        return False

    def _entry(self, walls: Any) -> tuple[Any, int | None]:
        return self.value(walls), self.remoteness(walls)

    def counts(self) -> Any:
        raise PerfectplayError("the parity oracle answers position by position; it does "
                               "not enumerate the positions to count them")

    def _mover_wins(self, walls: int) -> bool:
        if walls not in self._known:
            board = self.game.board.with_walls([c for k, c in enumerate(self.game.cells)
                                                if walls >> k & 1])
            self._known[walls] = analyze(board, self.options).winner == ALIF
        return self._known[walls]

    def value(self, walls: Any = None) -> Value:
        walls = self.start if walls is None else walls
        out = self.game.outcome(walls)
        if out is not None:
            return out
        return Value.WIN if self._mover_wins(walls) else Value.LOSE

    def remoteness(self, walls: Any = None) -> int | None:
        walls = self.start if walls is None else walls
        return 0 if self.game.outcome(walls) is not None else None

    def move_values(self, walls: Any = None) -> list[MoveValue]:
        walls = self.start if walls is None else walls
        out = []
        for m in self.game.moves(walls):
            child = self.game.play(walls, m)
            ends = self.game.outcome(child) is not None  # a cut: lost at once
            out.append(MoveValue(m, self.value(child).flipped(), 1 if ends else None))
        # wins first; among losses, safe moves (unknown, longer) before cuts (loss in 1)
        out.sort(key=lambda mv: (winlose_key(cast(Value, mv.value), 0)[0], mv.remoteness is None),
                 reverse=True)
        return out
