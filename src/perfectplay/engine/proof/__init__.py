"""Proof search of single positions: value and remoteness without enumerating the game.

The driver :func:`search` (:mod:`.driver`), its backends (:mod:`.backends`), the numba
kernel and table (:mod:`.kernel`), the probe plan (:mod:`.plan`), the results
(:mod:`.result`), batches of positions (:mod:`.batch`), live analysis (:mod:`.live`) and
what a search may spend (:class:`Limits`, :mod:`.limits`).

>>> from perfectplay.engine.proof import search, SearchResult, Limits
"""

from .batch import SearchBatch, search_many
from .driver import search
from .limits import Limits
from .live import LiveOracle, MoveReport, analyze_moves
from .result import SearchResult, SearchScore, score_words, value_of

__all__ = [
    "Limits",
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
