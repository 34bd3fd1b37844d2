"""Connect Four on any board, as a compiled game (and a plain Python twin for the tests).

A position is one int64, John Tromp's bitboard key: each column takes H + 1 bits, holding the
stones of the player to move below a single marker bit at the column's height. So the code is
``mover + mask + bottom`` where ``mask`` is every stone and ``bottom`` the lowest bit of each
column; it fits for W * (H + 1) <= 62 (7x6 uses 49 bits). Four in a row is found with shifts
by 1 (vertical), H + 1 (horizontal), H and H + 2 (the diagonals), as in Tromp's and Pascal
Pons's solvers. The tier is the number of stones: every move adds one.

    perfectplay solve 'examples/connect4.py:ConnectFour(5, 4)'
    perfectplay play 'examples/connect4.py:ConnectFour(5, 4)'

Published results (Tromp, "John's Connect Four Playground"): 4x4, 5x4, 4x5 and 5x5 are draws
that fill the board; 6x4 is a second-player win at ply 24; 7x4 a draw lasting 28 plies; the
standard 7x6 a first-player win.
"""

from __future__ import annotations

from numba import njit

from perfectplay.engine import LOSE, ONGOING, TIE, CompiledGame, Value


class ConnectFour(CompiledGame):
    """Connect Four with ``width`` columns and ``height`` rows (moves are column numbers)."""

    def __init__(self, width: int = 7, height: int = 6) -> None:
        if not (width >= 1 and height >= 1 and width * (height + 1) <= 62):
            raise ValueError("the board must have width * (height + 1) <= 62")
        self.width, self.height = width, height
        W, H = width, height
        H1 = H + 1
        col_mask = (1 << H1) - 1
        bottom = sum(1 << (c * H1) for c in range(W))
        full = sum(((1 << H) - 1) << (c * H1) for c in range(W))

        # Bit-parallel decoding: smear each column's marker bit down to bit 0 (masking the
        # bits that would cross into the column below), so the stones are the smear halved.
        low2 = bottom * 3
        low4 = bottom * 15
        low8, low16, low32 = bottom * 255, bottom * 65535, bottom * (2**32 - 1)

        @njit
        def split(code):
            """(mover's stones, all stones) of a code, in a dozen word operations."""
            s = code | ((code & ~bottom) >> 1)
            s |= (s & ~low2) >> 2
            s |= (s & ~low4) >> 4
            if H1 > 8:  # tall boards: constants, so numba drops these for H < 8
                s |= (s & ~low8) >> 8
            if H1 > 16:
                s |= (s & ~low16) >> 16
            if H1 > 32:
                s |= (s & ~low32) >> 32
            mask = (s & ~bottom) >> 1
            return code - mask - bottom, mask

        @njit
        def four(stones):
            for d in (1, H1, H, H + 2):
                m = stones & (stones >> d)
                if m & (m >> (2 * d)):
                    return True
            return False

        @njit
        def moves(code, out):
            k = 0
            for c in range(W):
                field = (code >> (c * H1)) & col_mask
                if field < (1 << H):  # the marker is below the top row
                    out[k] = c
                    k += 1
            return k

        @njit
        def play(code, c):
            mover, mask = split(code)
            mask2 = mask | (mask + bottom) & (col_mask << (c * H1))  # the new stone in column c
            return (mover ^ mask) + mask2 + bottom  # the other player moves next

        @njit
        def outcome(code):
            mover, mask = split(code)
            if four(mover ^ mask):  # the player who just moved made four
                return LOSE
            if mask == full:
                return TIE
            return ONGOING

        @njit
        def tier(code):
            _, mask = split(code)
            x = mask - ((mask >> 1) & 0x5555555555555555)  # SWAR popcount
            x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
            return (x * 0x0101010101010101) >> 56

        @njit
        def canonical(code):
            """The smaller of the code and its mirror image's (columns reversed): a board
            and its mirror have the same value, so a store keeps one of them."""
            mirror = 0
            for c in range(W):
                mirror |= ((code >> (c * H1)) & col_mask) << ((W - 1 - c) * H1)
            return min(code, mirror)

        super().__init__(bottom, moves, play, outcome, max_moves=W, tier=tier,
                         canonical=canonical, name=f"ConnectFour({W}, {H})")
        self._split = split

    def stones(self, code: int) -> tuple[list[str], int]:
        """The board as rows of '.', 'X', 'O' (top row first) and the number of stones."""
        mover, mask = (int(x) for x in self._split(code))
        n = bin(mask).count("1")
        me, other = ("X", "O") if n % 2 == 0 else ("O", "X")
        rows = []
        for r in range(self.height - 1, -1, -1):
            row = ""
            for c in range(self.width):
                bit = 1 << (c * (self.height + 1) + r)
                row += "." if not mask & bit else (me if mover & bit else other)
            rows.append(row)
        return rows, n

    def draw(self, code: int) -> str:
        rows, _ = self.stones(code)
        return "\n".join(rows) + "\n" + "".join(str(c + 1) for c in range(self.width))

    def move_name(self, move: int) -> str:
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        return int(text) - 1


class ConnectFourPy:
    """The same game in the Python protocol, positions as tuples of column strings: the
    independent twin the tests compare the compiled game with."""

    def __init__(self, width: int = 7, height: int = 6) -> None:
        self.width, self.height = width, height

    def initial(self) -> tuple[str, ...]:
        return ("",) * self.width

    def moves(self, pos: tuple[str, ...]) -> list[int]:
        return [c for c in range(self.width) if len(pos[c]) < self.height]

    def play(self, pos: tuple[str, ...], c: int) -> tuple[str, ...]:
        mover = "X" if sum(map(len, pos)) % 2 == 0 else "O"
        return pos[:c] + (pos[c] + mover,) + pos[c + 1:]

    def outcome(self, pos: tuple[str, ...]) -> Value | None:
        n = sum(map(len, pos))
        last = "O" if n % 2 == 0 else "X"

        def at(c: int, r: int) -> str:
            return pos[c][r] if 0 <= c < self.width and 0 <= r < len(pos[c]) else ""

        for c in range(self.width):
            for r in range(len(pos[c])):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(at(c + i * dc, r + i * dr) == last for i in range(4)):
                        return Value.LOSE
        return Value.TIE if n == self.width * self.height else None
