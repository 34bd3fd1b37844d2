"""No's answers as data: :class:`Nearest` (one start piece's nearest, every tie) and
:class:`NearestResult` (what ``analyze`` returns; its text comes from :mod:`.render`, which
reads it through its own protocol and never imports this module; :class:`Nearest` lives in
:mod:`.model`, below both).

>>> from perfectplay import no
>>> no.analyze(no.parse("3\\n0 0\\n2 2\\n0 1\\n0\\n")).answer.pieces
[2]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..notebook import HTMLView
from ..seedrun import SeedRun
from . import render
from .model import Nearest, NoBoard

__all__ = ["Nearest", "NearestResult"]


@dataclass(frozen=True)
class NearestResult(HTMLView):
    """The nearest pieces to the start (every tie), and with ``all`` every piece's nearest
    (None where no other piece can be reached)."""

    board: NoBoard
    answer: Nearest
    block: bool = False
    everyone: list[tuple[int | None, int | None]] | None = None  # (nearest, distance)
    seed: SeedRun | None = None  # the seed's method as run (method="seed")

    def explain(self) -> str:
        """The nearest pieces, every tie, and every piece's nearest when asked for."""
        return render.explain(self)

    def draw(self, style: bool = False) -> str:
        """The distance map (see :func:`.render.draw`)."""
        return render.draw(self, style)

    def cells(self) -> list[str]:
        """The distance map's rows, unframed (see :func:`distance_cells`; one BFS, kept)."""
        return self._cells

    @cached_property
    def _cells(self) -> list[str]:
        b = self.board
        labels = b.labels or render.piece_letters(len(b.pieces))
        return render.distance_cells(b.shape, b.pieces, b.start, b.walls, labels)

    def to_json(self) -> dict[str, Any]:
        b, ans = self.board, self.answer
        data: dict[str, Any] = {
            "start": b.start, "start_name": b.name(b.start), "distance": ans.distance,
            "nearest": ans.pieces, "nearest_names": [b.name(i) for i in ans.pieces],
            "unreachable": ans.unreachable,
            "unreachable_names": [b.name(i) for i in ans.unreachable],
            "pieces": b.pieces.tolist(),
            "names": [b.name(i) for i in range(len(b.pieces))], "block": self.block,
            "numbering": "indices (start, nearest, piece) count from 0 as the kth-no "
                         "format does; names (P1, P2, ... or a drawn board's labels) are "
                         "what people read"}
        if self.everyone is not None:
            data["all"] = [{"piece": i, "name": b.name(i), "nearest": j,
                            "nearest_name": None if j is None else b.name(j), "distance": d}
                           for i, (j, d) in enumerate(self.everyone)]
        if self.seed is not None:
            data["seed"] = self.seed.to_json()
        return data
