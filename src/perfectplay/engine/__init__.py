"""perfectplay's generic engine: strong solving of any two-player game a user defines.

The names below are read from their rooms on first use, so that importing the engine (or a
Python game's solve, which needs neither) loads no numba kernel and no search: the compiled
door (:mod:`.compiled`), the searches (:mod:`.proof`) and the solved forms are imported when
a name of theirs is asked for (issue 70).

>>> from perfectplay.engine import solve, Value
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names
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

if TYPE_CHECKING:
    from .check import CheckReport, check_game
    from .compiled import LOSE, ONGOING, TIE, WIN, CompiledGame
    from .discovery import GameGraph, discover
    from .proof import Limits, SearchBatch, SearchResult, search, search_many
    from .solved import Counts, MoveValue, Solution, Solved, UnknownPosition, describe
    from .strong import solve, solve_graph

#: Each lazy name and the module it is read from.
_LAZY = {
    **dict.fromkeys(("CheckReport", "check_game"), "perfectplay.engine.check"),
    **dict.fromkeys(("LOSE", "ONGOING", "TIE", "WIN", "CompiledGame"),
                    "perfectplay.engine.compiled"),
    **dict.fromkeys(("GameGraph", "discover"), "perfectplay.engine.discovery"),
    **dict.fromkeys(("Limits", "SearchBatch", "SearchResult", "search", "search_many"),
                    "perfectplay.engine.proof"),
    **dict.fromkeys(("Counts", "MoveValue", "Solution", "Solved", "UnknownPosition",
                     "describe"), "perfectplay.engine.solved"),
    **dict.fromkeys(("solve", "solve_graph"), "perfectplay.engine.strong"),
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "CANNOT_LOSE", "CANNOT_WIN", "LOSE", "LOSES_IN_2", "MUST_LOSE", "ONGOING", "TIE", "WIN",
    "WINS_IN_1", "NOT_SOONER", "CheckReport",
    "CompiledGame",
    "Counts", "Game", "GameGraph", "Limits", "MoveValue", "SearchBatch", "SearchResult", "Solution",
    "Solved",
    "UnknownPosition", "Value", "check_game", "describe", "discover", "search",
    "search_many", "solve",
    "solve_graph",
]
