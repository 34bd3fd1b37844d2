"""Othello's plain twin: the board as a tuple of row strings (``'.'``, ``'B'``, ``'W'``) and
the colour to move, every rule read off the grid by walking the eight directions square by
square; written apart from :mod:`.rules` (no bitboards, no codes) so the tests compare two
readings of the rules. Moves are ``(row, column)`` pairs and ``'pass'``, named as the fast
game names them (``d3``, ``pass``)."""

from __future__ import annotations

TwinBoard = tuple[tuple[str, ...], str]  # (rows, 'B' or 'W' to move)
TwinMove = tuple[int, int] | str

_STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


class OthelloTwin:
    def __init__(self, size: int = 6, opening: str = "") -> None:
        self.n = size
        self.opening = opening

    def initial(self) -> TwinBoard:
        n, h = self.n, self.n // 2
        grid = [["."] * n for _ in range(n)]
        grid[h - 1][h - 1] = grid[h][h] = "W"
        grid[h - 1][h] = grid[h][h - 1] = "B"
        pos: TwinBoard = (tuple("".join(r) for r in grid), "B")
        for word in self.opening.replace(",", " ").split():
            move = next(m for m in self.moves(pos) if self.move_name(m) == word.lower())
            pos = self.play(pos, move)
        return pos

    def _captures(self, rows: tuple[str, ...], me: str, r: int, c: int) -> list[tuple[int, int]]:
        if rows[r][c] != ".":
            return []
        other = "W" if me == "B" else "B"
        taken: list[tuple[int, int]] = []
        for dr, dc in _STEPS:
            line = []
            i, j = r + dr, c + dc
            while 0 <= i < self.n and 0 <= j < self.n and rows[i][j] == other:
                line.append((i, j))
                i, j = i + dr, j + dc
            if line and 0 <= i < self.n and 0 <= j < self.n and rows[i][j] == me:
                taken += line
        return taken

    def _placements(self, rows: tuple[str, ...], me: str) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.n) for c in range(self.n)
                if self._captures(rows, me, r, c)]

    def moves(self, pos: TwinBoard) -> list[TwinMove]:
        rows, me = pos
        mine: list[TwinMove] = list(self._placements(rows, me))
        if mine:
            return mine
        return ["pass"] if self._placements(rows, "W" if me == "B" else "B") else []

    def play(self, pos: TwinBoard, move: TwinMove) -> TwinBoard:
        rows, me = pos
        other = "W" if me == "B" else "B"
        if move == "pass":
            return rows, other
        assert isinstance(move, tuple)
        grid = [list(row) for row in rows]
        for i, j in self._captures(rows, me, *move) + [move]:
            grid[i][j] = me
        return tuple("".join(r) for r in grid), other

    def outcome(self, pos: TwinBoard) -> int | None:
        if self.moves(pos):
            return None
        rows, me = pos
        text = "".join(rows)
        return text.count(me) - text.count("W" if me == "B" else "B")

    def payoff(self, pos: TwinBoard, move: TwinMove) -> int:
        return 0

    def move_name(self, move: TwinMove) -> str:
        if move == "pass":
            return "pass"
        assert isinstance(move, tuple)
        return "abcdefgh"[move[1]] + str(move[0] + 1)
