"""The words and small types the page's position answers share, solved
(:mod:`.explore`) or live (:mod:`.live`): a checked catalog instance (:class:`Target`),
a ``moves`` list, whose turn, a value as the first player's number, and the line
"Player 1 should win in 13".

>>> summary(Value.TIE, 27, False, 1, False, 0.0)
'Player 2 should tie in 27'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..catalog import CatalogGame
from ..engine import Value
from ..engine.protocol import Game, Move, Position, Worth, capabilities
from ..engine.solved.solution import move_name
from ..errors import LimitError
from ..play.state import rank
from .answers import ExplorePly, Turn
from .gamescrafters import value_word

#: The most moves a ``moves`` list may hold (longer than any catalog game on the page).
MAX_MOVES = 1_000
#: A catalog game's parameters by name (ints, tuples of ints, strings, booleans), checked.
Params = Mapping[str, object]
#: A position's query: ``p`` and ``moves``, each given or None.
Query = Mapping[str, str | None]


@dataclass(frozen=True)
class Target:
    """A catalog instance the page may solve: its entry, its checked parameters, and its
    call as the command line writes it (the cache's key)."""

    entry: CatalogGame
    args: Params

    @property
    def call(self) -> str:
        return self.entry.call(self.args)


def parse_moves(text: str | None) -> list[str]:
    """Comma-separated move names as a list (blank ones dropped), at most
    :data:`MAX_MOVES`."""
    names = [t.strip() for t in (text or "").split(",") if t.strip()]
    if len(names) > MAX_MOVES:
        raise LimitError(f"{len(names):,} moves; the page takes at most {MAX_MOVES:,}")
    return names


def legal_move(game: Game, pos: Position, name: str) -> Move | None:
    """The legal move of ``pos`` whose name (``move_name``) is ``name``, or that the game's
    ``parse_move`` reads from it; else None.

    By name only, because the page sends names: the engine's ``move_named`` also reads a
    move's ``str``, so in Connect Four "4" on a full fourth column would be taken as the
    move numbered 4 (the fifth column) instead of refused.

    >>> from perfectplay.catalog.connect4 import ConnectFour
    >>> game = ConnectFour(4, 1)
    >>> legal_move(game, game.play(game.initial(), 3), "4") is None
    True
    """
    legal = list(game.moves(pos))
    for move in legal:
        if move_name(game, move) == name:
            return move
    parse = capabilities(game).parse_move  # the game's own other spellings ("B2")
    move = None if parse is None else parse(name)
    return move if move is not None and move in legal else None


def turn_word(turn: int | None) -> Turn | None:
    """Who moves, in the answers' words: "first", "second" (None: not known)."""
    return None if turn is None else ("first", "second")[turn]


def first_player_view(value: Worth, mover: int) -> float | None:
    """A value as a number from the first player's side: a win 1, a tie or a draw 0, a loss
    -1, a margin as it is (None: never ends). The value history's charts plot it.

    >>> first_player_view(Value.WIN, 1), first_player_view(-3, 1)
    (-1.0, 3.0)
    """
    if isinstance(value, Value):
        num = {Value.WIN: 1.0, Value.LOSE: -1.0}.get(value, 0.0)
    else:
        num = float(value)
        if num != num or abs(num) == float("inf"):
            return None
    return num if mover == 0 else -num


def margin(value: Worth, scored: bool) -> float | int | None:
    """A scored game's margin as a JSON number (None in a win/lose game)."""
    if not scored:
        return None
    assert not isinstance(value, Value)  # a scored game's value is a margin
    return number(float(value))


def words(value: Worth, rem: int | None, scored: bool) -> str:
    """``win in 3``, ``draw``, ``win by 2 in 9``, ``tie in 4``."""
    word = value_word(value, scored)
    by = f" by {abs(margin(value, scored) or 0):g}" if scored and word != "tie" else ""
    return f"{word}{by}" + ("" if rem is None else f" in {rem}")


def summary(value: Worth, rem: int | None, scored: bool, turn: int | None, over: bool,
            so_far: float) -> str:
    """The position in a line: ``Player 1 should win in 13``; at the end who won. In a
    scored game the margin is the final one, ``so_far`` (the first player's points minus
    the second's until here) included.

    >>> summary(Value.WIN, 13, False, 0, False, 0.0)
    'Player 1 should win in 13'
    >>> summary(Value.LOSE, 0, False, 1, True, 0.0)
    'Game over: Player 1 won'
    >>> summary(1, 10, True, 0, False, 1.0)
    'Player 1 should win by 2 in 10'
    """
    who = "The player to move" if turn is None else f"Player {turn + 1}"
    if scored and turn is not None:
        final = so_far + (first_player_view(value, turn) or 0.0)
        if over:
            return "Game over: a tie" if final == 0 else \
                f"Game over: Player {1 if final > 0 else 2} won by {abs(final):g}"
        value = number(final if turn == 0 else -final)
    if not over:
        return f"{who} should {words(value, rem, scored)}"
    word = value_word(value, scored)
    if scored or word in ("tie", "draw"):
        return "Game over" if scored else f"Game over: a {word}"
    if turn is None:
        return f"Game over: the player to move {'won' if word == 'win' else 'lost'}"
    winner = turn if word == "win" else 1 - turn
    return f"Game over: Player {winner + 1} won"


def valued_ply(name: str, turn: int | None, before: tuple[Worth, int | None],
               after: tuple[Worth, int | None], so_far: float, scored: bool) -> ExplorePly:
    """One move of a value history: ``before``, the mover's value and remoteness where the
    move was played, ``after`` the move's own, in words (a scored game's final margins:
    ``so_far``, the first player's points minus the second's, included), a mistake when
    the move is worse, and both as the first player's chart points (none when whose turn
    it was is not known). The solved explorer and the live one both write it.

    >>> valued_ply("3", 0, (Value.WIN, 5), (Value.LOSE, 4), 0.0, False).mistake
    True
    """
    mover = 0 if turn is None else turn
    own = 0.0 if turn is None else (so_far if turn == 0 else -so_far)

    def chart(value: Worth) -> float | None:
        view = first_player_view(value, mover)
        return None if view is None or turn is None else so_far + view

    return ExplorePly(name=name, turn=turn_word(turn),
                      before=final_words(before[0], own, before[1], scored),
                      after=final_words(after[0], own, after[1], scored),
                      mistake=rank(after[0]) < rank(before[0]),
                      chart_before=chart(before[0]), chart_after=chart(after[0]))


def final_words(value: Worth, own: float, rem: int | None, scored: bool) -> str:
    """:func:`words` of a value, in a scored game of the final margin: ``own`` (the mover's
    points so far) added.

    >>> final_words(2, 1.0, 6, True), final_words(Value.WIN, 0.0, 3, False)
    ('win by 3 in 6', 'win in 3')
    """
    if not scored:
        return words(value, rem, scored)
    assert not isinstance(value, Value)  # a scored game's value is a margin
    return words(number(float(value) + own), rem, scored)


def number(x: float) -> int | float:
    """``x`` as an int when it is whole (JSON's 3, not 3.0)."""
    return int(x) if float(x).is_integer() else x
