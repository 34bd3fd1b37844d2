"""Othello's rules on bitboards: numba kernels shared by every board size, the compiled game
(4x4 and 6x6) and the Python-door game (8x8).

**Bitboards.** A set of squares is one int64 with the square in row r (0 at the top, the
row people call r + 1), column c (0 = ``a``) at bit 8r + c, whatever the board's size: rows
keep the 8x8 stride, so the shifts of the eight directions are the same numbers (1, 7, 8, 9
each way) on every board. Each direction has a *target mask*: the squares that have a
square of the board one step back the other way, so a shift followed by its mask never
wraps from one edge to the other and never leaves the board. Legal moves are found with a
run of shifts (a dumb7fill, Kogge and Stone's idea as chess programmers use it), flips by
walking each direction from the new disc.

**Why int64 and not uint64, or two int32 halves.** The numba kernels take int64 only: mixing
numba's uint64 with an int64 constant gives a float64, a silent trap in every shift. On a
board of at most 6x6 the highest bit is 45, far from the sign; on 8x8 bit 63 is h8 and is
the sign bit, and the int64 still works: a left shift carries into it as unsigned arithmetic
would, and the copies of the sign bit that an arithmetic right shift brings into bits 56-63
land only on targets with no source in that direction, which the target mask clears.
``tests/test_catalog_othello.py`` checks the 8x8 kernels against the twin at random
positions with discs on h8.

**Codes.** The engine's compiled positions are single int64 codes (its tables, stores and
search key on them). Two bitboards need 2 x N^2 bits: 32 for 4x4 fit, 72 for 6x6 do not. So
a compiled code is the board in base 3 (a square: 0 empty, 1 black, 2 white), row by row,
times 2, plus 1 when White is to move (2 x 3^36 < 2^59 for 6x6), with the side N in bits
60-62. A row's squares go to and from their base-3 digits through two tables (729 and 4,096
entries), so a code is decoded with N divisions and N look-ups. Keeping N in the code lets
one set of module-level numba functions (cached on disk) serve 4x4 and 6x6: the engine's
kernels, which numba compiles afresh in every process for each set of rules (they take the
rules as arguments), then compile once for both sizes. An 8x8 board (3^64 > 2^101) fits no
int64 code at all: ``othello(size=8)`` is a Python game whose positions are ``(black,
white, turn)`` tuples (the search's Python door), its rules the same kernels (no canonical
there: the Python door keys its table by the position itself).

**Rules as the engine sees them.** Moves are the squares (bit numbers) where the mover's disc
outflanks at least one line of the opponent's discs, or the single move :data:`PASS` when
there is none but the opponent can move. The game ends when neither side can move (the
board full or not); it is scored: every move pays 0 and an ended position is worth the
mover's discs minus the opponent's (empty squares count for nobody, as in Takizawa 2023;
the World Othello Federation's tournament rule would give them to the winner). So the
engine's margin at the start is the first player's final disc difference.

**Hooks.** ``tier`` is twice the discs plus one when the mover has a move: a disc move adds
a disc, a pass (from a position without moves) goes to the same discs with moves, so the
tier rises along every move and the game is solved tier by tier. ``canonical`` is the code
of the least (black, white) image under the 8 symmetries of the square (the start is
symmetric under 4: the identity, the half turn and the reflections in both diagonals).
``search_moves`` orders the moves by a shallow search of each (1 to 3 plies below it, by
the empty squares) with a static evaluation at its leaves: mobility, potential mobility,
corners, X- and C-squares (:func:`search_order`; on Feinstein's line at 24 and 26 empty
squares 4.5x and 5.2x fewer nodes than the order by the opponent's mobility alone, with
the probes from :meth:`Othello.first_guess`).
``margin_bound`` is N^2: no disc count exceeds the board. ``endgame`` takes every position
with at most :data:`ENDGAME_EMPTIES` empty squares off the engine's hands: the code decoded
once, then alpha-beta on the two bitboards with no table and no symmetry, moves fastest
first (the fewest replies) down to :data:`UNORDERED_EMPTIES` squares, then in square order
over the empty squares, the last square by a flip count (as mame's ``o66`` searches its last
10 squares): 50-70 ns a node here against about 700 through the engine, for about twice the
nodes (no table).

>>> game = Othello(4)
>>> [game.move_name(m) for m in game.moves(game.initial())]
['b1', 'a2', 'd3', 'c4']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...bits import lowest_bit, popcount
from ...engine.compiled.game import ONGOING, TIE, CompiledGame
from ...errors import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The move that passes (no square has this bit number).
PASS = 64
#: The eight directions as bit shifts (positive: towards higher bits).
DIRECTIONS = np.array([1, -1, 8, -8, 9, -9, 7, -7], np.int64)
_DR = (0, 0, 1, -1, 1, -1, 1, -1)  # the row step of each direction
_DC = (1, -1, 0, 0, 1, -1, -1, 1)  # the column step
COLUMNS = "abcdefgh"

Board = tuple[int, int, int]  # (black bits, white bits, 0 when Black is to move else 1)


def square(row: int, col: int) -> int:
    """The bit of the square in ``row`` (0 at the top) and ``col`` (0 = a)."""
    return 8 * row + col


def signed(x: int) -> int:
    """A 64-bit pattern as the int64 the kernels take (h8, bit 63, is the sign)."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >> 63 else x


