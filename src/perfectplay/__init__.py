"""perfectplay: solve two-player games exactly, explain the solution, play them perfectly.

>>> import perfectplay
>>> perfectplay.Value.WIN.flipped()
<Value.LOSE: 'lose'>
"""

import logging
from typing import TYPE_CHECKING

from .errors import GameError, InputError, LimitError, PerfectplayError
from .lazy import lazy_names
from .numbaboot import after_numba

after_numba()  # numba, when something loads it, skips its BLAS probe: see numbaboot

if TYPE_CHECKING:
    from .engine import (
        Limits,
        MoveValue,
        SearchBatch,
        SearchResult,
        Solution,
        Value,
        check_game,
        search,
        search_many,
        solve,
    )
    from .engine.solved.saved import SavedSolution, load

#: The public names and the module each is read from on first use: ``import perfectplay``
#: loads none of the engine (nor numpy, nor numba) until a name is asked for (issue 70).
_LAZY = {
    **dict.fromkeys(("Limits", "MoveValue", "SearchBatch", "SearchResult", "Solution", "Value",
                     "check_game", "search", "search_many", "solve"), "perfectplay.engine"),
    **dict.fromkeys(("SavedSolution", "load"), "perfectplay.engine.solved.saved"),
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())


__version__ = "0.1.0"
logging.getLogger(__name__).addHandler(logging.NullHandler())
__all__ = [
    "GameError", "InputError", "LimitError", "Limits", "MoveValue", "PerfectplayError",
    "SearchBatch", "SearchResult", "SavedSolution", "Solution", "Value", "check_game", "load",
    "search", "search_many", "solve",
    "__version__",
]
