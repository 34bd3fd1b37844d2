"""Coins in text: the five judge formats and the seed's printed table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..judge_io import INT64, JudgeResult, cases_until_zero, check_end, counted_cases
from ..textio import Reader, int_text, parse_int
from .solver import GAME_OF_SUM_LIMIT, game_of_sum, margin, seed_tables, twends_margin, value

#: The seed's example row and its printed P/m table, transcribed cell by cell (1-based
#: (i, j) -> (P, m)); the seed numbers rows and columns in Persian digits.
SEED_EXAMPLE = (7, 9, 2, 6, 4, 3)
SEED_PRINTED = {
    (1, 1): (7, "j"), (1, 2): (9, "i"), (1, 3): (8, "i"), (1, 4): (15, "j"),
    (1, 5): (12, "i"), (1, 6): (18, "j"),
    (2, 2): (9, "i"), (2, 3): (9, "i"), (2, 4): (10, "i"), (2, 5): (15, "i"), (2, 6): (14, "i"),
    (3, 3): (1, "j"), (3, 4): (6, "j"), (3, 5): (5, "i"), (3, 6): (9, "j"),
    (4, 4): (6, "i"), (4, 5): (6, "i"), (4, 6): (9, "i"),
    (5, 5): (4, "i"), (5, 6): (4, "i"),
    (6, 6): (3, "i"),
}


Tables = tuple[list[list[int | None]], list[list[str | None]]]


def seed_differences(coins: Sequence[int], tables: Tables | None = None
                     ) -> list[tuple[int, int, str]] | None:
    """Where the seed's printed table differs from the right one, for the seed's own row
    (None for any other row): (i, j, why) for every differing cell, 1-based.

    >>> [(i, j) for i, j, _ in seed_differences([7, 9, 2, 6, 4, 3])][:3]
    [(1, 2), (1, 3), (1, 5)]
    """
    if tuple(coins) != SEED_EXAMPLE:
        return None
    P, m = tables or seed_tables(coins)
    v = [0, *coins]
    out = []
    for (i, j), (sp, sm) in sorted(SEED_PRINTED.items()):
        if (P[i][j], m[i][j]) == (sp, sm):
            continue
        if i == j and sp != P[i][j]:
            why = f"the value is wrong: the one coin left is worth {v[i]}, not {sp}"
        elif i == j:
            why = (f"one coin left ({v[i]}): i and j name the same coin, so '{sm}' and "
                   f"'{m[i][j]}' are the same move; only the label differs")
        else:
            rest_i = sum(v[i + 1:j + 1]) - P[i + 1][j]  # take coin i, then the rest
            rest_j = sum(v[i:j]) - P[i][j - 1]
            take = {"i": v[i] + rest_i, "j": v[j] + rest_j}
            if sp != P[i][j]:
                why = (f"the value is wrong: {P[i][j]} is guaranteed (taking coin "
                       f"{'i' if m[i][j] == 'i' else 'j'} = {v[i] if m[i][j] == 'i' else v[j]}"
                       f"), not {sp}")
            elif take["i"] == take["j"]:
                why = f"both moves guarantee {sp}: either label is right"
            else:
                why = (f"the value is right but the move is not: '{sm}' guarantees only "
                       f"{take[sm]}")
        out.append((i, j, why))
    return out


def format_seed_table(coins: Sequence[int], tables: Tables | None = None) -> str:
    """The P/m table as plain text, one row per i, like the seed prints it (``tables``:
    already computed by :func:`seed_tables`). For the seed's own row, a cell the seed
    printed differently is marked ``*`` and listed with why."""
    P, m = tables = tables or seed_tables(coins)
    n = len(coins)
    diffs = seed_differences(coins, tables) or []
    marked = {(i, j) for i, j, _ in diffs}
    width = max([len(f"{P[i][j]} {m[i][j]}*") for i in range(1, n + 1)
                 for j in range(i, n + 1)] + [3])
    head = " " * 4 + " ".join(f"{j:>{width}}" for j in range(1, n + 1))
    rows = [head]
    for i in range(1, n + 1):
        cells = [(f"{P[i][j]} {m[i][j]}" + ("*" if (i, j) in marked else " ") if j >= i
                  else "") for j in range(1, n + 1)]
        rows.append(f"{i:>3} " + " ".join(f"{c:>{width}}" for c in cells))
    if diffs:
        rows += ["", f"* {len(diffs)} cells the seed printed differently (seed's value and "
                 "move, then why):"]
        rows += [f"  P({i},{j}) seed {SEED_PRINTED[(i, j)][0]} {SEED_PRINTED[(i, j)][1]}: "
                 f"{why}" for i, j, why in diffs]
    return "\n".join(rows)


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
