"""Kalah in the plain Python protocol, written apart from the compiled codes: the twin the
tests hold :class:`~.rules.Kalah` against.

A position is (the 2m houses as a tuple, south's then north's; the player to move); a move
is simulated on a full board of 2m + 2 slots with both stores, seed by seed, skipping the
opponent's store. Moves are the mover's houses 0..m-1, named ``a``, ``b``, ... as the
compiled game names them.

>>> twin = KalahPy(2, 2)
>>> twin.step(twin.initial(), 1)    # south's house b: one seed stored, one to north's a
(((2, 0, 3, 2), 1), 1)
"""

from __future__ import annotations

from ...engine import Value


class KalahPy:
    """Kalah(houses, seeds) in the Python protocol; ``empty_capture`` as in the compiled
    game (capture with a last seed in an empty own house even when the house opposite is
    empty)."""

    def __init__(self, houses: int = 6, seeds: int = 4, empty_capture: bool = True) -> None:
        self.m, self.n = houses, seeds
        self.empty_capture = empty_capture

    def initial(self) -> tuple[tuple[int, ...], int]:
        return (self.n,) * (2 * self.m), 0

    def player(self, pos: tuple[tuple[int, ...], int]) -> int:
        return pos[1]

    def moves(self, pos: tuple[tuple[int, ...], int]) -> list[int]:
        houses, who = pos
        return [i for i in range(self.m) if houses[who * self.m + i]]

    def _board(self, pos: tuple[tuple[int, ...], int], move: int
               ) -> tuple[list[int], int, int]:
        m = self.m
        houses, who = pos
        # slots 0..m-1 south, m south store, m+1..2m north, 2m+1 north store
        board = list(houses[:m]) + [0] + list(houses[m:]) + [0]
        skip = 2 * m + 1 if who == 0 else m
        mine = m if who == 0 else 2 * m + 1
        slot = (0 if who == 0 else m + 1) + move
        seeds, board[slot] = board[slot], 0
        while seeds:
            slot = (slot + 1) % (2 * m + 2)
            if slot != skip:
                board[slot] += 1
                seeds -= 1
        nxt = 1 - who
        own = range(0, m) if who == 0 else range(m + 1, 2 * m + 1)
        if slot == mine:
            nxt = who
        elif slot in own and board[slot] == 1 and (self.empty_capture
                                                   or board[2 * m - slot] > 0):
            opposite = 2 * m - slot
            board[mine] += 1 + board[opposite]
            board[slot] = board[opposite] = 0
        return board, nxt, board[mine]

    def play(self, pos: tuple[tuple[int, ...], int], move: int) -> tuple[tuple[int, ...], int]:
        board, nxt, _ = self._board(pos, move)
        m = self.m
        return tuple(board[:m] + board[m + 1:2 * m + 1]), nxt

    def payoff(self, pos: tuple[tuple[int, ...], int], move: int) -> int:
        return self._board(pos, move)[2]

    def step(self, pos: tuple[tuple[int, ...], int], move: int
             ) -> tuple[tuple[tuple[int, ...], int], int]:
        """(play, payoff) from one sowing: the engine's discovery calls this instead."""
        board, nxt, stored = self._board(pos, move)
        m = self.m
        return (tuple(board[:m] + board[m + 1:2 * m + 1]), nxt), stored

    def outcome(self, pos: tuple[tuple[int, ...], int]) -> int | Value | None:
        houses, who = pos
        mine = sum(houses[who * self.m:(who + 1) * self.m])
        theirs = sum(houses) - mine
        if mine and theirs:
            return None
        return mine - theirs

    def move_name(self, move: int) -> str:
        return "abcdefghijklmnopqrstuvwxyz"[move]
