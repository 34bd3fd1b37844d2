"""Connect Four on any board, as a compiled game (and a plain Python twin for the tests).

A position is one int64, John Tromp's bitboard key: each column takes H + 1 bits, holding the
stones of the player to move below a single marker bit at the column's height. So the code is
``mover + mask + bottom`` where ``mask`` is every stone and ``bottom`` the lowest bit of each
column; it fits for W * (H + 1) <= 62 (7x6 uses 49 bits). Four in a row is found with shifts
by 1 (vertical), H + 1 (horizontal), H and H + 2 (the diagonals), as in Tromp's and Pascal
Pons's solvers. The tier is the number of stones: every move adds one.

For proof search (``perfectplay.search``) the game gives two hooks. ``horizon`` is the number
of empty cells: no game lasts longer, and a tie always fills the board. ``search_moves`` is
the move pruning and ordering Pascal Pons describes in "Solving Connect 4"
(blog.gamesolver.org), done on bitboards: the winning cells of each player are found with
the same shifts; a move that wins at once is the only one listed; an opponent's threat
leaves only its block; a move right under an opponent's winning cell is dropped (the
opponent wins on top of it); the rest go best first by how many winning cells they leave
the mover, centre columns first on a tie. Standard test positions (Pons's sets, as
published in Christophe Steininger's solver) are in tests/data/connect4, with
:func:`position_from_moves` to read them and :func:`from_pons_score` to read their scores.

    perfectplay solve 'examples/connect4.py:ConnectFour(5, 4)'
    perfectplay play 'examples/connect4.py:ConnectFour(5, 4)'

Published results (Tromp, "John's Connect Four Playground"): 4x4, 5x4, 4x5 and 5x5 are draws
that fill the board; 6x4 is a second-player win at ply 24; 7x4 a draw lasting 28 plies; the
standard 7x6 a first-player win.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic, overload

from perfectplay.engine import CANNOT_LOSE, CANNOT_WIN, LOSE, ONGOING, TIE, CompiledGame, Value


def popcount(x: int) -> int:
    """The number of set bits of a non-negative int64: one ``popcnt`` instruction in compiled
    code (see the overload below), Python's ``bit_count`` when the jit is off."""
    return int(x).bit_count()


