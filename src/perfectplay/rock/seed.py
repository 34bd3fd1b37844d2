"""The seed's own method for The Rock, runnable and traced (``method="seed"``).

The seed (a UVa 10381 write-up, 2013) defines f(u), the steps the walker can guarantee from
u while the rock is unspent: f(X) = 0 and f(u) = max(min_v 1 + f(v), max_v g(u, v)) over u's
neighbours v, where g(u, v) is the shortest way from u to X with v blocked. It precomputes
g by one BFS from X per blocked cell, starts from f = infinity (f(X) = 0) and sweeps the
recurrence over every cell until nothing changes. O(n^2) for the BFSs plus up to n sweeps
of O(n); plain Python, as the seed's readers would write it.

>>> from perfectplay.rock.model import parse_maze
>>> f, work = seed_values_counted(parse_maze("..X.\\n.##.\\n.E.."))
>>> f[9]
11
"""

from __future__ import annotations

import math
from collections import deque

from ..errors import LimitError
from ..grid import cell_name
from ..seedrun import Tracer
from ..textio import plural
from .model import Maze

#: Walkable cells the seed's method runs on: n BFSs of n cells in pure Python (1,600 cells
#: take a few seconds).
SEED_CELLS = 1600
#: Changed cells a sweep's line names (the page's board shows them all).
NAMED = 6


def adjacency(maze: Maze) -> dict[int, list[int]]:
    """Each walkable cell's walkable 4-neighbours (the maze's table, as lists)."""
    return {u: [int(v) for v in maze.nb[u] if v >= 0]
            for u in range(maze.rows * maze.cols) if maze.open[u]}


def check_size(maze: Maze) -> None:
    """A :class:`LimitError` before any work when the maze is too large for the seed."""
    n = int(maze.open.sum())
    if n > SEED_CELLS:
        raise LimitError(f"the seed's method runs one BFS per cell in pure Python: at most "
                         f"{SEED_CELLS:,} walkable cells, got {n:,}")


def seed_values(maze: Maze) -> dict[int, float]:
    """f for every walkable cell by the seed's method (math.inf where the rock can cut the
    walker off). O(n^2 + sweeps * n)."""
    return seed_values_counted(maze)[0]


def seed_values_counted(maze: Maze, tracer: Tracer | None = None
                        ) -> tuple[dict[int, float], int]:
    """:func:`seed_values` and the work done (BFS visits plus cell updates); ``tracer``
    records the precomputation and then each sweep: which cells changed, to what."""
    adj = adjacency(maze)
    x = maze.exit
    g, work = {}, 0
    for v in adj:
        if v != x:
            g[v] = _bfs_avoiding(adj, x, v)
            work += len(g[v])
    on = tracer is not None and tracer.on
    if on:
        assert tracer is not None
        tracer.add("precompute g", f"one BFS from the exit per blockable cell: {len(g):,} "
                   f"BFSs, {work:,} cells visited; then f = infinity everywhere, f(X) = 0")
    f = {u: math.inf for u in adj}
    f[x] = 0
    sweep, changed = 0, True
    while changed:
        sweep += 1
        changes: list[tuple[int, float, float]] = []
        for u in adj:
            if u == x:
                continue
            walk = min((1 + f[v] for v in adj[u]), default=math.inf)
            block = max((g[v].get(u, math.inf) for v in adj[u] if v != x), default=-math.inf)
            work += len(adj[u])
            new = max(walk, block)
            if new != f[u]:
                changes.append((u, f[u], new))
                f[u] = new
        changed = bool(changes)
        if on:
            assert tracer is not None
            _trace_sweep(tracer, maze, sweep, changes)
    return f, work


def _bfs_avoiding(adj: dict[int, list[int]], source: int, blocked: int) -> dict[int, int]:
    dist = {source: 0}
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for w in adj[u]:
            if w != blocked and w not in dist:
                dist[w] = dist[u] + 1
                queue.append(w)
    return dist


def _show(v: float) -> str:
    return "inf" if v == math.inf else str(int(v))


def _trace_sweep(tracer: Tracer, maze: Maze, sweep: int,
                 changes: list[tuple[int, float, float]]) -> None:
    if not changes:
        tracer.add(f"sweep {sweep}", "nothing changed: the values have converged")
        return
    named = ", ".join(f"{cell_name(*maze.grid.coords(u))} {_show(a)}->{_show(b)}"
                      for u, a, b in changes[:NAMED])
    more = f", and {len(changes) - NAMED:,} more" if len(changes) > NAMED else ""
    tracer.add(f"sweep {sweep}", f"{plural(len(changes), 'cell')} changed: {named}{more}",
               cells=[maze.grid.coords(u) for u, _, _ in changes],
               values=[_show(b) for _, _, b in changes])
