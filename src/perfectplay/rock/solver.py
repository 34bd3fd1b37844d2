"""The fast exact solver for The Rock (UVa 10381).

1. d = BFS distance to the exit X over walkable cells.
2. Unique-parent lemma: only a cell u with exactly one parent p != X can be hurt by a block
   next to it, and only by blocking p; then the threat is T(u) = dist(u -> X in G - p),
   else T(u) = d(u).
3. T(u) is infinite when p separates u from X (cut vertex, low-points); otherwise heavy
   children (largest subtree) first, by a short detour search or else the heavy/light
   formula (:func:`perfectplay.rock.kernels.heavy_threat`); only children by the exits
   below them; light children by an exact vertex-failure detour search
   (:func:`perfectplay.rock.kernels.detour`) that stops on what their siblings' detours
   already tell (bounds and exact anchor paths); long searches switch to a stronger
   consistent heuristic (:func:`perfectplay.rock.kernels._potential`).
4. f(u) = max(T(u), 1 + min_v f(v)) by label setting, f(X) = 0.

The walker's guaranteed steps from E are f(E). Total time O(n k) on random mazes; heavy
and only children cost O(n log n) in all; light children's searches have no proven bound
inside their heavy sibling's subtree on mazes built against them (docs/algorithms.md, "The
Rock"; measured in benchmarks/rock_adversary.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InputError
from ..grid import bfs, path_from
from . import kernels
from .maze import Maze

INFINITE = -1
#: Pops a heavy child's detour search may take (at least) before the heavy/light formula
#: answers instead. The formula needs every cell's exits (O(m), about two BFS), found when a
#: first heavy search runs out of ``HEAVY_BUDGET``; from then on the budget is
#: ``EXITS_BUDGET``, since the formula costs only a pass and a Dijkstra over the light
#: subtrees; and never less than ``LIGHT_FACTOR`` times their size. Random mazes settle in
#: 2-3 pops and never pay for the exits.
HEAVY_BUDGET = 128
EXITS_BUDGET = 8
LIGHT_FACTOR = 1
#: Once the searches have popped this many cells per open cell, every cell's exits are
#: found (O(m), about 50 ms at 10^6 cells) and the later searches use the stronger
#: heuristic; random mazes with few walls never get there.
LONG_SEARCH = 2


@dataclass(frozen=True)
class RockSolution:
    """Every cell's values (flat arrays, -1 = unreachable / infinite) and the answer."""

    maze: Maze
    f: np.ndarray  # the walker's guaranteed steps with the rock unspent
    d: np.ndarray  # plain distance to X
    T: np.ndarray  # the rock's best immediate threat (what blocking now forces)
    block: np.ndarray  # the cell the rock would block next to u, -1 if none helps
    step: np.ndarray  # the walker's optimal next cell while the rock is unspent
    pops: int  # cells popped by the detour searches (a measure of work)
    light_pops: int = 0  # of which light children's searches (the part with no proven bound)

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

    @cached_property
    def _route(self) -> tuple[list[int], int | None, int | None]:
        m = self.maze
        if self.value is None:
            return [], None, None
        u = m.entrance
        route = [u]
        while u != m.exit:
            if self.block[u] >= 0 and self.T[u] >= self.f[u] and self.T[u] > self.d[u]:
                p = int(self.block[u])
                open_ = m.open.copy()
                open_[p] = False
                dist = bfs(m.nb, open_, m.exit)
                detour = path_from(dist, m.nb, open_, u)[::-1]
                return route + detour[1:], len(route) - 1, p
            u = int(self.step[u])
            route.append(u)
        return route, None, None

    def cut_cell(self) -> int | None:
        """When f(E) is infinite: the cell whose block cuts E off from X (None if walls
        alone separate them, or if E is not cut off)."""
        m = self.maze
        if self.value is not None or self.d[m.entrance] < 0:
            return None
        disc, fin, low, dpar = kernels.lowpoints(m.nb, m.open, m.exit)
        path = path_from(self.d, m.nb, m.open, m.entrance)  # X .. E
        for c in path[::-1][1:-1]:
            # c separates E from X when E lies below a DFS child of c with low >= disc[c]
            if kernels.separates(m.nb, disc, fin, low, dpar, c, m.entrance):
                return int(c)
        return None

    def explain(self) -> str:
        """Words a learner can follow: the answer, the plain distance, where the rock
        strikes (see :func:`perfectplay.rock.explain`)."""
        from .formats import explain

        return explain(self)

    def draw(self, style: bool = False) -> str:
        """The value map with coordinates (see :func:`perfectplay.rock.draw`)."""
        from .formats import draw

        return draw(self, style)

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
        }


def solve(maze: Maze, chains: bool = True, heavy: bool = True) -> RockSolution:
    """Solve The Rock exactly for every cell. ``chains=False`` turns off the corridor
    sharing of the detour search, ``heavy=False`` the heavy/light hybrid (the formula, the
    only-child rule and the siblings' bounds: the search alone, slower on corridors and
    adversarial mazes; for comparison only).

    >>> from perfectplay.rock.maze import parse_maze
    >>> solve(parse_maze("..X.\\n.##.\\n.E..")).value
    11
    """
    if not isinstance(maze, Maze):
        raise InputError(f"solve() takes a Maze (see parse_maze), got {type(maze).__name__}")
    nb, open_, x = maze.nb, maze.open, maze.exit
    d, order, tree, unique = kernels.bfs_tree(nb, open_, x)
    tin, tout = kernels.euler_intervals(tree, order)
    disc, fin, low, dpar = kernels.lowpoints(nb, open_, x)
    T, pops, _, _, light_pops = kernels.threats(
        nb, d, unique, tin, tout, disc, fin, low, dpar, x, chains, order, tree,
        HEAVY_BUDGET if heavy else 0, LONG_SEARCH, LIGHT_FACTOR, EXITS_BUDGET)
    f, step = kernels.label_setting(nb, T, x)
    block = np.where((unique >= 0) & (unique != x), unique, -1)
    return RockSolution(maze, f, d, T, block, step, int(pops), int(light_pops))
