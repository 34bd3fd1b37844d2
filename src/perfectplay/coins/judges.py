"""Coins in the judges' formats: CSES 1097, AtCoder DP L, GeeksforGeeks, SPOJ TWENDS and
UVa 10891 (the variant: take one or more from one end)."""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..judge_io import INT64, JudgeResult, cases_until_zero, check_end, counted_cases
from ..textio import Reader, int_text, parse_int
from .solver import GAME_OF_SUM_LIMIT, game_of_sum, margin, twends_margin, value

#: The longest row a judge format reads when its own limit is lifted (--lenient).
MAX_ROW = 10**7


def _read_row(r: Reader, n: int, values: tuple[int, int] | None) -> list[int]:
    """n integers in ``values`` (None: any); the first bad one is raised after all n are
    read, so the reader stays in step and the next case is found."""
    row: list[int] = []
    bad: InputError | None = None
    low, high = values if values is not None else (None, None)
    for _ in range(n):
        tok = r.token(f"a value (one of {n})")
        try:
            row.append(parse_int(tok, "an integer value", low, high))
        except InputError as exc:
            bad = bad or exc
    if bad is not None:
        raise bad
    return row


def _row_case(r: Reader, what: str, lenient: bool, n_limit: tuple[int, int],
              values: tuple[int, int], *, even: bool = False, n: int | None = None
              ) -> list[int]:
    """One case's row: the count (unless the layout already read it as ``n``), then n
    values. The count's machine limit (MAX_ROW) is checked first, and fatally: past it the
    reader cannot find the next case. The judge's own range for n, n's parity and the values
    are checked after the whole row is read, so a bad case costs only itself."""
    if n is None:
        line, col = r.position()
        n = r.header(what, 0, MAX_ROW)
    else:
        line, col = None, None
    row = _read_row(r, n, None if lenient else values)
    if not lenient:
        low, high = n_limit
        if even and n % 2:
            raise InputError(f"{what} must be even, got {n}", line=line, column=col)
        if not low <= n <= high:
            limit = f"at least {low}" if high == MAX_ROW else f"in {low}..{high}"
            raise InputError(f"{what} must be {limit}, got {n} (--lenient lifts the "
                             "judge's range)", line=line, column=col)
    return row


def _single_row(text: str, lenient: bool, n_limit: tuple[int, int],
                values: tuple[int, int], answer: Any) -> JudgeResult:
    r = Reader(text)
    res = JudgeResult()
    try:
        row = _row_case(r, "the number of values n", lenient, n_limit, values)
        res.lines.append(int_text(answer(row)))
        check_end(r, f"the {len(row)} values (the input has one case)")
    except InputError as exc:
        res.errors.append(exc)
    return res


def judge_cses1097(text: str, lenient: bool = False) -> JudgeResult:
    """CSES 1097 Removal Game: ``n`` then n integers -> the first player's maximum total.
    Judge's range: 1 <= n <= 5000, abs(value) <= 10^9."""
    return _single_row(text, lenient, (1, 5000), (-10**9, 10**9),
                       lambda row: value(row).first)


def judge_atcoder_dpl(text: str, lenient: bool = False) -> JudgeResult:
    """EDPC L (Deque): ``N`` then N integers -> X - Y. Judge's range: 1 <= N <= 3000,
    1 <= value <= 10^9."""
    return _single_row(text, lenient, (1, 3000), (1, 10**9), margin)


def judge_gfg_coins(text: str, lenient: bool = False) -> JudgeResult:
    """GeeksforGeeks: ``T``, then per test ``N`` (even) and N integers -> first player's
    total. No stated range: N >= 2, values in 64 bits."""
    def case(r: Reader, _k: int) -> str:
        row = _row_case(r, "the number of coins N", lenient, (2, MAX_ROW), INT64, even=True)
        return int_text(value(row).first)

    return counted_cases(text, case, "the number of tests T", lenient)


def judge_spoj_twends(text: str, lenient: bool = False) -> JudgeResult:
    """SPOJ TWENDS: lines ``n v1 .. vn`` until ``0`` -> how much the greedy player might
    lose by. Judge's range: n even, n <= 1000, positive values summing to at most 10^6."""
    def case(r: Reader, k: int, n: int) -> str:
        row = _row_case(r, "n", lenient, (2, 1000), (1, 10**6), even=True, n=n)
        if not lenient and sum(row) > 10**6:
            raise InputError(f"the values sum to {sum(row)}; the judge's limit is 10^6 "
                             "(--lenient lifts it)")
        return (f"In game {k}, the greedy strategy might lose by as many as "
                f"{int_text(twends_margin(row))} points.")

    return cases_until_zero(text, case, high=MAX_ROW, lenient=lenient)


def judge_uva10891(text: str, lenient: bool = False) -> JudgeResult:
    """UVa 10891 Game of Sum: cases ``n`` then n integers until ``n = 0`` -> A - B.
    Judge's range: 0 < n <= 100; values unstated (64 bits). Lenient: n up to
    GAME_OF_SUM_LIMIT (the O(n^2) memory)."""
    def case(r: Reader, _k: int, n: int) -> str:
        row = _row_case(r, "n", lenient, (1, 100), INT64, n=n)
        return int_text(game_of_sum(row))

    return cases_until_zero(text, case, high=GAME_OF_SUM_LIMIT, lenient=lenient)


JUDGES = {
    "cses1097": ("CSES 1097 Removal Game: first player's maximum total", judge_cses1097),
    "atcoder-dpl": ("AtCoder EDPC L Deque: X - Y", judge_atcoder_dpl),
    "gfg-coins": ("GeeksforGeeks optimal strategy for a game: totals", judge_gfg_coins),
    "spoj-twends": ("SPOJ TWENDS: perfect first player against a greedy second",
                    judge_spoj_twends),
    "uva10891": ("UVa 10891 Game of Sum: take one or more from one end, A - B",
                 judge_uva10891),
}
