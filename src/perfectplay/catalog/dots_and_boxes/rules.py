"""Dots and Boxes on rows x cols boxes as a compiled scored game: the drawn lines in one int64.

The board has (rows + 1) x (cols + 1) dots and ``2 rows cols + rows + cols`` lines: the
horizontal lines first, ``h(r, c)`` joining dots (r, c) and (r, c + 1) at index
``r * cols + c`` (dot row 0 at the bottom), then the vertical ones, ``v(r, c)`` joining
(r, c) and (r + 1, c) at ``(rows + 1) * cols + r * (cols + 1) + c``. Box (r, c) has the
lines h(r, c), h(r + 1, c), v(r, c) and v(r, c + 1).

A position is bit 0, the player to move, and line ``e`` at bit ``e + 1``. The score so far
is not in it: the engine's value of a scored game is the margin the mover can still gain,
each move's ``payoff`` being the boxes it completes (0, 1 or 2), so a position's value does
not depend on the score, nor on who the mover is (both players have the same moves): the
value of the start is the first player's margin (Wilson's retrograde analysis keys
positions the same way, by their lines alone). A move that completes a box keeps the turn
(``player``), any other passes it.

**One set of kernels for the boards of at most 54 lines** (3 x 3, 4 x 4, 4 x 5 and every
smaller one): their shape number sits in bits 55-62 and the rules, module-level functions
cached on disk, read the board's tables (each line's one or two boxes, the symmetries) by
it, so the engine compiles its kernels once a session for all of them. Boards of 55-62
lines (5 x 5 has 60) get the same rules bound to their own tables (``own_kernels``), as
:class:`~perfectplay.engine.compiled.shapes.Shapes` and
:func:`~perfectplay.engine.compiled.shapes.bind` make them.

The tier is the number of lines drawn. ``canonical`` is the least line set among the
board's images under its symmetries (4 for a rectangle, 8 for a square board), with the
player bit cleared (the value does not depend on it). ``margin_bound`` is the number of
boxes still open.

``search_moves`` is Berlekamp's chain rule, as Barker & Korf (2012) search with it
(:func:`capture_moves`): where a box can be taken, the search tries taking it, alone when
it hangs on the border, on a box it takes with it or on a junction, and declining (the
double-dealing move) only at the last two boxes of a chain or the last four of an opened
loop, once nothing else can be taken. Elsewhere (:func:`search_order`) it leaves out the
lines :func:`equivalent_lines` shows to be worth no more than another (all but one line of
a chain or a loop, the end lines of an offered pair; all but one free border line of a
box, :func:`border_skip`) and tries the moves that give nothing away first, then the
sacrifices, fewest boxes offered first, each group from the board's centre out (Barker &
Korf 2012), one move of each pair a symmetry of a symmetric position swaps. Each rule
keeps a best move of every position, checked at every set of lines of seven boards up to
3 x 3 and 2 x 5 (tests/test_dots_chain_rule.py checks 2 x 2 whole and samples; the border
rule, added later, at every position of 2 x 3, 1 x 5 and 1 x 6 and deep ones of 3 x 3,
2 x 4 and 3 x 4).

``endgame`` (:func:`loony_endgame`) gives the exact margin where every open box has two
sides or more: the takeable parts taken by the chain rule, the rest a simple loony endgame
of chains and loops valued by a small recursion over their lengths (Berlekamp 2000;
Buzzard & Ciere 2014), so the search never enters those positions (3 x 4: 8 % fewer
nodes).

>>> game = DotsAndBoxes(1, 1)
>>> [game.move_name(m) for m in game.moves(game.initial())]
['a1-b1', 'a2-b2', 'a1-a2', 'b1-b2']
>>> print(game.draw(game.initial()))
2 +   +
<BLANKLINE>
1 +   +
  a   b
first player (A) to move
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from ...bits import lowest_bit, popcount
from ...engine import ONGOING, TIE, CompiledGame
from ...engine.compiled import Shapes, bind

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_LINES = 62
SHARED_LINES = 54  # boards up to this many lines carry their shape in the code
_LINES = ((1 << SHARED_LINES) - 1) << 1  # the line bits of a shared code
_SHAPE_AT = SHARED_LINES + 1
_MOVE = re.compile(r"^([a-z]+)(\d+)-([a-z]+)(\d+)$")
PLAYERS = ("first player (A)", "second player (B)")


def lines_of(rows: int, cols: int) -> int:
    """The number of lines of a rows x cols board: ``2 rows cols + rows + cols``."""
    return 2 * rows * cols + rows + cols


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


class Board:
    """A board's lines and boxes as plain Python: which dots each line joins, each box's
    four lines, each line's boxes, and its symmetries as permutations of the lines."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.n = lines_of(rows, cols)
        self.dots: list[tuple[tuple[int, int], tuple[int, int]]] = []
        for r in range(rows + 1):
            for c in range(cols):
                self.dots.append(((r, c), (r, c + 1)))
        for r in range(rows):
            for c in range(cols + 1):
                self.dots.append(((r, c), (r + 1, c)))
        self.index = {d: e for e, d in enumerate(self.dots)}
        self.boxes = [(self.h(r, c), self.h(r + 1, c), self.v(r, c), self.v(r, c + 1))
                      for r in range(rows) for c in range(cols)]
        self.box_masks = [sum(1 << e for e in box) for box in self.boxes]
        self.sides: list[list[int]] = [[] for _ in range(self.n)]  # each line's boxes
        for b, box in enumerate(self.boxes):
            for e in box:
                self.sides[e].append(b)

    def h(self, r: int, c: int) -> int:
        return r * self.cols + c

    def v(self, r: int, c: int) -> int:
        return (self.rows + 1) * self.cols + r * (self.cols + 1) + c

    def symmetries(self) -> list[list[int]]:
        """Each symmetry of the board (identity first) as the image of every line."""
        rows, cols = self.rows, self.cols
        maps = [lambda p: p, lambda p: (p[0], cols - p[1]), lambda p: (rows - p[0], p[1]),
                lambda p: (rows - p[0], cols - p[1])]
        if rows == cols:
            maps += [lambda p: (p[1], p[0]), lambda p: (cols - p[1], p[0]),
                     lambda p: (p[1], rows - p[0]), lambda p: (cols - p[1], rows - p[0])]
        out = []
        for f in maps:
            out.append([self.index[tuple(sorted((f(a), f(b))))]
                        for a, b in self.dots])
        return out

    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(numbers: lines, boxes, symmetries, rows, cols; each line's box masks, 0 for none,
        shifted to the code's line bits; every box's mask likewise; the symmetries'
        permutations of the lines) for the kernels, sized for at most 62 lines."""
        syms = self.symmetries()
        numbers = np.array([self.n, len(self.boxes), len(syms), self.rows, self.cols],
                           np.int64)
        sides = np.zeros((MAX_LINES, 2), np.int64)
        for e, boxes in enumerate(self.sides):
            for k, b in enumerate(boxes):
                sides[e, k] = self.box_masks[b] << 1
        masks = np.zeros(MAX_LINES, np.int64)
        masks[:len(self.boxes)] = [m << 1 for m in self.box_masks]
        perms = np.zeros((8, MAX_LINES), np.int64)
        for s, perm in enumerate(syms):
            perms[s, :self.n] = perm
        return numbers, sides, masks, perms

    def border_pairs(self) -> np.ndarray:
        """The border lines of each box with two or more of them (the corners; every box of
        a one-row board), as code-bit masks, one a box (62 entries, zeros after the last):
        such lines join the same box to the border, so drawing one or another is the same
        move up to a renaming of the lines."""
        groups = np.zeros(MAX_LINES, np.int64)
        k = 0
        for box in self.boxes:
            border = [e for e in box if len(self.sides[e]) == 1]
            if len(border) >= 2:
                groups[k] = sum(1 << (e + 1) for e in border)
                k += 1
        return groups

    def nearness(self) -> np.ndarray:
        """Each line's closeness to the board's centre (62 entries, larger nearer): the
        largest Manhattan distance of a line's midpoint from the centre, in half boxes,
        minus its own (the Manhattan distance: 3 % fewer nodes than the Euclidean on
        3 x 4, 14 % more on 3 x 3)."""
        mids = [(a[0] + b[0], a[1] + b[1]) for a, b in self.dots]
        dist = [abs(r - self.rows) + abs(c - self.cols) for r, c in mids]
        near = np.zeros(MAX_LINES, np.int64)
        near[:self.n] = [max(dist) - d for d in dist]
        return near


#: The boards of at most 54 lines, their shape numbers.
BOARDS = Shapes([(r, c) for r in range(1, SHARED_LINES + 1) for c in range(1, SHARED_LINES + 1)
                 if lines_of(r, c) <= SHARED_LINES], at=_SHAPE_AT)
_BOARDS = {size: Board(*size) for size in BOARDS.ids}
_TABLES = {size: board.tables() for size, board in _BOARDS.items()}
NUMBERS = BOARDS.stack(lambda size: _TABLES[size][0])
SIDES = BOARDS.stack(lambda size: _TABLES[size][1])
MASKS = BOARDS.stack(lambda size: _TABLES[size][2])
PERMS = BOARDS.stack(lambda size: _TABLES[size][3], np.int16)
NEAR = BOARDS.stack(lambda size: _BOARDS[size].nearness())
BORDER = BOARDS.stack(lambda size: _BOARDS[size].border_pairs())


# -- the rules over a board's tables (module level, cached on disk) ---------------------------
@njit(cache=True)
def completed(lines, e, sides):
    """The boxes that drawing line ``e`` completes in the line set ``lines`` (code bits)."""
    after = lines | (np.int64(1) << (e + 1))
    n = 0
    for k in range(2):
        m = sides[e, k]
        if m != 0 and (after & m) == m:
            n += 1
    return n


@njit(cache=True)
def moves_of(lines, out, n):
    free = ~lines & (((np.int64(1) << n) - 1) << 1)
    k = 0
    while free:
        out[k] = lowest_bit(free) - 1
        k += 1
        free &= free - 1
    return k


@njit(cache=True)
def step_of(code, move, sides):
    """(child, boxes completed): the line drawn, the turn kept after a box, else passed."""
    done = completed(code, move, sides)
    child = code | (np.int64(1) << (move + 1))
    if done == 0:
        child ^= 1
    return child, done


@njit(cache=True)
def play_of(code, move, sides):
    return step_of(code, move, sides)[0]


@njit(cache=True)
def outcome_of(lines, n):
    """TIE once every line is drawn (the margin still to gain is then 0), else ONGOING."""
    full = ((np.int64(1) << n) - 1) << 1
    return TIE if (lines & full) == full else ONGOING


@njit(cache=True)
def lines_drawn(code):
    """The tier of a code without shape bits: every bit above the player's a line."""
    return popcount(code >> 1)


