"""The solved forms and their files: the read interface every answer speaks.

:class:`Solution` and the :class:`Solved` protocol (:mod:`.solution`), saved files
(:mod:`.savefile` writes, :mod:`.saved` reads), the scored solvers (:mod:`.scored`) and the
independent check of a solve (:mod:`.verify`).

>>> from perfectplay.engine.solved import Solution, Solved
"""

from ..values import COST, MARGIN, WINLOSE, Counts, MoveValue, UnknownPosition, counts_of, describe
from .saved import load
from .savefile import save, to_arrays
from .scored import cost_players, label_setting, negamax_acyclic, scored_option
from .solution import (
    Solution,
    Solved,
    game_picture,
    move_lines,
    move_name,
    position_json,
    summary_json,
)
from .verify import VerifyReport

__all__ = [
    "COST",
    "Counts",
    "MARGIN",
    "MoveValue",
    "Solution",
    "Solved",
    "UnknownPosition",
    "VerifyReport",
    "WINLOSE",
    "cost_players",
    "counts_of",
    "describe",
    "game_picture",
    "label_setting",
    "load",
    "move_lines",
    "move_name",
    "negamax_acyclic",
    "position_json",
    "save",
    "scored_option",
    "summary_json",
    "to_arrays",
]
