"""What a game is, to the engine: the :class:`Game` protocol and the :class:`Value` of a position.

A game is any object with four methods (and two optional ones):

- ``initial()`` -> the start position. Positions must be hashable, immutable, and equal when
  rebuilt the same way (tuples, ints, frozensets, frozen dataclasses).
- ``moves(pos)`` -> an iterable of moves (any objects; the engine returns them to you).
- ``play(pos, move)`` -> the next position.
- ``outcome(pos)`` -> ``None`` while the game goes on, else the result *for the player to move
  at* ``pos``: ``Value.WIN``, ``Value.LOSE`` or ``Value.TIE`` (or, in a scored game, a number:
  the final points for the player to move).
- optional ``payoff(pos, move)`` -> the points the mover scores with ``move``. A game with
  ``payoff`` is *scored*: the engine's value is then the best guaranteed point margin.
- optional ``player(pos)`` -> 0 or 1, who moves at ``pos``. Without it the engine assumes every
  move passes the turn, the usual case.
- optional ``step(pos, move)`` -> ``(play(pos, move), payoff(pos, move))`` in one call, for a
  scored game whose child and points come from the same work (Kalah's sowing); the engine's
  discovery then calls it instead of the two (``check_game`` checks that they agree).

**Whose turn it is.** The engine reads a position's value as "for the player to move", so the
position must determine who that is. In a partizan game (the players have different moves:
tic-tac-toe's X and O) the position must contain the turn, or the game must define ``player``.
Impartial games (Nim) need neither. :func:`perfectplay.engine.check_game` warns when a position
is reached after both an even and an odd number of moves, the visible symptom of a missing turn.

A non-terminal position with no moves is a loss for the player to move (normal play).
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable
from typing import Any, Protocol, runtime_checkable


class Value(enum.Enum):
    """The game-theoretic value of a position, for the player to move.

    ``DRAW`` means play goes on forever under perfect play (certified on cyclic games); ``TIE``
    means the game ends level.

    >>> Value.WIN.flipped()
    <Value.LOSE: 'lose'>
    """

    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    DRAW = "draw"

    def flipped(self) -> Value:
        """The same position seen by the other player."""
        return _FLIP[self]

    @property
    def code(self) -> int:
        return _CODE[self]

    @staticmethod
    def from_code(code: int) -> Value:
        return _FROM_CODE[int(code)]


_FLIP = {Value.WIN: Value.LOSE, Value.LOSE: Value.WIN, Value.TIE: Value.TIE,
         Value.DRAW: Value.DRAW}
# Codes used in the engine's arrays: 0 = not yet known.
UNKNOWN, WIN_CODE, LOSE_CODE, TIE_CODE, DRAW_CODE = 0, 1, 2, 3, 4
_CODE = {Value.WIN: WIN_CODE, Value.LOSE: LOSE_CODE, Value.TIE: TIE_CODE,
         Value.DRAW: DRAW_CODE}
_FROM_CODE = {v: k for k, v in _CODE.items()}

Position = Hashable
Move = Any


@runtime_checkable
class Game(Protocol):
    """The protocol a user-defined game follows (see the module docstring)."""

    def initial(self) -> Position: ...

    def moves(self, pos: Position) -> Iterable[Move]: ...

    def play(self, pos: Position, move: Move) -> Position: ...

    def outcome(self, pos: Position) -> Value | float | int | None: ...


def stepper(game: object) -> Any:
    """The game's ``step(pos, move) -> (child, points)`` when it is scored and has one, else
    None (the engine then calls ``play`` and ``payoff``)."""
    step = getattr(game, "step", None)
    return step if callable(step) and is_scored(game) else None


def is_scored(game: object) -> bool:
    """True when the game defines ``payoff`` (values are point margins, not win/lose)."""
    return callable(getattr(game, "payoff", None))


def has_player(game: object) -> bool:
    """True when the game says who moves (``player(pos)``) instead of strict alternation."""
    return callable(getattr(game, "player", None))