def unsigned(x: int) -> int:
    """The int64 ``x`` read back as a 64-bit pattern (a non-negative Python int)."""
    return int(x) & ((1 << 64) - 1)


def target_masks(n: int) -> np.ndarray:
    """Nine int64s: for each direction, the squares of the n x n board whose neighbour one
    step back along it is on the board (shift, then mask: no wrap); then the board."""
    out = []
    for k in range(8):
        m = 0
        for r in range(n):
            for c in range(n):
                if 0 <= r - _DR[k] < n and 0 <= c - _DC[k] < n:
                    m |= 1 << square(r, c)
        out.append(signed(m))
    board = sum(1 << square(r, c) for r in range(n) for c in range(n))
    return np.array(out + [signed(board)], np.int64)


@njit(cache=True)
def shift(x, d, mask):
    """``x`` moved one step in direction ``d`` (a shift), kept to ``mask``."""
    if d > 0:
        return (x << d) & mask
    return (x >> -d) & mask


@njit(cache=True)
def legal(me, opp, masks):
    """The squares where ``me`` may play: empty, and next to a run of ``opp`` discs that
    ends on a disc of ``me`` (the fill walks at most 6 discs, the longest run). O(8 x 7)."""
    empty = masks[8] & ~(me | opp)
    found = np.int64(0)
    for k in range(8):
        d = DIRECTIONS[k]
        m = masks[k]
        run = shift(me, d, m) & opp
        for _ in range(5):
            run |= shift(run, d, m) & opp
        found |= shift(run, d, m) & empty
    return found


@njit(cache=True)
def flips(me, opp, sq, masks):
    """The ``opp`` discs a disc of ``me`` on ``sq`` turns over: along each direction, the
    run of opponent discs that ends on one of the mover's."""
    bit = np.int64(1) << sq
    out = np.int64(0)
    for k in range(8):
        d = DIRECTIONS[k]
        m = masks[k]
        x = shift(bit, d, m)
        line = np.int64(0)
        while x & opp:
            line |= x
            x = shift(x, d, m)
        if x & me:
            out |= line
    return out


@njit(cache=True)
def mobility_order(me, opp, masks, corners, xsquares, out):
    """The mover's legal moves into ``out``, best first for search: corners, then by the
    opponent's move count after the move (fewest first; a smaller square on a tie), squares
    diagonally next to an empty corner last; PASS alone when there is none. Returns the
    count."""
    moves = legal(me, opp, masks)
    if moves == 0:
        out[0] = 64
        return 1
    keys = np.empty(64, np.int64)
    k = 0
    empty = masks[8] & ~(me | opp)
    while moves:
        sq = lowest_bit(moves)
        bit = np.int64(1) << sq
        moves &= moves - 1
        f = flips(me, opp, sq, masks)
        reply = popcount(legal(opp & ~f, me | f | bit, masks))
        group = 1
        if bit & corners:
            group = 0
        elif xsquares[sq] != 0 and xsquares[sq] & empty:
            group = 2
        key = (group * 64 + reply) * 64 + sq
        j = k
        while j > 0 and keys[j - 1] > key:  # insertion sort: at most 20-odd moves
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key
        k += 1
    for i in range(k):
        out[i] = keys[i] & 63
    return k


#: The evaluation that orders the search's moves above the endgame's gate (:func:`evaluate`):
#: weights of the mobility difference, the potential mobility difference (empty squares next
#: to the other side's discs), the corners, and the X-squares next to an empty corner.
#: Chosen on Feinstein's line at 24 empty squares (112 M nodes with the order by the
#: opponent's mobility; 42 M with these; corners at 30 and 100: 51 M and 53 M; potential
#: mobility at 0, 4 and 8: 50, 51 and 58 M).
W_MOBILITY, W_POTENTIAL, W_CORNER, W_XSQUARE = 10, 2, 60, 30
#: ... and of the C-squares (the edge squares next to an empty corner): with 3 plies from 20
#: squares, 24.7 M nodes at 24 empty squares and 68.5 M at 26 against 29.4 M and 83.5 M
#: without (5 and 20: 27.7 M and 29.8 M at 24; X-squares at 15: 28.5 M at 24 but 90.7 M
#: at 26; at 0 and 45: 36.7 M and 36.4 M at 24).
W_CSQUARE = 10
#: An ended game in :func:`evaluate`'s units: this much a disc of the margin.
W_DISC = 100
#: At least this many empty squares: moves ordered by a 2-ply search, else by a 1-ply one;
#: at least DEEPER_ORDER_EMPTIES, by a 3-ply one (Feinstein's line at 24 and 26 empty
#: squares: 29.4 M and 83.5 M nodes against 36.3 M and 117.9 M with 2 plies from 16).
DEEP_ORDER_EMPTIES = 16
DEEPER_ORDER_EMPTIES = 20


