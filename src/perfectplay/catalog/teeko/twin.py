"""Teeko's plain twin: the board as a tuple of row strings (``'.'``, ``'B'``, ``'W'``) and
the colour to move; drops and king steps found by looking at every cell, goals by walking
lines and checking square corners on the grid; written apart from :mod:`.rules` (no
bitboards, no tables) so the tests compare two readings of the rules. Moves are tuples,
named as the fast game names them (``c3``, ``c3-d4``)."""

from __future__ import annotations

from ...engine.protocol import Value

TwinPosition = tuple[tuple[str, ...], str]
TwinMove = tuple[int, ...]  # (r, c) a drop, (r1, c1, r2, c2) a step


class TeekoTwin:
    def __init__(self, size: int = 5, pieces: int = 4, advanced: bool = False,
                 tiers: bool = False) -> None:
        self.n, self.p, self.advanced = size, pieces, advanced  # tiers: the store's only

    def initial(self) -> TwinPosition:
        return tuple("." * self.n for _ in range(self.n)), "B"

    def _won(self, rows: tuple[str, ...], who: str) -> bool:
        n, p = self.n, self.p
        cells = {(r, c) for r in range(n) for c in range(n) if rows[r][c] == who}
        if len(cells) < p:
            return False
        for r, c in cells:
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all((r + k * dr, c + k * dc) in cells for k in range(p)):
                    return True
            if p == 4:
                for side in range(1, n if self.advanced else 2):
                    if {(r, c + side), (r + side, c), (r + side, c + side)} <= cells:
                        return True
        return False

    def moves(self, pos: TwinPosition) -> list[TwinMove]:
        rows, me = pos
        if self._won(rows, "W" if me == "B" else "B"):
            return []
        n = self.n
        empty: list[TwinMove] = [(r, c) for r in range(n) for c in range(n)
                                 if rows[r][c] == "."]
        mine = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == me]
        if len(mine) < self.p:
            return empty
        return [(r, c, i, j) for r, c in mine for i, j in empty
                if max(abs(r - i), abs(c - j)) == 1]

    def play(self, pos: TwinPosition, move: TwinMove) -> TwinPosition:
        rows, me = pos
        grid = [list(row) for row in rows]
        if len(move) == 4:
            grid[move[0]][move[1]] = "."
        grid[move[-2]][move[-1]] = me
        return tuple("".join(r) for r in grid), "W" if me == "B" else "B"

    def outcome(self, pos: TwinPosition) -> Value | None:
        rows, me = pos
        return Value.LOSE if self._won(rows, "W" if me == "B" else "B") else None

    def move_name(self, move: TwinMove) -> str:
        names = ["abcde"[c] + str(r + 1) for r, c in zip(move[::2], move[1::2], strict=True)]
        return "-".join(names)
