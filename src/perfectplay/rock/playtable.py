"""The Rock in play: the :class:`~perfectplay.play.Table` that the terminal and the web page
play over (as the walker or as the rock)."""

from __future__ import annotations

import math
from typing import Any

from ..engine import solve
from ..errors import LimitError
from ..grid import cell_name
from ..play.state import Table
from ..textio import plural
from .model import Maze, RockOptions
from .rules import RockGame

#: The most walkable cells played: the engine solves (cells x blocked cells) positions.
PLAY_LIMIT = 900


def play_table(maze: Maze, options: RockOptions | None = None) -> Table:
    """How The Rock looks in play: the maze with the walker W and the rock's block R, cells
    named ``b3``, values as the walker's steps still needed; the engine's full solution of
    :class:`~.rules.RockGame` as the oracle.

    >>> from perfectplay.rock import parse_maze
    >>> play_table(parse_maze("E.X")).player_names
    ('walker', 'rock')
    """
    if int(maze.open.sum()) > PLAY_LIMIT:
        raise LimitError(f"play is for mazes of at most {PLAY_LIMIT} walkable cells; "
                         f"got {int(maze.open.sum())}")
    game = RockGame(maze)
    g = maze.grid

    def block_of(history: list[Any]) -> int:
        for before, ply in history:
            if before[0] == "R" and ply.move != "pass":
                return int(ply.move)
        return -1

    def render(pos: tuple, history: list[Any]) -> str:
        at = pos[1] if pos[0] != "X" else maze.exit
        blocked = block_of(history)
        lines = []
        if g.cols <= 26:
            lines.append("   " + "".join(chr(97 + c) for c in range(g.cols)))
        for r, line in enumerate(g.lines()):
            cells = []
            for c, ch in enumerate(line):
                i = g.index(r, c)
                cells.append("W" if i == at else "R" if i == blocked else ch)
            lines.append(f"{r + 1:>2} " + "".join(cells))
        return "\n".join(lines)

    def name(pos: tuple, move: Any) -> str:
        if move in ("pass", "wait"):
            return move
        return cell_name(*g.coords(move))

    def steps(v: Any, r: int | None, who: int) -> str:
        if isinstance(v, float) and math.isinf(v):
            return "the walker never arrives"
        k = -v if who == 0 else v
        return f"the walker needs {plural(k, 'more step', 'more steps')}"

    def arrived(history: list[Any]) -> str:
        walked = sum(1 for _, ply in history if ply.mover == 0)
        blocked = block_of(history)
        how = f" (the rock blocked {cell_name(*g.coords(blocked))})" if blocked >= 0 else \
            " (the rock never blocked)"
        return f"the walker reached the exit after {plural(walked, 'step')}{how}."

    def refuse(pos: tuple, text: str) -> str | None:
        if pos[0] != "R":
            return None
        near = [cell_name(*g.coords(v)) for v in game.moves(pos) if v != "pass"]
        return ("the rock can only block a cell next to the walker"
                + (f": {', '.join(near)}" if near else "") + ", or pass")

    def announce(pos: tuple, move: Any) -> str | None:
        if move == "pass":
            return "rock (computer) does not block yet"
        if move == "wait":
            return "walker (computer) waits: no way on"
        return None

    sol = solve(game)
    return Table("The Rock", game, sol, render, name, ("walker", "rock"),
                 lambda pos, plies: game.player(pos), steps, arrived, refuse=refuse,
                 announce=announce,
                 legend="Before each walker step the rock may block one cell next to the "
                        "walker, once in the game, or pass (it moves first). Values count "
                        "the walker's steps still needed with perfect play on both sides.")
