"""Domineering on a rows x cols board as a compiled game: the covered cells in one int64.

A position is the set of covered cells, cell ``(r, c)`` (row 0 at the bottom) at bit
``r * cols + c``. Whose turn it is needs no bit: every move covers two cells, so
``popcount // 2`` moves have been made and Vertical (the first player) moves when that is
even. A move is ``2 * cell + orientation``: the domino's lower (vertical) or left
(horizontal) cell, and 0 for Vertical's, 1 for Horizontal's, so a move names itself
without the position ("b3-b4").

**One set of kernels for every board of at most 56 cells.** The engine compiles its solve
and search kernels for each set of rule functions (measured here: about 5 s of CPU for the
tier solver's, 13 s for the search's; never cached on disk), so a closure per board size
would cost that for every size a session touches. Boards of at most
56 cells (every one of the small published boards) therefore carry their shape in the code:
bits 56-63 hold a shape number (0-238, skipping 128 so that no start is -2**63, the one
code the engine forbids) and the rules, module-level functions cached on disk, read the
board's masks from a table by that number. Boards of 57-64 cells (8x8 among them) use every
bit for cells and get the same rules bound to their masks, compiled per size (bit 63 is then an
ordinary cell: -2**63 would be a single covered cell, which no position has). The numbering,
the tables and the choice between the two are the engine's
(:class:`~perfectplay.engine.compiled.shapes.Shapes`,
:func:`~perfectplay.engine.compiled.shapes.bind`).

The dominoes a player can place are found with shifts: Vertical's at the cells whose cell
above is free, ``free & free >> cols`` (a mask keeps the top row out), Horizontal's with a
shift by 1 (the last column kept out). The same shifts count, for either player, the most
dominoes that still fit side by side (:func:`disjoint`: a run of free cells along a column
or a row holds ``len // 2``) and the *safe* ones: those in cells the opponent can never
cover (no free neighbour across), which nothing can take away (Bullock 2002's safe moves;
Uiterwijk 2014 builds his knowledge rules on counts of such move types). That gives the
search two bounds (``static_bounds``): the mover cannot win (and, as no game of Domineering
ends level, ``cannot_tie``, must lose) when the opponent's safe dominoes answer every domino
the mover has left, and cannot lose when its own safe dominoes outlast every domino the
opponent has left. ``search_moves`` never lists a safe move while an unsafe one is left
(a safe domino keeps: Bullock 2002) and orders the moves by 4 x (safe dominoes, the
mover's minus the opponent's) + (the most dominoes each can still place, likewise) after
the move, ties broken by :func:`positional` (Bullock's
positional values, in our own form): on 6 x 7 a value proof took 0.47 million nodes with
the counts alone, 1.2 million ordered by the places taken from the opponent, 16.7 million
with the engine's history heuristic instead. With one null window (``search(value_only=True)``)
and MUST_LOSE, 7 x 7 took 685,324 nodes; with the positional tie-break 386,559 (6 x 6:
26,211 and 9,407; 7 x 6: 420,477 and 191,664; 2026-12-06).

**Bullock's packing** (2002) sharpens both bounds (:func:`bounds_of`, our own derivation
and code). Each player's free cells are packed, none shared (:func:`side_of`): its safe
dominoes; its *protective areas*, 2 x 2 free squares walled across its direction on at
least one side (covered cells or the edge): the owner, playing the line away from the wall
first, keeps the other line as a safe domino, and every opposing domino that meets
the square lies inside it or crosses its open side (:func:`areas_of`); its *vulnerable*
dominoes, with one or two cells the opponent can cover, packed either so that no opposing
domino meets two of them (:func:`items_of`) or only so as not to overlap, those an
opposing domino may meet two at a time set apart (:func:`grouped_of`). The player moving
second answers each thing the opponent spoils with another of its kind: two moves a pair
of areas (an odd one counts as a vulnerable domino), one a pair of lone vulnerable
dominoes, and what the small game :func:`kept_items` solves for the rest
(:func:`second_of`); the mover first opens an odd area, walls an area's open side, or takes
a domino (:func:`first_wins`). A safe domino with a free cell just beyond it along its
owner's direction that the opponent can cover is an *option* (:func:`options_of`): played
shifted onto that cell it is still one move and takes the cell from the opponent, with
every dead end beside it (1-3 cells); the opponent can spoil an option only by covering
its cell, so the player moving second keeps the lesser of each pair (:func:`option_cells`)
and the mover may play its best first. What the opponent can still make is at most its
most dominoes less two a pair of the keeper's areas, and at most half the cells it can
cover less those the keeper's moves and options take (:func:`outlasts`). The mover must
lose when the opponent keeps as many moves as it can make, and cannot lose when it keeps
more than the opponent can make. Every claim was checked against the strong solution at
every position of 38 boards up to 5 x 5, 6 x 4 and 12 x 2 (no wrong claim;
tests/test_domineering_bounds.py keeps six), and with options again at every position of
18 boards up to 5 x 5, 6 x 4, 3 x 8 and 12 x 2. Value-only nodes (2026-12-06): 7 x 7
202,271 (vulnerable dominoes with two coverable cells, the earlier bound) -> 92,090 (areas
walled on both sides, one-cell dominoes) -> 64,492 (one wall enough, the grouped packing)
-> 58,110 (no safe move searched) -> 58,084 (options, 2026-12-07); 8 x 7 915,284 ->
612,372 -> 77,204 -> 74,840 -> 73,817; 8 x 8 53,015,175 -> 14,874,832 -> 12,627,415 ->
9,741,788. Obsequi (Bullock's program) needs 13,874, 30,625 and 2,021,154.

The tier is the number of covered cells. ``canonical`` is the least code among the board and
its mirror images left-right, top-bottom and both (each keeps each player's orientation; the
transpose swaps Vertical and Horizontal and is no symmetry of a position).

>>> game = Domineering(2, 2)
>>> [game.move_name(m) for m in game.moves(game.initial())]
['a1-a2', 'b1-b2']
>>> print(game.draw(game.play(game.initial(), game.parse_move("a1-a2"))))
  a b
2 # .
1 # .
Horizontal to move
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from ...bits import lowest_bit, popcount
from ...engine import CANNOT_LOSE, CANNOT_WIN, MUST_LOSE, ONGOING, CompiledGame
from ...engine.compiled import Shapes, bind

if TYPE_CHECKING:
    from matplotlib.axes import Axes

VERTICAL, HORIZONTAL = 0, 1
PLAYERS = ("Vertical", "Horizontal")
MAX_CELLS = 64
SHARED_CELLS = 56  # boards up to this many cells carry their shape in the code
_CELLS = (1 << SHARED_CELLS) - 1
_MOVE = re.compile(r"^([a-z]+)(\d+)-([a-z]+)(\d+)$")


def signed(x: int) -> int:
    """The int64 whose bits are the low 64 bits of ``x`` (masks as numba's int64 constants).

    >>> signed(2**64 - 1), signed(5)
    (-1, 5)
    """
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >> 63 else x


def column_name(c: int) -> str:
    """``a`` .. ``z``, then ``aa``, ``ab``, ... (spreadsheet style) for column ``c`` (0-based)."""
    name = ""
    c += 1
    while c:
        c, rest = divmod(c - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def column_number(name: str) -> int:
    """The inverse of :func:`column_name` (0-based)."""
    c = 0
    for ch in name:
        c = c * 26 + ord(ch) - ord("a") + 1
    return c - 1


def geometry(rows: int, cols: int) -> tuple[int, ...]:
    """The board's numbers as the kernels take them: (rows, cols, all cells, the cells a
    vertical domino starts at (every row but the top), a horizontal one (every column but
    the last), every column but the first, every row but the bottom, one row)."""
    n = rows * cols
    v_start = (1 << (n - cols)) - 1
    h_start = sum(((1 << (cols - 1)) - 1) << (r * cols) for r in range(rows))
    return tuple(signed(x) for x in (rows, cols, (1 << n) - 1, v_start, h_start,
                                      h_start << 1, v_start << cols, (1 << cols) - 1))


#: The boards of at most 56 cells, their shape numbers (128 left out: module doc).
BOARDS = Shapes([(r, c) for r in range(1, SHARED_CELLS + 1)
                 for c in range(1, SHARED_CELLS // r + 1)], at=SHARED_CELLS)
#: :func:`geometry` of every board of at most 56 cells, by shape number
SHAPES = BOARDS.stack(lambda size: geometry(*size))


def positional(rows: int, cols: int) -> np.ndarray:
    """The tie-break of the move ordering (Bullock 2002's positional values, in our own
    form): for every move (``2 * cell + orientation``, 128 of them) a rank from 127 down,
    best first. A domino is placed by its distance across its direction from the nearest
    edge (``a``, 1 at the edge) and along it (``b``, 1 at the edge, by its first cell);
    best are dominoes an even distance across and an odd one along (the bricks of a
    packing one row in from the edge), then even across, then odd across but not on the
    edge, then on the edge; nearer the edges first within a class.

    >>> pv = positional(4, 4)
    >>> int(pv[2 * 1 + 0]) > int(pv[2 * 0 + 0])  # Vertical's b1-b2 before a1-a2
    True
    """
    ranked = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for who in (VERTICAL, HORIZONTAL):
            across, along = (c, r) if who == VERTICAL else (r, c)
            n_across, n_along = (cols, rows) if who == VERTICAL else (rows, cols)
            if along + 1 >= n_along:
                continue  # no domino starts there
            a = min(across, n_across - 1 - across) + 1
            b = min(along, n_along - 2 - along) + 1
            kind = 4 if a % 2 == 0 and b % 2 == 1 else 3 if a % 2 == 0 else \
                2 if a > 1 and b % 2 == 1 else 1 if a > 1 else 0
            ranked.append((-kind, a, b, 2 * cell + who))
    out = np.zeros(128, np.int64)
    for i, (_, _, _, move) in enumerate(sorted(ranked)):
        out[move] = max(0, 127 - i)
    return out


#: :func:`positional` of every board of at most 56 cells, by shape number
POSITIONAL = BOARDS.stack(lambda size: positional(*size))


# -- the rules, over a board's numbers (module level, cached on disk) ------------------------
@njit(cache=True)
def disjoint(cells, d, start):
    """The most dominoes along the shift ``d`` that fit side by side in ``cells`` (``start``:
    the cells a domino along ``d`` may begin at). Greedy from the first cell of every run,
    which is optimal on a line; one round a pair of cells per run, O(longest run)."""
    n = 0
    while True:
        first = cells & ~((cells & start) << d)  # no cell of the run before it
        take = first & (cells >> d) & start
        if take == 0:
            return n
        n += popcount(take)
        cells &= ~(take | (take << d))


@njit(cache=True)
def mover_of(cells):
    return (popcount(cells) >> 1) & 1


@njit(cache=True)
def places(free, who, g):
    """The cells where ``who`` can put a domino's first cell (``g``: :func:`geometry`)."""
    if who == VERTICAL:
        return free & (free >> g[1]) & g[3]
    return free & (free >> 1) & g[4]


