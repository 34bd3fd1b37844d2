"""Tic-tac-toe's notation for the web page's paste box: the board as 9 characters, row by
row from ``a1`` (``X``, ``O``, and ``.``, ``-`` or ``_`` for an empty cell; spaces and ``|``
or ``/`` between rows are ignored): ``x...o...x``.

>>> from perfectplay.catalog.tictactoe import TicTacToe
>>> read_board(TicTacToe(), "x.. | .o. | ..x").key == 1 | 1 << 8 | 1 << 13
True
"""

from __future__ import annotations

import re

from ...errors import InputError
from ..entry import Pasted
from .rules import TicTacToe

_CELLS = {"x": "X", "o": "O", ".": ".", "-": ".", "_": "."}


def read_board(game: object, text: str) -> Pasted | None:
    """A 9-character board as the position's code (``x | o << 9``, cell 0 is a1), checked:
    X moves first, so X has as many marks as O or one more. None for a text that is not
    such a board, or a game that is not tic-tac-toe."""
    board = re.sub(r"[\s|/]", "", text)
    if not isinstance(game, TicTacToe) or len(board) != 9 or \
            not all(c.lower() in _CELLS for c in board):
        return None
    cells = [_CELLS[c.lower()] for c in board]
    x = sum(1 << i for i, c in enumerate(cells) if c == "X")
    o = sum(1 << i for i, c in enumerate(cells) if c == "O")
    nx, no = cells.count("X"), cells.count("O")
    if nx not in (no, no + 1):
        raise InputError(f"{board!r} read as a tic-tac-toe board: X moves first, so X has "
                         f"as many marks as O or one more (X {nx}, O {no})")
    return Pasted("a board", key=x | o << 9)