@njit(cache=True)
def open_boxes(lines, boxes, masks):
    n = 0
    for b in range(boxes):
        if (lines & masks[b]) != masks[b]:
            n += 1
    return n


@njit(cache=True)
def image(lines, perm, n):
    """The line set under one symmetry (a permutation of the lines). O(lines drawn)."""
    out = 0
    rest = lines >> 1
    while rest:
        e = lowest_bit(rest)
        rest &= rest - 1
        out |= np.int64(1) << (perm[e] + 1)
    return out


@njit(cache=True)
def canonical_of(lines, n, syms, perms):
    best = lines & ~np.int64(1)
    for s in range(1, syms):
        best = min(best, image(lines, perms[s], n))
    return best


@njit(cache=True)
def ordered_moves(lines, out, n, sides, syms, perms, near, skip=0):
    """Captures first, then moves that leave no box with three sides, then sacrifices,
    fewest boxes offered first; in each group the lines nearest the board's centre first
    (``near``, :meth:`Board.nearness`), as Barker & Korf (2012) order their moves (2.25x
    fewer nodes on 3 x 4 than the boxes' sides drawn, which had been 2.2x better than
    none); one move of each pair a symmetry of the board swaps; none of the lines in
    ``skip`` (code bits). O(lines x symmetries)."""
    fixed = 0
    plain = lines & ~np.int64(1)
    for s in range(1, syms):
        if image(lines, perms[s], n) == plain:
            fixed |= 1 << s
    free = ~lines & (((np.int64(1) << n) - 1) << 1) & ~np.int64(skip)
    k = 0
    while free:
        e = lowest_bit(free) - 1
        free &= free - 1
        if fixed:
            skip = False
            for s in range(1, syms):
                if (fixed >> s) & 1 and perms[s, e] < e:
                    skip = True
            if skip:
                continue
        after = lines | (np.int64(1) << (e + 1))
        done = 0
        offered = 0
        for j in range(2):
            m = sides[e, j]
            if m != 0:
                have = popcount(after & m)
                if have == 4:
                    done += 1
                elif have == 3:
                    offered += 1
        score = (8 + done if done else 4 - offered) * 4096 + near[e]
        j = k
        while j > 0 and (out[j - 1] >> 8) < score:
            out[j] = out[j - 1]
            j -= 1
        out[j] = (score << 8) | e
        k += 1
    for i in range(k):
        out[i] &= 255
    return k


