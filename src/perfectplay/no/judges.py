"""No in the judge's format ``kth-no`` (ours: docs/algorithms.md, "The judge formats"):
``N``, N lines ``r c``, the start index; the output is ``INDEX DISTANCE`` (ties: lowest
index).

>>> print(judge_kth_no("3\\n0 0\\n2 2\\n0 1\\n0\\n").output(), end="")
2 1
"""

from __future__ import annotations

from ..errors import InputError
from ..judge_io import JudgeResult, record_end
from ..textio import Reader
from .model import read_kth_no_case
from .solver import nearest


def judge_kth_no(text: str, lenient: bool = False) -> JudgeResult:
    """KTH No (our format, docs/algorithms.md): prints ``INDEX DISTANCE`` of the nearest
    piece, ties to the lowest index; the tied pieces are listed on stderr. The format is
    ours, so it has no range beyond MAX_PIECES and ``lenient`` changes nothing."""
    res = JudgeResult()
    r = Reader(text)
    try:
        _, pts, start = read_kth_no_case(r)
    except InputError as exc:
        res.errors.append(exc)
        return res
    ans = nearest(pts, start)
    if ans.distance is None:
        res.errors.append(InputError("there is only one piece: no other piece to be near"))
    else:
        res.lines.append(f"{ans.index} {ans.distance}")
        if len(ans.pieces) > 1:
            res.notes.append(f"perfectplay: note: {len(ans.pieces)} pieces tie at distance "
                             f"{ans.distance}: {', '.join(map(str, ans.pieces))}")
    return record_end(res, r, "the start index (the input has one case)")


JUDGES = {"kth-no": ("KTH No (decided format): nearest piece INDEX DISTANCE", judge_kth_no)}