@njit(cache=True)
def moves_of(cells, out, g):
    who = mover_of(cells)
    p = places(~cells & g[2], who, g)
    k = 0
    while p:
        out[k] = 2 * lowest_bit(p) + who
        k += 1
        p &= p - 1
    return k


@njit(cache=True)
def play_of(cells, move, g):
    cell = move >> 1
    if move & 1:
        return cells | (np.int64(3) << cell)
    return cells | (np.int64(1) << cell) | (np.int64(1) << (cell + g[1]))


@njit(cache=True)
def mirror_row(bits, width):
    """The low ``width`` bits of ``bits`` in reverse order."""
    out = 0
    for i in range(width):
        out |= ((bits >> i) & 1) << (width - 1 - i)
    return out


@njit(cache=True)
def mirrors(cells, g):
    """(left-right, top-bottom, both) mirror images of ``cells``. O(cells)."""
    rows, cols, row_mask = g[0], g[1], g[7]
    lr = 0
    ud = 0
    both = 0
    for r in range(rows):
        row = (cells >> (r * cols)) & row_mask
        flipped = mirror_row(row, cols)
        lr |= flipped << (r * cols)
        ud |= row << ((rows - 1 - r) * cols)
        both |= flipped << ((rows - 1 - r) * cols)
    return lr, ud, both


