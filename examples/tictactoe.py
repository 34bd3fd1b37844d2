"""Tic-tac-toe as a perfectplay game: the example to copy when you write your own.

Solve it:  perfectplay solve examples/tictactoe.py:TicTacToe
Play it:   perfectplay play examples/tictactoe.py:TicTacToe
Watch it:  python examples/tictactoe.py

The first four methods are the whole protocol; ``draw``, ``move_name`` and ``parse_move``
are optional hooks that ``play``, ``solve`` and the pictures use when a game has them.
"""

from __future__ import annotations

from perfectplay import Value

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """A position is the board as a 9-character string of 'X', 'O' and '.'.

    The board says whose turn it is (X moves when the counts are equal), as the engine needs.
    A move is the index 0-8 of an empty square.
    """

    def initial(self) -> str:
        return "." * 9

    def to_move(self, board: str) -> str:
        return "X" if board.count("X") == board.count("O") else "O"

    def moves(self, board: str) -> list[int]:
        if self.outcome(board) is not None:
            return []  # no moves once the game is over
        return [i for i, c in enumerate(board) if c == "."]

    def play(self, board: str, move: int) -> str:
        return board[:move] + self.to_move(board) + board[move + 1:]

    def outcome(self, board: str) -> Value | None:
        for a, b, c in LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return Value.LOSE  # the previous player just made a line
        if "." not in board:
            return Value.TIE
        return None

    # -- optional hooks --------------------------------------------------------------------
    def draw(self, board: str) -> str:
        """The board with column letters and row numbers, as move names read."""
        rows = [" ".join(board[r * 3:r * 3 + 3]) for r in range(3)]
        return "\n".join(["  a b c"] + [f"{r + 1} {row}" for r, row in enumerate(rows)])

    def move_name(self, move: int) -> str:
        """A square by its cell name: 0 is a1, 4 is b2, 8 is c3."""
        return "abc"[move % 3] + str(move // 3 + 1)

    def parse_move(self, text: str) -> int | None:
        """A typed cell name ("b2"), or None when the text is not one."""
        text = text.strip().lower()
        if len(text) == 2 and text[0] in "abc" and text[1] in "123":
            return "abc".index(text[0]) + 3 * (int(text[1]) - 1)
        return None


if __name__ == "__main__":
    from perfectplay import solve

    game = TicTacToe()
    solution = solve(game)
    print("start:", solution.value(), "in", solution.remoteness(), "moves")
    board = game.initial()
    while game.outcome(board) is None:
        move = solution.best_move(board)
        board = game.play(board, move)
        print("\n".join(board[r * 3:r * 3 + 3] for r in range(3)), end="\n\n")
