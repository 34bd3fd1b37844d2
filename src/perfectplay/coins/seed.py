"""The seed's own method for coins in a line: the O(n^2) interval table P(i, j) with its move
table m(i, j), filled diagonal by diagonal, runnable and traced (``method="seed"``).

P(i, j) is the best total the player to move can guarantee from coins i..j (1-based, as the
seed prints it). Taking coin i leaves the opponent i+1..j, who then leaves us the worse of
i+2..j and i+1..j-1; so P(i, j) = max(v_i + min(P(i+2, j), P(i+1, j-1)),
v_j + min(P(i+1, j-1), P(i, j-2))), ties to j as the seed writes ``if p1 > p2 then i else j``.
O(n^2) time and memory.

>>> P, m = seed_tables([5, 8, 3, 2])
>>> P[1][4], m[1][4]
(10, 'j')
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import LimitError
from ..seedrun import Tracer
from .model import int_values

#: Rows the printed table is for (a teaching table: 60 columns fit a wide terminal).
SEED_TABLE_LIMIT = 60
#: Rows ``method="seed"`` runs (O(n^2) cells in pure Python: 2,000 coins are 2 x 10^6 cells,
#: a few seconds).
SEED_METHOD_LIMIT = 2000

Tables = tuple[list[list[int | None]], list[list[str | None]]]


def seed_tables(coins: Sequence[int], limit: int = SEED_TABLE_LIMIT,
                tracer: Tracer | None = None) -> Tables:
    """The seed's tables, 1-based as printed there: P[i][j] the best guaranteed total from
    coins i..j for the player to move, m[i][j] 'i' (take the left coin) or 'j' (the right).
    Filled by diagonals exactly like the seed, ties to 'j', the one-coin diagonal included.
    O(n^2); for at most ``limit`` coins (checked first). ``tracer`` records every cell in
    fill order.

    >>> P, m = seed_tables([7, 9, 2, 6, 4, 3])
    >>> P[1][6], m[1][6], P[3][3]
    (18, 'j', 2)
    """
    n = len(coins)
    if n > limit:
        what = "the table is" if limit == SEED_TABLE_LIMIT else "the seed's method is"
        raise LimitError(f"{what} for rows of at most {limit} coins, got {n}")
    v = [0] + int_values(coins)
    P: list[list[int | None]] = [[None] * (n + 2) for _ in range(n + 2)]
    m: list[list[str | None]] = [[None] * (n + 2) for _ in range(n + 2)]
    on = tracer is not None and tracer.on

    def p(i: int, j: int) -> int:
        return P[i][j] if 1 <= i <= j <= n and P[i][j] is not None else 0  # type: ignore

    for k in range(1, n + 1):
        for i in range(1, n - k + 2):
            j = i + k - 1
            p1 = min(p(i + 2, j), p(i + 1, j - 1)) + v[i]
            p2 = min(p(i + 1, j - 1), p(i, j - 2)) + v[j]
            if p1 > p2:
                P[i][j], m[i][j] = p1, "i"
            else:
                P[i][j], m[i][j] = p2, "j"
            if on:
                assert tracer is not None
                tracer.add(f"P({i},{j})", _cell_text(i, j, v, p1, p2, m[i][j]),
                           cells=((i - 1, j - 1),), values=(f"{P[i][j]} {m[i][j]}",))
    return P, m


def _cell_text(i: int, j: int, v: list[int], p1: int, p2: int, move: str | None) -> str:
    if i == j:
        return f"one coin left: take it, {v[i]}"
    return (f"take coin {i} ({v[i]}) -> {p1}, take coin {j} ({v[j]}) -> {p2}: "
            f"take {'coin ' + str(i if move == 'i' else j)}, P = {max(p1, p2)}")


def cells(n: int) -> int:
    """The cells the table fills for n coins: n(n+1)/2."""
    return n * (n + 1) // 2
