"""Closing the Portal in the judge's format: DevC Clash of Code 2020."""

from __future__ import annotations

from ..errors import InputError
from ..grid import read_grid_case
from ..judge_io import JudgeResult, counted_cases
from ..textio import Reader
from .model import ALLOWED, EMPTY, board_from_grid
from .solver import analyze_exact

MAX_SIDE = 100  # the judge's limit; larger boards go through `perfectplay portal`


def judge_devc_portal(text: str, lenient: bool = False) -> JudgeResult:
    """DevC Clash of Code 2020: T, then per case ``R C`` and R rows -> ``Alif``/``Bella``.

    The judge's range: 1 <= R, C <= 100 and at least one '.' (``lenient``: any board the
    grid limit allows, and boards without an empty cell).
    """
    def case(r: Reader, _k: int) -> str:
        grid = read_grid_case(r, ALLOWED, None if lenient else MAX_SIDE)
        if not lenient and not grid.mask(EMPTY).any():
            raise InputError("the board has no empty cell '.' (the judge guarantees one; "
                             "--lenient answers it)")
        return analyze_exact(board_from_grid(grid)).winner

    return counted_cases(text, case, lenient=lenient)


JUDGES = {
    "devc-portal": ("DevC Clash of Code 2020 Closing the Portal: Alif or Bella",
                    judge_devc_portal),
}
