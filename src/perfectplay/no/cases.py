"""Test cases for the ``kth-no`` judge: N distinct pieces on an N x N board and a start
piece, drawn uniform, with ties, or at the largest size; written, checked, shrunk and
explained for the generators and the stress tester (:class:`perfectplay.casegen.Problem`).

>>> import random
>>> PROBLEMS["kth-no"].write([([(0, 0), (1, 1)], 0)])
'2\\n0 0\\n1 1\\n0\\n'
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..casegen import Case, Problem
from .solver import nearest


def _no_make(rng: random.Random, size: int, family: str) -> Case:
    n = size if family == "largest" else rng.randint(2, max(2, size))
    cells = rng.sample(range(n * n), n)
    pieces = [(c // n, c % n) for c in cells]
    if family == "ties":  # put pieces symmetrically around the start
        pieces = pieces[:1] + sorted(pieces[1:], key=lambda p: (p[0] + p[1]) % 3)
    return (pieces, rng.randrange(n))


def _no_valid(case: Case) -> bool:
    pieces, start = case
    n = len(pieces)
    return (n >= 2 and 0 <= start < n and len(set(pieces)) == n
            and all(0 <= r < n and 0 <= c < n for r, c in pieces))


def _no_shrink(case: Case) -> Iterator[Case]:
    pieces, start = case
    for i in range(len(pieces)):
        if i != start:
            yield (pieces[:i] + pieces[i + 1:], start - (i < start))
    for i, (r, c) in enumerate(pieces):
        for rr, cc in ((r - 1, c), (r, c - 1)):
            if rr >= 0 and cc >= 0:
                yield (pieces[:i] + [(rr, cc)] + pieces[i + 1:], start)


def _no_write(cases: list[Case]) -> str:
    pieces, start = cases[0]
    return "\n".join([str(len(pieces))] + [f"{r} {c}" for r, c in pieces] + [str(start)]) + "\n"


def _no_explain(case: Case) -> str:
    pieces, start = case
    ans = nearest(pieces, start)
    return (f"Piece {start} at {pieces[start]}: nearest {ans.pieces} at Manhattan distance "
            f"{ans.distance} (ties go to the lowest index).")


PROBLEMS: dict[str, Problem] = {
    "kth-no": Problem("kth-no", ("uniform", "ties", "largest"), _no_make, _no_write,
                      _no_valid, _no_shrink, _no_explain, r"\d+ \d+", 6, 2000,
                      single_case=True),
}