@njit(cache=True)
def canonical_of(cells, g):
    lr, ud, both = mirrors(cells, g)
    return min(min(cells, lr), min(ud, both))


@njit(cache=True)
def mirror_move(move, which, g):
    """The image of a move under mirror ``which`` (1 left-right, 2 top-bottom, 3 both)."""
    rows, cols = g[0], g[1]
    cell = move >> 1
    r = cell // cols
    c = cell - r * cols
    horizontal = move & 1
    if which & 1:
        c = cols - 1 - c - horizontal  # a horizontal domino's left cell was its right one
    if which & 2:
        r = rows - 1 - r - (1 - horizontal)  # a vertical domino's lower cell likewise
    return 2 * (r * cols + c) + horizontal


@njit(cache=True)
def counts_of(cells, g):
    """(the most, the safe) dominoes still to come of Vertical, then of Horizontal."""
    cols, v_start, h_start, h_after, v_after = g[1], g[3], g[4], g[5], g[6]
    free = ~cells & g[2]
    across_h = ((free >> 1) & h_start) | ((free << 1) & h_after)  # a free left/right
    across_v = ((free >> cols) & v_start) | ((free << cols) & v_after)  # above/below
    return (disjoint(free, cols, v_start), disjoint(free & ~across_h, cols, v_start),
            disjoint(free, 1, h_start), disjoint(free & ~across_v, 1, h_start))


@njit(cache=True)
def packed(cells, d, start):
    """The first cells of the dominoes along ``d`` that :func:`disjoint` packs in ``cells``
    (the same greedy choice, as a set of cells). O(longest run)."""
    out = np.int64(0)
    while True:
        first = cells & ~((cells & start) << d)
        take = first & (cells >> d) & start
        if take == 0:
            return out
        out |= take
        cells &= ~(take | (take << d))


@njit(cache=True)
def areas_of(free, d_me, s_me, d_th, s_th, a_th):
    """(The cells of the owner's protective areas, the free cells just beyond their open
    sides, how many areas have a domino of the owner there, which would wall them): 2 x 2
    free squares walled (covered cells or the board's edge) on at least one side across
    the owner's direction (Bullock 2002), packed greedily without sharing a cell or
    touching another's open side. The owner who plays the line away from a wall
    first keeps the other line as a safe domino; every domino of the opponent that meets
    the square lies inside it or crosses its open side. O(cells)."""
    square = free & (free >> d_me) & s_me
    square = square & (square >> d_th) & s_th  # base: the square's first cell
    before = ~((free << d_th) & a_th)  # no free cell before it along d_th
    after = ~((free >> d_th) & s_th)  # no free cell after it
    low = before & (before >> d_me)  # the square's first line walled before it
    high = after & (after >> d_me)  # the line beyond the base walled after it
    cand = square & (low | (high >> d_th))
    used = np.int64(0)
    beyond = np.int64(0)
    caps = 0
    while cand:
        bit = np.int64(1) << lowest_bit(cand)
        cand &= cand - 1
        line = bit | (bit << d_me)
        four = line | (line << d_th)
        out = np.int64(0)
        if (low & bit) == 0:  # walled after only: open before the base line
            out = ((line >> d_th) & free) if line & a_th else np.int64(0)
        elif ((high >> d_th) & bit) == 0:  # walled before only: open after the far line
            far = line << d_th
            out = ((far << d_th) & free) if far & s_th else np.int64(0)
        if (four & (used | beyond)) == 0 and (out & used) == 0:
            used |= four
            beyond |= out
            caps += popcount(out) == 2
    return used, beyond, caps


