"""perfectplay's generic engine: strong solving of any two-player game a user defines.

>>> from perfectplay.engine import solve, Value
"""

from .check import CheckReport, check_game
from .compiled import LOSE, ONGOING, TIE, WIN, CompiledGame
from .discovery import GameGraph, discover
from .proof import Limits, SearchBatch, SearchResult, search, search_many
from .protocol import (
    CANNOT_LOSE,
    CANNOT_WIN,
    LOSES_IN_2,
    MUST_LOSE,
    NOT_SOONER,
    WINS_IN_1,
    Game,
    Value,
)
from .solved import Counts, MoveValue, Solution, Solved, UnknownPosition, describe
from .strong import solve, solve_graph

__all__ = [
    "CANNOT_LOSE", "CANNOT_WIN", "LOSE", "LOSES_IN_2", "MUST_LOSE", "ONGOING", "TIE", "WIN",
    "WINS_IN_1", "NOT_SOONER", "CheckReport",
    "CompiledGame",
    "Counts", "Game", "GameGraph", "Limits", "MoveValue", "SearchBatch", "SearchResult",
    "Solution",
    "Solved",
    "UnknownPosition", "Value", "check_game", "describe", "discover", "search",
    "search_many", "solve",
    "solve_graph",
]
