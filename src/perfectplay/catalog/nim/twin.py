"""Nim's plain twin: the heaps kept in their given order, a move ``(heap index, its size,
counters taken)``; written apart from :mod:`.rules` (no sorting, no sharing) so the tests
compare two readings of the rules."""

from __future__ import annotations


class NimTwin:
    def __init__(self, heaps: tuple[int, ...] = (3, 4, 5)) -> None:
        self.heaps = tuple(heaps)

    def initial(self) -> tuple[int, ...]:
        return self.heaps

    def moves(self, heaps: tuple[int, ...]) -> list[tuple[int, int, int]]:
        return [(i, h, take) for i, h in enumerate(heaps) for take in range(1, h + 1)]

    def play(self, heaps: tuple[int, ...], move: tuple[int, int, int]) -> tuple[int, ...]:
        i, _, take = move
        return heaps[:i] + (heaps[i] - take,) + heaps[i + 1:]

    def outcome(self, heaps: tuple[int, ...]) -> None:
        return None

    def move_name(self, move: tuple[int, int, int]) -> str:
        _, size, take = move
        return f"{size}>{size - take}"
