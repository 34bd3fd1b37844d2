"""The catalog of famous games: each a package here (its rules, its plain Python twin, its
published results, the page's budgets and board code), listed by
:data:`perfectplay.registry.CATALOG` and described by a
:class:`~perfectplay.registry.CatalogGame` (the registry holds every kind's contract;
:mod:`.entry` reproduces results). Users build them through :mod:`perfectplay.games`
(``connect4(width=5, height=4)``) or by name on the command line
(``perfectplay solve 'connect4(width=5, height=4)'``).
"""

from ..registry import Budget, LiveBudget
from .entry import (
    SUITE_SECONDS,
    CatalogGame,
    Listing,
    Param,
    Pasted,
    Published,
    Reproduced,
    reproduce,
)

__all__ = ["SUITE_SECONDS", "Budget", "CatalogGame", "Listing", "LiveBudget", "Param",
           "Pasted", "Published", "Reproduced", "reproduce"]
