"""Values of Closing the Portal from the parity rule, for play on boards too big for
exhaustive search: the oracle :mod:`perfectplay.play` asks for every position's value."""

from __future__ import annotations

from typing import Any

from ..engine import MoveValue, Value
from ..engine.solution import Solved, winlose_key
from ..errors import PerfectplayError
from .solver import solve


class PortalOracle(Solved):
    """Values of Closing the Portal from the fast rule, for boards too big for exhaustive
    search (bipartite boards only): the mover wins exactly when the number of safe moves
    left is odd. That number depends on which final path survives, which both sides steer,
    so the exact remoteness is known only for a cut move (a loss in 1); other remoteness is
    reported as unknown (None) rather than guessed. A position is the set of walled cells,
    as in :class:`~perfectplay.portal.PortalGame`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @property
    def scored(self) -> bool:
        return False

    def _entry(self, walls: Any) -> tuple[Any, int | None]:
        return self.value(walls), self.remoteness(walls)

    def counts(self) -> Any:
        raise PerfectplayError("the parity oracle answers position by position; it does "
                               "not enumerate the positions to count them")

    def _turns(self, walls: int) -> int | None:
        board = self.game.board.with_walls([c for k, c in enumerate(self.game.cells)
                                            if walls >> k & 1])
        res = solve(board)
        return res.turns if res.connected else None

    def value(self, walls: Any = None) -> Value:
        walls = self.start if walls is None else walls
        out = self.game.outcome(walls)
        if out is not None:
            return out
        return Value.WIN if self._turns(walls) % 2 else Value.LOSE  # type: ignore[operator]

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
        out.sort(key=lambda mv: (winlose_key(mv.value, 0)[0], mv.remoteness is None),
                 reverse=True)
        return out