@njit(cache=True)
def _across(sides, e, box):
    """The box on the other side of line ``e`` from ``box`` (masks), 0 for the border."""
    first = sides[e, 0]
    return sides[e, 1] if first == box else first


@njit(cache=True)
def _other_free(lines, box, e):
    """The free line of ``box`` (a mask) other than ``e``, for a box with two free lines."""
    return lowest_bit(box & ~lines & ~(np.int64(1) << (e + 1))) - 1


@njit(cache=True)
def chain_reply(lines, box, sides, out):
    """The moves that keep the value when ``box`` (a mask) can be taken: its free line ``e``
    alone, or ``e`` and the double-dealing line, written into ``out``; their count.

    Strings and coins (Berlekamp 2000, ch. 4-5): the box is a coin of degree 1. Taking it
    keeps the value unless it begins a chain whose last boxes can be declined. When the box
    across ``e`` is the border, has three sides (one line takes both) or at most one (a
    junction), ``e`` alone. When that box ``d`` has two sides the chain is followed through
    boxes of two sides: ending on the border or a junction after ``d`` (two boxes), the
    choice is taking or the double-dealing move, ``d``'s other line, which hands both boxes
    over and keeps control ("all but two"); ending on a box that can be taken too (an
    opened loop or a chain opened in its middle) after four boxes, taking or the middle
    line, which hands two pairs over ("all but four"); any other length, take ``e`` (the
    choice comes at the chain's end). O(length of the chain)."""
    e = lowest_bit(box & ~lines) - 1
    out[0] = e
    d = _across(sides, e, box)
    if d == 0 or popcount(lines & d) != 2:
        return 1
    f = _other_free(lines, d, e)
    x = _across(sides, f, d)
    if x == 0 or popcount(lines & x) <= 1:
        out[1] = f  # two boxes, then the border or a junction: take both or deal them
        return 2
    at, came, length = x, f, 3
    while popcount(lines & at) == 2:
        g = _other_free(lines, at, came)
        y = _across(sides, g, at)
        if y == 0 or popcount(lines & y) <= 1:
            return 1  # a chain of three or more, open at its end: take the first box
        if popcount(lines & y) == 3:
            if length == 3:  # c, d, x, y: both ends can be taken, four boxes
                out[1] = f
                return 2
            return 1
        at, came, length = y, g, length + 1
    return 1  # x can be taken too: three boxes, take them all


