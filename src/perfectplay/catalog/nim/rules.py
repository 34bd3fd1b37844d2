"""Nim: heaps of counters; a move takes any number (at least one) from one heap; who cannot
move loses (normal play). Impartial, so a position need not say whose turn it is.

A position is the heaps as a sorted tuple: heaps of equal size are interchangeable, so
sorting shares one entry between every order of the same heaps (the engine's positions are
hashable values). A move ``(size, left)`` turns one heap of ``size`` into ``left``, named
``5>2``: naming the heap by its size, not its place, keeps names stable under the sorting.

Bouton (1901) gives the whole theory: the player to move loses exactly when the XOR of the
heap sizes (the nim-sum) is 0, and a winning move makes it 0.

>>> game = Nim((3, 4, 5))
>>> [game.move_name(m) for m in game.moves((1, 2))]
['1>0', '2>0', '2>1']
"""

from __future__ import annotations

from functools import reduce
from operator import xor

Heaps = tuple[int, ...]
NimMove = tuple[int, int]  # (a heap's size, what is left of it)


def nim_sum(heaps: Heaps) -> int:
    """The XOR of the heap sizes: 0 exactly when the player to move loses (Bouton 1901)."""
    return reduce(xor, heaps, 0)


class Nim:
    """Nim on the given heaps (normal play: who cannot move loses)."""

    def __init__(self, heaps: Heaps = (3, 4, 5)) -> None:
        self.heaps = tuple(sorted(heaps))

    def initial(self) -> Heaps:
        return self.heaps

    def moves(self, heaps: Heaps) -> list[NimMove]:
        return [(size, left) for size in sorted(set(heaps)) for left in range(size)]

    def play(self, heaps: Heaps, move: NimMove) -> Heaps:
        size, left = move
        k = heaps.index(size)
        return tuple(sorted(heaps[:k] + (left,) + heaps[k + 1:]))

    def outcome(self, heaps: Heaps) -> None:
        return None  # no move left: the player to move loses (the engine's rule)

    def horizon(self, heaps: Heaps) -> int:
        """No game lasts longer than one counter a move."""
        return sum(heaps)

    def draw(self, heaps: Heaps) -> str:
        """One line a heap, its counters as ``o``."""
        return "\n".join(f"{h:>3} {'o' * h}" for h in heaps) if any(heaps) else "(no counters)"

    def move_name(self, move: NimMove) -> str:
        return f"{move[0]}>{move[1]}"

    def parse_move(self, text: str) -> NimMove | None:
        """``5>2``: a heap of 5 left with 2 (``5-3``, taking 3 from it, reads the same)."""
        text = text.strip().replace(" ", "")
        for sep, take in ((">", False), ("-", True)):
            a, found, b = text.partition(sep)
            if found and a.isdigit() and b.isdigit():
                size, other = int(a), int(b)
                left = size - other if take else other
                if 0 <= left < size:
                    return (size, left)
        return None
