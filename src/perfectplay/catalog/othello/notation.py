"""Othello's notation for the web page's paste box, as Othello programs and game records
write a position:

- a **transcript**: the moves one after another, with or without spaces (``c4a3b4``, the
  way game records are written, ``pass`` where a side passes);
- a **board**: the n x n squares row by row from ``a1`` (``X``, ``B`` or ``*`` for Black;
  ``O`` or ``W`` for White; ``.``, ``-`` or ``_`` empty; spaces and ``|`` or ``/`` between
  rows ignored), then the side to move (``X`` or ``O``, ``B`` or ``W``), as engines such as
  Edax print a board.

>>> from perfectplay.catalog.othello import Othello
>>> game = Othello(4)
>>> read_othello(game, "c4a3").moves
('c4', 'a3')
>>> read_othello(game, "..../.OX./.XO./.... X").key == game.initial()
True
"""

from __future__ import annotations

import re

from ...errors import InputError
from ..entry import Pasted
from .rules import PASS, Othello, OthelloBoard8, move_to_name, parse_line, square

_BLACK, _WHITE, _EMPTY = "xb*", "ow", ".-_"


def read_othello(game: object, text: str) -> Pasted | None:
    """A transcript or a board of ``game`` (Othello; a board only on the compiled 4x4 and
    6x6, whose positions are codes), or None for a text in neither form."""
    if not isinstance(game, Othello | OthelloBoard8):
        return None
    moves = parse_line(text, game.size)
    if moves is not None and re.search(r"[a-h][1-8][a-h]", text.lower()):
        return Pasted("a transcript", tuple(move_to_name(m) for m in moves))
    if isinstance(game, Othello):
        return _board(game, text)
    return None


def _board(game: Othello, text: str) -> Pasted | None:
    n = game.size
    squares = re.sub(r"[\s|/]", "", text).lower()
    if len(squares) not in (n * n, n * n + 1) or not all(c in _BLACK + _WHITE + _EMPTY
                                                          for c in squares):
        return None
    cells, side = squares[:n * n], squares[n * n:]
    if side not in ("x", "o", "b", "w"):
        raise InputError(f"{text.strip()[:80]!r} read as an Othello board: it ends with the "
                         "side to move, X (Black) or O (White)")
    black = sum(1 << square(i // n, i % n) for i, c in enumerate(cells) if c in _BLACK)
    white = sum(1 << square(i // n, i % n) for i, c in enumerate(cells) if c in _WHITE)
    h = n // 2
    centre = [square(r, c) for r in (h - 1, h) for c in (h - 1, h)]
    if any(not (black | white) >> sq & 1 for sq in centre):
        raise InputError(f"{text.strip()[:80]!r} read as an Othello board: the four centre "
                         "squares hold discs from the start, so none can be empty")
    return Pasted("a board", key=game.code(black, white, 0 if side in "xb" else 1))


__all__ = ["PASS", "read_othello"]