@njit(cache=True)
def capture_moves(lines, out, sides, masks, boxes):
    """The chain rule at a position where a box can be taken; 0 when no box has three
    sides. One move when some takeable box needs only its own line (:func:`chain_reply`):
    a forced move. Else every takeable box begins a chain whose end can be declined: one
    such chain (its boxes' declining lines are one line) gives its two moves, taking or
    declining; several give only their taking moves, one a box, since declining one chain
    while another can be taken hands that one over too, where taking it first and then
    declining keeps it (the double-dealing move is the last of a turn). O(boxes x chain)."""
    k = 0
    deal = np.int64(-1)
    several = False
    for b in range(boxes):
        m = masks[b]
        if popcount(lines & m) == 3:
            if chain_reply(lines, m, sides, out[k:]) == 1:  # its moves at out[k], k + 1
                out[0] = out[k]
                return 1
            if deal >= 0 and out[k + 1] != deal:
                several = True
            deal = out[k + 1]
            k += 1
    if k and not several:
        out[1] = deal  # one chain: take its first box or decline it
        return 2
    return k


@njit(cache=True)
def _walk(lines, box, e, sides):
    """Follow a chain from ``box`` (two sides drawn) out through its free line ``e`` while
    the boxes met have two sides: (the lines passed, code bits, ``e`` and each box's other
    free line; the boxes met; the end: 0 the border, else the box of another count of
    sides met, or ``box`` itself once round a loop)."""
    seen = np.int64(1) << (e + 1)
    at, line, met = box, e, 0
    while True:
        y = _across(sides, line, at)
        if y == 0 or y == box or popcount(lines & y) != 2:
            return seen, met, y
        line = _other_free(lines, y, line)
        seen |= np.int64(1) << (line + 1)
        at = y
        met += 1


