"""Discovery: positions -> ids, moves as CSR arrays (:class:`GameGraph`).

The walk (:mod:`.graph`), one batch of positions asked of the game (:mod:`.expand`) and the
key stores that number positions (:mod:`.keystores`).

>>> from perfectplay.engine.discovery import GameGraph, discover
"""

from .expand import hashable, is_move_list, is_points, is_real, points
from .graph import GameGraph, discover, position_limit, turn_parity

__all__ = [
    "GameGraph",
    "discover",
    "hashable",
    "is_move_list",
    "is_points",
    "is_real",
    "points",
    "position_limit",
    "turn_parity",
]
