"""Tier-by-tier solving of a compiled game in memory.

The driver and :class:`TierSolution` (:mod:`.solver`), the numba kernels of one tier
(:mod:`.kernels`).

>>> from perfectplay.engine.tiers import TierSolution, solve_tiers
"""

from .kernels import find_key, tier_index
from .solver import TierSolution, enumerate_tiers, solve_tiers

__all__ = [
    "TierSolution",
    "enumerate_tiers",
    "find_key",
    "solve_tiers",
    "tier_index",
]