@njit(cache=True)
def equivalent_lines(lines, sides, masks, boxes):
    """Lines the search need not try at a position where no box can be taken, as code bits:
    of each chain of boxes with two sides between two different ends (the border, or a
    box of at most one side), all lines but one when it has one box or three or more, the
    two end lines when it has two; of each loop, all lines but one.

    Why (Berlekamp 2000, ch. 4-5, with the chain rule of :func:`capture_moves`): whichever
    line opens a chain of three or more, the taker's choice is to take all or all but two,
    and either way every line of the chain ends drawn with the same boxes to each player,
    so the lines are worth the same (a loop: all, or all but four); a lone box's two lines
    likewise. A pair offered by its middle line (the hard-hearted handout) can only be
    taken, by an end line also declined, so the ends are worth no more to the one who
    offers. Ends that are one box are left alone: a line at one end gives that box a side
    before the other end is reached. O(lines)."""
    skip = np.int64(0)
    done = np.int64(0)
    for b in range(boxes):
        c = masks[b]
        if popcount(lines & c) != 2 or (c & ~lines & done):
            continue
        e1 = lowest_bit(c & ~lines) - 1
        e2 = _other_free(lines, c, e1)
        seen1, met1, end1 = _walk(lines, c, e1, sides)
        if end1 == c:  # a loop
            done |= seen1
            skip |= seen1 & (seen1 - 1)  # all but its lowest line
            continue
        seen2, met2, end2 = _walk(lines, c, e2, sides)
        chain = seen1 | seen2
        done |= chain
        if end1 != 0 and end1 == end2:
            continue
        if met1 + met2 == 1:  # a pair: its two end lines, not its middle (on the side met)
            skip |= chain & ~(np.int64(1) << ((e1 if met1 == 1 else e2) + 1))
        else:
            skip |= chain & (chain - 1)
    return skip


@njit(cache=True)
def border_skip(lines, border):
    """Of the free border lines of each box in ``border`` (:meth:`Board.border_pairs`),
    all but the lowest, as code bits: the same move up to renaming the lines, so the
    search tries one (Barker & Korf 2012's corner symmetry), and since it then never
    draws the higher while the lower is free, its positions fall into one class the
    table keys once. O(boxes with two border lines)."""
    skip = np.int64(0)
    for i in range(border.size):
        m = border[i]
        if m == 0:
            break
        free = m & ~lines
        skip |= free & (free - 1)
    return skip


@njit(cache=True)
def search_order(lines, out, n, sides, masks, boxes, syms, perms, near, border):
    """The moves proof search tries: the chain rule's one or two when a box can be taken
    (:func:`capture_moves`), else every move but the lines :func:`equivalent_lines` leaves
    out, in :func:`ordered_moves`' order."""
    k = capture_moves(lines, out, sides, masks, boxes)
    if k:
        return k
    return ordered_moves(lines, out, n, sides, syms, perms, near,
                         equivalent_lines(lines, sides, masks, boxes)
                         | border_skip(lines, border))


@njit(cache=True)
def loony_parts(lines, sides, masks, boxes, chains, loops, done):
    """The chains and loops of the boxes with two sides whose free lines are not in
    ``done`` (code bits), counted by length into ``chains`` and ``loops`` (zeroed first);
    their number. For a position where every open box has two or more sides.

    When every open box has two sides, every free line joins two of them or one and the
    border, so the open boxes fall apart into chains (border to border) and loops
    (Berlekamp 2000, ch. 4: strings and coins of degree 2). O(boxes + lines)."""
    for i in range(chains.size):
        chains[i] = 0
        loops[i] = 0
    parts = 0
    for b in range(boxes):
        c = masks[b]
        if popcount(lines & c) != 2 or (c & ~lines & done):
            continue
        e1 = lowest_bit(c & ~lines) - 1
        seen1, met1, end1 = _walk(lines, c, e1, sides)
        if end1 == c:
            done |= seen1
            loops[met1 + 1] += 1
        else:
            seen2, met2, _ = _walk(lines, c, _other_free(lines, c, e1), sides)
            done |= seen1 | seen2
            chains[met1 + met2 + 1] += 1
        parts += 1
    return parts


