"""Connect Four in the plain Python protocol, written apart from the bitboard: the twin the
tests hold :class:`~.rules.ConnectFour` against, position by position.

A position is a tuple of column strings, bottom first ("X" the first player's stones, "O"
the second's); four in a row is looked for cell by cell in the four directions. Moves are
column indexes 0..W-1, named 1..W as the compiled game names them.

>>> twin = ConnectFourPy(4, 4)
>>> twin.play(twin.play(twin.initial(), 1), 1)
('', 'XO', '', '')
"""

from __future__ import annotations

from ...engine import Value


class ConnectFourPy:
    """The same game in the Python protocol, positions as tuples of column strings."""

    def __init__(self, width: int = 7, height: int = 6) -> None:
        self.width, self.height = width, height

    def initial(self) -> tuple[str, ...]:
        return ("",) * self.width

    def moves(self, pos: tuple[str, ...]) -> list[int]:
        return [c for c in range(self.width) if len(pos[c]) < self.height]

    def play(self, pos: tuple[str, ...], c: int) -> tuple[str, ...]:
        mover = "X" if sum(map(len, pos)) % 2 == 0 else "O"
        return pos[:c] + (pos[c] + mover,) + pos[c + 1:]

    def outcome(self, pos: tuple[str, ...]) -> Value | None:
        n = sum(map(len, pos))
        last = "O" if n % 2 == 0 else "X"

        def at(c: int, r: int) -> str:
            return pos[c][r] if 0 <= c < self.width and 0 <= r < len(pos[c]) else ""

        for c in range(self.width):
            for r in range(len(pos[c])):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(at(c + i * dc, r + i * dr) == last for i in range(4)):
                        return Value.LOSE
        return Value.TIE if n == self.width * self.height else None

    def move_name(self, c: int) -> str:
        return str(c + 1)