@njit(cache=True)
def neighbours(x, masks):
    """The squares next to a square of ``x`` (8 directions), on the board."""
    out = np.int64(0)
    for k in range(8):
        out |= shift(x, DIRECTIONS[k], masks[k])
    return out


@njit(cache=True)
def evaluate(me, opp, masks, corners, xsquares):
    """A static estimate of the position for the mover (``me`` to move), for move ordering
    only (never a bound): W_MOBILITY x the difference of the two sides' legal move counts,
    W_POTENTIAL x that of their potential mobility (the empty squares next to the other
    side's discs), W_CORNER x that of their corners, less W_XSQUARE x that of their discs
    on X-squares next to an empty corner and W_CSQUARE x that on its C-squares (``xsquares``:
    :data:`XPAIRS` of the board): the features of classical Othello evaluation
    (Rosenbloom 1982, IAGO). O(8 x 7) shifts."""
    empty = masks[8] & ~(me | opp)
    v = W_MOBILITY * (popcount(legal(me, opp, masks)) - popcount(legal(opp, me, masks)))
    v += W_POTENTIAL * (popcount(empty & neighbours(opp, masks))
                        - popcount(empty & neighbours(me, masks)))
    v += W_CORNER * (popcount(me & corners) - popcount(opp & corners))
    x = np.int64(0)
    c = np.int64(0)
    for i in range(0, 12, 3):
        if xsquares[i + 2] & empty:
            x |= xsquares[i]
            c |= xsquares[i + 1]
    v -= W_CSQUARE * (popcount(me & c) - popcount(opp & c))
    return v - W_XSQUARE * (popcount(me & x) - popcount(opp & x))


@njit(cache=True)
def _ended(me, opp, masks):
    """The evaluation of a position where neither side can move: the disc margin."""
    return W_DISC * (popcount(me) - popcount(opp)) + 0 * masks[8]


@njit(cache=True)
def _shallow(me, opp, alpha, beta, depth, masks, corners, xsquares):
    """The mover's ``depth``-ply search value (fail-soft alpha-beta, :func:`evaluate` at
    depth 0; a pass is not a ply, an ended game is its disc margin). O(moves^depth)
    evaluations."""
    if depth == 0:
        return evaluate(me, opp, masks, corners, xsquares)
    if legal(me, opp, masks) == 0:
        if legal(opp, me, masks) == 0:
            return _ended(me, opp, masks)
        return -_shallow(opp, me, -beta, -alpha, depth, masks, corners, xsquares)
    moves = legal(me, opp, masks)
    best = -(np.int64(1) << 40)
    while moves != 0:
        sq = lowest_bit(moves)
        moves &= moves - 1
        f = flips(me, opp, sq, masks)
        v = -_shallow(opp & ~f, me | f | (np.int64(1) << sq), -beta, -max(alpha, best),
                      depth - 1, masks, corners, xsquares)
        if v > best:
            best = v
            if best >= beta:
                return best
    return best


@njit(cache=True)
def search_order(me, opp, masks, corners, xsquares, out):
    """The mover's legal moves into ``out``, best first for search, by a shallow search of
    each move's position with :func:`evaluate` at its leaves (2 plies below the move with
    at least DEEP_ORDER_EMPTIES empty squares, else 1; a smaller square on a tie), as
    Othello programs order their midgame (Buro's ProbCut/Logistello and Edax sort by
    shallow searches; mame's o66 by 0-7 plies by the empty squares); PASS alone when
    there is no move. Returns the count. O(moves x replies (x their replies))
    evaluations (and their replies' at 3 plies): 10-1,000 us a node, paid only above the
    endgame's gate, most where the subtrees are biggest."""
    moves = legal(me, opp, masks)
    if moves == 0:
        out[0] = PASS
        return 1
    left = popcount(masks[8] & ~(me | opp))
    depth = 3 if left >= DEEPER_ORDER_EMPTIES else 2 if left >= DEEP_ORDER_EMPTIES else 1
    keys = np.empty(64, np.int64)
    k = 0
    big = np.int64(1) << 40
    while moves:
        sq = lowest_bit(moves)
        moves &= moves - 1
        f = flips(me, opp, sq, masks)
        c_me, c_opp = opp & ~f, me | f | (np.int64(1) << sq)  # the child, its mover first
        v = -_shallow(c_me, c_opp, -big, big, depth, masks, corners, xsquares)
        key = (big - v) * 64 + sq
        j = k
        while j > 0 and keys[j - 1] > key:  # insertion sort: at most 20-odd moves
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key
        k += 1
    for i in range(k):
        out[i] = keys[i] & 63
    return k


@njit(cache=True)
def mirror(x, n, rev):
    """Each row reversed (a <-> the last column)."""
    out = np.int64(0)
    for r in range(n):
        out |= (rev[(x >> (8 * r)) & 255] >> (8 - n)) << (8 * r)
    return out


@njit(cache=True)
def flip(x, n):
    """The rows in reverse order (row 1 <-> the last)."""
    out = np.int64(0)
    for r in range(n):
        out |= ((x >> (8 * r)) & 255) << (8 * (n - 1 - r))
    return out


