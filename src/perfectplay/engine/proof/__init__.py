"""Proof search of single positions: value and remoteness without enumerating the game.

The driver :func:`search` (:mod:`.driver`), its backends (:mod:`.backends`), the numba
kernel and table (:mod:`.kernel`), the probe plan (:mod:`.plan`), the results
(:mod:`.result`), batches of positions (:mod:`.batch`), live analysis (:mod:`.live`),
what a search may spend (:class:`Limits`, :mod:`.limits`) and df-pn proof-number search,
who wins and no more (:func:`prove`, :mod:`.dfpn`).

>>> from perfectplay.engine.proof import search, SearchResult, Limits
"""

from typing import TYPE_CHECKING

from ...lazy import lazy_names
from .driver import search
from .limits import Limits
from .result import SearchResult, SearchScore, score_words, value_of

if TYPE_CHECKING:
    from .batch import SearchBatch, search_many
    from .dfpn import ProofResult, prove
    from .live import LiveOracle, MoveReport, analyze_moves

#: batches, live analysis and df-pn (numba's kernels), read on first use: the search of a
#: Python game loads no numba
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(("SearchBatch", "search_many"), "perfectplay.engine.proof.batch"),
    **dict.fromkeys(("ProofResult", "prove"), "perfectplay.engine.proof.dfpn"),
    **dict.fromkeys(("LiveOracle", "MoveReport", "analyze_moves"),
                    "perfectplay.engine.proof.live")}, globals())

__all__ = [
    "Limits",
    "LiveOracle",
    "MoveReport",
    "ProofResult",
    "SearchBatch",
    "SearchResult",
    "SearchScore",
    "analyze_moves",
    "prove",
    "score_words",
    "search",
    "search_many",
    "value_of",
]
