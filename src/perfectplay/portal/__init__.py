"""Closing the Portal: two players wall cells in turn; whoever disconnects the portals loses.

The contract every game shares: :func:`parse` (text -> a :class:`Board`), :func:`analyze` (a
board -> a :class:`PortalResult` with ``explain()``, ``draw()``, ``to_json()``), the judge
format on top.

>>> from perfectplay import portal
>>> portal.analyze(portal.parse("1 10\\n..O.#...O.")).winner
<Winner.BELLA: 'Bella'>
"""

from .board import Board, board_from_edges, board_from_grid, parse_board
from .formats import JUDGES, draw, judge_devc_portal
from .game import PortalGame, exact_winner
from .solver import ALIF, BELLA, Method, PortalResult, SafeMoves, Winner, safe_moves, solve

parse = parse_board
analyze = solve

__all__ = [
    "ALIF", "BELLA", "JUDGES", "Board", "Method", "PortalGame", "PortalResult", "SafeMoves",
    "Winner", "analyze", "board_from_edges", "board_from_grid", "draw", "exact_winner",
    "judge_devc_portal", "parse", "parse_board", "safe_moves", "solve",
]