@njit(cache=True)
def transpose(x):
    """Rows become columns (the reflection in the a1 diagonal), by three delta swaps
    (the chess programmers' flipDiagA1H8); an n x n board in the corner stays there."""
    t = np.int64(0x0F0F0F0F00000000) & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = np.int64(0x3333000033330000) & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = np.int64(0x5500550055005500) & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x


@njit(cache=True)
def encode(black, white, turn, n, digits, width):
    """The base-3 code of a board of n <= 6 rows (module doc), row by row from the last;
    ``digits`` is :func:`row_tables` of ``width`` >= n squares a row."""
    pw = 1
    for _ in range(n):
        pw *= 3
    row_mask = (1 << n) - 1
    code = np.int64(0)
    for r in range(n - 1, -1, -1):
        b = (black >> (8 * r)) & row_mask
        w = (white >> (8 * r)) & row_mask
        code = code * pw + digits[b | (w << width)]
    return code * 2 + turn


@njit(cache=True)
def decode(code, n, rb, rw):
    """(black, white, turn) of a code (the inverse of :func:`encode`)."""
    pw = 1
    for _ in range(n):
        pw *= 3
    t = code >> 1
    black = np.int64(0)
    white = np.int64(0)
    for r in range(n):
        v = t % pw
        t //= pw
        black |= rb[v] << (8 * r)
        white |= rw[v] << (8 * r)
    return black, white, code & 1


@njit(cache=True)
def least_image(black, white, n, rev):
    """The (black, white) pair smallest in (black, white) order among the 8 images of the
    board under the symmetries of the square."""
    bb, ww = black, white
    for s in range(8):
        b, w = black, white
        if s & 1:
            b, w = mirror(b, n, rev), mirror(w, n, rev)
        if s & 2:
            b, w = flip(b, n), flip(w, n)
        if s & 4:
            b, w = transpose(b), transpose(w)
        if b < bb or b == bb and w < ww:
            bb, ww = b, w
    return bb, ww


