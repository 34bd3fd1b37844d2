"""Test cases for the coins judges: rows drawn uniform, with ties or at the extremes, written
in each judge's format, checked against its ranges, shrunk for the stress tester, and
explained (:class:`perfectplay.casegen.Problem`).

>>> import random
>>> PROBLEMS["cses1097"].make(random.Random(1), 4, "ties")
[1, -1]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from ..casegen import Case, Problem
from .solver import analyze, format_seed_table, game_of_sum, twends_margin

INT = r"-?\d+"


def _coin_row(lo: int, hi: int, even: bool) -> Callable[[random.Random, int, str], Case]:
    def make(rng: random.Random, size: int, family: str) -> Case:
        n = max(1, rng.randint(max(1, size // 2), size))
        if even and n % 2:
            n += 1
        if family == "ties":
            return [rng.choice([lo, lo + 1, lo + 2]) if lo >= 0 else rng.choice([-1, 0, 1])
                    for _ in range(n)]
        if family == "largest":
            return [rng.choice([lo, hi]) for _ in range(size + (size % 2 if even else 0))]
        return [rng.randint(lo, hi) for _ in range(n)]

    return make


def _shrink_row(even: bool, lo: int) -> Callable[[Case], Iterator[Case]]:
    def shrink(row: list[int]) -> Iterator[Case]:
        step = 2 if even else 1
        for i in range(len(row) - step + 1):  # drop coins (pairs when n must stay even)
            yield row[:i] + row[i + step:]
        target = 0 if lo <= 0 else lo  # values move toward 0, or the smallest allowed
        for i, v in enumerate(row):
            for w in sorted({target, (v + target) // 2}):
                if w != v:
                    yield row[:i] + [w] + row[i + 1:]

    return shrink


def _in_range(lo: int, hi: int, even: bool, n_max: int) -> Callable[[Case], bool]:
    def valid(row: list[int]) -> bool:
        return (0 < len(row) <= n_max and (not even or len(row) % 2 == 0)
                and all(lo <= v <= hi for v in row))

    return valid


def _coins_explain(row: list[int]) -> str:
    text = analyze(row).explain()
    if len(row) <= 12:
        text += "\n" + format_seed_table(row)
    return text


def _write_one_row(cases: list[Case]) -> str:
    row = cases[0]
    return f"{len(row)}\n{' '.join(map(str, row))}\n"


def _write_gfg(cases: list[Case]) -> str:
    out = [str(len(cases))]
    for row in cases:
        out += [str(len(row)), " ".join(map(str, row))]
    return "\n".join(out) + "\n"


def _write_until_zero(inline: bool) -> Callable[[list[Case]], str]:
    def write(cases: list[Case]) -> str:
        out = []
        for row in cases:
            vals = " ".join(map(str, row))
            out += [f"{len(row)} {vals}"] if inline else [str(len(row)), vals]
        return "\n".join(out + ["0"]) + "\n"

    return write


def _twends_explain(row: list[int]) -> str:
    return (f"The first player plays perfectly, the second takes the larger end (left on "
            f"ties): the first wins by {twends_margin(row)}.")


def _game_of_sum_explain(row: list[int]) -> str:
    return f"Taking one or more numbers from one end, A - B = {game_of_sum(row)}."


PROBLEMS: dict[str, Problem] = {
    "cses1097": Problem("cses1097", ("uniform", "ties", "largest"),
                     _coin_row(-10**9, 10**9, False), _write_one_row,
                     _in_range(-10**9, 10**9, False, 5000), _shrink_row(False, -10**9),
                     _coins_explain, INT, 8, 5000, single_case=True),
    "atcoder-dpl": Problem("atcoder-dpl", ("uniform", "ties", "largest"),
                        _coin_row(1, 10**9, False), _write_one_row,
                        _in_range(1, 10**9, False, 3000), _shrink_row(False, 1),
                        _coins_explain, INT, 8, 3000, single_case=True),
    "gfg-coins": Problem("gfg-coins", ("uniform", "ties", "largest"),
                      _coin_row(1, 1000, True), _write_gfg, _in_range(1, 1000, True, 1000),
                      _shrink_row(True, 1), _coins_explain, INT, 8, 1000),
    "spoj-twends": Problem("spoj-twends", ("uniform", "ties", "largest"),
                        _coin_row(1, 1000, True), _write_until_zero(True),
                        _in_range(1, 1000, True, 1000), _shrink_row(True, 1),
                        _twends_explain,
                        r"In game \d+, the greedy strategy might lose by as many as -?\d+ "
                        r"points\.", 8, 1000),
    "uva10891": Problem("uva10891", ("uniform", "ties", "largest"),
                     _coin_row(-100, 100, False), _write_until_zero(False),
                     _in_range(-100, 100, False, 100), _shrink_row(False, -100),
                     _game_of_sum_explain, INT, 8, 100),
}
