"""perfectplay's generic engine: strong solving of any two-player game a user defines.

>>> from perfectplay.engine import solve, Value
"""

from .check import CheckReport, check_game
from .graph import GameGraph, discover
from .protocol import Game, Value
from .solution import Counts, MoveValue, Solution, describe
from .solve import solve, solve_graph

__all__ = [
    "CheckReport", "Counts", "Game", "GameGraph", "MoveValue", "Solution", "Value",
    "check_game", "describe", "discover", "solve", "solve_graph",
]
