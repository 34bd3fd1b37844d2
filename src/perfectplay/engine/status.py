"""The status codes every compiled kernel returns, and the one function that turns a status
into the project's exception.

A kernel cannot raise (numba's exceptions carry no message worth showing, and a thread of a
parallel kernel cannot stop the others), so it returns a :class:`Status` with the code of the
position where things went wrong; the driver in Python then calls :func:`raise_status` (or
:func:`status_error`), which names the problem in words, with the game's name. One code means
one thing everywhere: discovery, the tier solvers, the store's solvers and proof search all
return these values, so a status passed from one kernel to another driver still reads right.

The kernels use the module-level ints (``OK``, ``BAD_MOVE_COUNT``, ...), which numba folds as
constants exactly as it did the old ``range(8)`` names; they are derived from the enum, so
the values are written once. Values are never reused or renumbered: numba's on-disk cache of
a kernel does not notice a change in another module's constant.

>>> Status(BAD_PLAYER).name, int(Status.BAD_PLAYER) == BAD_PLAYER
('BAD_PLAYER', True)
>>> class Tiny:
...     name, max_moves = "Tiny", 3
>>> str(status_error(BAD_MOVE_COUNT, 7, Tiny()))
'Tiny: moves(7) returned a count outside 0..max_moves (3)'
>>> type(status_error(TOO_DEEP, 7, Tiny(), max_depth=50)).__name__
'LimitError'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Protocol

from ..errors import GameError, LimitError, PerfectplayError, show


class Status(IntEnum):
    """What a compiled kernel says about its run: OK, or why it stopped."""

    OK = 0
    #: proof search only: the node budget ran out or another thread asked it to stop
    #: (nothing is wrong; the driver's budget decides what follows)
    ABORTED = 1
    #: proof search: a line deeper than ``max_depth``
    TOO_DEEP = 2
    #: proof search: a line repeats a position (a game without ``tier``)
    CYCLE = 3
    #: discovery: more positions than ``max_positions``
    TOO_MANY_POSITIONS = 4
    #: ``moves`` returned a count outside 0..max_moves
    BAD_MOVE_COUNT = 5
    #: proof search: ``moves`` or ``search_moves`` returned a count outside 0..max_moves, or
    #: ``search_moves`` listed no move where ``moves`` has some
    BAD_SEARCH_MOVES = 6
    #: ``outcome`` is not ONGOING, WIN, LOSE or TIE (or proof search's walk found no move
    #: keeping a proven score: the rules changed)
    BAD_OUTCOME = 7
    #: ``player`` is not 0 or 1
    BAD_PLAYER = 8
    #: a move leads to code -2**63, which marks an empty slot
    BAD_CODE = 9
    #: a move of a tiered game does not go to a strictly higher tier
    BAD_TIER = 10
    #: a point margin overflows int64 (the solvers)
    OVERFLOW = 11
    #: proof search: a margin beyond the widest its scores hold (``proof.kernel.LIMIT``)
    BEYOND_LIMIT = 12
    #: a cyclic (cost) game's payoff has the wrong sign for its player (the int64 label
    #: setting; the exact Python one then words it with the move)
    BAD_PAYOFF_SIGN = 13


# The values as plain ints for the kernels (numba folds module globals as constants).
OK = int(Status.OK)
ABORTED = int(Status.ABORTED)
TOO_DEEP = int(Status.TOO_DEEP)
CYCLE = int(Status.CYCLE)
TOO_MANY_POSITIONS = int(Status.TOO_MANY_POSITIONS)
BAD_MOVE_COUNT = int(Status.BAD_MOVE_COUNT)
BAD_SEARCH_MOVES = int(Status.BAD_SEARCH_MOVES)
BAD_OUTCOME = int(Status.BAD_OUTCOME)
BAD_PLAYER = int(Status.BAD_PLAYER)
BAD_CODE = int(Status.BAD_CODE)
BAD_TIER = int(Status.BAD_TIER)
OVERFLOW = int(Status.OVERFLOW)
BEYOND_LIMIT = int(Status.BEYOND_LIMIT)
BAD_PAYOFF_SIGN = int(Status.BAD_PAYOFF_SIGN)


class NamedGame(Protocol):
    """What a message needs of the game: its name and its bound on moves (a
    :class:`~perfectplay.engine.compiled.game.CompiledGame`)."""

    @property
    def name(self) -> str: ...

    @property
    def max_moves(self) -> int: ...


def cycle_error(pos: object) -> GameError:
    """The error of a line of play that repeats ``pos`` (proof search, either backend)."""
    return GameError(f"position {show(pos)} repeats along a line of play: proof search takes "
                     "acyclic games only (a game that defines tier is); use solve, which "
                     "certifies draws in cyclic games")


def status_error(status: int, code: int, game: NamedGame, *, limit: int = 0,
                 max_depth: int = 0) -> PerfectplayError:
    """The exception for a kernel's error ``status`` at the position of code ``code``:
    a :class:`LimitError` for a limit the caller chose, else a :class:`GameError` naming the
    game and what its rules did. ``limit`` is the bound the kernel ran under (discovery:
    ``max_positions``; proof search: the widest margin its scores hold), ``max_depth`` proof
    search's deepest line.
    OK and ABORTED are not errors (a ValueError: the caller checks them first)."""
    try:
        known = Status(status)
    except ValueError:
        return GameError(f"{game.name}: status {status} at {code}")
    if known in (Status.OK, Status.ABORTED):
        raise ValueError(f"{known.name} is not an error")
    if known is Status.TOO_MANY_POSITIONS:
        return LimitError(f"more than {limit:,} positions; raise max_positions if the memory "
                          "allows")
    if known is Status.TOO_DEEP:
        return LimitError(f"a line deeper than {max_depth:,} plies (at {code}); raise "
                          "max_depth")
    if known is Status.CYCLE:
        return cycle_error(code)
    what = {
        Status.BAD_MOVE_COUNT: f"moves({code}) returned a count outside 0..max_moves "
                               f"({game.max_moves})",
        Status.BAD_SEARCH_MOVES: f"moves or search_moves({code}) returned a count outside "
                                 f"0..max_moves ({game.max_moves}), or search_moves listed "
                                 "no move where moves has some",
        Status.BAD_OUTCOME: f"outcome({code}) is not 0 (ONGOING), 1 (WIN), 2 (LOSE) or 3 "
                            "(TIE)",
        Status.BAD_PLAYER: f"player({code}) is not 0 or 1",
        Status.BAD_CODE: f"a move from {code} leads to code -2**63, which cannot be a "
                         "position",
        Status.BAD_TIER: f"a move from {code} does not go to a strictly higher tier",
        Status.OVERFLOW: f"the point margin at {code} overflows int64",
        Status.BEYOND_LIMIT: f"a margin at {code} is beyond +-{limit:,}, more than "
                             "proof search's table holds; use solve",
        Status.BAD_PAYOFF_SIGN: f"the payoff of move {code} has the wrong sign for a cost "
                                "game (one player's payoffs all <= 0, the other's >= 0)",
    }[known]
    return GameError(f"{game.name}: {what}")


def raise_status(status: int, code: int, game: NamedGame, limit: int = 0, *,
                 max_depth: int = 0) -> None:
    """Nothing when ``status`` is OK, else raise :func:`status_error`'s exception."""
    if status != OK:
        raise status_error(status, code, game, limit=limit, max_depth=max_depth)