def row_tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(digits, rb, rw): a row's base-3 value from its black bits | white bits << n, and
    back: the black and the white bits of each row value."""
    pw = 3 ** n
    digits = np.zeros(1 << (2 * n), np.int64)
    rb = np.zeros(pw, np.int64)
    rw = np.zeros(pw, np.int64)
    for v in range(pw):
        b = w = 0
        x = v
        for c in range(n):
            x, d = divmod(x, 3)
            b |= (d == 1) << c
            w |= (d == 2) << c
        rb[v], rw[v] = b, w
        digits[b | (w << n)] = v
    return digits, rb, rw


def reversed_bytes() -> np.ndarray:
    return np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], np.int64)


def corner_tables(n: int) -> tuple[int, np.ndarray]:
    """(the corners' bits, for each square the bit of the corner it touches diagonally
    (an X-square), else 0)."""
    last = n - 1
    corners = [(0, 0), (0, last), (last, 0), (last, last)]
    xs = np.zeros(64, np.int64)
    for r, c in corners:
        xr, xc = (1 if r == 0 else last - 1), (1 if c == 0 else last - 1)
        xs[square(xr, xc)] = signed(1 << square(r, c))
    return sum(1 << square(r, c) for r, c in corners), xs


def start_board(n: int) -> tuple[int, int]:
    """(black, white) at the start: White on the a1-diagonal pair of the centre (d4 and e5
    on 8x8), Black on the other two."""
    h = n // 2
    white = (1 << square(h - 1, h - 1)) | (1 << square(h, h))
    black = (1 << square(h - 1, h)) | (1 << square(h, h - 1))
    return black, white


_MOVE = re.compile(r"pass|[a-h][1-8]")


def parse_line(text: str, n: int) -> list[int] | None:
    """The moves of a line written ``f5 d6 c3`` or ``f5d6c3`` (``pass`` where a side
    passes), or None when it holds anything else."""
    text = text.strip().lower()
    if not text:
        return []
    found = []
    pos = 0
    for m in _MOVE.finditer(text):
        if text[pos:m.start()].strip(" ,;") != "":
            return None
        found.append(m.group())
        pos = m.end()
    if text[pos:].strip(" ,;") != "":
        return None
    moves = [name_to_move(name, n) for name in found]
    return None if any(m is None for m in moves) else [m for m in moves if m is not None]


def name_to_move(text: str, n: int) -> int | None:
    """``d3`` -> its bit, ``pass`` -> PASS, anything else (or off an n x n board) None."""
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if len(t) >= 2 and t[0] in COLUMNS[:n] and t[1:].isdigit():
        row = int(t[1:])
        if 1 <= row <= n and t[1:] == str(row):
            return square(row - 1, COLUMNS.index(t[0]))
    return None


def move_to_name(move: int) -> str:
    return "pass" if move == PASS else f"{COLUMNS[move % 8]}{move // 8 + 1}"


class _Board:
    """What the two doors share: names, pictures and the start after an opening."""

    size: int
    masks: np.ndarray

    def board(self, pos: int | Board) -> Board:
        raise NotImplementedError

    def move_name(self, move: int) -> str:
        """``d3`` (column letter, row number from the top), ``pass``."""
        return move_to_name(move)

    def parse_move(self, text: str) -> int | None:
        """The move named ``text`` (``D3`` and `` d3 `` too), or None."""
        return name_to_move(text, self.size) if isinstance(text, str) else None

    def draw(self, pos: int | Board) -> str:
        """The board with its coordinates: X for Black, O for White, . empty."""
        black, white, turn = self.board(pos)
        n = self.size
        rows = ["  " + " ".join(COLUMNS[:n])]
        for r in range(n):
            cells = ["X" if black >> square(r, c) & 1 else "O" if white >> square(r, c) & 1
                     else "." for c in range(n)]
            rows.append(f"{r + 1} " + " ".join(cells))
        nb, nw = int(black).bit_count(), int(white).bit_count()
        rows.append(f"{'White (O)' if turn else 'Black (X)'} to move; X {nb}, O {nw}")
        return "\n".join(rows)

    def plot(self, pos: int | Board, ax: Axes) -> None:
        """The board on a matplotlib Axes: a green square, the grid, the discs."""
        black, white, _ = self.board(pos)
        n = self.size
        ax.fill([0, n, n, 0], [0, 0, n, n], color="#2e7d32")
        for i in range(n + 1):
            ax.plot([i, i], [0, n], color="black", lw=1)
            ax.plot([0, n], [i, i], color="black", lw=1)
        for bits, face in ((black, "black"), (white, "white")):
            cells = [(c + 0.5, n - r - 0.5) for r in range(n) for c in range(n)
                     if bits >> square(r, c) & 1]
            if cells:
                xs, ys = zip(*cells, strict=True)
                ax.scatter(xs, ys, s=1800 / n, c=face, edgecolors="black", zorder=3)
        for c in range(n):
            ax.text(c + 0.5, n + 0.2, COLUMNS[c], ha="center")
        for r in range(n):
            ax.text(-0.3, n - r - 0.5, str(r + 1), va="center")
        ax.set_xlim(-0.6, n + 0.1)
        ax.set_ylim(-0.1, n + 0.6)
        ax.set_aspect("equal")
        ax.axis("off")

    def discs(self, pos: int | Board) -> tuple[int, int]:
        """(Black's discs, White's discs)."""
        black, white, _ = self.board(pos)
        return int(black).bit_count(), int(white).bit_count()

    def _after(self, opening: str) -> Board:
        """(black, white, turn) after ``opening`` from the start, or InputError."""
        moves = parse_line(opening, self.size)
        if moves is None:
            raise InputError(f"opening {opening!r} is not a list of moves like 'c4 d3 pass' "
                             f"on a {self.size}x{self.size} board")
        black, white = start_board(self.size)
        turn = 0
        for k, move in enumerate(moves):
            me, opp = (white, black) if turn else (black, white)
            found = unsigned(legal(signed(me), signed(opp), self.masks))
            ok = move == PASS and found == 0 and unsigned(
                legal(signed(opp), signed(me), self.masks)) != 0 \
                or move != PASS and found >> move & 1
            if not ok:
                raise InputError(f"opening: move {k + 1}, {move_to_name(move)}, is not legal "
                                 f"for {'White' if turn else 'Black'} there")
            if move != PASS:
                f = unsigned(flips(signed(me), signed(opp), move, self.masks))
                me |= f | (1 << move)
                opp &= ~f
            black, white = (opp, me) if turn else (me, opp)
            turn ^= 1
        return black, white, turn


#: Positions with at most this many empty squares are searched by :func:`endgame` (the lean
#: endgame path: no table, no symmetry, the bitboards decoded once).
ENDGAME_EMPTIES = 10
#: At most this many empty squares: moves in square order, not sorted (sorting costs more
#: than it saves so near the end; 3, 5 and 6 measured alike, 8 slower).
UNORDERED_EMPTIES = 5
_NONE = -1000  # below every margin


@njit(cache=True)
def last_square(me, opp, sq, masks):
    """(score, nodes) of a position whose one empty square is ``sq``: the mover fills it,
    else the opponent, else nobody (the game has ended). O(1)."""
    f = flips(me, opp, sq, masks)
    if f != 0:
        return popcount(me | f) + 1 - popcount(opp & ~f), np.int64(2)
    f = flips(opp, me, sq, masks)
    if f != 0:
        return popcount(me & ~f) - popcount(opp | f) - 1, np.int64(3)
    return popcount(me) - popcount(opp), np.int64(1)


# the rows of :func:`search_endgame`'s stack (a column a ply)
_ME, _OPP, _EMPTY, _LEFT, _A, _B, _BEST, _MODE, _REST, _COUNT, _NEXT = range(11)
_SORTED, _PLAIN, _PASSED = 0, 1, 2  # a node's mode: moves fastest first, in square order,
# or its pass being searched; _PLAIN | 4: the opponent has just passed (the game ends if
# this node has no move either)
_ENTER, _STEP, _RETURN = range(3)


@njit(cache=True)
def sorted_moves(me, opp, masks, keys, base):
    """The mover's moves into ``keys[base:]``, fastest first (the fewest replies left to the
    opponent: the fastest-first rule of Othello endgame solvers; a smaller square on a tie), as
    (replies * 64 + square). Returns their count. O(moves^2), a handful of moves."""
    moves = legal(me, opp, masks)
    k = 0
    while moves != 0:
        sq = lowest_bit(moves)
        moves &= moves - 1
        f = flips(me, opp, sq, masks)
        key = popcount(legal(opp & ~f, me | f | (np.int64(1) << sq), masks)) * 64 + sq
        j = base + k
        while j > base and keys[j - 1] > key:  # insertion sort
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key
        k += 1
    return k


@njit(cache=True)
def search_endgame(me, opp, alpha, beta, masks, stack, keys):
    """(score, nodes): fail-soft alpha-beta of the mover's final margin in (alpha, beta)
    from the bitboards ``me`` and ``opp``, with no table: moves fastest first while more
    than ``UNORDERED_EMPTIES`` squares are empty, then in square order over the empty
    squares (a move is a square with flips), the last square by :func:`last_square`.
    Iterative (numba does not cache recursive functions safely): ``stack`` is 11 rows of a
    column a ply (2 x the empty squares + 2 plies: passes), ``keys`` 32 a ply. O(nodes)."""
    nodes = np.int64(0)
    d = 0
    stack[_ME, 0], stack[_OPP, 0] = me, opp
    stack[_EMPTY, 0] = masks[8] & ~(me | opp)
    stack[_LEFT, 0] = popcount(stack[_EMPTY, 0])
    stack[_A, 0], stack[_B, 0] = alpha, beta
    stack[_MODE, 0] = _PLAIN
    state = _ENTER
    ret = np.int64(0)
    while True:
        if state == _ENTER:
            nodes += 1
            me, opp, empty = stack[_ME, d], stack[_OPP, d], stack[_EMPTY, d]
            state = _RETURN
            stack[_BEST, d] = _NONE
            if empty == 0:
                ret = popcount(me) - popcount(opp)
            elif empty & (empty - 1) == 0:
                ret, n = last_square(me, opp, lowest_bit(empty), masks)
                nodes += n - 1
            elif stack[_LEFT, d] <= UNORDERED_EMPTIES:
                stack[_MODE, d] = _PLAIN | (stack[_MODE, d] & 4)
                stack[_REST, d] = empty
                state = _STEP
            else:
                k = sorted_moves(me, opp, masks, keys, d * 32)
                if k > 0:
                    stack[_MODE, d] = _SORTED
                    stack[_COUNT, d], stack[_NEXT, d] = k, 0
                    state = _STEP
                elif legal(opp, me, masks) == 0:
                    ret = popcount(me) - popcount(opp)  # neither can move: the end
                else:
                    stack[_MODE, d] = _PASSED
                    d = _push(stack, d, opp, me, empty, -stack[_B, d], -stack[_A, d], 0)
                    state = _ENTER
        elif state == _STEP:
            d, state, ret = _step(stack, keys, masks, d)
        else:
            if d == 0:
                return ret, nodes
            d -= 1
            s = -ret
            if stack[_MODE, d] == _PASSED:
                ret = s  # the pass was this node's one move
                continue
            if s > stack[_BEST, d]:
                stack[_BEST, d] = s
                if s >= stack[_B, d]:
                    ret = s
                    continue
            state = _STEP


@njit(cache=True)
def _push(stack, d, me, opp, empty, alpha, beta, mode):
    """Put the child (me, opp, empty) with window (alpha, beta) on ply d + 1."""
    c = d + 1
    stack[_ME, c], stack[_OPP, c], stack[_EMPTY, c] = me, opp, empty
    stack[_LEFT, c] = popcount(empty)
    stack[_A, c], stack[_B, c] = alpha, beta
    stack[_MODE, c] = mode
    return c


@njit(cache=True)
def _step(stack, keys, masks, d):
    """(ply, state, score) after the node at ply ``d`` takes its next move: the child
    pushed (_ENTER), or the node done (_RETURN with its score)."""
    me, opp, empty = stack[_ME, d], stack[_OPP, d], stack[_EMPTY, d]
    best = stack[_BEST, d]
    child_b = -max(stack[_A, d], best)
    if stack[_MODE, d] == _SORTED:
        i = stack[_NEXT, d]
        if i >= stack[_COUNT, d]:
            return d, _RETURN, best
        stack[_NEXT, d] = i + 1
        sq = keys[d * 32 + i] & 63
        bit = np.int64(1) << sq
        f = flips(me, opp, sq, masks)
        return _push(stack, d, opp & ~f, me | f | bit, empty & ~bit, -stack[_B, d], child_b,
                     _PLAIN), _ENTER, best
    rest = stack[_REST, d]
    while rest != 0:
        sq = lowest_bit(rest)
        rest &= rest - 1
        f = flips(me, opp, sq, masks)
        if f != 0:
            stack[_REST, d] = rest
            bit = np.int64(1) << sq
            return _push(stack, d, opp & ~f, me | f | bit, empty & ~bit, -stack[_B, d],
                         child_b, _PLAIN), _ENTER, best
    stack[_REST, d] = 0
    if best != _NONE:
        return d, _RETURN, best
    if stack[_MODE, d] & 4:  # the opponent passed and this side cannot move: the end
        return d, _RETURN, popcount(me) - popcount(opp)
    stack[_MODE, d] = _PASSED
    return _push(stack, d, opp, me, empty, -stack[_B, d], -stack[_A, d], _PLAIN | 4), \
        _ENTER, best


#: One set of compiled rules serves every board up to 6x6: the side n is in the code's bits
#: 60-62, so 4x4 and 6x6 share the same numba functions and the engine compiles its kernels
#: for them once (10-40 s a set; the search kernels are then read from numba's disk cache).
SIZE_SHIFT = 60
_LOW = (1 << SIZE_SHIFT) - 1
MASKS = np.array([target_masks(n) if n >= 1 else np.zeros(9, np.int64) for n in range(7)],
                 np.int64)
DIGITS, RB, RW = row_tables(6)  # a row of n < 6 squares has the same digits as in 6
REV = reversed_bytes()
CORNERS = np.array([corner_tables(n)[0] if n >= 3 else 0 for n in range(7)], np.int64)
XSQUARES = np.array([corner_tables(n)[1] if n >= 3 else np.zeros(64, np.int64)
                     for n in range(7)], np.int64)
#: Each board's four corners as (X-square, the two C-squares, the corner) bits, flat
#: (:func:`evaluate`).
XPAIRS = np.array([[b for r, c in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1))
                    for b in (1 << square(1 if r == 0 else n - 2, 1 if c == 0 else n - 2),
                              (1 << square(r, 1 if c == 0 else n - 2))
                              | (1 << square(1 if r == 0 else n - 2, c)),
                              1 << square(r, c))] if n >= 4 else [0] * 12
                   for n in range(7)], np.int64)


@njit(cache=True)
def code_of(black, white, turn, n):
    """The code of a board of side n <= 6 (module doc; the side in bits 60-62)."""
    return encode(black, white, turn, n, DIGITS, 6) | (np.int64(n) << SIZE_SHIFT)


@njit(cache=True)
def board_of(code):
    """(black, white, turn, n) of a code."""
    n = code >> SIZE_SHIFT
    black, white, turn = decode(code & _LOW, n, RB, RW)
    return black, white, turn, n


@njit(cache=True)
def sides(code):
    """(the mover's discs, the opponent's, the side n)."""
    black, white, turn, n = board_of(code)
    if turn:
        return white, black, n
    return black, white, n


@njit(cache=True)
def moves(code, out):
    me, opp, n = sides(code)
    found = legal(me, opp, MASKS[n])
    if found == 0:
        out[0] = PASS
        return 1
    k = 0
    while found:
        out[k] = lowest_bit(found)
        found &= found - 1
        k += 1
    return k


@njit(cache=True)
def play(code, move):
    if move == PASS:
        return code ^ 1
    black, white, turn, n = board_of(code)
    bit = np.int64(1) << move
    if turn:
        f = flips(white, black, move, MASKS[n])
        white |= f | bit
        black &= ~f
    else:
        f = flips(black, white, move, MASKS[n])
        black |= f | bit
        white &= ~f
    return code_of(black, white, 1 - turn, n)


@njit(cache=True)
def outcome(code):
    me, opp, n = sides(code)
    masks = MASKS[n]
    if legal(me, opp, masks) != 0 or legal(opp, me, masks) != 0:
        return ONGOING
    return TIE


@njit(cache=True)
def score(code):
    me, opp, _ = sides(code)
    return popcount(me) - popcount(opp)


@njit(cache=True)
def payoff(code, move):
    return 0


@njit(cache=True)
def tier(code):
    me, opp, n = sides(code)
    return 2 * popcount(me | opp) + (1 if legal(me, opp, MASKS[n]) != 0 else 0)


@njit(cache=True)
def margin_bound(code):
    n = code >> SIZE_SHIFT
    return n * n


@njit(cache=True)
def canonical(code):
    black, white, turn, n = board_of(code)
    b, w = least_image(black, white, n, REV)
    return code_of(b, w, turn, n)


@njit(cache=True)
def search_moves(code, out):
    me, opp, n = sides(code)
    return search_order(me, opp, MASKS[n], CORNERS[n], XPAIRS[n], out)


@njit(cache=True)
def endgame(code, alpha, beta):
    """The ``endgame`` hook: (score, nodes) of a position with at most ``ENDGAME_EMPTIES``
    empty squares, searched fail-soft in (alpha, beta) on its bitboards (decoded once);
    (0, 0) above the gate (the engine's search goes on)."""
    me, opp, n = sides(code)
    masks = MASKS[n]
    empty = masks[8] & ~(me | opp)
    left = popcount(empty)
    if left > ENDGAME_EMPTIES:
        return np.int64(0), np.int64(0)
    plies = 2 * ENDGAME_EMPTIES + 2
    return search_endgame(me, opp, np.int64(alpha), np.int64(beta), masks,
                          np.empty((11, plies), np.int64), np.empty(32 * plies, np.int64))


class Othello(_Board, CompiledGame):
    """Othello on an n x n board, n = 4 or 6, as a compiled scored game (module doc); the
    start may be the position after ``opening`` (moves such as ``'c2 b4'``)."""

    def __init__(self, size: int = 6, opening: str = "") -> None:
        if size not in (4, 6):
            raise InputError(f"the compiled Othello takes a 4x4 or 6x6 board, not {size}x"
                             f"{size} (othello(size=8) is the Python-door game)")
        self.size = size
        self.masks = target_masks(size)
        self.opening = opening
        black, white, turn = self._after(opening)
        CompiledGame.__init__(self, self.code(black, white, turn), moves, play, outcome,
                              max_moves=size * size - 4, score=score, payoff=payoff, tier=tier,
                              canonical=canonical, search_moves=search_moves,
                              margin_bound=margin_bound, endgame=endgame,
                              name=f"Othello({size}x{size})")

    def first_guess(self, pos: int) -> int:
        """Where proof search starts its probes of a margin (its first guess, MTD(f)'s f,
        Plaat et al. 1996): 0, as mame's o66 starts. Probes above the margin are the costly
        ones (each refutes every move), and the search's default first asks "a win?": on
        Feinstein's line at 24 and 26 empty squares (-4) starting at 0 saved 13 % of the
        nodes (36.3 M against 41.9 M; 117.9 M against 136.3 M). No estimate tried did
        better: the margin at the end of the search order's own line (solved exactly from
        10-16 empty squares) was 10-20 discs off on random positions."""
        return 0 * pos

    def board(self, pos: int | Board) -> Board:
        """(black bits, white bits, turn) of a code."""
        if isinstance(pos, tuple):
            return pos
        b, w, t, _ = board_of(np.int64(pos))
        return int(b), int(w), int(t)

    def code(self, black: int, white: int, turn: int) -> int:
        """The code of a board (bits as :func:`square` numbers them)."""
        return int(code_of(np.int64(black), np.int64(white), turn, self.size))


class OthelloBoard8(_Board):
    """8x8 Othello in the engine's Python door: positions ``(black, white, turn)`` with
    64-bit patterns as Python ints, the rules the same numba kernels (module doc). It
    answers search and play; a strong solve is out of reach (about 10^28 positions)."""

    size = 8

    def __init__(self, opening: str = "") -> None:
        self.masks = target_masks(8)
        self.opening = opening
        self.name = "Othello(8x8)"
        self._start = self._after(opening)
        corner_bits, self._xs = corner_tables(8)
        self._corners = np.int64(signed(corner_bits))

    def initial(self) -> Board:
        return self._start

    def board(self, pos: int | Board) -> Board:
        if not isinstance(pos, tuple):
            raise TypeError(f"an 8x8 position is a (black, white, turn) tuple, not {pos!r}")
        return pos

    def _sides(self, pos: Board) -> tuple[int, int]:
        black, white, turn = pos
        return (signed(white), signed(black)) if turn else (signed(black), signed(white))

    def moves(self, pos: Board) -> list[int]:
        if self.outcome(pos) is not None:
            return []
        me, opp = self._sides(pos)
        found = unsigned(legal(me, opp, self.masks))
        if found == 0:
            return [PASS]
        return [sq for sq in range(64) if found >> sq & 1]

    def search_moves(self, pos: Board) -> list[int]:
        """Corners, then the opponent's fewest replies, X-squares last (module doc)."""
        me, opp = self._sides(pos)
        out = np.empty(65, np.int64)
        k = int(mobility_order(me, opp, self.masks, self._corners, self._xs, out))
        return [int(m) for m in out[:k]]

    def play(self, pos: Board, move: int) -> Board:
        black, white, turn = pos
        if move == PASS:
            return black, white, turn ^ 1
        me, opp = self._sides(pos)
        f = unsigned(flips(me, opp, move, self.masks))
        mine = unsigned(me) | f | (1 << move)
        theirs = unsigned(opp) & ~f
        return (theirs, mine, 0) if turn else (mine, theirs, 1)

    def outcome(self, pos: Board) -> int | None:
        me, opp = self._sides(pos)
        if legal(me, opp, self.masks) != 0 or legal(opp, me, self.masks) != 0:
            return None
        return unsigned(me).bit_count() - unsigned(opp).bit_count()

    def payoff(self, pos: Board, move: int) -> int:
        return 0

    def tier(self, pos: Board) -> int:
        me, opp = self._sides(pos)
        has = legal(me, opp, self.masks) != 0
        return 2 * (pos[0] | pos[1]).bit_count() + int(has)


def othello(size: int = 8, opening: str = "") -> Othello | OthelloBoard8:
    """The game for a board of ``size`` (4, 6: compiled; 8: the Python door)."""
    if size == 8:
        return OthelloBoard8(opening)
    return Othello(size, opening)