@njit(cache=True)
def loony_value(chains, loops, parts):
    """The margin the mover can still gain in a simple loony endgame of ``parts`` chains
    and loops (counted by length, as :func:`loony_parts` gives them), where the mover must
    open one and no other line is left.

    The opener of a part of n boxes, the rest worth r to whoever moves in it: a chain of
    one or two boxes (a pair offered by its middle line, the hard-hearted handout) is
    taken, -n - r; a longer chain is taken whole, -n - r, or all but its last two, which
    the taker declines by the double-dealing move so that the opener must move next,
    4 - n + r; a loop is taken whole or all but four, 8 - n + r. The taker picks the
    smaller, the opener the best part (Berlekamp 2000, ch. 4-5, the chain rule as
    :func:`capture_moves` searches it; Buzzard & Ciere 2014, "Playing simple loony dots
    and boxes endgames optimally", prove the same recursion). O(orders of the distinct
    parts), a few hundred steps on 4 x 4."""
    if parts == 0:
        return 0
    best = -1000
    for n in range(1, chains.size):
        if chains[n] == 0:
            continue
        chains[n] -= 1
        r = loony_value(chains, loops, parts - 1)
        chains[n] += 1
        v = -n - r
        if n >= 3 and 4 - n + r < v:
            v = 4 - n + r
        if v > best:
            best = v
    for n in range(4, loops.size):
        if loops[n] == 0:
            continue
        loops[n] -= 1
        r = loony_value(chains, loops, parts - 1)
        loops[n] += 1
        v = min(-n - r, 8 - n + r)
        if v > best:
            best = v
    return best


@njit(cache=True)
def loony_endgame(lines, alpha, beta, sides, masks, boxes):
    """The ``endgame`` hook: (exact margin, 1) where every open box has two sides or more,
    else (0, 0), the position left to the search. O(boxes) where it does not apply.

    The boxes of three sides begin the parts that can be taken: a chain hanging on the
    border (one box, or more through boxes of two sides), or a path with both ends
    takeable (an opened loop). By the chain rule (:func:`capture_moves`) the mover takes
    all of them, T boxes, but may decline the last: a chain of two or more boxes by its
    last two (handed over, T - 4 - r: the opponent must open the rest, worth r to whoever
    moves in it), else a path of four or more by its last four (T - 8 - r), or takes all
    and moves on (T + r). The rest is a simple loony endgame (:func:`loony_parts`,
    :func:`loony_value`). Checked against exact values at every such position of boards
    up to 2 x 3 and 1 x 6 and samples of 3 x 3, 2 x 4, 2 x 5 and 3 x 4
    (tests/test_dots_loony.py)."""
    takeable = 0
    for b in range(boxes):
        have = popcount(lines & masks[b])
        if have < 2:
            return np.int64(0), np.int64(0)
        if have == 3:
            takeable += 1
    done = np.int64(0)
    total = 0
    deal = 0  # the boxes the last declined part hands over: 2, 4, or 0 (none can be)
    if takeable:
        for b in range(boxes):
            c = masks[b]
            if popcount(lines & c) != 3 or (c & ~lines & done):
                continue
            seen, met, end = _walk(lines, c, lowest_bit(c & ~lines) - 1, sides)
            done |= seen
            if end == 0:  # a chain hanging on the border
                total += met + 1
                if met >= 1:
                    deal = 2
            else:  # both ends takeable
                total += met + 2
                if met >= 2 and deal == 0:
                    deal = 4
    chains = np.zeros(boxes + 1, np.int64)
    loops = np.zeros(boxes + 1, np.int64)
    parts = loony_parts(lines, sides, masks, boxes, chains, loops, done)
    r = loony_value(chains, loops, parts)
    if not takeable:
        return np.int64(r), np.int64(1)
    v = total + r
    if deal and total - 2 * deal - r > v:
        v = total - 2 * deal - r
    return np.int64(v), np.int64(1)


# -- the shared rules: the board's shape in bits 55-62 ---------------------------------------
@njit(cache=True)
def _shape(code):
    return (code >> _SHAPE_AT) & 255


@njit(cache=True)
def shared_moves(code, out):
    return moves_of(code & _LINES, out, NUMBERS[_shape(code), 0])


