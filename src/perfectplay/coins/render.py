"""Coins as text: the learner's explanation, the row or the seed's P/m table drawn, and the
seed's printed table compared cell by cell with the right one.

Imports only the model; reads the result through :class:`Answer`, the fields it needs (the
result's methods call these functions, so the result imports this module and never the
other way round).

>>> from perfectplay import coins
>>> print(draw(coins.analyze([5, 8, 3, 2])))
position 1 2 3 4
coin     5 8 3 2
               ^ perfect first move
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..seedrun import SeedRun
from ..textio import int_text, plural
from .model import LEFT, CoinsValue, StrategyReport, Turn

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


class Answer(Protocol):
    """What the text reads of a :class:`~perfectplay.coins.CoinsResult`."""

    @property
    def row(self) -> tuple[int, ...]: ...
    @property
    def value(self) -> CoinsValue: ...
    @property
    def first_move(self) -> str | None: ...
    @property
    def line(self) -> list[Turn] | None: ...
    @property
    def strategies(self) -> StrategyReport | None: ...
    @property
    def table(self) -> Tables | None: ...
    @property
    def seed(self) -> SeedRun | None: ...


def table_differences(coins: Sequence[int], tables: Tables) -> list[tuple[int, int, str]] | None:
    """Where the seed's printed table differs from the right one, for the seed's own row
    (None for any other row): (i, j, why) for every differing cell, 1-based.

    >>> from perfectplay.coins import seed_tables
    >>> row = [7, 9, 2, 6, 4, 3]
    >>> [(i, j) for i, j, _ in table_differences(row, seed_tables(row))][:3]
    [(1, 2), (1, 3), (1, 5)]
    """
    if tuple(coins) != SEED_EXAMPLE:
        return None
    P, m = tables
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
            below, left = P[i + 1][j], P[i][j - 1]  # both on or above the diagonal
            assert below is not None and left is not None
            rest_i = sum(v[i + 1:j + 1]) - below  # take coin i, then the rest
            rest_j = sum(v[i:j]) - left
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


def table_text(coins: Sequence[int], tables: Tables) -> str:
    """The P/m table as plain text, one row per i, like the seed prints it (``tables``:
    computed by :func:`~perfectplay.coins.seed_tables`). For the seed's own row, a cell the seed
    printed differently is marked ``*`` and listed with why."""
    P, m = tables
    n = len(coins)
    diffs = table_differences(coins, tables) or []
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


def explain(result: Answer) -> str:
    """Sentences a learner reads: the value and the first move, then the line of play
    and the strategy comparison when they were computed."""
    v, t = result.value, int_text
    if v.n == 0:
        return "No coins: nothing to take."
    side = "left" if result.first_move == LEFT else "right"
    coin = result.row[0] if result.first_move == LEFT else result.row[-1]
    sign = "+" if v.margin >= 0 else ""
    out = [f"{plural(v.n, 'coin')} worth {t(v.total)} in all. The first player can guarantee "
           f"{t(v.first)}; the second then gets {t(v.second)} (margin "
           f"{sign}{t(v.margin)}).",
           f"Perfect first move: take the {side} coin ({t(coin)})."]
    if v.n % 2 == 0:
        out.append("With an even number of coins the first player can always take all "
                   "odd-indexed or all even-indexed coins, so it never loses; the "
                   "optimum can be more than that.")
    if result.line is not None:
        out += ["", "Optimal line of play:"]
        for k, turn in enumerate(result.line, 1):
            where = "left" if turn.side == LEFT else "right"
            out.append(f"{k:>4}. player {turn.player} takes the {where:<5} coin "
                       f"{t(turn.coin):>6}   totals {t(turn.first_total)} : "
                       f"{t(turn.second_total)}")
    if result.strategies is not None:
        rep = result.strategies
        out += ["", "What each strategy guarantees the first player against perfect play:",
                f"  perfect               {t(rep.optimal)}",
                f"  greedy (larger end)   {t(rep.greedy)}",
                "  odd/even index        " + ("n/a (odd n)" if rep.parity is None
                                              else t(rep.parity))]
    if result.seed is not None:
        out += ["", *result.seed.lines()]
    return "\n".join(out)


def draw(result: Answer, style: bool = False) -> str:
    """The seed's P/m table when it was computed (rows i, columns j, 1-based); else the
    row under its positions 1..n with the perfect first move marked. ``style`` (rich
    markup) makes the mark bold."""
    if style:
        return draw(result).replace("^ perfect first move", "[bold]^ perfect first move[/]")
    if result.table is not None:
        return ("P(i, j) and the move m(i, j) (i = take the left coin, j = the right):\n"
                + table_text(result.row, result.table))
    if not result.row:
        return ""
    cells = [int_text(c) for c in result.row]
    width = max(len(c) for c in cells + [str(len(cells))])
    head = " ".join(f"{k:>{width}}" for k in range(1, len(cells) + 1))
    body = " ".join(f"{c:>{width}}" for c in cells)
    at = 0 if result.first_move == LEFT else len(cells) - 1
    mark = " " * (at * (width + 1) + width - 1) + "^ perfect first move"
    return "\n".join(["position " + head, "coin     " + body, "         " + mark])
