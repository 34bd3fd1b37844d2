"""Connect Four's bitboard (John Tromp's key) and the rules read from it, as numba kernels
at module level: each takes the board's geometry as arguments, so one compiled function
serves every board and numba caches it on disk (``cache=True``); the per-board rules of
:class:`~.rules.ConnectFour` are one-line calls to these with the geometry fixed.

A code is one int64: column ``c`` takes the ``H1 = H + 1`` bits from ``c * H1`` on, the
stones of the player to move below a single marker bit at the column's height. So the code is
``mover + mask + bottom``, ``mask`` every stone and ``bottom`` the lowest bit of each column;
it fits when W * (H + 1) <= 62 (7x6 uses 49 bits). Four in a row is found with shifts by 1
(vertical), H + 1 (horizontal), H and H + 2 (the diagonals).

>>> g = geometry(4, 4)
>>> mover, mask = split(g.bottom + 1, g.bottom, g.H1)   # one stone in column 0, not the mover's
>>> int(mover), int(mask)
(0, 1)
"""

from __future__ import annotations

from typing import NamedTuple

from numba import njit, types
from numba.extending import intrinsic, overload

from ...engine import LOSE, ONGOING, TIE

#: The widest board: W * (H + 1) bits must fit an int64 with room for the shifts.
MAX_BITS = 62


class Geometry(NamedTuple):
    """The constants of a W x H board's key (every kernel takes the ones it needs)."""

    W: int
    H: int
    H1: int  # bits a column takes: its H cells and the marker above them
    col_mask: int  # one column's bits
    bottom: int  # the lowest bit of each column
    full: int  # every cell
    even_rows: int  # the cells of the even rows, counted from 1 at the bottom


def geometry(width: int, height: int) -> Geometry:
    """The constants of a ``width`` x ``height`` board (ValueError when it does not fit)."""
    if not (width >= 1 and height >= 1 and width * (height + 1) <= MAX_BITS):
        raise ValueError(f"a {width}x{height} board does not fit an int64 key: Connect Four "
                         f"needs width * (height + 1) <= {MAX_BITS}")
    H1 = height + 1
    bottom = sum(1 << (c * H1) for c in range(width))
    return Geometry(width, height, H1, (1 << H1) - 1, bottom, bottom * ((1 << height) - 1),
                    bottom * sum(1 << r for r in range(1, height, 2)))


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
        return lambda x: _ctpop(x)  # type: ignore[call-arg]  # numba passes typingctx
    return None


@overload(lowest_bit_index)
def _lowest_bit_index_compiled(x):
    if isinstance(x, types.Integer):
        return lambda x: _cttz(x)  # type: ignore[call-arg]  # numba passes typingctx
    return None


@njit(cache=True)
def split(code, bottom, H1):
    """(mover's stones, all stones) of a code, in a dozen word operations: each column's
    marker bit is smeared down to bit 0 (masking the bits that would cross into the column
    below), so the stones are the smear halved."""
    s = code | ((code & ~bottom) >> 1)
    s |= (s & ~(bottom * 3)) >> 2
    if H1 > 4:  # a column of 3 bits is smeared by now (and bottom * 15 would overlap it)
        s |= (s & ~(bottom * 15)) >> 4
    if H1 > 8:  # tall boards only: H1 is a constant in every caller, so this folds away
        s |= (s & ~(bottom * 255)) >> 8
    if H1 > 16:
        s |= (s & ~(bottom * 65535)) >> 16
    if H1 > 32:
        s |= (s & ~(bottom * 4294967295)) >> 32
    mask = (s & ~bottom) >> 1
    return code - mask - bottom, mask


@njit(cache=True)
def four(stones, H):
    """True when ``stones`` hold four in a row (shifts 1, H + 1, H and H + 2)."""
    for d in (1, H + 1, H, H + 2):
        m = stones & (stones >> d)
        if m & (m >> (2 * d)):
            return True
    return False


@njit(cache=True)
def moves_of(code, out, W, H, H1, col_mask):
    """The columns whose marker is below the top row, into ``out``; their count."""
    k = 0
    for c in range(W):
        if ((code >> (c * H1)) & col_mask) < (1 << H):
            out[k] = c
            k += 1
    return k


@njit(cache=True)
def play_of(code, c, bottom, H1, col_mask):
    """The code after a stone in column ``c``: the other player moves next."""
    mover, mask = split(code, bottom, H1)
    mask2 = mask | (mask + bottom) & (col_mask << (c * H1))  # the new stone in column c
    return (mover ^ mask) + mask2 + bottom


@njit(cache=True)
def outcome_of(code, bottom, H, full):
    """LOSE when the player who just moved made four, TIE on a full board, else ONGOING."""
    mover, mask = split(code, bottom, H + 1)
    if four(mover ^ mask, H):
        return LOSE
    if mask == full:
        return TIE
    return ONGOING


@njit(cache=True)
def valid_of(code, W, H, H1, col_mask, bottom):
    """1 when ``code`` is a position's: no bit past the last column, a marker in every
    column, the mover holding half the stones (rounded down: X moves on an even count)
    and no four of the mover's (the game would have ended the move they made it). O(W)."""
    if code < 0 or code >> (W * H1) != 0:
        return 0
    for c in range(W):
        if (code >> (c * H1)) & col_mask == 0:
            return 0
    mover, mask = split(code, bottom, H1)
    if popcount(mover) != popcount(mask) // 2 or four(mover, H):
        return 0
    return 1


@njit(cache=True)
def stones_of(code, bottom, H1):
    """The number of stones (the tier: every move adds one), by a SWAR popcount."""
    _, mask = split(code, bottom, H1)
    x = mask - ((mask >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def mirror_min(code, W, H1, col_mask):
    """The smaller of the code and its mirror image's (columns reversed): a board and its
    mirror have the same value, so a store keeps one of them."""
    mirror = 0
    for c in range(W):
        mirror |= ((code >> (c * H1)) & col_mask) << ((W - 1 - c) * H1)
    return min(code, mirror)
