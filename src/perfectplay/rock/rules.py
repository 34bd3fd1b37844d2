"""The Rock's rules as an engine game, and the seed's algorithm, written straight.

Both are oracles for the fast solver: :class:`RockGame` is solved by the engine's label
setting (a cost game: the walker pays one per step, the rock pays nothing), and
:func:`seed_values` is the seed's recurrence iterated to convergence over one BFS per
blocked cell, O(n^2) plus up to n sweeps.
"""

from __future__ import annotations

import math
from collections import deque

from .model import Maze

PASS = "pass"


class RockGame:
    """Positions: ``("R", u)`` the rock may block a neighbour of the walker at u (or pass);
    ``("W", u, b)`` the walker moves from u, with b the blocked cell (-1 while the rock is
    unspent); ``("X",)`` the walker has arrived. The rock blocks only cells next to the
    walker: a block further away is learnt when the walker gets there, which is the same as
    blocking then. The exit cannot be blocked. A walker with no move waits (cost 1, forever).

    >>> from perfectplay import solve
    >>> from perfectplay.rock.model import parse_maze
    >>> solve(RockGame(parse_maze("..X.\\n.##.\\n.E.."))).value()   # steps the rock forces
    11
    """

    def __init__(self, maze: Maze) -> None:
        self.maze = maze
        self.adj = {}
        for u in map(int, maze.open.nonzero()[0]):
            self.adj[u] = [int(w) for w in maze.nb[u] if w >= 0 and maze.open[w]]

    def initial(self) -> tuple:
        return ("R", self.maze.entrance)

    def player(self, pos: tuple) -> int:
        return 1 if pos[0] == "R" else 0  # 0 = the walker, who pays

    def moves(self, pos: tuple) -> list:
        if pos[0] == "X":
            return []
        if pos[0] == "R":
            return [PASS] + [v for v in self.adj[pos[1]] if v != self.maze.exit]
        _, u, b = pos
        steps = [v for v in self.adj[u] if v != b]
        return steps or ["wait"]

    def play(self, pos: tuple, move: object) -> tuple:
        if pos[0] == "R":
            return ("W", pos[1], -1 if move == PASS else move)
        _, u, b = pos
        if move == "wait":
            return pos
        if move == self.maze.exit:
            return ("X",)
        return ("R", move) if b == -1 else ("W", move, b)

    def payoff(self, pos: tuple, move: object) -> int:
        return -1 if pos[0] == "W" else 0

    def outcome(self, pos: tuple) -> int | None:
        return 0 if pos[0] == "X" else None


def _bfs_avoiding(maze: Maze, adj: dict[int, list[int]], blocked: int) -> dict[int, int]:
    dist = {maze.exit: 0}
    queue = deque([maze.exit])
    while queue:
        u = queue.popleft()
        for w in adj[u]:
            if w != blocked and w not in dist:
                dist[w] = dist[u] + 1
                queue.append(w)
    return dist


def seed_values(maze: Maze) -> dict[int, float]:
    """f for every walkable cell by the seed's method: g(u, v) from one BFS per blocked cell
    v, then f(u) = max(min_v 1 + f(v), max_v g(u, v)) swept until nothing changes, starting
    from f = inf and f(X) = 0. Plain Python, O(n^2 + sweeps * n)."""
    adj = RockGame(maze).adj
    g = {v: _bfs_avoiding(maze, adj, v) for v in adj if v != maze.exit}
    f = {u: math.inf for u in adj}
    f[maze.exit] = 0
    changed = True
    while changed:
        changed = False
        for u in adj:
            if u == maze.exit:
                continue
            walk = min((1 + f[v] for v in adj[u]), default=math.inf)
            block = max((g[v].get(u, math.inf) for v in adj[u] if v != maze.exit),
                        default=-math.inf)
            new = max(walk, block)
            if new != f[u]:
                f[u] = new
                changed = True
    return f
