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
- optional ``outcome_after(pos, move, child)`` -> ``outcome(child)``, told the move just
  played so the rules look only at what it changed (Connect Four: the lines through the new
  piece, not every line). Discovery of a win/lose game with object positions asks it of each
  new child instead of ``outcome`` (the start position still asks ``outcome``);
  ``check_game`` checks that the two agree.

**Whose turn it is.** The engine reads a position's value as "for the player to move", so the
position must determine who that is. In a partizan game (the players have different moves:
tic-tac-toe's X and O) the position must contain the turn, or the game must define ``player``.
Impartial games (Nim) need neither. :func:`perfectplay.engine.check_game` warns when a position
is reached after both an even and an odd number of moves, the visible symptom of a missing turn.

A non-terminal position with no moves is a loss for the player to move (normal play).
"""

from __future__ import annotations

import enum
import functools
import sys
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

from ..errors import show


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

    def __str__(self) -> str:
        """The value as a person says it (``print(Value.WIN)`` shows ``win``); the repr
        stays Python's, ``<Value.WIN: 'win'>``.

        >>> print(Value.WIN, f"{Value.TIE}")
        win tie
        """
        return str(self.value)

    def flipped(self) -> Value:
        """The same position seen by the other player.

        :returns: LOSE for WIN, WIN for LOSE; TIE and DRAW stay as they are.
        """
        return _FLIP[self]

    @property
    def code(self) -> int:
        """The value's code in the engine's arrays (1 win, 2 lose, 3 tie, 4 draw; 0 is
        "not yet known")."""
        return _CODE[self]

    @staticmethod
    def from_code(code: int) -> Value:
        """The value an engine array's code stands for (see :attr:`code`).

        :param code: 1, 2, 3 or 4.
        :returns: the :class:`Value`.
        :raises KeyError: any other code (0, "not yet known", included).
        """
        return _FROM_CODE[int(code)]


_FLIP = {Value.WIN: Value.LOSE, Value.LOSE: Value.WIN, Value.TIE: Value.TIE,
         Value.DRAW: Value.DRAW}
# Codes used in the engine's arrays: 0 = not yet known.
UNKNOWN, WIN_CODE, LOSE_CODE, TIE_CODE, DRAW_CODE = 0, 1, 2, 3, 4
#: ``static_bounds``' flags, what is known of a position without search: the mover cannot
#: win, cannot lose, must lose (a loss within the horizon; scored: a margin below 0); and,
#: in win/lose games only, exact results: the mover wins with its next move (a win in 1),
#: or loses in 2 whatever it plays (Connect Four: two threats, or only moves under one);
#: or, when neither, that it wins no sooner than in 3 plies and loses no sooner than in 4.
CANNOT_WIN, CANNOT_LOSE, MUST_LOSE, WINS_IN_1, LOSES_IN_2, NOT_SOONER = 1, 2, 4, 8, 16, 32
#: The flags by name, in bit order: the one list that messages, checks and tests read.
BOUND_FLAGS: dict[str, int] = {"CANNOT_WIN": CANNOT_WIN, "CANNOT_LOSE": CANNOT_LOSE,
                               "MUST_LOSE": MUST_LOSE, "WINS_IN_1": WINS_IN_1,
                               "LOSES_IN_2": LOSES_IN_2, "NOT_SOONER": NOT_SOONER}
_CODE = {Value.WIN: WIN_CODE, Value.LOSE: LOSE_CODE, Value.TIE: TIE_CODE,
         Value.DRAW: DRAW_CODE}
_FROM_CODE = {v: k for k, v in _CODE.items()}

#: A position: any hashable, immutable value (a user's own type; the engine only hashes it).
Position: TypeAlias = Hashable
#: A move: any value the game's ``moves`` yields (the engine hands it back unchanged).
Move: TypeAlias = Any
#: What ``outcome`` says: None while play goes on, a :class:`Value` (win/lose/tie for the
#: mover) or, in a scored game, the mover's final points.
Outcome: TypeAlias = "Value | int | float | None"
#: The value of a position for the player to move: a :class:`Value`, or a point margin.
Worth: TypeAlias = "Value | int | float"


P = TypeVar("P", bound=Hashable)  # a game's position type
M = TypeVar("M")  # a game's move type


@runtime_checkable
class Game(Protocol[P, M]):
    """The protocol a user-defined game follows (see the module docstring).

    Generic in the game's position type ``P`` and move type ``M``: a game whose positions
    are strings and moves ints is a ``Game[str, int]``; a bare ``Game`` takes any game.
    """

    def initial(self) -> P:
        """The start position.

        :returns: a hashable, immutable position (whose turn it is belongs in it, not on
            the game object).
        """
        ...

    def moves(self, pos: P) -> Iterable[M]:
        """The legal moves of ``pos``, in the game's order (the order ties are listed in).

        :param pos: a position the game reached, not ended.
        :returns: the moves; none where the player to move cannot move (a loss for them
            unless ``outcome`` says otherwise).
        """
        ...

    def play(self, pos: P, move: M) -> P:
        """The position ``move`` leads to, leaving ``pos`` as it was (deterministic).

        :param pos: a position.
        :param move: one of ``moves(pos)``.
        :returns: the next position.
        """
        ...

    def outcome(self, pos: P) -> Outcome:
        """How the game has ended at ``pos``, for the player to move there.

        :param pos: a position.
        :returns: None while play goes on; else WIN, LOSE or TIE (a scored game: the
            mover's final points).
        """
        ...


def stepper(game: object) -> Any:
    """The game's ``step(pos, move) -> (child, points)`` when it is scored and has one, else
    None (the engine then calls ``play`` and ``payoff``)."""
    step = getattr(game, "step", None)
    return step if callable(step) and is_scored(game) else None


#: Where :class:`~perfectplay.engine.CompiledGame` is defined (tests/test_engine.py checks it).
COMPILED_MODULE = "perfectplay.engine.compiled.game"


def is_compiled(game: object) -> bool:
    """True when ``game`` is a :class:`~perfectplay.engine.CompiledGame`, asked without
    importing the compiled door (and numba with it): an instance exists only once the
    class's module has run, so a process that never loaded it holds none.

    >>> is_compiled(object())
    False
    """
    module = sys.modules.get(COMPILED_MODULE)
    return module is not None and isinstance(game, module.CompiledGame)


#: How :func:`~perfectplay.engine.solve` solves (see there).
Method = Literal["auto", "python", "graph", "tiers"]


def check_method(method: object) -> None:
    """A ValueError unless ``method`` is one of :data:`Method`'s."""
    if method not in ("auto", "python", "graph", "tiers"):
        raise ValueError(f"method must be auto, python, graph or tiers, not {show(method)}")


def is_scored(game: object) -> bool:
    """True when the game defines ``payoff`` (values are point margins, not win/lose)."""
    return callable(getattr(game, "payoff", None))


def has_player(game: object) -> bool:
    """True when the game says who moves (``player(pos)``) instead of strict alternation."""
    return callable(getattr(game, "player", None))


def cannot_tie(game: object) -> bool:
    """True when a win/lose game declares that none of its games ends level (an attribute
    ``cannot_tie = True``: Domineering, where the player who cannot move loses): a proven
    "not a loss" is then a win, and a search asked for the value alone settles it with one
    null window. :func:`perfectplay.engine.check_game` refutes a false declaration by any
    tie it meets."""
    return getattr(game, "cannot_tie", False) is True and not is_scored(game)


_RANK = {Value.WIN: 3, Value.TIE: 2, Value.DRAW: 1, Value.LOSE: 0}


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Score:
    """What a position or a move is worth to the player to move, ordered "better is greater".

    ``value`` is a :class:`Value` or a point margin; ``remoteness`` the moves to the end under
    perfect play (None: play never ends). Among equal values, the side that is doing well
    hurries and the other delays: a win or a tie (a margin >= 0) is better sooner, a loss (a
    margin < 0) better later. ``hurry`` overrides that rule where a game says otherwise (a
    cost game: the payer hurries whatever the margin). A draw sorts between a tie and a loss.
    This is the one tie-break every front end shows as "best" (the engine's convention).

    >>> sorted([Score(Value.LOSE, 3), Score(Value.WIN, 5), Score(Value.LOSE, 9),
    ...         Score(Value.WIN, 1)])[::-1]  # best first
    [Score(value=<Value.WIN: 'win'>, remoteness=1, hurry=None), \
Score(value=<Value.WIN: 'win'>, remoteness=5, hurry=None), \
Score(value=<Value.LOSE: 'lose'>, remoteness=9, hurry=None), \
Score(value=<Value.LOSE: 'lose'>, remoteness=3, hurry=None)]
    >>> Score(2, 7) > Score(2, 9) > Score(-1, 9) > Score(-1, 2)
    True
    """

    value: Worth
    remoteness: int | None
    hurry: bool | None = None

    @property
    def key(self) -> tuple[float, float]:
        """The sort key (greater is better): the value's rank, then the signed remoteness."""
        rank, ahead = _rank(self.value)
        hurry = ahead if self.hurry is None else self.hurry
        rem = self.remoteness or 0
        return (rank, -rem if hurry else rem)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self.key < other.key


def _rank(value: Worth) -> tuple[float, bool]:
    """(rank, whether the mover is doing well) of a value: a Value by win > tie > draw >
    lose, a margin by itself."""
    if isinstance(value, Value):
        return _RANK[value], value is Value.WIN or value is Value.TIE
    return value, value >= 0


#: Every optional hook a Python or compiled game may define, read by :func:`capabilities`.
HOOKS = ("payoff", "step", "outcome_after", "player", "encode", "decode", "tier", "canonical",
         "move_name", "parse_move", "draw", "plot", "search_moves", "static_bounds", "horizon",
         "endgame_positions", "dense_endgame", "dense_endgame_fits", "build_dense_endgame",
         "positions_bound", "first_guess")


@dataclass(frozen=True)
class PositionCount:
    """How many positions a game has, known before any work (a game's ``positions_bound()``
    hook returns one; a catalog game's comes from the sources its entry cites): ``count``
    and its ``kind``: "exact" (a published count), "about" (a published estimate),
    "at least" (a bound below) or "at most" (a bound above, which says nothing of how many
    a solve meets, so it never refuses one). ``source`` says it in words; ``target`` is
    the catalog call that builds the game ("" for another game), for the way to search it.

    >>> PositionCount(5_478, "exact", "5,478 positions").refuses
    True
    """

    count: int
    kind: Literal["exact", "about", "at least", "at most"]
    source: str
    target: str = ""

    @property
    def refuses(self) -> bool:
        """True when the count may refuse a solve: not a mere bound above."""
        return self.kind != "at most"


@dataclass(frozen=True)
class Capabilities:
    """A game's optional hooks, read once (the engine's modules ask this record, not the
    game, what it can do). A hook is the game's bound method, or None when it has none.

    >>> class Heap:
    ...     def initial(self): return 5
    ...     def moves(self, n): return [m for m in (1, 2) if m <= n]
    ...     def play(self, n, m): return n - m
    ...     def outcome(self, n): return None
    ...     def move_name(self, m): return f"take {m}"
    >>> caps = capabilities(Heap())
    >>> caps.name, caps.scored, caps.move_name(2), caps.player is None
    ('Heap', False, 'take 2', True)
    """

    name: str
    payoff: Callable[..., Any] | None
    step: Callable[..., Any] | None  # only for a scored game (see :func:`stepper`)
    outcome_after: Callable[..., Any] | None  # outcome_after(pos, move, child): outcome(child)
    player: Callable[..., Any] | None
    encode: Callable[..., Any] | None
    decode: Callable[..., Any] | None
    tier: Callable[..., Any] | None
    canonical: Callable[..., Any] | None
    move_name: Callable[..., Any] | None
    parse_move: Callable[..., Any] | None
    draw: Callable[..., Any] | None
    plot: Callable[..., Any] | None  # plot(pos, ax): the board on a matplotlib Axes
    search_moves: Callable[..., Any] | None
    static_bounds: Callable[..., Any] | None
    horizon: Callable[..., Any] | None
    endgame_positions: Callable[..., Any] | None
    # a dense endgame table (Kalah's, ``solve --dense``): read it, ask whether a table on
    # disk is this game's, build one
    dense_endgame: Callable[..., Any] | None
    dense_endgame_fits: Callable[..., Any] | None
    build_dense_endgame: Callable[..., Any] | None
    positions_bound: Callable[..., Any] | None  # positions_bound() -> PositionCount or None
    first_guess: Callable[..., Any] | None  # a scored game's margin estimate: probes start there
    tiered: bool  # a compiled game's tiers: every move rises (solved tier by tier)
    symmetric: bool  # positions are keyed by a canonical form
    has_margin_bound: bool
    parallel: bool  # discovery may fork a helper process (False: states that do not pickle)

    @property
    def scored(self) -> bool:
        """True when values are point margins (the game defines ``payoff``)."""
        return self.payoff is not None

    @property
    def codec(self) -> bool:
        """True when positions travel as integer codes (``encode`` and ``decode``)."""
        return self.encode is not None and self.decode is not None


def capabilities(game: object) -> Capabilities:
    """The :class:`Capabilities` of ``game``: each optional hook looked up once. O(1)."""
    hooks: dict[str, Callable[..., Any] | None] = {}
    for name in HOOKS:
        hook = getattr(game, name, None)
        hooks[name] = hook if callable(hook) else None
    if hooks["payoff"] is None:
        hooks["step"] = None
    return Capabilities(
        name=str(getattr(game, "name", None) or type(game).__name__), **hooks,
        tiered=getattr(game, "tiered", False) is True,
        symmetric=getattr(game, "symmetric", False) is True,
        has_margin_bound=getattr(game, "has_margin_bound", False) is True,
        parallel=getattr(game, "parallel", True) is not False)
