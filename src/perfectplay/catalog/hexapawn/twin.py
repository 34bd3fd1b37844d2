"""Hexapawn's plain twin, written apart from :mod:`.rules`: the board is a tuple of rows
(row 1 first), each a string of ``"W"``, ``"B"`` and ``"."``, beside the colour to move; a
move is a pair of (row, column) cells. No bits, no codes; only the move names are shared
with the fast game."""

from __future__ import annotations

from perfectplay.engine import Value

Cell = tuple[int, int]
State = tuple[tuple[str, ...], str]  # rows from row 1 up, and "W" or "B" to move


class HexapawnTwin:
    def __init__(self, width: int = 3, height: int = 3) -> None:
        self.width, self.height = width, height

    def initial(self) -> State:
        rows = ["W" * self.width] + ["." * self.width] * (self.height - 2) + ["B" * self.width]
        return tuple(rows), "W"

    def outcome(self, state: State) -> Value | None:
        rows, mover = state
        # the player who just moved wins by standing on the far row
        if mover == "B" and "W" in rows[-1] or mover == "W" and "B" in rows[0]:
            return Value.LOSE
        return None

    def moves(self, state: State) -> list[tuple[Cell, Cell]]:
        if self.outcome(state) is not None:
            return []
        rows, mover = state
        enemy = "B" if mover == "W" else "W"
        forward = 1 if mover == "W" else -1
        found = []
        for r, row in enumerate(rows):
            for c, piece in enumerate(row):
                if piece != mover:
                    continue
                r2 = r + forward
                if not 0 <= r2 < self.height:
                    continue
                if rows[r2][c] == ".":
                    found.append(((r, c), (r2, c)))
                for c2 in (c - 1, c + 1):
                    if 0 <= c2 < self.width and rows[r2][c2] == enemy:
                        found.append(((r, c), (r2, c2)))
        return found

    def play(self, state: State, move: tuple[Cell, Cell]) -> State:
        rows, mover = state
        (r1, c1), (r2, c2) = move
        grid = [list(row) for row in rows]
        grid[r1][c1] = "."
        grid[r2][c2] = mover
        return tuple("".join(row) for row in grid), "B" if mover == "W" else "W"

    def move_name(self, move: tuple[Cell, Cell]) -> str:
        (r1, c1), (r2, c2) = move
        letters = "abcdefgh"
        return f"{letters[c1]}{r1 + 1}{'-' if c1 == c2 else 'x'}{letters[c2]}{r2 + 1}"