def lowest_bit_index(x: int) -> int:
    """The index of the lowest set bit of a non-zero int64 (``tzcnt`` in compiled code)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return types.int64(types.int64), codegen


@overload(popcount)
def _popcount_compiled(x):
    if isinstance(x, types.Integer):
        return lambda x: _ctpop(x)
    return None


@overload(lowest_bit_index)
def _lowest_bit_index_compiled(x):
    if isinstance(x, types.Integer):
        return lambda x: _cttz(x)
    return None


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

        # -- the proof-search hooks --------------------------------------------------------
        # Four fits vertically when H >= 4, horizontally when W >= 4, diagonally when both;
        # the other directions are skipped (which also keeps every shift below 49 bits).
        vertical, horizontal, diagonal = H >= 4, W >= 4, W >= 4 and H >= 4
        cells = W * H
        # Columns centre first, left before right on a tie (7 columns: 3, 2, 4, 1, 5, 0, 6).
        order = tuple(W // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(W))

        @njit
        def line(p, d):
            """The cells that complete four with ``p``'s stones along the shift ``d``: three
            stones on one side (xxx_, _xxx) or two and one (xx_x, x_xx)."""
            two_below = (p << d) & (p << (2 * d))
            two_above = (p >> d) & (p >> (2 * d))
            return (two_below & ((p << (3 * d)) | (p >> d))) \
                | (two_above & ((p >> (3 * d)) | (p << d)))

        @njit
        def wins_at(p, mask):
            """The empty cells (playable or not) where the player with stones ``p`` would
            complete four."""
            r = 0
            if vertical:  # only three stones below can complete a column
                r = (p << 1) & (p << 2) & (p << 3)
            if horizontal:
                r |= line(p, H1)
            if diagonal:
                r |= line(p, H) | line(p, H + 2)
            return r & (full ^ mask)

        @njit
        def search_moves(code, out):
            """The columns worth searching, best first (see the module doc): the win if there
            is one, else the block if the opponent threatens, never a move right under an
            opponent's winning cell unless every move is, ordered by the winning cells the
            move leaves the mover and then centre first. Every move left out loses in 2, or
            is no better than the one listed."""
            mover, mask = split(code)
            playable = (mask + bottom) & full  # the lowest empty cell of each column
            if playable == 0:
                return 0
            win = playable & wins_at(mover, mask)
            if win:  # every immediate win is a win in 1: list one
                out[0] = lowest_bit_index(win) // H1
                return 1
            theirs = wins_at(mover ^ mask, mask)
            threat = playable & theirs
            if threat:
                if threat & (threat - 1):  # two threats, one block: every move loses in 2
                    out[0] = lowest_bit_index(playable) // H1
                    return 1
                playable = threat  # every other move loses in 2
            safe = playable & ~(theirs >> 1)  # not under a cell where the opponent wins
            if safe == 0:  # every candidate loses in 2
                out[0] = lowest_bit_index(playable) // H1
                return 1
            if safe & (safe - 1) == 0:  # one move left: nothing to order
                out[0] = lowest_bit_index(safe) // H1
                return 1
            # insertion sort by (winning cells after the move) * 64 + column, stable in the
            # centre-first order; the low six bits then give back the column
            k = 0
            for c in order:
                bit = safe & (col_mask << (c * H1))
                if bit:
                    score = popcount(wins_at(mover | bit, mask | bit))
                    j = k
                    while j > 0 and (out[j - 1] >> 6) < score:
                        out[j] = out[j - 1]
                        j -= 1
                    out[j] = (score << 6) | c
                    k += 1
            for i in range(k):
                out[i] &= 63
            return k

        @njit
        def horizon(code):
            """The empty cells: every game from here ends within that many plies, and a
            tie only when the board is full."""
            _, mask = split(code)
            return cells - popcount(mask)

        # the cells of the even rows (counted from 1 at the bottom): 0-based rows 1, 3, 5, ...
        even_rows = sum(1 << (c * H1 + r) for c in range(W) for r in range(1, H, 2))
        claimeven = H % 2 == 0

        @njit
        def static_bounds(code):
            """What is known without search (flags, see CompiledGame): the mover cannot win
            when no line is left it could complete (its stones and the empty cells hold no
            four), nor when the opponent can answer every move in the same column (Allis'
            claimeven, even heights and an even number of stones): the opponent then gets
            every even-row cell that is not playable now, the mover at most the rest. The
            mover cannot lose when the opponent has no line left."""
            mover, mask = split(code)
            empty = full ^ mask
            other = mover ^ mask
            known = 0
            if not four(mover | empty):
                known |= CANNOT_WIN
            elif claimeven and popcount(mask) % 2 == 0:
                playable = (mask + bottom) & full
                theirs = other | (even_rows & empty & ~playable)
                if not four(full & ~theirs):
                    known |= CANNOT_WIN
            if not four(other | empty):
                known |= CANNOT_LOSE
            return known

        # -- the store's dense numbering inside a tier ---------------------------------------
        # A board of t stones is its columns' heights (a composition of t into W parts of at
        # most H) and which t // 2 of its stones are the mover's. Heights are ranked among the
        # compositions of t (ways[c, s]: fillings of columns c.. with s stones), the mover's
        # stones among the C(t, t // 2) choices by the combinatorial number system over the
        # stones in column-major order, bottom up. 7x4: 4.6e9 ranks for 2.3e9 positions.
        cells_n = W * H
        binom = np.zeros((cells_n + 2, cells_n + 2), np.int64)
        for n in range(cells_n + 2):
            binom[n, 0] = 1
            for k in range(1, n + 1):
                binom[n, k] = binom[n - 1, k - 1] + binom[n - 1, k]
        ways = np.zeros((W + 1, cells_n + 1), np.int64)
        ways[W, 0] = 1
        for c in range(W - 1, -1, -1):
            for s_ in range(cells_n + 1):
                ways[c, s_] = sum(ways[c + 1, s_ - h] for h in range(min(H, s_) + 1))

        @njit
        def height(code, c):
            """(column c's field: the mover's stones under a marker bit, its height)."""
            f = (code >> (c * H1)) & col_mask
            h = 0
            while f >> (h + 1):
                h += 1
            return f, h

        @njit
        def rank(code):
            t = 0
            for c in range(W):
                t += height(code, c)[1]
            left = t
            hrank = 0
            crank = 0
            p = 0
            j = 0
            for c in range(W):
                f, h = height(code, c)
                for g in range(h):
                    hrank += ways[c + 1, left - g]
                    if (f >> g) & 1:
                        j += 1
                        crank += binom[p, j]
                    p += 1
                left -= h
            return hrank * binom[t, t // 2] + crank

        @njit
        def unrank(t, r):
            k = t // 2
            hrank = r // binom[t, k]
            crank = r % binom[t, k]
            mine = np.zeros(cells_n + 1, np.bool_)  # which stones, by column-major index
            for j in range(k, 0, -1):
                p = j - 1
                while binom[p + 1, j] <= crank:
                    p += 1
                mine[p] = True
                crank -= binom[p, j]
            code = 0
            left = t
            p = 0
            for c in range(W):
                h = 0
                while hrank >= ways[c + 1, left - h]:
                    hrank -= ways[c + 1, left - h]
                    h += 1
                f = 1 << h
                for g in range(h):
                    if mine[p]:
                        f |= 1 << g
                    p += 1
                code |= f << (c * H1)
                left -= h
            return code

        super().__init__(bottom, moves, play, outcome, max_moves=W, tier=tier,
                         canonical=canonical, search_moves=search_moves, horizon=horizon,
                         static_bounds=static_bounds, rank=rank, unrank=unrank,
                         name=f"ConnectFour({W}, {H})")
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


def position_from_moves(game: ConnectFour, columns: str, first_column: int = 0) -> int:
    """The code reached by playing ``columns`` from the start, one digit per move: column
    numbers from ``first_column`` on (0 in Steininger's test files, 1 in Pascal Pons's).

    Raises ValueError on a character that is not a column, a full column, or a move after the
    game has ended, naming the move's place in the string.

    >>> game = ConnectFour(4, 4)
    >>> game.stones(position_from_moves(game, "1120"))
    (['....', '....', '.O..', 'OXX.'], 4)
    """
    code = game.start_code
    for i, ch in enumerate(columns):
        c = ord(ch) - ord("0") - first_column
        if not (ch.isdigit() and 0 <= c < game.width):
            raise ValueError(f"move {i + 1} of {columns!r}: {ch!r} is not a column "
                             f"({first_column}..{first_column + game.width - 1})")
        if game.outcome(code) is not None:
            raise ValueError(f"move {i + 1} of {columns!r}: the game is already over")
        if c not in game.moves(code):
            raise ValueError(f"move {i + 1} of {columns!r}: column {ch} is full")
        code = game.play(code, c)
    return code


def from_pons_score(score: int, stones: int, width: int = 7,
                    height: int = 6) -> tuple[Value, int]:
    """Pascal Pons's score of a position with ``stones`` stones, as (value for the player to
    move, remoteness in plies).

    Pons ("Solving Connect 4", blog.gamesolver.org) scores a position for the player to move:
    0 for a draw; a win by the stone that makes the board hold m stones scores
    (W*H + 2 - m) // 2 (1 for a win with one's last stone, more for a quicker one), a loss
    the opposite of the winner's score. Steininger's solver (``score_win_at``) uses the
    same numbers. So a score s != 0 leaves two possible winning stones, m = W*H + 2 - 2|s| or
    one less, of which only one is the right player's: the winner's stones are the odd plies
    from here (remoteness r = m - stones odd for a win, even for a loss). A draw fills the
    board: TIE in W*H - stones plies. A position already lost (the opponent's four is on the
    board) scores -((W*H + 2 - stones) // 2), remoteness 0.

    >>> from_pons_score(1, 36)   # the mover's last stone is the 41st, 5 plies on
    (<Value.WIN: 'win'>, 5)
    >>> from_pons_score(1, 37), from_pons_score(-1, 36), from_pons_score(0, 20)
    ((<Value.WIN: 'win'>, 5), (<Value.LOSE: 'lose'>, 6), (<Value.TIE: 'tie'>, 22))
    """
    cells = width * height
    if not 0 <= stones <= cells:
        raise ValueError(f"{stones} stones do not fit on a {width}x{height} board")
    if score == 0:
        return Value.TIE, cells - stones
    value, parity = (Value.WIN, 1) if score > 0 else (Value.LOSE, 0)
    r = cells + 2 - stones - 2 * abs(score)
    if r % 2 != parity:
        r -= 1
    if not (parity <= r <= cells - stones and stones + r >= 7):  # no four before stone 7
        raise ValueError(f"score {score} is impossible with {stones} stones on a "
                         f"{width}x{height} board")
    return value, r


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
