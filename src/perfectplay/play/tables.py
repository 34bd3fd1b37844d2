"""How each bundled game looks in play (a :class:`~.state.Table` per game), and a user's game
with its optional ``draw(pos)``, ``move_name(move)`` and ``parse_move(text)`` hooks."""

from __future__ import annotations

import math
from typing import Any

from ..errors import LimitError, show
from ..textio import plural
from .state import Oracle, Table

COINS_PLAY_LIMIT = 400
ROCK_PLAY_LIMIT = 900  # walkable cells: the engine solves (cells x blocked cells) positions


def coins_table(row: list[int]) -> Table:
    from .. import coins as c
    from ..engine import solve

    if len(row) > COINS_PLAY_LIMIT:
        raise LimitError(f"play is for rows of at most {COINS_PLAY_LIMIT} coins (the engine "
                         f"keeps every position); got {len(row)}")
    game = c.CoinsGame(row)

    def scores(history: list[Any]) -> list[int]:
        score = [0, 0]
        for pos, ply in history:
            score[ply.mover] += game.payoff(pos, ply.move)
        return score

    def render(pos: tuple[int, int], history: list[Any]) -> str:
        i, j = pos
        mid = " ".join(f"[{x}]" for x in row[i:j])
        first, second = scores(history)
        return (f"left: {mid or '(no coins)'}\n"
                f"totals: first player {first}, second player {second}")

    def name(pos: tuple[int, int], move: str) -> str:
        i, j = pos
        return f"{move}({row[i] if move == 'L' else row[j - 1]})"

    def margin(v: Any, r: int | None, _who: int) -> str:
        return f"{v:+d} over the rest" if r is not None else str(v)

    def totals(history: list[Any]) -> str:
        first, second = scores(history)
        result = ("the first player wins" if first > second else "the second player wins"
                  if second > first else "a tie")
        return f"first player {first}, second player {second}: {result}."

    return Table("Coins in a line", game, solve(game), render, name,
                 ("first", "second"), lambda pos, plies: plies % 2, margin, totals)


def rock_table(maze: Any) -> Table:
    from ..engine import solve
    from ..grid import cell_name
    from ..rock import RockGame

    if int(maze.open.sum()) > ROCK_PLAY_LIMIT:
        raise LimitError(f"play is for mazes of at most {ROCK_PLAY_LIMIT} walkable cells; "
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
            return "rock (computer) waits"
        if move == "wait":
            return "walker (computer) waits: no way on"
        return None

    sol = solve(game)
    return Table("The Rock", game, sol, render, name, ("walker", "rock"),
                 lambda pos, plies: game.player(pos), steps, arrived, refuse=refuse,
                 announce=announce)


PORTAL_EXACT_CELLS = 14


def portal_table(board: Any) -> Table:
    from ..engine import solve
    from ..grid import Kind, cell_name
    from ..portal import PortalGame
    from ..portal.oracle import PortalOracle
    from ..portal.solver import is_bipartite_from

    game = PortalGame(board)
    if game.k <= PORTAL_EXACT_CELLS:
        oracle: Oracle = solve(game)
    elif board.kind == Kind.SQUARE or is_bipartite_from(board.nb, board.open, board.portals[0]):
        oracle = PortalOracle(game)
    else:
        raise LimitError(f"play on a non-bipartite board needs exhaustive search: at most "
                         f"{PORTAL_EXACT_CELLS} empty cells, got {game.k}")
    g = board.grid

    def render(walls: int, _history: list[Any]) -> str:
        if g is None:
            walled = sorted(board.name(c) for k, c in enumerate(game.cells) if walls >> k & 1)
            return f"walled: {walled}"
        new = {g.coords(c): "+" for k, c in enumerate(game.cells) if walls >> k & 1}
        shown = g.with_cells(new).lines()
        head = ["   " + "".join(chr(97 + c) for c in range(g.cols))] if g.cols <= 26 else []
        return "\n".join(head + [f"{r + 1:>2} {line}" for r, line in enumerate(shown)])

    def name(walls: int, move: int) -> str:
        c = game.cells[move]
        return cell_name(*g.coords(c)) if g is not None else str(c)

    return Table("Closing the Portal ('+' = walled in this game)", game, oracle, render,
                 name, ("Alif", "Bella"), lambda pos, plies: plies % 2)


def user_table(game: Any, title: str) -> Table:
    from ..engine import solve

    sol = solve(game)
    has_player = callable(getattr(game, "player", None))
    # optional hooks: a picture, a move's name, reading a typed move
    draw = getattr(game, "draw", None)
    name = getattr(game, "move_name", None)
    parse = getattr(game, "parse_move", None)
    picture = draw if callable(draw) else show
    return Table(title, game, sol, lambda pos, _history: str(picture(pos)),
                 (lambda pos, m: str(name(m))) if callable(name) else (lambda pos, m: str(m)),
                 ("player 1", "player 2"),
                 (lambda pos, plies: game.player(pos)) if has_player
                 else (lambda pos, plies: plies % 2),
                 parse_move=(lambda pos, text: parse(text)) if callable(parse) else None)
