"""Closing the Portal by proof search: exact winners where the Grundy table is out of reach.

Nobody walls a cut cell (one whose walling disconnects the portals) while a safe cell is
left, since that loses at once; so the game is normal play on safe moves, and Sprague-Grundy
theory applies (Berlekamp, Conway and Guy, *Winning Ways*, ch. 2). :func:`route` finds, by
one depth-first search (Tarjan's blocks), exactly the cells on some simple portal-to-portal
path: the blocks (biconnected components) on the path from one portal to the other in the
block-cut tree, in series, joined by *separators* (cells every path crosses: never walled).
Every other empty cell is on no path, now or later: one free move (*1). So is every
*simplicial* cell (its neighbours pairwise adjacent: a path through it has a shortcut), which
:func:`peel` removes before each route. So a position is a disjunctive sum of the blocks and
the free cells, and its value the xor of theirs.

:func:`position_wins` keeps the largest block (when it has more than ``small`` cells) and
folds everything else into one nim heap by Grundy values (:func:`grundy`: the mex over a
block's moves, splitting again as it goes, memoised). :func:`_wins` then searches (block,
heap) for a win: a move walls a cell of the block (what is left is split again) or lowers
the heap; the mover wins exactly when the block's Grundy value is not the heap's. The
search stops at the first winning move, keeps a transposition table keyed on (block, its
two ends) holding the block's Grundy value once a search lost against a heap (the mover
loses exactly when the value is the heap) and else the heaps it won against, looks up every
child before searching any (a child known lost wins at once), and tries first the cells
whose walling won most often before (the history heuristic, a win in a block of n cells
counting 2^n), then the ones that leave the smallest block.

Exact by construction: the only pruning is the free moves (cells on no portal path, and
simplicial cells), folded into the heap. Measured on docs/benchmarks.md: the blocks cut the
positions searched 3-8x against searching the whole component with the parity of the free
cells, the history ordering about 1.3x more, and peeling the simplicial cells 4-14x more
(king 6x6 open, 34 cells: proven in 7-17 s; it was not within 600 s).

Complexity: exponential in the largest block at worst; O(cells + edges) a route, and
O(cells x degree) word operations a peel. Numba kernels over int64 bitmasks (at most 62
empty cells in the portals' component).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit, objmode

from ..bits import lowest_bit, popcount
from ..engine.compiled.codetable import mix
from ..errors import LimitError
from ..grid import bfs
from .model import Board

#: Cells of the portals' component the bitmask search takes (two bits go to the portals).
MAX_CELLS = 62
#: Transposition table entries: 2^(cells - 2), between 2^16 and 2^TABLE_BITS (2^24 entries
#: of 14 bytes: 235 MB), so that a small board costs no large allocation and a big one does
#: not thrash (king 5x8 open: 17.0 million positions in 139 s with 2^24, 20.5 in 177 s with
#: 2^23).
TABLE_BITS = 24
#: Blocks of at most this many cells are valued by :func:`grundy` (every move) rather than
#: searched for a win (which stops at the first winning move); 8 searched the fewest
#: positions of 0, 4, 6, 8, 10, 12 and 16 on the benchmarks page's boards (12 costs 1.5x, 16 3x).
#: With the simplicial cells peeled (2026-12-01), on seven boards of 28-34 cells: 8 5.7 million
#: positions in all, 10 6.0, 12 6.2, 14 5.5 (board by board 0.6-1.4x of 8's), 16 13.0.
SMALL = 8
#: Grundy memo entries (2^20 of 20 bytes: 21 MB).
MEMO_BITS = 20
#: Nodes between two looks at the clock.
CLOCK_EVERY = 1 << 14
_UNKNOWN, _LOSS, _WIN = 0, 1, 2


@njit(cache=True)
def route(nbr, cells, s, t, inner, tops, lows, ws):
    """The portal-to-portal structure of the empty cells ``cells`` (a bitmask) between the
    cells ``s`` and ``t`` (bit indices), by one depth-first search (Tarjan's blocks,
    Hopcroft and Tarjan 1973, O(cells + edges)).

    A cell lies on some simple s-t path exactly when it lies in a block (biconnected
    component) on the path from s to t in the block-cut tree; the cut vertices on that path
    are the cells every s-t path crosses (*separators*: walling one loses at once). The
    blocks on the path, in series from t to s, are written to ``inner`` (each block's cells
    but its two ends), ``tops`` and ``lows`` (its two ends: separators or s and t); blocks
    with no inner cell (a single edge) are left out. Returns (blocks, separators' mask);
    blocks is -1 when s and t are apart. Every other cell of ``cells`` is on no s-t path:
    a free move."""
    open_ = cells | (np.int64(1) << s) | (np.int64(1) << t)
    disc, low, parent, todo, has_t, path, stack = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5], ws[6]
    f = open_
    while f:
        bit = f & -f
        f ^= bit
        disc[lowest_bit(bit)] = -1
    disc[s] = 0
    low[s] = 0
    todo[s] = nbr[s] & open_
    path[0] = s
    depth = 1
    sp = 0
    clock = 1
    n = 0
    seps = np.int64(0)
    last = t
    while depth > 0:
        v = path[depth - 1]
        if todo[v]:
            bit = todo[v] & -todo[v]
            todo[v] ^= bit
            w = lowest_bit(bit)
            if disc[w] < 0:
                parent[w] = v
                disc[w] = clock
                low[w] = clock
                clock += 1
                todo[w] = nbr[w] & open_
                has_t[w] = 1 if w == t else 0
                stack[sp] = w
                sp += 1
                path[depth] = w
                depth += 1
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
            continue
        depth -= 1
        if depth == 0:
            break
        p = path[depth - 1]
        if low[v] < low[p]:
            low[p] = low[v]
        if low[v] >= disc[p]:
            block = np.int64(0)
            while True:
                sp -= 1
                x = stack[sp]
                block |= np.int64(1) << x
                if x == v:
                    break
            if has_t[v]:
                body = block & ~(np.int64(1) << last)
                if body:
                    inner[n] = body
                    tops[n] = p
                    lows[n] = last
                    n += 1
                if p != s:
                    seps |= np.int64(1) << p
                last = p
        if has_t[v]:
            has_t[p] = 1
    if disc[t] < 0:
        return -1, seps
    return n, seps


@njit(cache=True)
def peel(nbr, cells, a, b):
    """``cells`` without its simplicial cells: those whose neighbours (among ``cells`` and
    the ends ``a``, ``b``) are pairwise adjacent, removed one after another until none is
    left. Such a cell ``v`` is one free move (*1), exactly: a path through it, ``x-v-y``,
    has the shortcut ``x-y``, so it is on no chordless path and the portals are joined
    with it as without it, whatever else is walled (its neighbours stay a clique as cells
    go, so it stays simplicial); walling it is always safe and changes no other move's
    safety. So the game is the game without it plus *1 (Sprague-Grundy). A king board's
    corners are simplicial from the start, and cells along walls become so as the game
    goes. O(cells x degree) word operations; each removal rechecks only its neighbours."""
    open_ = cells | (np.int64(1) << a) | (np.int64(1) << b)
    todo = cells
    while todo:
        f = todo
        todo = np.int64(0)
        while f:
            bit = f & -f
            f ^= bit
            if not (open_ & bit):
                continue
            nv = nbr[lowest_bit(bit)] & open_
            g = nv
            simplicial = True
            while g:
                u = g & -g
                g ^= u
                if nv & ~u & ~nbr[lowest_bit(u)]:
                    simplicial = False
                    break
            if simplicial:
                open_ ^= bit
                todo |= nv & cells & open_
    return open_ & cells


@njit(cache=True)
def _memo_slot(keys, ends, key, end):
    """The slot of (key, end) in an open-addressed table: the key's own slot, else an empty
    one, else the first probed (overwritten)."""
    mask = keys.size - 1
    h = np.int64(mix(key + end * np.int64(1000003)) & np.uint64(mask))
    for probe in range(4):
        s = (h + probe) & mask
        if (keys[s] == key and ends[s] == end) or keys[s] == -1:
            return s
    return h


@njit(cache=True)
def _tick(stats, deadline):
    """Count a node; every CLOCK_EVERY nodes look at the clock (stats: [nodes, stopped])."""
    stats[0] += 1
    if stats[0] % CLOCK_EVERY == 0:
        with objmode(now="float64"):
            now = time.perf_counter()
        if now > deadline:
            stats[1] = 1


@njit(cache=True)
def _end_pair(a, b):
    return min(a, b) * 64 + max(a, b)


@njit(cache=True)
def grundy(nbr, block, a, b, memo, ws, stats, deadline):
    """The Grundy value of the safe-move game on ``block``, the inner cells of a block
    between the cells ``a`` and ``b`` (none of them a separator, so every cell is a move).
    Walling a cell leaves the blocks :func:`route` finds (after :func:`peel`) in series (a
    disjunctive sum: the xor of their values) and free cells (*1 each); the value is the
    mex of the children's (Sprague-Grundy; Berlekamp, Conway and Guy, *Winning Ways*,
    ch. 2). Memoised by (cells, ends) in ``memo`` (keys, ends, values)."""
    if block == 0:
        return np.int64(0)
    end = _end_pair(a, b)
    slot = _memo_slot(memo[0], memo[1], block, end)
    if memo[0][slot] == block and memo[1][slot] == end:
        return np.int64(memo[2][slot])
    _tick(stats, deadline)
    if stats[1]:
        return np.int64(0)
    size = popcount(block)
    inner = np.empty(size + 1, np.int64)
    tops = np.empty(size + 1, np.int64)
    lows = np.empty(size + 1, np.int64)
    seen = np.uint64(0)
    f = block
    while f:
        cell = f & -f
        f ^= cell
        n, seps = route(nbr, peel(nbr, block ^ cell, a, b), a, b, inner, tops, lows, ws)
        used = popcount(seps)
        g = np.int64(0)
        for j in range(n):
            used += popcount(inner[j])
            g ^= grundy(nbr, inner[j], tops[j], lows[j], memo, ws, stats, deadline)
        if stats[1]:
            return np.int64(0)
        g ^= (size - 1 - used) & 1
        if g < 64:
            seen |= np.uint64(1) << np.uint64(g)
    g = np.int64(0)
    while g < 64 and (seen >> np.uint64(g)) & np.uint64(1):
        g += 1
    slot = _memo_slot(memo[0], memo[1], block, end)
    memo[0][slot] = block
    memo[1][slot] = end
    memo[2][slot] = g
    return g


@njit(cache=True)
def _reduce(nbr, cells, a, b, heap, small, memo, ws, buf, stats, deadline, out):
    """The position of the empty cells ``cells`` between ``a`` and ``b`` beside a nim heap
    ``heap``, reduced to one block and a heap: the simplicial cells peeled (:func:`peel`),
    then every block but the largest (when it has more than ``small`` cells, else every
    block) and every free cell added into the heap by its Grundy value. Writes (block, top,
    low, heap) to ``out``; False when a and b are apart."""
    size = popcount(cells)
    inner, tops, lows = buf[0], buf[1], buf[2]
    n, seps = route(nbr, peel(nbr, cells, a, b), a, b, inner, tops, lows, ws)
    if n < 0:
        return False
    used = popcount(seps)
    big = -1
    for j in range(n):
        used += popcount(inner[j])
        if popcount(inner[j]) > small and (
                big < 0 or popcount(inner[j]) > popcount(inner[big])):
            big = j
    heap ^= (size - used) & 1
    for j in range(n):
        if j != big:
            heap ^= grundy(nbr, inner[j], tops[j], lows[j], memo, ws, stats, deadline)
    if big < 0:
        out[0], out[1], out[2] = 0, a, b
    else:
        out[0], out[1], out[2] = inner[big], tops[big], lows[big]
    out[3] = heap
    return True


@njit(cache=True)
def _order_key(child_size, wins_before):
    """Children are tried by this key, lowest first: the cells whose walling won most
    often before (weighted by the size of the block it won in: :func:`_bump`), then the
    smallest block left. (Smallest block first alone searched 1.3x the positions; largest
    first 3x.)"""
    return -wins_before * 64 + child_size


FIRST = True


@njit(cache=True)
def _best_cell(block, history):
    """The cell of ``block`` whose walling won most often so far; -1 when none has."""
    best = -1
    top = 0
    f = block
    while f:
        cell = f & -f
        f ^= cell
        i = lowest_bit(cell)
        if history[i] > top:
            top = history[i]
            best = i
    return best


@njit(cache=True)
def _canonical(sym, block, a, b):
    """The table key of (block, ends): the least of its images under the board's
    symmetries (``sym``: byte tables mapping a mask, and the cell maps), so that
    positions that are mirror images share one entry."""
    tables, cell_maps = sym
    best_block = block
    best_end = _end_pair(a, b)
    for m in range(tables.shape[0]):
        image = np.int64(0)
        for j in range(8):
            image |= tables[m, j, (block >> (8 * j)) & 255]
        end = _end_pair(cell_maps[m, a], cell_maps[m, b])
        if image < best_block or (image == best_block and end < best_end):
            best_block = image
            best_end = end
    return best_block, best_end


@njit(cache=True)
def _lookup(table, sym, block, a, b, heap):
    """The table's word on (block, heap): _WIN, _LOSS or _UNKNOWN. An entry is a block's
    (keyed with its ends, not the heap): its Grundy value when a search found a loss (the
    mover loses exactly when the block's value is the heap), else the heaps it was found
    to win against (a byte's mask of heaps 0-6: heaps are almost all 0 or 1), so one entry
    answers every heap once the value is known."""
    key, end = _canonical(sym, block, a, b)
    slot = _memo_slot(table[0], table[1], key, end)
    if table[0][slot] == key and table[1][slot] == end:
        g = table[2][slot]
        if g >= 0:
            return _LOSS if g == heap else _WIN
        if heap < 7 and (np.int64(table[3][slot]) >> np.int64(heap)) & 1:
            return _WIN
    return _UNKNOWN


@njit(cache=True)
def _store(table, sym, block, a, b, heap, win):
    key, end = _canonical(sym, block, a, b)
    slot = _memo_slot(table[0], table[1], key, end)
    if not (table[0][slot] == key and table[1][slot] == end):
        table[0][slot] = key
        table[1][slot] = end
        table[2][slot] = -1
        table[3][slot] = 0
    if not win:
        table[2][slot] = heap
    elif heap < 7:
        table[3][slot] = np.int8(np.int64(table[3][slot]) | (np.int64(1) << np.int64(heap)))


@njit(cache=True)
def _bump(history, i, size):
    """Credit cell ``i`` with a win in a block of ``size`` cells: 2^size (capped at 2^54,
    the total at 2^55, so that the ordering key cannot overflow), so one win in a larger
    block outweighs the wins in smaller ones. Against size^2 (the weight before
    2026-12-01): 0.77x the positions (geometric mean over 19 boards of 28-34 cells; 16 of
    19 fewer), 4^size 0.90x, a plain count 1.29x."""
    history[i] = min(history[i] + (np.int64(1) << np.int64(min(size, 54))),
                     np.int64(1) << np.int64(55))


@njit(cache=True)
def _wins(nbr, block, a, b, heap, small, table, sym, memo, ws, stats, deadline):
    """Does the player to move win the block ``block`` between ``a`` and ``b`` beside a nim
    heap ``heap``? (Exactly when the block's Grundy value is not ``heap``.) Blocks of at
    most ``small`` cells by :func:`grundy`; larger ones by trying the moves: the cell that
    won most often first, then each child made and looked up (one known lost wins at
    once), then the others searched in history order, stopping at the first that wins. A
    move walls a cell (what is left is reduced again by :func:`_reduce`) or lowers the
    heap. table: (keys, ends, Grundy values or -1, masks of heaps won against)
    keyed on (block, ends); see :func:`_lookup`."""
    if block == 0:
        return heap != 0
    size = popcount(block)
    if size <= small:
        return grundy(nbr, block, a, b, memo, ws, stats, deadline) != heap
    known = _lookup(table, sym, block, a, b, heap)
    if known != _UNKNOWN:
        return known == _WIN
    _tick(stats, deadline)
    if stats[1]:
        return False
    out = np.empty(4, np.int64)
    buf = np.empty((3, size + 1), np.int64)
    history = ws[7]
    best = _best_cell(block, history)
    if FIRST and best >= 0:  # the cell that won most often: tried before the others are made
        _reduce(nbr, block ^ (np.int64(1) << best), a, b, heap, small, memo, ws, buf, stats,
                deadline, out)
        if not _wins(nbr, out[0], out[1], out[2], out[3], small, table, sym, memo, ws, stats,
                     deadline):
            if stats[1]:
                return False
            _bump(history, best, size)
            _store(table, sym, block, a, b, heap, True)
            return True
    kids = np.empty((size + heap, 6), np.int64)
    k = 0
    f = block
    while f:
        cell = f & -f
        f ^= cell
        _reduce(nbr, block ^ cell, a, b, heap, small, memo, ws, buf, stats, deadline, out)
        kids[k, :4] = out
        kids[k, 4] = lowest_bit(cell)
        k += 1
        # a child known lost (small enough to value, or in the table) wins at once, before
        # the other children are made (10 % less time than making them all first)
        if popcount(out[0]) <= small:
            if grundy(nbr, out[0], out[1], out[2], memo, ws, stats, deadline) == out[3]:
                if stats[1]:
                    return False
                _bump(history, lowest_bit(cell), size)
                _store(table, sym, block, a, b, heap, True)
                return True
        elif _lookup(table, sym, out[0], out[1], out[2], out[3]) == _LOSS:
            _store(table, sym, block, a, b, heap, True)
            return True
    for h in range(heap):
        kids[k, 0], kids[k, 1], kids[k, 2], kids[k, 3], kids[k, 4] = block, a, b, h, 63
        k += 1
    if stats[1]:
        return False
    for i in range(k):
        kids[i, 5] = _order_key(popcount(kids[i, 0]), history[kids[i, 4]])
    order = np.argsort(kids[:k, 5], kind="mergesort")
    win = False
    for i in order:  # none is known lost (a heap move's would have answered the lookup)
        c = kids[i]
        if popcount(c[0]) <= small:
            continue
        if not _wins(nbr, c[0], c[1], c[2], c[3], small, table, sym, memo, ws, stats,
                     deadline):
            win = True
            _bump(history, c[4], size)
            break
        if stats[1]:
            return False
    if stats[1]:
        return False
    _store(table, sym, block, a, b, heap, win)
    return win


@njit(cache=True)
def position_wins(nbr, cells, s, t, parity, small, table, sym, memo, ws, stats, deadline):
    """Does the player to move win with the empty cells ``cells`` of the portals'
    component and ``parity`` free cells outside it? -1 when the portals are apart (the
    last move lost)."""
    out = np.empty(4, np.int64)
    buf = np.empty((3, popcount(cells) + 1), np.int64)
    if not _reduce(nbr, cells, s, t, parity & 1, small, memo, ws, buf, stats, deadline, out):
        return -1
    return np.int64(_wins(nbr, out[0], out[1], out[2], out[3], small, table, sym, memo, ws,
                          stats, deadline))


@dataclass(frozen=True)
class SearchOutcome:
    """What the search proved: whether the first player wins, the winning first moves
    (cells), the core's size, the free cells and the nodes searched; ``unchecked_cells``:
    first moves not yet proven winning or not when the time ran out (the winner is proven
    first, then every first move in the time left)."""

    first_wins: bool
    winning_cells: list[int]
    core_cells: int
    free_cells: int
    nodes: int
    seconds: float
    unchecked_cells: list[int] = field(default_factory=list)


def symmetries(board: Board) -> list[np.ndarray]:
    """The board's symmetries among the rectangle's (square's) reflections and rotations:
    each a permutation of the cells, kept when it maps the board's graph onto itself (walls
    to walls, neighbours to neighbours) and the two portals onto the two portals. Checked,
    not assumed, so it holds for every lattice; none for a board given as a graph.

    >>> from perfectplay.portal import parse_board
    >>> len(symmetries(parse_board("O..\\n...\\n..O", "king")))  # 180 degrees, 2 diagonals
    3
    """
    if board.grid is None:
        return []
    rows, cols = board.grid.rows, board.grid.cols
    r, c = np.divmod(np.arange(rows * cols), cols)
    maps = [(r, cols - 1 - c), (rows - 1 - r, c), (rows - 1 - r, cols - 1 - c)]
    if rows == cols:
        maps += [(c, r), (cols - 1 - c, rows - 1 - r), (c, rows - 1 - r), (cols - 1 - c, r)]
    open_ = board.open
    found = []
    for rr, cc in maps:
        perm = rr * cols + cc
        if set(perm[list(board.portals)].tolist()) != set(board.portals):
            continue
        if not np.array_equal(open_[perm], open_):
            continue
        if all(set(perm[w] for w in board.nb[u] if w >= 0 and open_[w]) ==
               set(int(w) for w in board.nb[perm[u]] if w >= 0 and open_[w])
               for u in np.flatnonzero(open_)):
            found.append(perm)
    return found


def _symmetry_tables(maps: list[np.ndarray], comp: list[int],
                     bit: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The board's symmetries as the search's bits see them: for each, byte tables (the
    image of each byte value at each byte position of a mask) and the map of bit indices."""
    tables = np.zeros((len(maps), 8, 256), np.int64)
    cell_maps = np.zeros((len(maps), 64), np.int64)
    for m, perm in enumerate(maps):
        for cell, i in bit.items():
            cell_maps[m, i] = bit[int(perm[cell])]
        for j in range(8):
            for v in range(256):
                image = 0
                for b in range(8):
                    if v >> b & 1 and 8 * j + b < len(comp):
                        image |= 1 << int(cell_maps[m, 8 * j + b])
                tables[m, j, v] = image
    return tables, cell_maps


def search_winner(board: Board, seconds: float = 60.0, small: int = SMALL,
                  move_seconds: float | None = None) -> SearchOutcome:
    """The winner of Closing the Portal on any board by proof search (see the module doc),
    with the first player's winning moves; a :class:`LimitError` naming the time when the
    winner is not proven within ``seconds``. The winning moves are searched in the time
    left, or in ``move_seconds`` when given (one cell of each orbit of the board's
    :func:`symmetries`); those not reached are listed as unchecked. ``small``: blocks of
    at most this many cells are valued by Grundy value rather than searched (0: search
    everything).

    >>> from perfectplay.portal import parse_board
    >>> search_winner(parse_board("O..\\n...\\n..O", "king")).first_wins
    True
    """
    s, t = board.portals
    reach = bfs(board.nb, board.open, s) >= 0
    comp = [int(c) for c in np.flatnonzero(reach & board.empty)]
    empty = int(board.empty.sum())
    if len(comp) > MAX_CELLS:
        raise LimitError(f"proof search takes at most {MAX_CELLS} empty cells in the portals' "
                         f"component; this board has {len(comp)}")
    k = len(comp)
    bit = {c: i for i, c in enumerate(comp)}
    bit[s], bit[t] = k, k + 1
    nbr = np.zeros(k + 2, np.int64)
    for cell, b in bit.items():
        for w in board.nb[cell]:
            if w >= 0 and int(w) in bit:
                nbr[b] |= 1 << bit[int(w)]
    start = time.perf_counter()
    cells = (1 << k) - 1
    if not reach[t]:
        return SearchOutcome(False, [], 0, empty, 0, 0.0)
    scratch = np.empty(k + 2, np.int64)
    ws = np.zeros((8, 64), np.int64)
    blocks, seps = route(nbr, cells, k, k + 1, scratch, scratch.copy(), scratch.copy(), ws)
    core = int(seps) | int(np.bitwise_or.reduce(scratch[:blocks])) if blocks > 0 else int(seps)
    outside = empty - k
    bits = min(TABLE_BITS, max(16, k - 2))
    table = (np.full(1 << bits, -1, np.int64), np.zeros(1 << bits, np.int32),
             np.full(1 << bits, -1, np.int8), np.zeros(1 << bits, np.int8))
    memo = (np.full(1 << MEMO_BITS, -1, np.int64), np.zeros(1 << MEMO_BITS, np.int32),
            np.zeros(1 << MEMO_BITS, np.int64))
    stats = np.zeros(2, np.int64)
    deadline = start + seconds
    maps = symmetries(board)
    sym = _symmetry_tables(maps, comp, bit)

    def wins(mask: int, parity: int, limit: float) -> int:
        return int(position_wins(nbr, mask, k, k + 1, parity, small, table, sym, memo, ws,
                                 stats, limit))

    first_wins = wins(cells, outside, deadline) == 1
    if stats[1]:
        raise LimitError(f"proof search did not finish within {seconds:g} s "
                         f"({int(stats[0]):,} positions searched, {popcount(core)} cells "
                         "in play)")
    winning: list[int] = []
    unchecked: list[int] = []
    if move_seconds is not None:
        deadline = time.perf_counter() + move_seconds
    if first_wins:
        known: dict[int, bool] = {}  # cell -> is walling it a winning move?
        free_value: bool | None = None
        for i, cell in enumerate(comp):
            if stats[1]:
                unchecked.append(cell)
            elif not (core >> i) & 1:  # every free cell leads to the same position
                if free_value is None:
                    free_value = wins(cells ^ (1 << i), outside, deadline) == 0
                known[cell] = free_value
            elif (twin := next((int(m[cell]) for m in maps if int(m[cell]) in known),
                               None)) is not None:
                known[cell] = known[twin]
            else:
                known[cell] = wins(cells ^ (1 << i), outside, deadline) == 0
            if stats[1] and cell in known:
                del known[cell]  # stopped inside this cell's search: not proven
                unchecked.append(cell)
        winning = [cell for cell, good in known.items() if good]
        off = [c for c in np.flatnonzero(board.empty).tolist() if c not in bit]
        if off and not stats[1] and wins(cells, outside - 1, deadline) == 0:
            winning.extend(off)
        if stats[1]:
            unchecked.extend(c for c in off if c not in winning)
    return SearchOutcome(first_wins, sorted(winning), popcount(core), empty - popcount(core),
                         int(stats[0]), time.perf_counter() - start, sorted(set(unchecked)))
