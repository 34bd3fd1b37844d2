"""Proof search of single positions: value and remoteness without enumerating the game.

The driver :func:`search` (:mod:`.driver`), its backends (:mod:`.backends`), the numba
kernel and table (:mod:`.kernel`), the probe plan (:mod:`.plan`), the results
(:mod:`.result`), batches of positions (:mod:`.batch`) and live analysis (:mod:`.live`).

>>> from perfectplay.engine.proof import search, SearchResult
"""

from .batch import SearchBatch, search_many
from .driver import search
from .live import LiveOracle, MoveReport, analyze_moves
from .result import SearchResult, SearchScore, score_words, value_of

__all__ = [
    "LiveOracle",
    "MoveReport",
    "SearchBatch",
    "SearchResult",
    "SearchScore",
    "analyze_moves",
    "score_words",
    "search",
    "search_many",
    "value_of",
]
