"""The positions of an opening book's plies: the canonical codes first reached at each ply
from the start, and the limits on a book's depth and size.

Both building a book (:mod:`perfectplay.store.book`) and verifying one
(:mod:`perfectplay.store.verify`, which checks a book by what it promises) walk these
layers; they live here, below both, so neither imports the other.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiled.game import CompiledGame
from ..errors import LimitError, show

__all__ = ["MAX_BOOK_POSITIONS", "MAX_PLIES", "book_layers", "check_plies"]

#: The most positions a book may hold (checked while enumerating, before any search).
MAX_BOOK_POSITIONS = 20_000_000
#: The deepest book.
MAX_PLIES = 200


def book_layers(game: CompiledGame, plies: int) -> list[np.ndarray]:
    """The canonical codes first reached at each ply 0..``plies`` from the start (each
    sorted). O(positions x moves); a LimitError past :data:`MAX_BOOK_POSITIONS`."""
    check_plies(plies)
    start = game.canonical(game.initial())
    seen = {start}
    layers = [np.array([start], np.int64)]
    for _ply in range(plies):
        nxt: list[int] = []
        for code in layers[-1].tolist():
            for move in game.moves(code):
                child = game.canonical(game.play(code, move))
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        if len(seen) > MAX_BOOK_POSITIONS:
            raise LimitError(f"a book of {plies} plies holds more than "
                             f"{MAX_BOOK_POSITIONS:,} positions; choose fewer plies")
        layers.append(np.array(sorted(nxt), np.int64))
    return layers


def check_plies(plies: int) -> None:
    """A LimitError unless ``plies`` is an int from 0 to :data:`MAX_PLIES`."""
    if isinstance(plies, bool) or not isinstance(plies, int | np.integer) or \
            not 0 <= plies <= MAX_PLIES:
        raise LimitError(f"plies must be an int from 0 to {MAX_PLIES}, not {show(plies)}")
