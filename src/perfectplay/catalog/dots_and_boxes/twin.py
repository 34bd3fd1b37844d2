"""Dots and Boxes' plain twin: lines as pairs of dots in a frozenset, boxes found by their
corners, the score kept out of the position as in :mod:`.rules` but written apart from it
(no bits, no tables), so the tests compare two readings of the rules.

>>> twin = DotsAndBoxesTwin(1, 1)
>>> sorted(twin.move_name(m) for m in twin.moves(twin.initial()))
['a1-a2', 'a1-b1', 'a2-b2', 'b1-b2']
"""

from __future__ import annotations

Dot = tuple[int, int]  # (row, column), row 0 at the bottom
Line = tuple[Dot, Dot]  # the lower or left dot first
Position = tuple[frozenset[Line], int]  # the lines drawn, the player to move (0 or 1)


class DotsAndBoxesTwin:
    def __init__(self, rows: int = 3, cols: int = 3) -> None:
        self.rows, self.cols = rows, cols
        self.lines: list[Line] = sorted(
            [((r, c), (r, c + 1)) for r in range(rows + 1) for c in range(cols)]
            + [((r, c), (r + 1, c)) for r in range(rows) for c in range(cols + 1)])

    def initial(self) -> Position:
        return frozenset(), 0

    def player(self, pos: Position) -> int:
        return pos[1]

    def moves(self, pos: Position) -> list[Line]:
        return [line for line in self.lines if line not in pos[0]]

    def _closed(self, drawn: frozenset[Line], line: Line) -> int:
        """Boxes the line completes: the one or two unit squares it is a side of."""
        (r1, c1), (r2, c2) = line
        corners = [(r1, c1 - 1), (r1, c1)] if c1 == c2 else [(r1 - 1, c1), (r1, c1)]
        done = 0
        for r, c in corners:  # the box with lower-left dot (r, c)
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                continue
            sides = {((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                     ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))}
            if sides <= drawn | {line}:
                done += 1
        return done

    def play(self, pos: Position, line: Line) -> Position:
        drawn, who = pos
        return drawn | {line}, who if self._closed(drawn, line) else 1 - who

    def payoff(self, pos: Position, line: Line) -> int:
        return self._closed(pos[0], line)

    def outcome(self, pos: Position) -> int | None:
        return 0 if len(pos[0]) == len(self.lines) else None

    def move_name(self, line: Line) -> str:
        (r1, c1), (r2, c2) = line
        letters = "abcdefghijklmnopqrstuvwxyz"
        return f"{letters[c1]}{r1 + 1}-{letters[c2]}{r2 + 1}"
