"""perfectplay: solve two-player games exactly, explain the solution, play them perfectly.

>>> import perfectplay
>>> perfectplay.Value.WIN.flipped()
<Value.LOSE: 'lose'>
"""

from .engine import MoveValue, Solution, Value, check_game, solve
from .errors import GameError, InputError, LimitError, PerfectplayError

__version__ = "0.1.0"
__all__ = [
    "GameError", "InputError", "LimitError", "MoveValue", "PerfectplayError", "Solution",
    "Value", "check_game", "solve", "__version__",
]
