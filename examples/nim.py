"""Nim with heaps (3, 4, 5): an impartial game, so positions need not say whose turn it is."""

from __future__ import annotations


class Nim:
    def __init__(self, heaps: tuple[int, ...] = (3, 4, 5)) -> None:
        self.heaps = tuple(sorted(heaps))

    def initial(self) -> tuple[int, ...]:
        return self.heaps

    def moves(self, heaps: tuple[int, ...]) -> list[tuple[int, int]]:
        return [(i, k) for i, h in enumerate(heaps) for k in range(1, h + 1)]

    def play(self, heaps: tuple[int, ...], move: tuple[int, int]) -> tuple[int, ...]:
        i, k = move
        return tuple(sorted(heaps[:i] + (heaps[i] - k,) + heaps[i + 1:]))

    def outcome(self, heaps: tuple[int, ...]) -> None:
        return None  # no moves left = the player to move loses (normal play)
