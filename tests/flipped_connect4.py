"""Connect Four 4x4 written the way many first versions are: whose turn it is kept on the
game object and flipped in play (the classic mistake the default check refuses)."""

from perfectplay import Value


class ConnectFour:
    def __init__(self, width=4, height=4):
        self.width, self.height = width, height
        self.turn = 1  # whose turn: 1 or 2, flipped in play

    def initial(self):
        return tuple(() for _ in range(self.width))

    def moves(self, board):
        return [c for c in range(self.width) if len(board[c]) < self.height]

    def play(self, board, column):
        columns = list(board)
        columns[column] = board[column] + (self.turn,)
        self.turn = 3 - self.turn
        return tuple(columns)

    def outcome(self, board):
        def at(c, r):
            return board[c][r] if 0 <= c < self.width and 0 <= r < len(board[c]) else 0
        for c in range(self.width):
            for r in range(len(board[c])):
                who = board[c][r]
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(at(c + k * dc, r + k * dr) == who for k in range(4)):
                        return Value.LOSE  # the player who just moved made four
        if all(len(col) == self.height for col in board):
            return Value.TIE
        return None
