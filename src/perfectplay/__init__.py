"""perfectplay: solve two-player games exactly, explain the solution, play them perfectly.

>>> import perfectplay
>>> perfectplay.Value.WIN.flipped()
<Value.LOSE: 'lose'>
"""

import logging

from .engine import MoveValue, SearchResult, Solution, Value, check_game, search, solve
from .engine.saved import SavedSolution, load
from .errors import GameError, InputError, LimitError, PerfectplayError

__version__ = "0.1.0"
logging.getLogger(__name__).addHandler(logging.NullHandler())
__all__ = [
    "GameError", "InputError", "LimitError", "MoveValue", "PerfectplayError", "SearchResult",
    "SavedSolution", "Solution", "Value", "check_game", "load", "search", "solve",
    "__version__",
]
