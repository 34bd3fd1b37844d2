"""Connect Four's hooks for proof search (:func:`perfectplay.search`), as numba kernels at
module level that take the board's geometry (see :mod:`.bitboard`).

``search_moves`` is the move pruning and ordering Pascal Pons describes in "Solving Connect
4" (blog.gamesolver.org, 2019), done on bitboards: the winning cells of each player are found
with the same shifts as four in a row; a move that wins at once is the only one listed; an
opponent's threat leaves only its block; a move right under an opponent's winning cell is
dropped (the opponent wins on top of it); a move that leaves two wins at once (or one right
above another) is the only one listed, a win in 3; the rest go best first by the winning
cells they leave the mover that are not right above an opponent's winning cell (the
opponent would take that one first), counting twice those right above a playable cell (the
opponent cannot play under them), threats Steininger's c4 weighs likewise; centre columns
first on a tie. ``horizon`` is the number of empty cells: no game lasts longer, and a tie
always fills the board. ``static_bounds`` knows a win in 1 (a playable winning cell) and a
loss in 2 (every move leaves the opponent a win at once) exactly; a side cannot win when it
has no line left to complete, or (Allis 1988, claimeven) when the opponent can answer every
move in the same column on a board of even height; and that it loses when, besides, the
cells claimeven gives the opponent hold a four.

>>> from perfectplay.catalog.connect4.bitboard import geometry
>>> g = geometry(7, 6)
>>> horizon_of(g.bottom, g.bottom, g.H1, 42)
42
"""

from __future__ import annotations

from numba import njit

from ...engine.protocol import CANNOT_LOSE, CANNOT_WIN, LOSES_IN_2, MUST_LOSE, NOT_SOONER, WINS_IN_1
from .bitboard import four, lowest_bit_index, popcount, split


@njit(cache=True)
def line(p, d):
    """The cells that complete four with ``p``'s stones along the shift ``d``: three stones
    on one side (xxx_, _xxx) or two and one (xx_x, x_xx)."""
    two_below = (p << d) & (p << (2 * d))
    two_above = (p >> d) & (p >> (2 * d))
    return (two_below & ((p << (3 * d)) | (p >> d))) \
        | (two_above & ((p >> (3 * d)) | (p << d)))


@njit(cache=True)
def wins_at(p, mask, W, H, full):
    """The empty cells (playable or not) where the player with stones ``p`` would complete
    four. Four fits vertically when H >= 4, horizontally when W >= 4, diagonally when both;
    the other directions are skipped (which also keeps every shift below 63 bits)."""
    r = 0
    if H >= 4:  # only three stones below can complete a column
        r = (p << 1) & (p << 2) & (p << 3)
    if W >= 4:
        r |= line(p, H + 1)
    if W >= 4 and H >= 4:
        r |= line(p, H) | line(p, H + 2)
    return r & (full ^ mask)


@njit(cache=True)
def search_moves_of(code, out, W, H, bottom, full, col_mask):
    """The columns worth searching, best first (see the module doc): the win if there is
    one, else the block if the opponent threatens, never a move right under an opponent's
    winning cell unless every move is, a move that leaves two wins at once alone (a win in
    3), else ordered by the winning cells the move leaves the mover (weighed as the module
    doc says) and then centre first (7 columns: 3, 2, 4, 1, 5, 0, 6). Every move left out
    loses in 2, or is no better than the one listed."""
    H1 = H + 1
    mover, mask = split(code, bottom, H1)
    playable = (mask + bottom) & full  # the lowest empty cell of each column
    if playable == 0:
        return 0
    win = playable & wins_at(mover, mask, W, H, full)
    if win:  # every immediate win is a win in 1: list one
        out[0] = lowest_bit_index(win) // H1
        return 1
    theirs = wins_at(mover ^ mask, mask, W, H, full)
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
    # insertion sort by (weighed winning cells after the move) * 64 + column, stable in
    # the centre-first order; the low six bits then give back the column
    k = 0
    for i in range(W):
        c = W // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2)  # centre first, left before right
        bit = safe & (col_mask << (c * H1))
        if bit:
            mine = wins_at(mover | bit, mask | bit, W, H, full)
            now = mine & (((mask | bit) + bottom) & full)  # the wins it leaves playable
            if now & (now - 1) or now & (mine >> 1):
                # two wins at once, or one with another right above it: the opponent, who
                # has no win of its own now, blocks one and the mover wins in 3
                out[0] = c
                return 1
            useful = mine & ~(theirs << 1)  # not right above an opponent's winning cell
            over = (((mask | bit) + bottom) & full) << 1  # right above a playable cell
            score = popcount(useful) + popcount(useful & over)
            j = k
            while j > 0 and (out[j - 1] >> 6) < score:
                out[j] = out[j - 1]
                j -= 1
            out[j] = (score << 6) | c
            k += 1
    for i in range(k):
        out[i] &= 63
    return k


@njit(cache=True)
def horizon_of(code, bottom, H1, cells):
    """The empty cells: every game from here ends within that many plies, and a tie only
    when the board is full."""
    _, mask = split(code, bottom, H1)
    return cells - popcount(mask)


@njit(cache=True)
def static_bounds_of(code, W, H, bottom, full, even_rows):
    """What is known without search (flags, see CompiledGame): the mover wins in 1 when a
    playable cell completes its four (``WINS_IN_1``); else it loses in 2 (``LOSES_IN_2``)
    when the opponent has two playable winning cells, or one whose block sits right under
    another, or every move lies right under an opponent's winning cell. Pons' solver answers
    these positions at once too (``canWinNext``, no non-losing move). Otherwise: the mover
    cannot win when no line is left it could complete (its stones and the empty cells hold
    no four), nor when the opponent can answer every move in the same column (Allis'
    claimeven: even heights and an even number of stones): the opponent then gets every
    even-row cell that is not playable now, the mover at most the rest. (A move on an even
    row, the playable cell of a column of odd height, is answered on the playable cell of
    another such column: there is an even number of them.) If the opponent's stones and
    those cells hold a four, the mover loses (``MUST_LOSE``): it never makes four, so the
    game goes on until the opponent has all of them. The mover cannot lose when the opponent
    has no line left."""
    mover, mask = split(code, bottom, H + 1)
    empty = full ^ mask
    other = mover ^ mask
    if four(other, H):  # ended: the opponent has made four
        return CANNOT_WIN | MUST_LOSE
    playable = (mask + bottom) & full
    if playable & wins_at(mover, mask, W, H, full):
        return WINS_IN_1
    theirs = wins_at(other, mask, W, H, full)
    threat = playable & theirs
    if threat:
        if threat & (threat - 1) or threat & (theirs >> 1):
            return LOSES_IN_2  # two threats, or the one block is under a third
    elif playable and playable & ~(theirs >> 1) == 0:
        return LOSES_IN_2  # every move is under a cell where the opponent wins
    known = NOT_SOONER  # neither: the mover's four takes two moves, the opponent's too
    if not four(mover | empty, H):
        known |= CANNOT_WIN
    elif H % 2 == 0 and popcount(mask) % 2 == 0:
        claimed = other | (even_rows & empty & ~playable)
        if not four(full & ~claimed, H):
            known |= CANNOT_WIN
            if four(claimed, H):
                known |= MUST_LOSE
    if not four(other | empty, H):
        known |= CANNOT_LOSE
    return known