@njit(cache=True)
def shared_step(code, move):
    return step_of(code, move, SIDES[_shape(code)])


@njit(cache=True)
def shared_play(code, move):
    return play_of(code, move, SIDES[_shape(code)])


@njit(cache=True)
def shared_payoff(code, move):
    return completed(code & _LINES, move, SIDES[_shape(code)])


@njit(cache=True)
def shared_outcome(code):
    return outcome_of(code, NUMBERS[_shape(code), 0])


@njit(cache=True)
def shared_score(code):
    return 0  # the margin still to gain once every line is drawn


@njit(cache=True)
def shared_player(code):
    return code & 1


@njit(cache=True)
def shared_tier(code):
    return popcount(code & _LINES)


@njit(cache=True)
def shared_canonical(code):
    s = _shape(code)
    return (code & ~_LINES & ~np.int64(1)) | canonical_of(
        code & _LINES, NUMBERS[s, 0], NUMBERS[s, 2], PERMS[s])


@njit(cache=True)
def shared_margin_bound(code):
    s = _shape(code)
    return open_boxes(code & _LINES, NUMBERS[s, 1], MASKS[s])


@njit(cache=True)
def shared_endgame(code, alpha, beta):
    s = _shape(code)
    return loony_endgame(code & _LINES, alpha, beta, SIDES[s], MASKS[s], NUMBERS[s, 1])


@njit(cache=True)
def shared_search_moves(code, out):
    s = _shape(code)
    return search_order(code & _LINES, out, NUMBERS[s, 0], SIDES[s], MASKS[s], NUMBERS[s, 1],
                        NUMBERS[s, 2], PERMS[s], NEAR[s], BORDER[s])


class Kernels(NamedTuple):
    """A board's compiled rules (numba dispatchers)."""

    moves: Callable[..., int]
    play: Callable[..., int]
    outcome: Callable[..., int]
    score: Callable[..., int]
    payoff: Callable[..., int]
    player: Callable[..., int]
    tier: Callable[..., int]
    canonical: Callable[..., int]
    margin_bound: Callable[..., int]
    search_moves: Callable[..., int]
    step: Callable[..., tuple[int, int]]
    endgame: Callable[..., tuple[int, int]]


SHARED = Kernels(shared_moves, shared_play, shared_outcome, shared_score, shared_payoff,
                 shared_player, shared_tier, shared_canonical, shared_margin_bound,
                 shared_search_moves, shared_step, shared_endgame)


def own_kernels(board: Board) -> Kernels:
    """The rules of a board of 55-62 lines: the rules above bound to its own tables."""
    numbers, sides, masks, perms16 = board.tables()
    perms = perms16.astype(np.int64)
    n, boxes, syms = int(numbers[0]), int(numbers[1]), int(numbers[2])
    return Kernels(bind(moves_of, n), bind(play_of, sides), bind(outcome_of, n),
                   shared_score, bind(completed, sides), shared_player, lines_drawn,
                   bind(canonical_of, n, syms, perms), bind(open_boxes, boxes, masks),
                   bind(search_order, n, sides, masks, boxes, syms, perms,
                        board.nearness(), board.border_pairs()),
                   bind(step_of, sides), _own_endgame(sides, masks, boxes))


def _own_endgame(sides: np.ndarray, masks: np.ndarray, boxes: int
                 ) -> Callable[[int, int, int], tuple[int, int]]:
    """:func:`loony_endgame` bound to a board's tables (``bind`` binds one or two
    arguments; the hook has three)."""
    @njit
    def endgame(code, alpha, beta):
        return loony_endgame(code, alpha, beta, sides, masks, boxes)
    return endgame


