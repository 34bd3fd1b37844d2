"""The Rock's answer as data: every cell's guaranteed steps, plain distance and the rock's
threat, the walker's route and the rock's block under perfect play (what ``analyze``
returns; its text comes from :mod:`.render`, which reads it through its own protocol and
never imports this module).

>>> from perfectplay import rock
>>> res = rock.analyze(rock.parse("..X.\\n.##.\\n.E.."))
>>> res.value, res.route()[2] is not None
(11, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..grid import bfs, path_from
from ..notebook import HTMLView
from ..seedrun import SeedRun
from . import render
from .model import Maze


@dataclass(frozen=True)
class RockSolution(HTMLView):
    """Every cell's values (flat arrays, -1 = unreachable / infinite) and the answer."""

    maze: Maze
    f: np.ndarray  # the walker's guaranteed steps with the rock unspent
    d: np.ndarray  # plain distance to X
    T: np.ndarray  # the rock's best immediate threat (what blocking now forces)
    block: np.ndarray  # the cell the rock would block next to u, -1 if none helps
    step: np.ndarray  # the walker's optimal next cell while the rock is unspent
    seed: SeedRun | None = None  # the seed's method as run (method="seed")

    @property
    def value(self) -> int | None:
        """Steps the walker can guarantee from E; None when the rock can cut E off."""
        v = int(self.f[self.maze.entrance])
        return None if v < 0 else v

    def route(self) -> tuple[list[int], int | None, int | None]:
        """The walker's route from E under perfect play of both: (cells from E to X, the
        index in the route where the rock blocks, the blocked cell). When the rock never
        needs to block, the last two are None. Empty route when the value is infinite.
        Found once (it may take a BFS), then kept: the text, the map, the JSON and the
        picture all ask for it."""
        return self._route

    def strike(self) -> tuple[list[int], int | None, int | None]:
        """Where the rock strikes under perfect play, without the detour: (the cells from E
        up to the strike, or to X when it never strikes; the index of the strike in the
        route; the blocked cell). Empty when the value is infinite. Walks the best steps
        only (no search): what the explanation needs."""
        return self._strike

    @cached_property
    def _strike(self) -> tuple[list[int], int | None, int | None]:
        m = self.maze
        if self.value is None:
            return [], None, None
        u = m.entrance
        route = [u]
        while u != m.exit:
            if self.block[u] >= 0 and self.T[u] >= self.f[u] and self.T[u] > self.d[u]:
                return route, len(route) - 1, int(self.block[u])
            u = int(self.step[u])
            route.append(u)
        return route, None, None

    @cached_property
    def _route(self) -> tuple[list[int], int | None, int | None]:
        m = self.maze
        route, at, p = self.strike()
        if p is None:
            return route, None, None
        open_ = m.open.copy()
        open_[p] = False
        dist = bfs(m.nb, open_, m.exit)
        detour = path_from(dist, m.nb, open_, route[-1])[::-1]
        return route + detour[1:], at, p

    def cut_cell(self) -> int | None:
        """When f(E) is infinite: the cell nearest E whose block cuts E off from X (None if
        walls alone separate them, or if E is not cut off).

        Read off T along one shortest path, with no graph search: walking from E toward X,
        the first cell u whose only parent c cuts it off (T(u) infinite) gives c. c cuts
        off E too (E reaches u by the path, which avoids c), and no cell before it does
        (a cell c' that cut off E would be the only parent of the cell before it on the
        path, that cell cut off too: every path from it runs through c'). O(d(E) k)."""
        m = self.maze
        if self.value is not None or self.d[m.entrance] < 0:
            return None
        for u in path_from(self.d, m.nb, m.open, m.entrance)[::-1]:  # E .. X
            c = int(self.block[u])  # u's only parent (not X), when it has one
            if c >= 0 and self.T[u] < 0:
                return c
        return None

    def explain(self) -> str:
        """Words a learner can follow: the answer, the plain distance, where the rock
        strikes (see :func:`.render.explain`)."""
        return render.explain(self)

    def draw(self, style: bool = False) -> str:
        """The value map with coordinates (see :func:`.render.draw`)."""
        return render.draw(self, style)

    def to_json(self) -> dict[str, Any]:
        m = self.maze
        route, at, blocked = self.route()

        def grid(a: np.ndarray) -> list[list[int | None]]:
            return [[None if x < 0 or not m.open[r * m.cols + c] else int(x)
                     for c, x in enumerate(row)]
                    for r, row in enumerate(a.reshape(m.rows, m.cols).tolist())]

        cut = self.cut_cell()
        return {
            "value": self.value,
            "rows": m.rows, "cols": m.cols,
            "entrance": m.grid.coords(m.entrance), "exit": m.grid.coords(m.exit),
            "route": [m.grid.coords(c) for c in route],
            "block_at_step": at,
            "blocked_cell": None if blocked is None else m.grid.coords(blocked),
            "cut_cell": None if cut is None else m.grid.coords(cut),
            "f": grid(self.f), "d": grid(self.d), "T": grid(self.T),
            **({"seed": self.seed.to_json()} if self.seed is not None else {}),
        }
