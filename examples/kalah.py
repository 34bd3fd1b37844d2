"""Kalah(m, n) as a compiled scored game with extra turns (and a Python twin for the tests).

m houses a side, n seeds in each at the start. A move sows the seeds of one of the mover's
houses counter-clockwise, one a slot, into the mover's own store but never the opponent's.
A last seed in the mover's store gives another move (``player`` says who moves); a last seed
in an empty house of the mover's captures it and the seeds opposite (Irving, Donkers and
Uiterwijk's "empty capture": even when the house opposite is empty). When either side has no
seeds left the game ends and each player stores the seeds on their own side.

The value is the point margin, so the stores need not be in the position: each move's
payoff is what it puts in the mover's store. A position is the houses and the player to
move, in one int64: bit 0 the player, then one field of bit_length(2mn) bits per house, so
sowing is additions to the code, with no decoding and no allocation. Kalah(m, n) fits when
2m * bit_length(2mn) + 1 <= 63: (6, 2), (5, 4), (4, 4), ... The tier is
(seeds stored, then how far the seeds on the board still are from their stores): every move
either stores a seed or moves seeds towards their store, so the tier strictly increases.

    perfectplay solve 'examples/kalah.py:Kalah(4, 3)'

Published (Irving, Donkers and Uiterwijk 2000, "Solving Kalah", ICGA Journal 23(3)): who
wins each Kalah(m, n) for small m and n (the tests check m, n <= 3), and Kalah(6, 2) a
first-player win by 10 (benchmarks/engine.py reproduces it).
"""

from __future__ import annotations

from typing import Any

from numba import njit

from perfectplay.engine import ONGOING, TIE, CompiledGame, Value


class Kalah(CompiledGame):
    """Kalah with ``houses`` houses a side and ``seeds`` seeds in each (moves: 0..m-1, the
    mover's houses from the left end of their row)."""

    def __init__(self, houses: int = 6, seeds: int = 4) -> None:
        m, n = houses, seeds
        total = 2 * m * n
        b = max(1, total.bit_length())  # bits a house needs: it can hold every seed
        if m < 1 or n < 0 or 2 * m * b + 1 > 63:
            raise ValueError(f"Kalah({m}, {n}) does not fit in 63 bits: it needs m >= 1, "
                             "n >= 0 and 2m * bit_length(2mn) + 1 <= 63")
        self.houses, self.seeds, self.bits = m, n, b
        pmax = total * m
        ring = 2 * m + 1  # the mover's houses, the mover's store, the opponent's houses
        field = (1 << b) - 1

        @njit
        def get(code, house):  # houses 0..m-1 south's, m..2m-1 north's; bit 0 the player
            return (code >> (1 + house * b)) & field

        @njit
        def sow(code, move):
            """(next code, seeds stored by the mover): all in the code's bit fields."""
            who = code & 1
            own = who * m
            other = m - own
            seeds = get(code, own + move)
            code -= seeds << (1 + (own + move) * b)
            idx = move
            stored = 0
            for _ in range(seeds):
                idx += 1
                if idx == ring:
                    idx = 0
                if idx < m:
                    code += 1 << (1 + (own + idx) * b)
                elif idx == m:
                    stored += 1
                else:
                    code += 1 << (1 + (other + idx - m - 1) * b)
            nxt = 1 - who
            if idx == m:
                nxt = who  # the last seed in the store: move again
            elif idx < m and get(code, own + idx) == 1:  # the last seed in an empty house
                opposite = other + m - 1 - idx
                taken = get(code, opposite)
                stored += 1 + taken
                code -= (1 << (1 + (own + idx) * b)) + (taken << (1 + opposite * b))
            return (code & ~1) | nxt, stored

        @njit
        def moves(code, out):
            own = (code & 1) * m
            k = 0
            for i in range(m):
                if get(code, own + i) > 0:
                    out[k] = i
                    k += 1
            return k

        @njit
        def play(code, move):
            return sow(code, move)[0]

        @njit
        def payoff(code, move):
            return sow(code, move)[1]

        @njit
        def sides(code):
            own = (code & 1) * m
            mine = 0
            theirs = 0
            for i in range(m):
                mine += get(code, own + i)
                theirs += get(code, m - own + i)
            return mine, theirs

        @njit
        def outcome(code):
            mine, theirs = sides(code)
            return TIE if mine == 0 or theirs == 0 else ONGOING

        @njit
        def score(code):
            mine, theirs = sides(code)
            return mine - theirs

        @njit
        def player(code):
            return code & 1

        @njit
        def tier(code):
            on_board = 0
            distance = 0
            for i in range(2 * m):
                c = get(code, i)
                on_board += c
                distance += c * (m - i % m)
            return (total - on_board) * (pmax + 1) + (pmax - distance)

        start = sum(n << (1 + i * b) for i in range(2 * m))
        super().__init__(start, moves, play, outcome, max_moves=m, score=score,
                         payoff=payoff, player=player, tier=tier, name=f"Kalah({m}, {n})")

    def houses_of(self, code: int) -> tuple[list[int], int]:
        """(seeds in each house, south's first, then north's; the player to move)."""
        b, f = self.bits, (1 << self.bits) - 1
        return [(code >> (1 + i * b)) & f for i in range(2 * self.houses)], code & 1

    def draw(self, code: int) -> str:
        pits, who = self.houses_of(code)
        m = self.houses
        north = " ".join(f"{p:2d}" for p in reversed(pits[m:]))
        south = " ".join(f"{p:2d}" for p in pits[:m])
        return f"north {north}\nsouth {south}\n{'south' if who == 0 else 'north'} to move"

    def move_name(self, move: int) -> str:
        return "abcdefghijklmnopqrstuvwxyz"[move]


class KalahPy:
    """The same game in the Python protocol, written independently: positions are
    (houses tuple of 2m counts, player to move); the board is simulated with both stores."""

    def __init__(self, houses: int = 6, seeds: int = 4) -> None:
        self.m, self.n = houses, seeds

    def initial(self) -> tuple[tuple[int, ...], int]:
        return (self.n,) * (2 * self.m), 0

    def player(self, pos: tuple[tuple[int, ...], int]) -> int:
        return pos[1]

    def moves(self, pos: tuple[tuple[int, ...], int]) -> list[int]:
        houses, who = pos
        return [i for i in range(self.m) if houses[who * self.m + i]]

    def _board(self, pos: tuple[tuple[int, ...], int], move: int) -> tuple[Any, int, int]:
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
        elif slot in own and board[slot] == 1:
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

    def outcome(self, pos: tuple[tuple[int, ...], int]) -> int | Value | None:
        houses, who = pos
        mine = sum(houses[who * self.m:(who + 1) * self.m])
        theirs = sum(houses) - mine
        if mine and theirs:
            return None
        return mine - theirs
