"""The solved row as one result: what the CLI, play, the pictures and the web page render.

>>> res = analyze([7, 9, 2, 6, 4, 3], line=True)
>>> res.value.first, res.first_move, [t.side for t in res.line][:3]
(18, 'R', ['R', 'R', 'R'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..textio import int_text, plural
from .formats import format_seed_table
from .row import LEFT, int_values
from .solver import (
    CoinsValue,
    StrategyReport,
    Turn,
    best_move,
    check_compare_size,
    check_line_size,
    compare_strategies,
    optimal_line,
    seed_tables,
    value,
)


@dataclass(frozen=True)
class CoinsResult:
    """A row solved: the value, the perfect first move (``"L"``, ``"R"``, None for no
    coins) and, when asked for, the optimal line, the strategy comparison and the seed's
    P/m tables (1-based, as the seed prints them)."""

    row: tuple[int, ...]
    value: CoinsValue
    first_move: str | None
    line: list[Turn] | None = None
    strategies: StrategyReport | None = None
    table: tuple[list[list[int | None]], list[list[str | None]]] | None = None

    def explain(self) -> str:
        """Sentences a learner reads: the value and the first move, then the line of play
        and the strategy comparison when they were computed."""
        v, t = self.value, int_text
        if v.n == 0:
            return "No coins: nothing to take."
        side = "left" if self.first_move == LEFT else "right"
        coin = self.row[0] if self.first_move == LEFT else self.row[-1]
        sign = "+" if v.margin >= 0 else ""
        out = [f"{plural(v.n, 'coin')} worth {t(v.total)} in all. The first player can guarantee "
               f"{t(v.first)}; the second then gets {t(v.second)} (margin "
               f"{sign}{t(v.margin)}).",
               f"Perfect first move: take the {side} coin ({t(coin)})."]
        if v.n % 2 == 0:
            out.append("With an even number of coins the first player can always take all "
                       "odd-indexed or all even-indexed coins, so it never loses; the "
                       "optimum can be more than that.")
        if self.line is not None:
            out += ["", "Optimal line of play:"]
            for k, turn in enumerate(self.line, 1):
                where = "left" if turn.side == LEFT else "right"
                out.append(f"{k:>4}. player {turn.player} takes the {where:<5} coin "
                           f"{t(turn.coin):>6}   totals {t(turn.first_total)} : "
                           f"{t(turn.second_total)}")
        if self.strategies is not None:
            rep = self.strategies
            out += ["", "What each strategy guarantees the first player against perfect play:",
                    f"  perfect               {t(rep.optimal)}",
                    f"  greedy (larger end)   {t(rep.greedy)}",
                    "  odd/even index        " + ("n/a (odd n)" if rep.parity is None
                                                  else t(rep.parity))]
        return "\n".join(out)

    def draw(self, style: bool = False) -> str:
        """The seed's P/m table when it was computed (rows i, columns j, 1-based); else the
        row under its positions 1..n with the perfect first move marked. ``style`` (rich
        markup) makes the mark bold."""
        if style:
            return self.draw().replace("^ perfect first move", "[bold]^ perfect first move[/]")
        if self.table is not None:
            return ("P(i, j) and the move m(i, j) (i = take the left coin, j = the right):\n"
                    + format_seed_table(self.row, self.table))
        if not self.row:
            return ""
        cells = [int_text(c) for c in self.row]
        width = max(len(c) for c in cells + [str(len(cells))])
        head = " ".join(f"{k:>{width}}" for k in range(1, len(cells) + 1))
        body = " ".join(f"{c:>{width}}" for c in cells)
        at = 0 if self.first_move == LEFT else len(cells) - 1
        mark = " " * (at * (width + 1) + width - 1) + "^ perfect first move"
        return "\n".join(["position " + head, "coin     " + body, "         " + mark])

    def to_json(self) -> dict[str, Any]:
        """Numbers as JSON numbers; the parts not computed are left out."""
        data: dict[str, Any] = {"row": list(self.row), "value": self.value.to_json(),
                                "first_move": self.first_move}
        if self.line is not None:
            data["line"] = [{"player": t.player, "side": t.side, "coin": t.coin,
                             "first_total": t.first_total, "second_total": t.second_total}
                            for t in self.line]
        if self.strategies is not None:
            data["strategies"] = self.strategies.to_json()
        if self.table is not None:
            n = len(self.row)
            P, m = self.table
            data["table"] = {"P": [r[1:n + 1] for r in P[1:n + 1]],
                             "m": [r[1:n + 1] for r in m[1:n + 1]]}
        return data


def analyze(coins: Any, *, line: bool = False, compare: bool = False,
            table: bool = False) -> CoinsResult:
    """Solve a row (any integers, any length): the value in O(n), and on request the
    optimal line and the strategy comparison (O(n^2), limits checked first) and the seed's
    tables (n <= 60).

    >>> analyze([5, 8, 3, 2]).value.first
    10
    """
    row = int_values(coins)
    if line:
        check_line_size(len(row))
    if compare:
        check_compare_size(len(row))
    return CoinsResult(
        row=tuple(row), value=value(row), first_move=best_move(row),
        line=optimal_line(row) if line else None,
        strategies=compare_strategies(row) if compare else None,
        table=seed_tables(row) if table else None)