@njit(cache=True)
def items_of(cand, d_me, cover_th, d_th, s_th, a_th):
    """The owner's vulnerable dominoes (first cells in ``cand``; at least one cell the
    opponent can cover, ``cover_th``), packed greedily so that no domino of the opponent
    meets two of them: (those with one such cell, those with two). O(cells)."""
    blocked = np.int64(0)
    used = np.int64(0)
    one = two = 0
    while cand:
        bit = np.int64(1) << lowest_bit(cand)
        cand &= cand - 1
        pair = bit | (bit << d_me)
        if pair & blocked:
            continue
        if (pair & cover_th) == pair:
            two += 1
        else:
            one += 1
        used |= pair
        blocked |= pair | ((pair >> d_th) & s_th) | ((pair << d_th) & a_th)
    return one, two, used


@njit(cache=True)
def grouped_of(cand, d_me, cover_th, d_th, s_th, a_th):
    """The owner's vulnerable dominoes packed greedily only so as not to overlap: (those no
    domino of the opponent meets with another, with one and with two coverable cells; the
    rest, which the opponent may spoil two at a time, and how many of those have one
    coverable cell). O(cells)."""
    used = np.int64(0)
    firsts = np.int64(0)
    while cand:
        bit = np.int64(1) << lowest_bit(cand)
        cand &= cand - 1
        pair = bit | (bit << d_me)
        if (pair & used) == 0:
            used |= pair
            firsts |= bit
    one = two = many = many_one = 0
    while firsts:
        bit = np.int64(1) << lowest_bit(firsts)
        firsts &= firsts - 1
        pair = bit | (bit << d_me)
        near = ((pair >> d_th) & s_th) | ((pair << d_th) & a_th)
        single = (pair & cover_th) != pair
        if near & used:
            many += 1
            many_one += single
        elif single:
            one += 1
        else:
            two += 1
    return one, two, many, many_one, used


class Side(NamedTuple):
    """What one player keeps (:func:`side_of`)."""

    safe: int  # safe dominoes
    areas: int  # protective areas
    caps: int  # areas with the owner's domino just beyond their open side
    one: int  # vulnerable dominoes, no two met by one opposing domino: one coverable cell
    two: int  # ... two coverable cells
    g_one: int  # the same, packed only not to overlap: those met alone, one cell
    g_two: int  # ... two cells
    many: int  # those an opposing domino may meet with another
    many_one: int  # ... of which with one coverable cell
    most: int  # the most dominoes it can still place
    cover: int  # the cells it can cover
    opt: int  # coverable cells its safe dominoes' options surely take, moving second
    opt_safe: int  # the same when its first move is a safe domino
    g_opt: int  # the same two beside the packing only not to overlap
    g_opt_safe: int


@njit(cache=True)
def options_of(free, safe, used, d_me, s_me, a_me, d_th, s_th, a_th, cover_th):
    """The owner's *options* (Bullock 2002's safe moves with an option, our own argument):
    a safe domino (first cells ``safe``) with a free cell ``o`` just before or after it
    along the owner's direction that the opponent can cover. Playing the domino shifted
    onto ``o`` is still one move, and takes ``o`` from the opponent with every free cell
    whose only free neighbour across is ``o`` (a dead end): ``k`` cells, 1-3. The cells of
    an option (``o`` and its dead ends) meet no cell of ``used`` (the owner's other packed
    things) nor another option's, and every free neighbour of ``o`` across lies outside
    them too, so one opposing domino spoils at most one thing. (How many options take 1, 2,
    3 cells; the largest k.) O(cells)."""
    taken = used
    counts = np.zeros(4, np.int64)
    while safe:
        bit = np.int64(1) << lowest_bit(safe)
        safe &= safe - 1
        for side in range(2):
            if side == 0:
                if (bit & a_me) == 0:
                    continue
                o = bit >> d_me
            else:
                second = bit << d_me
                if (second & s_me) == 0:
                    continue
                o = second << d_me
            if (o & free) == 0 or (o & taken) or (o & cover_th) == 0:
                continue
            k = 1
            dead = np.int64(0)
            ok = True
            for way in range(2):
                if way == 0:
                    if (o & a_th) == 0:
                        continue
                    n = o >> d_th
                    beyond = (n >> d_th) & free if n & a_th else np.int64(0)
                else:
                    if (o & s_th) == 0:
                        continue
                    n = o << d_th
                    beyond = (n << d_th) & free if n & s_th else np.int64(0)
                if (n & free) == 0:
                    continue
                if n & taken:
                    ok = False
                    break
                if beyond == 0:
                    dead |= n
                    k += 1
            if ok:
                taken |= o | dead
                counts[k] += 1
                break
    return counts[1], counts[2], counts[3]


