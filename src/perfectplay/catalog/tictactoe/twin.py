"""Tic-tac-toe's plain twin, written apart from :mod:`.rules`: the board is a tuple of three
rows of ``"X"``, ``"O"`` or ``" "``, the turn kept beside it, a move a ``(row, column)`` pair.
Nothing is packed into bits, nothing is shared with the fast game but the cell names."""

from __future__ import annotations

from perfectplay.engine import Value

Row = tuple[str, str, str]
Board = tuple[Row, Row, Row]
State = tuple[Board, str]  # the board and the mark of the player to move


class TicTacToeTwin:
    def initial(self) -> State:
        empty: Row = (" ", " ", " ")
        return (empty, empty, empty), "X"

    def _won(self, board: Board, mark: str) -> bool:
        rows = [list(r) for r in board]
        columns = [[board[r][c] for r in range(3)] for c in range(3)]
        diagonals = [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
        return any(all(cell == mark for cell in line) for line in rows + columns + diagonals)

    def outcome(self, state: State) -> Value | None:
        board, mark = state
        other = "O" if mark == "X" else "X"
        if self._won(board, other):
            return Value.LOSE
        if all(cell != " " for row in board for cell in row):
            return Value.TIE
        return None

    def moves(self, state: State) -> list[tuple[int, int]]:
        if self.outcome(state) is not None:
            return []
        board, _ = state
        return [(r, c) for r in range(3) for c in range(3) if board[r][c] == " "]

    def play(self, state: State, move: tuple[int, int]) -> State:
        board, mark = state
        r, c = move
        row = list(board[r])
        row[c] = mark
        rows = list(board)
        rows[r] = (row[0], row[1], row[2])
        return (rows[0], rows[1], rows[2]), "O" if mark == "X" else "X"

    def move_name(self, move: tuple[int, int]) -> str:
        r, c = move
        return f"{'abc'[c]}{r + 1}"
