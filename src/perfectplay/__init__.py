"""perfectplay: solve two-player games exactly, explain the solution, play them perfectly.

>>> import perfectplay
>>> perfectplay.Value.WIN.flipped()
<Value.LOSE: 'lose'>
"""

import logging

from .numbaboot import skip_blas_probe

skip_blas_probe()  # before numba loads its first kernel: 0.15 s a process, see numbaboot

from .engine import (  # noqa: E402
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
from .engine.solved.saved import SavedSolution, load  # noqa: E402
from .errors import GameError, InputError, LimitError, PerfectplayError  # noqa: E402

__version__ = "0.1.0"
logging.getLogger(__name__).addHandler(logging.NullHandler())
__all__ = [
    "GameError", "InputError", "LimitError", "Limits", "MoveValue", "PerfectplayError",
    "SearchBatch", "SearchResult", "SavedSolution", "Solution", "Value", "check_game", "load",
    "search", "search_many", "solve",
    "__version__",
]
