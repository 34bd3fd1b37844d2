"""The Rock's rules as an engine game.

Both are oracles for the fast solver: :class:`RockGame` is solved by the engine's label
setting (a cost game: the walker pays one per step, the rock pays nothing), and
:func:`~.seed.seed_values` (in :mod:`.seed`) is the seed's recurrence iterated to
convergence over one BFS per blocked cell, O(n^2) plus up to n sweeps.
"""

from __future__ import annotations

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
