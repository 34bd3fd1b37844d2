"""Reading Connect Four positions and scores as the literature writes them.

Pascal Pons's test sets ("Solving Connect 4", blog.gamesolver.org, 2019), as published in
Christophe Steininger's solver (github.com/ChristopheSteininger/c4), write a position as the
columns played, one digit a move, and score it for the player to move: the first 50 lines of
each 7x6 set are in tests/data/connect4. :func:`position_from_moves` plays such a string onto
a :class:`~.rules.ConnectFour` code; :func:`from_pons_score` turns a score into perfectplay's
(value, remoteness); :func:`read_pons_digits` reads the digits pasted on the web page.
"""

from __future__ import annotations

import re

from ...engine import Value
from ...errors import InputError
from ..entry import Pasted
from .rules import ConnectFour


def position_from_moves(game: ConnectFour, columns: str, first_column: int = 0) -> int:
    """The code reached by playing ``columns`` from the start, one digit per move: column
    numbers from ``first_column`` on (0 in Steininger's test files, 1 in Pascal Pons's).

    Raises ValueError on a character that is not a column, a full column, or a move after the
    game has ended, naming the move's place in the string.

    >>> from perfectplay.catalog.connect4 import ConnectFour
    >>> game = ConnectFour(4, 4)
    >>> game.stones(position_from_moves(game, "1120"))
    (['....', '....', '.O..', 'OXX.'], 4)
    """
    code = game.start_code
    for i, ch in enumerate(columns):
        c = ord(ch) - ord("0") - first_column
        if not (ch.isdigit() and 0 <= c < game.width):
            raise ValueError(f"move {i + 1} of {columns!r}: {ch!r} is not a column "
                             f"({first_column}..{first_column + game.width - 1})")
        if game.outcome(code) is not None:
            raise ValueError(f"move {i + 1} of {columns!r}: the game is already over")
        if c not in game.moves(code):
            raise ValueError(f"move {i + 1} of {columns!r}: column {ch} is full")
        code = game.play(code, c)
    return code


def from_pons_score(score: int, stones: int, width: int = 7,
                    height: int = 6) -> tuple[Value, int]:
    """Pascal Pons's score of a position with ``stones`` stones, as (value for the player to
    move, remoteness in plies).

    Pons ("Solving Connect 4", blog.gamesolver.org) scores a position for the player to move:
    0 for a draw; a win by the stone that makes the board hold m stones scores
    (W*H + 2 - m) // 2 (1 for a win with one's last stone, more for a quicker one), a loss
    the opposite of the winner's score. Steininger's solver (``score_win_at``) uses the
    same numbers. So a score s != 0 leaves two possible winning stones, m = W*H + 2 - 2|s| or
    one less, of which only one is the right player's: the winner's stones are the odd plies
    from here (remoteness r = m - stones odd for a win, even for a loss). A draw fills the
    board: TIE in W*H - stones plies. A position already lost (the opponent's four is on the
    board) scores -((W*H + 2 - stones) // 2), remoteness 0.

    >>> from_pons_score(1, 36)   # the mover's last stone is the 41st, 5 plies on
    (<Value.WIN: 'win'>, 5)
    >>> from_pons_score(1, 37), from_pons_score(-1, 36), from_pons_score(0, 20)
    ((<Value.WIN: 'win'>, 5), (<Value.LOSE: 'lose'>, 6), (<Value.TIE: 'tie'>, 22))
    """
    cells = width * height
    if not 0 <= stones <= cells:
        raise ValueError(f"{stones} stones do not fit on a {width}x{height} board")
    if score == 0:
        return Value.TIE, cells - stones
    value, parity = (Value.WIN, 1) if score > 0 else (Value.LOSE, 0)
    r = cells + 2 - stones - 2 * abs(score)
    if r % 2 != parity:
        r -= 1
    if not (parity <= r <= cells - stones and stones + r >= 7):  # no four before stone 7
        raise ValueError(f"score {score} is impossible with {stones} stones on a "
                         f"{width}x{height} board")
    return value, r


def read_pons_digits(game: object, text: str) -> Pasted | None:
    """The page's paste box, Connect Four's notation: Pons' column digits, one a move,
    columns from 1 (``4453``), read as the moves ``4, 4, 5, 3`` (boards of at most 9
    columns); None for a text that is not all digits or a game that is not Connect Four.

    >>> from perfectplay.catalog.connect4 import ConnectFour
    >>> read_pons_digits(ConnectFour(7, 6), "4453").moves
    ('4', '4', '5', '3')
    """
    text = text.strip()
    if not isinstance(game, ConnectFour) or not re.fullmatch(r"[0-9]+", text):
        return None
    if not 1 <= game.width <= 9:
        raise InputError("column digits need a board of at most 9 columns; give the moves "
                         "separated by commas")
    try:
        position_from_moves(game, text, first_column=1)
    except ValueError as exc:
        raise InputError(f"{text[:60]!r} read as Pons' column digits (1 to {game.width}, "
                         f"one a move): {exc}") from None
    return Pasted("Pons' column digits", tuple(game.move_name(int(d) - 1) for d in text))
