"""Endgames the proof search reads at its leaves, opened from a folder alike.

Two kinds of folder hold a compiled game's endgame:

- an **endgame store** (``perfectplay solve GAME --store DIR --endgame K``): every position
  from the game's ``endgame_positions(K)`` on, with its value and remoteness; it answers a
  move it holds at once, and the search reads its leaves;
- a **dense endgame table** (``... --endgame K --dense``, Kalah's: one byte a position, found
  by rank): the margin of every position with at most K seeds in play and no remoteness. The
  search reads its margins through the game's ``dense_endgame`` hook, and walks on below
  them for the remoteness; it answers no move by itself.

:func:`open_endgame` opens either; the command line's ``search --store``, ``play --store``
and the page's ``serve --live-store`` all read an endgame through it.

>>> is_dense_table("no/such/folder")
False
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ..engine.proof.kernel import Leaf
from ..engine.protocol import Game, Position, Worth, capabilities
from ..errors import InputError
from .layout import DENSE_KIND
from .reader import Store


def dense_info(path: str | Path) -> dict[str, object]:
    """The manifest of the dense endgame table saved in ``path`` (its kind, board, seeds
    and entries), or {} when the folder holds none (a store, or nothing)."""
    try:
        info = json.loads((Path(path) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    dense = isinstance(info, dict) and str(info.get("kind", "")).endswith(DENSE_KIND)
    return info if dense else {}


def is_dense_table(path: str | Path) -> bool:
    """True when ``path`` holds a dense endgame table (its ``manifest.json`` says so)."""
    return bool(dense_info(path))


class DenseEndgame:
    """A dense endgame table as the live analysis and ``play`` read it: the search's leaves
    (loaded on the first :meth:`leaf`, once; C(k + 12, 12) bytes for six-house Kalah) and
    nothing else, so :meth:`value` and :meth:`remoteness` raise a KeyError (the table holds
    no remoteness: every move is searched, the table cutting the search short).

    ``game`` must read the table (its ``dense_endgame_fits``), else an InputError says whose
    table it is."""

    def __init__(self, game: Game, path: str | Path) -> None:
        caps = capabilities(game)
        read, fits = caps.dense_endgame, caps.dense_endgame_fits
        if read is None or fits is None:
            raise InputError(f"{path} holds a dense endgame table, which "
                             f"{caps.name} cannot read (no dense_endgame)")
        if not fits(path):
            read(path)  # says whose it is
            raise InputError(f"{path} holds the dense endgame table of another board or "
                             f"rule than {caps.name}'s")
        self.game, self.path = game, Path(path)
        self.game_name: str | None = caps.name
        self._read: Callable[[Path], Leaf] = read
        self._leaf: Leaf | None = None

    def leaf(self) -> Leaf:
        """The search's leaves, the table read from disk on the first call."""
        if self._leaf is None:
            self._leaf = self._read(self.path)
        return self._leaf

    def value(self, pos: Position | None = None) -> Worth:
        """Never known from the table alone: a KeyError."""
        raise KeyError(pos)

    def remoteness(self, pos: Position | None = None) -> int | None:
        """Never known from the table alone: a KeyError."""
        raise KeyError(pos)


def open_endgame(path: str | Path, game: Game | None = None) -> Store | DenseEndgame:
    """The endgame at ``path`` for the search: a :class:`DenseEndgame` for a dense table
    (``game`` required), else the store (:func:`perfectplay.store.open_store`; a
    StoreError when the folder holds neither)."""
    if is_dense_table(path):
        if game is None:
            raise InputError(f"{path} holds a dense endgame table: name the game it is for")
        return DenseEndgame(game, path)
    return Store(path, game)


def fits_dense(game: object, path: str | Path) -> bool:
    """True when ``game`` reads the dense endgame table at ``path`` (the page uses each
    table given it for the instances it fits, as each store for the game it holds)."""
    fits = capabilities(game).dense_endgame_fits
    return fits is not None and bool(fits(path))