class DotsAndBoxes(CompiledGame):
    """Dots and Boxes on ``rows`` x ``cols`` boxes (at most 62 lines): a completed box
    scores a point and its player moves again."""

    def __init__(self, rows: int = 3, cols: int = 3) -> None:
        if not (rows >= 1 and cols >= 1 and lines_of(rows, cols) <= MAX_LINES):
            raise ValueError(f"a board needs rows, cols >= 1 and at most {MAX_LINES} lines")
        self.rows, self.cols = rows, cols
        self.board = Board(rows, cols)
        self.shape_bits = BOARDS.bits((rows, cols))
        kernels = BOARDS.kernels((rows, cols), SHARED, lambda size: own_kernels(self.board))
        super().__init__(self.shape_bits, **kernels._asdict(), max_moves=self.board.n,
                         name=f"DotsAndBoxes({rows}, {cols})")

    # -- reading a code ------------------------------------------------------------------
    def drawn(self, code: int) -> set[int]:
        """The lines drawn at ``code``."""
        return {e for e in range(self.board.n) if int(code) >> (e + 1) & 1}

    def code_of(self, lines: set[int] | list[int], player: int = 0) -> int:
        """The code of the position with these lines drawn and ``player`` to move."""
        return self.shape_bits | player | sum(1 << (e + 1) for e in set(lines))

    def owners(self, lines: set[int]) -> list[bool]:
        """Which boxes are complete (box (r, c) at ``r * cols + c``)."""
        return [all(e in lines for e in box) for box in self.board.boxes]

    # -- for people ----------------------------------------------------------------------
    def dot_name(self, r: int, c: int) -> str:
        return f"{column_name(c)}{r + 1}"

    def move_name(self, move: int) -> str:
        """``a1-b1`` (the line from dot a1 to dot b1), ``a1-a2`` (a vertical line)."""
        a, b = self.board.dots[int(move)]
        return f"{self.dot_name(*a)}-{self.dot_name(*b)}"

    def parse_move(self, text: str) -> int | None:
        """The line ``a1-b1`` (either dot first, any case), or None for text that names no
        line of this board."""
        m = _MOVE.match(text.strip().lower().replace(" ", ""))
        if not m:
            return None
        a = (int(m[2]) - 1, column_number(m[1]))
        b = (int(m[4]) - 1, column_number(m[3]))
        return self.board.index.get((min(a, b), max(a, b)))

    def draw(self, code: int) -> str:
        """Dots as ``+``, lines as ``---`` and ``|``, complete boxes as ``#``; dot rows
        numbered from the bottom, dot columns lettered, and who moves."""
        lines = self.drawn(code)
        done = self.owners(lines)
        rows, cols, bd = self.rows, self.cols, self.board
        width = len(str(rows + 1))
        out = []
        for r in range(rows, -1, -1):
            dots = "+".join("---" if bd.h(r, c) in lines else "   " for c in range(cols))
            out.append(f"{r + 1:>{width}} +{dots}+")
            if r:
                cells = []
                for c in range(cols + 1):
                    cells.append("|" if bd.v(r - 1, c) in lines else " ")
                    if c < cols:
                        cells.append(" # " if done[(r - 1) * cols + c] else "   ")
                out.append((" " * (width + 1) + "".join(cells)).rstrip())
        out.append(" " * (width + 1) + "   ".join(column_name(c) for c in range(cols + 1)))
        out.append(f"{PLAYERS[int(code) & 1]} to move")
        return "\n".join(out)

    def position(self, names: str) -> int:
        """The code reached from the start by the lines ``names`` (separated by spaces or
        commas); ValueError naming the first line that is not free."""
        code = self.initial()
        for i, name in enumerate(names.replace(",", " ").split()):
            move = self.parse_move(name)
            if move is None or move not in self.moves(code):
                raise ValueError(f"move {i + 1}, {name!r}, is not a free line here:\n"
                                 f"{self.draw(code)}")
            code = self.play(code, move)
        return code

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: dots, the lines drawn, complete boxes shaded."""
        lines = self.drawn(code)
        for b, full in enumerate(self.owners(lines)):
            if full:
                r, c = divmod(b, self.cols)
                ax.fill([c, c + 1, c + 1, c], [r, r, r + 1, r + 1], color="#cfd8e6")
        for e, ((r1, c1), (r2, c2)) in enumerate(self.board.dots):
            drawn = e in lines
            ax.plot([c1, c2], [r1, r2], color="#222222" if drawn else "#dddddd",
                    linewidth=3 if drawn else 1)
        dots = [(c, r) for r in range(self.rows + 1) for c in range(self.cols + 1)]
        ax.scatter([x for x, _ in dots], [y for _, y in dots], color="black", zorder=3)
        ax.set_xticks(range(self.cols + 1), [column_name(c) for c in range(self.cols + 1)])
        ax.set_yticks(range(self.rows + 1), [str(r + 1) for r in range(self.rows + 1)])
        ax.set_aspect("equal")
        ax.set_title(f"{PLAYERS[int(code) & 1]} to move")
