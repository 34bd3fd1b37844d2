"""Closing the Portal: two players wall cells in turn; whoever disconnects the portals loses.

>>> from perfectplay.portal import parse_board, solve
>>> solve(parse_board("1 10\\n..O.#...O.")).winner
'Bella'
"""

from .board import Board, board_from_edges, board_from_grid, parse_board
from .formats import JUDGES, draw, judge_devc_portal
from .game import PortalGame, exact_winner
from .solver import PortalResult, SafeMoves, safe_moves, solve

__all__ = [
    "JUDGES", "Board", "PortalGame", "PortalResult", "SafeMoves", "board_from_edges",
    "board_from_grid", "draw", "exact_winner", "judge_devc_portal", "parse_board",
    "safe_moves", "solve",
]
