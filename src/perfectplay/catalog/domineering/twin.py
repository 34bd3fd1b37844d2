"""Domineering's plain twin: the board as rows of text, written apart from :mod:`.rules` (no
bits, no shapes, the turn kept in the position, each domino drawn as the player's letter),
so the tests compare two readings of the rules.

>>> twin = DomineeringTwin(2, 3)
>>> sorted(twin.move_name(m) for m in twin.moves(twin.initial()))
['a1-a2', 'b1-b2', 'c1-c2']
"""

from __future__ import annotations

Board = tuple[str, ...]  # row 0 (the bottom row) first; "." free, "V"/"H" a domino's cells
Position = tuple[Board, str]  # the board and who moves: "V" or "H"
Move = tuple[int, int, str]  # (row, column) of the lower or left cell, and "V" or "H"


class DomineeringTwin:
    def __init__(self, rows: int = 8, cols: int = 8) -> None:
        self.rows, self.cols = rows, cols

    def initial(self) -> Position:
        return tuple("." * self.cols for _ in range(self.rows)), "V"

    def moves(self, pos: Position) -> list[Move]:
        board, who = pos
        dr, dc = (1, 0) if who == "V" else (0, 1)
        return [(r, c, who) for r in range(self.rows - dr) for c in range(self.cols - dc)
                if board[r][c] == "." and board[r + dr][c + dc] == "."]

    def play(self, pos: Position, move: Move) -> Position:
        board, who = pos
        r, c, mark = move
        cells = [(r, c), (r + 1, c)] if mark == "V" else [(r, c), (r, c + 1)]
        rows = [list(row) for row in board]
        for rr, cc in cells:
            rows[rr][cc] = mark
        return tuple("".join(row) for row in rows), "H" if who == "V" else "V"

    def outcome(self, pos: Position) -> None:
        return None  # no move: the player to move loses (the engine's rule)

    def move_name(self, move: Move) -> str:
        r, c, mark = move
        letters = "abcdefghijklmnopqrstuvwxyz"
        r2, c2 = (r + 1, c) if mark == "V" else (r, c + 1)
        return f"{letters[c]}{r + 1}-{letters[c2]}{r2 + 1}"
