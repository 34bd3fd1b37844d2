"""The Rock in the judge's format: UVa 10381."""

from __future__ import annotations

from ..grid import read_grid_case
from ..judge_io import JudgeResult, counted_cases
from ..textio import Reader
from .model import ALLOWED, maze_from_grid
from .render import infinite_reason
from .solver import solve_with_stats

MAX_SIDE = 5000


def judge_uva10381(text: str, lenient: bool = False) -> JudgeResult:
    """UVa 10381: T, then per case ``R C`` and R rows -> the guaranteed steps, one a line.

    A case where one block cuts E off from X prints -1, with the cell on stderr. The judge
    states no size limit: sides up to MAX_SIDE (and the grid cell limit) are read.
    """
    notes: list[str] = []

    def case(r: Reader, k: int) -> str:
        sol = solve_with_stats(maze_from_grid(read_grid_case(r, ALLOWED, MAX_SIDE)))[0]
        if sol.value is None:
            notes.append(f"perfectplay: note: case {k}: {infinite_reason(sol)}; printed -1")
            return "-1"
        return str(sol.value)

    res = counted_cases(text, case, lenient=lenient)
    res.notes += notes
    return res


JUDGES = {
    "uva10381": ("UVa 10381 The Rock: steps the walker can guarantee", judge_uva10381),
}
