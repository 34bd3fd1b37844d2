"""Coins in play: the :class:`~perfectplay.play.Table` that the terminal and the web page
play over."""

from __future__ import annotations

from typing import Any

from ..engine import solve
from ..errors import LimitError
from ..play.state import Table
from .model import CoinsOptions
from .rules import CoinsGame

#: The longest row played: the engine keeps every position (n^2 / 2 of them).
PLAY_LIMIT = 400


def play_table(row: list[int], options: CoinsOptions | None = None) -> Table:
    """How coins look in play: the coins left and both totals, moves named ``L(5)`` /
    ``R(2)``, values as margins over the rest; the engine's full solution as the oracle.

    >>> play_table([5, 8, 3, 2]).oracle.value((0, 4))
    2
    """
    if len(row) > PLAY_LIMIT:
        raise LimitError(f"play is for rows of at most {PLAY_LIMIT} coins (the engine "
                         f"keeps every position); got {len(row)}")
    game = CoinsGame(row)

    def scores(history: list[Any]) -> list[int]:
        score = [0, 0]
        for pos, ply in history:
            score[ply.mover] += game.payoff(pos, ply.move)
        return score

    def render(pos: tuple[int, int], history: list[Any]) -> str:
        i, j = pos
        mid = " ".join(f"[{x}]" for x in row[i:j])
        first, second = scores(history)
        return (f"coins left: {mid or '(none)'}\n"
                f"totals: first player {first}, second player {second}")

    def name(pos: tuple[int, int], move: str) -> str:
        i, j = pos
        return f"{move}({row[i] if move == 'L' else row[j - 1]})"

    def margin(v: Any, r: int | None, _who: int) -> str:
        return f"{v:+d} over the rest" if r is not None else str(v)

    def totals(history: list[Any]) -> str:
        first, second = scores(history)
        result = ("the first player wins" if first > second else "the second player wins"
                  if second > first else "a tie")
        return f"first player {first}, second player {second}: {result}."

    return Table("Coins in a line", game, solve(game), render, name,
                 ("first", "second"), lambda pos, plies: plies % 2, margin, totals,
                 legend="L takes the left coin, R the right one. \"+3 over the rest\": with "
                        "perfect play from here, the player to move collects 3 more than the "
                        "other from the coins left.")
