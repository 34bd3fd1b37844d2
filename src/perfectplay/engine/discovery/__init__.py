"""Discovery: positions -> ids, moves as CSR arrays (:class:`GameGraph`).

The walk (:mod:`.graph`), one batch of positions asked of the game (:mod:`.expand`) and the
key stores that number positions (:mod:`.keystores`).

>>> from perfectplay.engine.discovery import GameGraph, discover
"""

from .expand import hashable, is_move_list, is_points, is_real, points
from .graph import (
    GameGraph,
    MemoryCap,
    discover,
    memory_cap,
    position_limit,
    refuse_too_big,
    refuse_unless_fits,
    solve_path,
    turn_parity,
)

__all__ = [
    "GameGraph",
    "MemoryCap",
    "discover",
    "hashable",
    "is_move_list",
    "is_points",
    "is_real",
    "memory_cap",
    "points",
    "position_limit",
    "refuse_too_big",
    "refuse_unless_fits",
    "solve_path",
    "turn_parity",
]
