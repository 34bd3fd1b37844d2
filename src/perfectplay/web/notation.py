"""What a person pastes into the page's position box, read: a list of moves by name, or the
game's own notation where it has one.

- **Connect Four**: Pascal Pons' column digits, one a move, columns from 1 (``4453``: the
  notation of his solver and of his test sets, blog.gamesolver.org), read as the moves
  ``4, 4, 5, 3`` (boards up to 9 columns);
- **tic-tac-toe**: the board as 9 characters, row by row from ``a1`` (``X``, ``O``, and
  ``.``, ``-`` or ``_`` for an empty cell; spaces and ``|`` or ``/`` between rows are
  ignored): ``x...o...x``;
- **any game**: move names separated by commas or spaces (``b2, a1``), as the game names
  them (its ``move_name``).

A paste that is none of these gets one line saying what was expected and where it went
wrong (an :class:`InputError`: 422).

>>> from perfectplay.catalog.tictactoe import TicTacToe
>>> read_paste("tictactoe", TicTacToe(), "x... o... x")["moves"]
[]
>>> read_paste("tictactoe", TicTacToe(), "b2, a1")
{'moves': ['b2', 'a1'], 'key': None, 'notation': 'moves'}
"""

from __future__ import annotations

import re

from ..catalog.connect4 import ConnectFour
from ..catalog.connect4.notation import position_from_moves
from ..engine.protocol import Game
from ..engine.solution import move_name
from ..errors import InputError
from .positions import legal_move

#: The longest paste read (longer than any game's move list on the page).
MAX_PASTE = 10_000

_TTT_CELLS = {"x": "X", "o": "O", ".": ".", "-": ".", "_": "."}


def read_paste(catalog_name: str, game: Game, text: str) -> dict[str, object]:
    """The paste ``text`` of ``game`` (the catalog game ``catalog_name``'s instance):
    ``{"moves": [names], "key": None, "notation": how it was read}`` for moves from the
    start, or ``{"moves": [], "key": KEY, ...}`` for a position given whole (its code as
    the answers' ``key``)."""
    if len(text) > MAX_PASTE:
        raise InputError(f"the paste is {len(text):,} characters; the page reads "
                         f"{MAX_PASTE:,}")
    text = text.strip()
    if isinstance(game, ConnectFour) and re.fullmatch(r"[0-9]+", text):
        return {"moves": _pons(game, text), "key": None,
                "notation": "Pons' column digits"}
    if catalog_name == "tictactoe":
        board = re.sub(r"[\s|/]", "", text)
        if len(board) == 9 and all(c.lower() in _TTT_CELLS for c in board):
            return {"moves": [], "key": str(_tictactoe(board)), "notation": "a board"}
    names = [t for t in re.split(r"[\s,]+", text) if t]
    _check_moves(game, names)
    return {"moves": names, "key": None, "notation": "moves"}


def _pons(game: ConnectFour, digits: str) -> list[str]:
    """Pons' 1-based column digits as move names, every move checked."""
    width = int(getattr(game, "width", 0))
    if not 1 <= width <= 9:
        raise InputError("column digits need a board of at most 9 columns; give the moves "
                         "separated by commas")
    try:
        position_from_moves(game, digits, first_column=1)
    except ValueError as exc:
        raise InputError(f"{digits[:60]!r} read as Pons' column digits (1 to {width}, one "
                         f"a move): {exc}") from None
    return [move_name(game, int(d) - 1) for d in digits]


def _tictactoe(board: str) -> int:
    """A 9-character board as tic-tac-toe's code (``x | o << 9``, cell 0 is a1), checked:
    X moves first, so X has as many marks as O or one more."""
    cells = [_TTT_CELLS[c.lower()] for c in board]
    x = sum(1 << i for i, c in enumerate(cells) if c == "X")
    o = sum(1 << i for i, c in enumerate(cells) if c == "O")
    nx, no = cells.count("X"), cells.count("O")
    if nx not in (no, no + 1):
        raise InputError(f"{board!r} read as a tic-tac-toe board: X moves first, so X has "
                         f"as many marks as O or one more (X {nx}, O {no})")
    return x | o << 9


def _check_moves(game: Game, names: list[str]) -> None:
    """Play ``names`` from the start: an InputError naming the first that is not legal."""
    pos = game.initial()
    for k, name in enumerate(names, 1):
        over = game.outcome(pos) is not None or not list(game.moves(pos))
        move = None if over else legal_move(game, pos, name)
        if move is None:
            legal = [] if over else [move_name(game, m) for m in game.moves(pos)]
            raise InputError(f"move {k} ({name[:40]!r}) is not legal there; legal: "
                             f"{', '.join(legal) or 'none (the game is over)'}")
        pos = game.play(pos, move)
