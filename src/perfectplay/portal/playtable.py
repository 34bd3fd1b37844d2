"""Closing the Portal in play: the :class:`~perfectplay.play.Table` that the terminal and the
web page play over."""

from __future__ import annotations

from typing import Any, cast

from ..engine import solve
from ..errors import InputError
from ..grid import cell_name
from ..play.state import Oracle, Table
from .model import Board, KindName, PortalOptions
from .oracle import PortalOracle
from .rules import PortalGame
from .solver import uses_parity_rule

#: Boards with at most this many empty cells are played over the engine's full solution
#: (exact remoteness); larger ones position by position (the parity rule, the Grundy
#: table or proof search).
PLAY_EXACT_CELLS = 14


def play_table(board: Board, options: PortalOptions | None = None) -> Table:
    """How the Portal looks in play: the board with this game's walls as '+', moves named
    by cell; the engine's full solution as the oracle on small boards, and on larger ones
    :class:`~.oracle.PortalOracle` (the parity rule, the Grundy table or proof search a
    position, as ``options.method`` says).

    >>> from perfectplay.portal import parse_board
    >>> play_table(parse_board("O..O")).player_names
    ('Alif', 'Bella')
    """
    game = PortalGame(board)
    opts = options or PortalOptions(kind=cast(KindName, board.kind.value))
    if opts.method == "parity" and not uses_parity_rule(board):
        raise InputError("the parity rule holds only on bipartite boards; this one is not: "
                         "play with --method auto, grundy or search")
    if game.k <= PLAY_EXACT_CELLS and opts.method == "auto":
        oracle: Oracle = solve(game)
    else:
        oracle = PortalOracle(game, opts)
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

    exact = not isinstance(oracle, PortalOracle)
    legend = ("Each turn a player walls an empty cell; walling a cut cell (one that "
              "disconnects the portals) loses at once. " + (
                  "Values are exact, with the moves left to the end." if exact else
                  f"Values come from {_how(board)}: win or lose is exact, but how many "
                  "moves are left is not computed on a board this big, so most moves show "
                  "only win or lose; a cut cell shows 'lose in 1'."))
    return Table("Closing the Portal ('+' = walled in this game)", game, oracle, render,
                 name, ("Alif", "Bella"), lambda pos, plies: plies % 2, legend=legend)


def _how(board: Board) -> str:
    return ("the parity rule" if uses_parity_rule(board) else
            "the Grundy table or proof search, a position at a time")
