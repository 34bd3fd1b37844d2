"""Coins in a line as engine games: the exact oracle the fast algorithms are tested against.

A position ``(i, j)`` holds coins ``i..j-1``. Either player can be made greedy (SPOJ TWENDS,
the greedy strategy's guarantee); :class:`GameOfSumGame` is UVa 10891's variant.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Value
from .model import LEFT, RIGHT, int_values


class CoinsGame:
    """Coins in a line for the engine. A position ``(i, j)`` holds coins ``i..j-1``; moves
    ``"L"``/``"R"`` take the left or right coin and score it (``payoff``). The position alone
    decides whose turn it is (the parity of coins taken), as the engine needs.

    ``first``/``second`` = ``"greedy"`` restricts that player to the larger end (left on
    ties), so the engine also solves SPOJ TWENDS and the greedy strategy's guarantee.

    >>> from perfectplay import solve
    >>> solve(CoinsGame([5, 8, 3, 2])).value()   # the margin 10 - 8
    2
    """

    def __init__(self, coins: Sequence[int], first: str = "perfect",
                 second: str = "perfect") -> None:
        self.coins = tuple(int_values(coins))
        self.greedy = (first == "greedy", second == "greedy")

    def initial(self) -> tuple[int, int]:
        return (0, len(self.coins))

    # tiers for perfectplay.store: a move takes one coin (coins taken = the tier)
    def tier(self, pos: tuple[int, int]) -> int:
        return len(self.coins) - (pos[1] - pos[0])

    def encode(self, pos: tuple[int, int]) -> int:
        return pos[0] * (len(self.coins) + 1) + pos[1]

    def decode(self, code: int) -> tuple[int, int]:
        i, j = divmod(int(code), len(self.coins) + 1)
        return (i, j)

    def moves(self, pos: tuple[int, int]) -> list[str]:
        i, j = pos
        if i >= j:
            return []
        mover = (len(self.coins) - (j - i)) % 2
        if self.greedy[mover]:
            return [LEFT if self.coins[i] >= self.coins[j - 1] else RIGHT]
        return [LEFT, RIGHT] if j - i > 1 else [RIGHT]  # one coin: the seed calls it j

    def play(self, pos: tuple[int, int], move: str) -> tuple[int, int]:
        i, j = pos
        return (i + 1, j) if move == LEFT else (i, j - 1)

    def payoff(self, pos: tuple[int, int], move: str) -> int:
        i, j = pos
        return self.coins[i] if move == LEFT else self.coins[j - 1]

    def outcome(self, pos: tuple[int, int]) -> Value | None:
        return Value.TIE if pos[0] >= pos[1] else None


class GameOfSumGame(CoinsGame):
    """UVa 10891's rules for the engine: a move ``(side, k)`` takes k >= 1 numbers from one
    end and scores their sum."""

    def moves(self, pos: tuple[int, int]) -> list[tuple[str, int]]:  # type: ignore[override]
        i, j = pos
        return [(side, k) for k in range(1, j - i + 1) for side in (LEFT, RIGHT)]

    def play(self, pos: tuple[int, int], move: tuple[str, int]) -> tuple[int, int]:  # type: ignore[override]
        (i, j), (side, k) = pos, move
        return (i + k, j) if side == LEFT else (i, j - k)

    def payoff(self, pos: tuple[int, int], move: tuple[str, int]) -> int:  # type: ignore[override]
        (i, j), (side, k) = pos, move
        return sum(self.coins[i:i + k]) if side == LEFT else sum(self.coins[j - k:j])
