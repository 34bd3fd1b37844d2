"""What a person pastes into the page's position box, read: a list of moves by name, or the
game's own notation where it has one.

A catalog game's notation is its entry's ``notation`` reader, kept with the game
(:class:`~perfectplay.registry.CatalogGame`, found through the registry):

- **Connect Four**: Pascal Pons' column digits, one a move, columns from 1 (``4453``: the
  notation of his solver and of his test sets, blog.gamesolver.org), read as the moves
  ``4, 4, 5, 3`` (boards up to 9 columns);
- **tic-tac-toe**: the board as 9 characters, row by row from ``a1`` (``x...o...x``);
- **Othello**: a transcript (``c4a3b4``) or a board and the side to move
  (``..../.OX./.XO./.... X``);
- **any game**: move names separated by commas or spaces (``b2, a1``), as the game names
  them (its ``move_name``).

A served game (``serve --game``, ``--store``) is read by the notation of the catalog game it
is an instance of, if any. A paste that is none of these gets one line saying what was
expected and where it went wrong (an :class:`InputError`: 422).

>>> from perfectplay.catalog.tictactoe import TicTacToe
>>> read_paste("tictactoe", TicTacToe(), "x... o... x")["moves"]
[]
>>> read_paste("tictactoe", TicTacToe(), "b2, a1")
{'moves': ['b2', 'a1'], 'key': None, 'notation': 'moves'}
"""

from __future__ import annotations

import re

from .. import registry
from ..catalog import CatalogGame, Pasted
from ..engine.protocol import Game
from ..engine.solved.solution import move_name
from ..errors import InputError
from .positions import legal_move

#: The longest paste read (longer than any game's move list on the page).
MAX_PASTE = 10_000


def read_paste(catalog_name: str, game: Game, text: str) -> dict[str, object]:
    """The paste ``text`` of ``game`` (the catalog game ``catalog_name``'s instance, or ""
    for a served game): ``{"moves": [names], "key": None, "notation": how it was read}``
    for moves from the start, or ``{"moves": [], "key": KEY, ...}`` for a position given
    whole (its code as the answers' ``key``)."""
    if len(text) > MAX_PASTE:
        raise InputError(f"the paste is {len(text):,} characters; the page reads "
                         f"{MAX_PASTE:,}")
    text = text.strip()
    for entry in _entries(catalog_name):
        pasted = entry.notation(game, text) if entry.notation is not None else None
        if pasted is not None:
            return _answer(game, pasted)
    names = [t for t in re.split(r"[\s,]+", text) if t]
    _check_moves(game, names)
    return {"moves": names, "key": None, "notation": "moves"}


def _entries(catalog_name: str) -> list[CatalogGame]:
    """The catalog entry whose notation reads the paste: the one named, else every entry
    (each reader reads only its own game's instances)."""
    if catalog_name in registry.catalog_names():
        return [registry.get_catalog(catalog_name)]
    return list(registry.catalog())


def _answer(game: Game, pasted: Pasted) -> dict[str, object]:
    """A notation's reading, its moves checked legal from the start."""
    moves = list(pasted.moves)
    _check_moves(game, moves)
    return {"moves": moves, "key": None if pasted.key is None else str(pasted.key),
            "notation": pasted.notation}


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
