"""Nim in the catalog: :class:`~.rules.Nim` (sorted heaps, Bouton's theory in
:func:`~.rules.nim_sum`), its twin :class:`~.twin.NimTwin`, and :data:`GAME`.

>>> GAME.build(heaps=(1, 2, 3)).initial()
(1, 2, 3)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, Param, Published
from .rules import Nim, nim_sum
from .twin import NimTwin

BOUTON = "Bouton 1901, 'Nim, a game with a complete mathematical theory', Annals of " \
         "Mathematics 3(1/4):35-39"


def _positions(args: Mapping[str, Any]) -> PositionCount:
    count = math.prod(h + 1 for h in args["heaps"])
    return PositionCount(count, "at most", f"at most {count:,} positions (fewer: heaps are "
                         "sorted)")


def _size(args: Mapping[str, Any]) -> str:
    return _positions(args).source


GAME = CatalogGame(
    name="nim",
    title="Nim",
    rules="Take any number of counters from one heap; who cannot move loses.",
    factory=lambda heaps: Nim(heaps),
    params=(Param("heaps", (3, 4, 5), "the heap sizes", kind=tuple, low=0, high=64),),
    published=(
        Published({"heaps": (3, 4, 5)}, BOUTON, value="win", seconds=0.1,
                  note="nim-sum 3^4^5 = 2, not 0: the first player wins"),
        Published({"heaps": (1, 2, 3)}, BOUTON, value="lose", seconds=0.1,
                  note="nim-sum 1^2^3 = 0: the first player loses"),
        Published({"heaps": (5, 7, 9, 11)}, BOUTON, value="lose", seconds=2.0,
                  note="nim-sum 5^7^9^11 = 0"),
    ),
    twin=lambda heaps: NimTwin(heaps),
    limit=lambda args: None if len(args["heaps"]) <= 8 else "at most 8 heaps",
    size=_size,
    positions=_positions,
    small=({"heaps": (1, 2, 3)}, {"heaps": (2, 3, 4)}),
    examples=("solve 'nim(heaps=(3, 4, 5))'", "play 'nim(heaps=(1, 3, 5, 7))'"),
    script=files(__name__).joinpath("page.js"),
    budget=Budget(lambda a: math.prod(h + 1 for h in a["heaps"]) <= 200_000,
                  "heaps whose sizes plus one multiply to at most 200,000",
                  {"heaps": (3, 4, 5)}),
)

__all__ = ["BOUTON", "GAME", "Nim", "NimTwin", "nim_sum"]