@njit(cache=True)
def option_cells(c1, c2, c3):
    """The cells the owner moving second surely takes with options taking 1, 2, 3 cells:
    paired largest first, the opponent spoils the larger of each pair and the owner
    answers by playing the other (the sum of each pair's lesser). O(1)."""
    total = 0
    carry = 0
    for k in range(3, 0, -1):
        n = c1 if k == 1 else c2 if k == 2 else c3
        if carry and n:
            total += k
            n -= 1
            carry = 0
        total += k * (n // 2)
        if n & 1:
            carry = k
    return total


@njit(cache=True)
def options_kept(free, safe, n_safe, used, d_me, s_me, a_me, d_th, s_th, a_th, cover_th):
    """(The cells the owner's options surely take moving second, the same when its first
    move is a safe domino: the best option then, the rest paired) (:func:`options_of`,
    :func:`option_cells`). O(cells)."""
    c1, c2, c3 = options_of(free, safe, used, d_me, s_me, a_me, d_th, s_th, a_th, cover_th)
    opt = option_cells(c1, c2, c3)
    if n_safe == 0 or n_safe > c1 + c2 + c3:  # a safe domino without an option first
        return opt, opt
    if c3:
        return opt, 3 + option_cells(c1, c2, c3 - 1)
    if c2:
        return opt, 2 + option_cells(c1, c2 - 1, c3)
    return opt, 1 + option_cells(c1 - 1, c2, c3)


@njit(cache=True)
def side_of(free, d_me, s_me, a_me, d_th, s_th, a_th):
    """What one player keeps of ``free`` (:class:`Side`). The safe dominoes, the areas and
    each packing of vulnerable dominoes share no cell. O(cells)."""
    cover_me = free & (((free >> d_me) & s_me) | ((free << d_me) & a_me))
    cover_th = free & (((free >> d_th) & s_th) | ((free << d_th) & a_th))
    safe = packed(free & ~cover_th, d_me, s_me)
    areas, beyond, caps = areas_of(free, d_me, s_me, d_th, s_th, a_th)
    left = free & ~(areas | beyond | safe | (safe << d_me))
    cand = left & (left >> d_me) & s_me & (cover_th | (cover_th >> d_me))
    one, two, single = items_of(cand, d_me, cover_th, d_th, s_th, a_th)
    g_one, g_two, many, many_one, grouped = grouped_of(cand, d_me, cover_th, d_th, s_th,
                                                       a_th)
    n_safe = popcount(safe)
    held = areas | beyond | safe | (safe << d_me)
    opt, opt_safe = options_kept(free, safe, n_safe, held | single, d_me, s_me, a_me, d_th,
                                 s_th, a_th, cover_th)
    g_opt, g_opt_safe = options_kept(free, safe, n_safe, held | grouped, d_me, s_me, a_me,
                                     d_th, s_th, a_th, cover_th)
    return Side(n_safe, popcount(areas) >> 2, caps, one, two, g_one, g_two, many,
                many_one, disjoint(free, d_me, s_me), popcount(cover_me), opt, opt_safe,
                g_opt, g_opt_safe)


@njit(cache=True)
def paired_cells(one, two):
    """The cells the owner surely takes from vulnerable dominoes with one and with two
    coverable cells, paired (one kind with its own kind first) so that it gets one of each
    pair, the lesser when the opponent chooses; an odd one out gets nothing."""
    if (one + two) & 1:
        if one:
            one -= 1
        else:
            two -= 1
    return one // 2 + (one & 1) + 2 * ((two - (one & 1)) // 2)


def kept_items(most: int = 40) -> np.ndarray:
    """``kept[a, b]``: the vulnerable dominoes the player moving second surely gets of ``a``
    that no domino of the opponent meets with another and ``b`` that one may meet two of
    (at most two of them), answering every spoiling move by taking one, when the opponent
    spoils one lone domino, or one or two of the others, at each move: a small game
    solved backwards. ``kept[a, 0]`` is ``a // 2``; ``kept[0, b]`` is ``b // 3``.

    >>> kept = kept_items(8)
    >>> int(kept[3, 0]), int(kept[0, 6]), int(kept[1, 1]), int(kept[1, 4])
    (1, 2, 1, 2)
    """
    kept = np.zeros((most + 1, most + 1), np.int64)

    def answer(a: int, b: int) -> int:  # the keeper takes one, then it is the other's turn
        options = [1 + kept[a - 1, b]] if a else []
        options += [1 + kept[a, b - 1]] if b else []
        return max(options, default=0)

    for total in range(1, 2 * most + 1):
        for a in range(max(0, total - most), min(total, most) + 1):
            b = total - a
            spoils = [(a - 1, b)] if a else []
            spoils += [(a, b - 1)] if b else []
            spoils += [(a, b - 2)] if b >= 2 else []
            kept[a, b] = min(answer(x, y) for x, y in spoils)
    return kept


#: :func:`kept_items` up to 40 of each kind (a board of 64 cells holds at most 32 dominoes)
KEPT = kept_items()


@njit(cache=True)
def second_of(safe, areas, one, two, many, many_one):
    """(moves, cells, areas' toll) the player who moves second keeps by answering each
    thing the opponent spoils (module doc): its safe dominoes, two moves per pair of
    protective areas, what :data:`KEPT` says of its vulnerable dominoes (an odd area counts
    as one of the lone ones); the coverable cells those take from the opponent; and how
    many fewer dominoes the opponent then places in the areas than its count says."""
    even = areas - (areas & 1)
    two += areas & 1
    if many == 0:
        return safe + even + (one + two) // 2, 2 * even + paired_cells(one, two), even
    items = KEPT[one + two, many]
    cells = items if one or many_one else 2 * items
    return safe + even + items, 2 * even + cells, even


@njit(cache=True)
def outlasts(moves, cells, toll, most, cover):
    """Whether ``moves`` kept are more than the opponent can make: at most ``most`` less
    the areas' ``toll``, and at most half the ``cover`` cells it can cover less the
    ``cells`` the keeper takes from them."""
    return moves > min(most - toll, (cover - cells) // 2)


@njit(cache=True)
def first_wins(safe, areas, caps, one, two, many, many_one, most, cover, opt, opt_safe):
    """Whether the mover, keeping ``safe``, ``areas``, ``one``, ``two``, ``many``
    (:func:`second_of`), outlasts an opponent that can place at most ``most`` dominoes on
    ``cover`` cells: it first opens an odd protective area (two moves, four cells, the
    opponent's two dominoes there gone), or walls an area's open side with its domino there
    (``caps``), or takes a vulnerable domino or a safe one, then answers as the second
    player does. O(1)."""
    if areas & 1:
        moves, cells, toll = second_of(safe, areas - 1, one, two, many, many_one)
        if outlasts(moves + 2, cells + 4 + opt, toll + 2, most, cover):
            return True
    if caps:
        moves, cells, toll = second_of(safe, areas, one, two, many, many_one)
        if outlasts(moves + 1, cells + 2 + opt, toll, most, cover):
            return True
    if one:
        moves, cells, toll = second_of(safe, areas, one - 1, two, many, many_one)
        if outlasts(moves + 1, cells + 1 + opt, toll, most, cover):
            return True
    if two:
        moves, cells, toll = second_of(safe, areas, one, two - 1, many, many_one)
        if outlasts(moves + 1, cells + 2 + opt, toll, most, cover):
            return True
    if many:
        two_left = many - many_one  # take one with two cells if there is one
        took = 2 if two_left else 1
        moves, cells, toll = second_of(safe, areas, one, two, many - 1,
                                       many_one - (took == 1))
        if outlasts(moves + 1, cells + took + opt, toll, most, cover):
            return True
    if safe:
        moves, cells, toll = second_of(safe - 1, areas, one, two, many, many_one)
        if outlasts(moves + 1, cells + opt_safe, toll, most, cover):
            return True
    return False


@njit(cache=True)
def bounds_of(cells, g):
    """CANNOT_WIN (and MUST_LOSE) when the opponent, moving second, keeps as many moves as
    the mover can still make; CANNOT_LOSE when the mover, moving first, keeps more than the
    opponent can make: what each keeps from its safe dominoes, protective areas and
    vulnerable dominoes, either packing of them (:func:`side_of`, :func:`second_of`,
    :func:`first_wins`), what each can make bounded by its most dominoes and by the cells
    it can cover, less the other's toll (module doc)."""
    cols, v_start, h_start, h_after, v_after = g[1], g[3], g[4], g[5], g[6]
    free = ~cells & g[2]
    v = side_of(free, cols, v_start, v_after, 1, h_start, h_after)
    h = side_of(free, 1, h_start, h_after, cols, v_start, v_after)
    me, them = (v, h) if mover_of(cells) == VERTICAL else (h, v)
    known = 0
    for grouped in range(2):
        if grouped:
            moves, taken, toll = second_of(them.safe, them.areas, them.g_one, them.g_two,
                                           them.many, them.many_one)
            taken += them.g_opt
        else:
            moves, taken, toll = second_of(them.safe, them.areas, them.one, them.two, 0, 0)
            taken += them.opt
        if moves >= min(me.most - toll, (me.cover - taken) // 2):
            known |= CANNOT_WIN | MUST_LOSE  # no tie: not a win is a loss
            break
    if first_wins(me.safe, me.areas, me.caps, me.one, me.two, 0, 0, them.most,
                  them.cover, me.opt, me.opt_safe) or \
            first_wins(me.safe, me.areas, me.caps, me.g_one, me.g_two, me.many,
                       me.many_one, them.most, them.cover, me.g_opt, me.g_opt_safe):
        known |= CANNOT_LOSE
    return known


@njit(cache=True)
def horizon_of(cells, g):
    """No game lasts longer: the mover makes at most ``mine`` more moves, the opponent
    ``theirs``, and they alternate."""
    most_v, _, most_h, _ = counts_of(cells, g)
    mine, theirs = (most_v, most_h) if mover_of(cells) == VERTICAL else (most_h, most_v)
    return 2 * mine if mine <= theirs else 2 * theirs + 1


@njit(cache=True)
def ordered_moves(cells, out, g, pv):
    """The moves worth searching, best first: no safe move while an unsafe one is left (a
    safe domino keeps, so Bullock 2002 never searches one; checked against the strong
    solution, which always had an unsafe move as good, value and remoteness, at every won
    position of seven boards up to 4 x 5 and 5 x 4), ordered by what the board is worth to
    the mover after the move, 4 x (its safe dominoes - the opponent's) + (the most
    dominoes it can still place - the opponent's), the counts of :func:`counts_of`, ties
    broken by ``pv``, the board's :func:`positional` ranks. On a board symmetric under a
    mirror, one move of each mirrored pair only (the two lead to mirror images, of one value
    and remoteness). O(moves x cells)."""
    cols, h_start, h_after, v_start, v_after = g[1], g[4], g[5], g[3], g[6]
    who = mover_of(cells)
    free = ~cells & g[2]
    mine = places(free, who, g)
    if who == VERTICAL:
        d_me = cols
        across = ((free >> 1) & h_start) | ((free << 1) & h_after)
    else:
        d_me = 1
        across = ((free >> cols) & v_start) | ((free << cols) & v_after)
    lr, ud, both = mirrors(cells, g)
    fixed = (1 if lr == cells else 0) | (2 if ud == cells else 0) | \
        (4 if both == cells else 0)
    k = 0
    p = mine & (across | (across >> d_me))  # a cell the opponent can cover: not safe
    if p == 0:
        p = mine  # only safe moves: the bounds decide such a position before it is searched
    while p:
        cell = lowest_bit(p)
        p &= p - 1
        move = 2 * cell + who
        if fixed:
            skip = False
            for which in range(1, 4):
                if (fixed >> (which - 1)) & 1 and mirror_move(move, which, g) < move:
                    skip = True
            if skip:
                continue
        pair = (np.int64(1) << cell) | (np.int64(1) << (cell + d_me))
        most_v, safe_v, most_h, safe_h = counts_of(cells | pair, g)
        worth = 4 * (safe_v - safe_h) + most_v - most_h
        if who == HORIZONTAL:
            worth = -worth
        unsafe = 0 if (pair & across) == 0 else 1
        # worth lies in (-512, 512) (<= 64 cells), the positional rank in [0, 128)
        score = (unsafe << 17) | ((worth + 512) << 7) | pv[move]
        j = k
        while j > 0 and (out[j - 1] >> 8) < score:
            out[j] = out[j - 1]
            j -= 1
        out[j] = (score << 8) | move
        k += 1
    for i in range(k):
        out[i] &= 255
    return k


# -- the shared rules: the board's shape in bits 56-63 ---------------------------------------
@njit(cache=True)
def _shape(code):
    g = SHAPES[(code >> SHARED_CELLS) & 255]
    return (g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]), code & _CELLS


@njit(cache=True)
def shared_moves(code, out):
    g, cells = _shape(code)
    return moves_of(cells, out, g)


@njit(cache=True)
def shared_play(code, move):
    g, cells = _shape(code)
    return (code & ~_CELLS) | play_of(cells, move, g)


@njit(cache=True)
def shared_outcome(code):
    return ONGOING  # no move left: the mover loses (the engine's rule)


@njit(cache=True)
def shared_tier(code):
    return popcount(code & _CELLS)


@njit(cache=True)
def shared_canonical(code):
    g, cells = _shape(code)
    return (code & ~_CELLS) | canonical_of(cells, g)


@njit(cache=True)
def shared_bounds(code):
    g, cells = _shape(code)
    return bounds_of(cells, g)


@njit(cache=True)
def shared_horizon(code):
    g, cells = _shape(code)
    return horizon_of(cells, g)


@njit(cache=True)
def shared_search_moves(code, out):
    g, cells = _shape(code)
    return ordered_moves(cells, out, g, POSITIONAL[(code >> SHARED_CELLS) & 255])


class Kernels(NamedTuple):
    """A board's compiled rules (numba dispatchers)."""

    moves: Callable[..., int]
    play: Callable[..., int]
    outcome: Callable[..., int]
    tier: Callable[..., int]
    canonical: Callable[..., int]
    static_bounds: Callable[..., int]
    horizon: Callable[..., int]
    search_moves: Callable[..., int]


SHARED = Kernels(shared_moves, shared_play, shared_outcome, shared_tier, shared_canonical,
                 shared_bounds, shared_horizon, shared_search_moves)


def own_kernels(rows: int, cols: int) -> Kernels:
    """The rules of a board of 57-64 cells: the rules above bound to its numbers (every bit
    a cell), typed as the shared kernels' (so the rules' compiled helpers serve both)."""
    g = tuple(np.int64(x) for x in geometry(rows, cols))
    return Kernels(bind(moves_of, g), bind(play_of, g), shared_outcome, popcount,
                   bind(canonical_of, g), bind(bounds_of, g), bind(horizon_of, g),
                   bind(ordered_moves, g, positional(rows, cols)))


class Domineering(CompiledGame):
    """Domineering on ``rows`` x ``cols`` cells (at most 64): Vertical moves first."""

    #: no game ends level (the player who cannot move loses): a search that proves "not
    #: a loss" has proven a win (:func:`perfectplay.engine.protocol.cannot_tie`)
    cannot_tie = True

    def __init__(self, rows: int = 8, cols: int = 8) -> None:
        if not (rows >= 1 and cols >= 1 and rows * cols <= MAX_CELLS):
            raise ValueError(f"a board needs rows, cols >= 1 and at most {MAX_CELLS} cells")
        self.rows, self.cols = rows, cols
        self.geometry = geometry(rows, cols)
        self.shape_bits = BOARDS.bits((rows, cols))
        self.cell_mask = _CELLS if (rows, cols) in BOARDS else -1
        kernels = BOARDS.kernels((rows, cols), SHARED, lambda size: own_kernels(*size))
        most = max(1, rows * cols - min(rows, cols))  # places of the likelier orientation
        super().__init__(self.shape_bits, **kernels._asdict(), max_moves=most,
                         name=f"Domineering({rows}, {cols})")

    # -- reading a code ------------------------------------------------------------------
    def cells(self, code: int) -> int:
        """The covered cells of ``code`` as a non-negative bit set."""
        return int(code) & self.cell_mask & ((1 << 64) - 1)

    def code_of(self, cells: int) -> int:
        """The code of the position whose covered cells are the bit set ``cells``."""
        return signed(self.shape_bits | cells)

    def to_move(self, code: int) -> int:
        """0 (Vertical) or 1 (Horizontal): who moves at ``code``."""
        return (self.cells(code).bit_count() // 2) & 1

    def covered(self, code: int) -> set[tuple[int, int]]:
        """The covered cells as (row, column), row 0 at the bottom."""
        bits = self.cells(code)
        return {divmod(i, self.cols) for i in range(self.rows * self.cols) if bits >> i & 1}

    def counts(self, code: int) -> tuple[int, int, int, int]:
        """(Vertical's most dominoes still to come, its safe ones, then Horizontal's)."""
        got = counts_of(np.int64(signed(self.cells(code))), self.geometry)
        return (int(got[0]), int(got[1]), int(got[2]), int(got[3]))

    # -- for people ----------------------------------------------------------------------
    def cell_name(self, r: int, c: int) -> str:
        return f"{column_name(c)}{r + 1}"

    def draw(self, code: int) -> str:
        """The board, top row first, ``#`` covered and ``.`` free, with coordinates."""
        cover = self.covered(code)
        width = len(str(self.rows))
        head = " " * width + " " + " ".join(column_name(c) for c in range(self.cols))
        rows = [f"{r + 1:>{width}} " + " ".join("#" if (r, c) in cover else "."
                                                for c in range(self.cols))
                for r in range(self.rows - 1, -1, -1)]
        return "\n".join([head, *rows, f"{PLAYERS[self.to_move(code)]} to move"])

    def move_name(self, move: int) -> str:
        """``b3-b4`` (Vertical's domino on b3 and b4), ``b3-c3`` (Horizontal's)."""
        cell, horizontal = divmod(int(move), 2)
        r, c = divmod(cell, self.cols)
        other = (r, c + 1) if horizontal else (r + 1, c)
        return f"{self.cell_name(r, c)}-{self.cell_name(*other)}"

    def parse_move(self, text: str) -> int | None:
        """The move ``b3-b4`` (either cell first, any case), or None for text that names no
        domino on this board."""
        m = _MOVE.match(text.strip().lower().replace(" ", ""))
        if not m:
            return None
        a = (int(m[2]) - 1, column_number(m[1]))
        b = (int(m[4]) - 1, column_number(m[3]))
        (r1, c1), (r2, c2) = sorted([a, b])
        if not all(0 <= r < self.rows and 0 <= c < self.cols for r, c in ((r1, c1), (r2, c2))):
            return None
        if (r2, c2) == (r1 + 1, c1):
            return 2 * (r1 * self.cols + c1) + VERTICAL
        if (r2, c2) == (r1, c1 + 1):
            return 2 * (r1 * self.cols + c1) + HORIZONTAL
        return None

    def position(self, names: str) -> int:
        """The code reached from the start by the moves ``names`` (separated by spaces or
        commas); ValueError naming the first move that is not legal."""
        code = self.initial()
        for i, name in enumerate(names.replace(",", " ").split()):
            move = self.parse_move(name)
            if move is None or move not in self.moves(code):
                raise ValueError(f"move {i + 1}, {name!r}, is not legal here:\n"
                                 f"{self.draw(code)}")
            code = self.play(code, move)
        return code

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: covered cells dark, coordinates on the edges."""
        cover = self.covered(code)
        for r in range(self.rows):
            for c in range(self.cols):
                ax.fill([c, c + 1, c + 1, c], [r, r, r + 1, r + 1],
                        color="#444444" if (r, c) in cover else "#f4f1e8",
                        edgecolor="#888888")
        ax.set_xticks([c + 0.5 for c in range(self.cols)],
                      [column_name(c) for c in range(self.cols)])
        ax.set_yticks([r + 0.5 for r in range(self.rows)],
                      [str(r + 1) for r in range(self.rows)])
        ax.set_aspect("equal")
        ax.set_title(f"{PLAYERS[self.to_move(code)]} to move")
