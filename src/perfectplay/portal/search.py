"""Closing the Portal by proof search: exact winners where the Grundy table is out of reach.

Nobody walls a cut cell (one whose walling disconnects the portals) while a safe cell is
left, since that loses at once; so the game is normal play on safe moves. Empty cells that
lie on no simple path between the portals can never become cut cells and never change
which cells are: each is a single free move, like a cell outside the portals' component.
By Sprague-Grundy two free moves cancel (*1 + *1 = 0), so a position is

    (the *core*: cells on some simple portal-to-portal path, the parity of the free cells)

and a move walls a safe core cell (the core shrinks, cells that fall off it become free) or,
when the parity is odd, plays a free cell (the parity becomes even). A player with no move
loses. :func:`search_winner` searches this game depth first with a transposition table keyed
on (core, parity), children that shrink the core most first, and stops at the first winning
move (a win needs one winning move; a loss needs every move refuted).

Once walls leave cells that every portal path crosses (they can never be walled: cut
cells), the core falls apart into blocks in series, each the cells between two consecutive
cut cells, and the game is their disjunctive sum: the mover wins exactly when the xor of the
blocks' Grundy values and the free parity is not 0 (Sprague-Grundy; Berlekamp, Conway and
Guy, *Winning Ways*, ch. 2). :func:`grundy` computes a block's value as the mex of its
children's, splitting again as it goes, memoised by (cells, ends). A Grundy value needs every
move where win or lose can stop at one, so the search switches to it only when every block
has at most :data:`SMALL` cells. Measured: a king 6x6 board with walls and 30 empty cells,
74 s, where the search without the split had not finished in 90 s.

The core is found exactly up to pruning that is always sound: the cells the first portal
reaches, then cells with at most one neighbour among the core and the portals removed until
none is left (such a cell is a dead end, on no simple path). A cycle hanging off the core by
one cell stays in it: the search is then slower, never wrong.

Complexity: exponential in the core's size at worst; the table and the pruning keep the
boards of the README's table in seconds. Numba kernels over int64 bitmasks (at most 62 empty
cells in the portals' component).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, objmode

from ..engine.codetable import mix
from ..errors import LimitError
from ..grid import bfs
from .model import Board

#: Cells of the portals' component the bitmask search takes (two bits go to the portals).
MAX_CELLS = 62
#: Transposition table entries: 2^(core cells - 2), between 2^16 and 2^TABLE_BITS (2^25:
#: 288 MB), so that a small board costs no large allocation and a big one does not thrash
#: (king 6x5 open: 300 s and 1.0e8 nodes with 2^22 entries, 133 s and 4.8e7 with 2^25;
#: 2^26 searched as many nodes, more slowly).
TABLE_BITS = 25
#: The search turns to Grundy values once every block has at most this many cells (a
#: block's Grundy value needs all its moves, where win or lose can stop at a winning one).
SMALL = 12
#: Grundy memo entries (2^20: 18 MB).
MEMO_BITS = 20
#: Nodes between two looks at the clock.
CLOCK_EVERY = 1 << 14
_UNKNOWN, _LOSS, _WIN = 0, 1, 2


@njit(cache=True)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _low_index(low):
    i = 0
    while (low >> i) != 1:
        i += 1
    return i


@njit(cache=True)
def _flood(nbr, open_, src):
    """The cells of ``open_`` (bitmask) reached from the cells ``src``."""
    reach = src
    frontier = src
    while frontier:
        grow = 0
        f = frontier
        while f:
            low = f & -f
            grow |= nbr[_low_index(low)]
            f ^= low
        frontier = grow & open_ & ~reach
        reach |= frontier
    return reach


@njit(cache=True)
def core_of(nbr, cells, s_bit, t_bit):
    """The core of the empty cells ``cells``: reached from the first portal, dead ends
    peeled off; -1 when the portals are apart."""
    ends = (1 << s_bit) | (1 << t_bit)
    reach = _flood(nbr, cells | (1 << t_bit), 1 << s_bit)
    if not (reach >> t_bit) & 1:
        return -1
    core = reach & ~ends
    changed = True
    while changed:
        changed = False
        f = core
        while f:
            low = f & -f
            f ^= low
            if _popcount(nbr[_low_index(low)] & (core | ends)) <= 1:
                core ^= low
                changed = True
    return core


@njit(cache=True)
def _memo_slot(cores, ends, core, end_pair):
    """The memo slot of (core, its two ends): the key's own slot, else an empty one, else
    the first probed (overwritten)."""
    mask = cores.size - 1
    h = np.int64(mix(core ^ (end_pair * 0x9E3779B97F4A7C15)) & np.uint64(mask))
    for probe in range(4):
        s = (h + probe) & mask
        if (cores[s] == core and ends[s] == end_pair) or cores[s] == -1:
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
def _split(nbr, core, e1, e2, pairs, masks):
    """The blocks of ``core`` between ``e1`` and ``e2`` (bit indices): the cells whose
    walling separates e1 from e2 (cut cells, never walled) cut it into blocks in series,
    each the cells between two consecutive ones (one or more routes in parallel), written
    to ``pairs`` (the two cut cells or ends as a bitmask) and ``masks``; a piece touching
    one of them only lies on no e1-e2 path and is free cells. Returns (blocks, free cells
    in such pieces); one block and no free cells when nothing separates. O(core^2) floods."""
    e1b = np.int64(1) << e1
    e2b = np.int64(1) << e2
    seps = np.int64(0)
    f = core
    while f:
        low = f & -f
        f ^= low
        if not (_flood(nbr, (core ^ low) | e2b, e1b) & e2b):
            seps |= low
    if not seps:
        pairs[0] = e1b | e2b
        masks[0] = core
        return 1, 0
    rest = core & ~seps
    stops = seps | e1b | e2b
    n_pairs = 0
    free = 0
    while rest:
        piece = _flood(nbr, rest, rest & -rest)
        rest &= ~piece
        touch = np.int64(0)
        p = piece
        while p:
            low = p & -p
            p ^= low
            touch |= nbr[_low_index(low)] & stops
        if _popcount(touch) != 2:
            free += _popcount(piece)
            continue
        j = 0
        while j < n_pairs and pairs[j] != touch:
            j += 1
        if j == n_pairs:
            pairs[j] = touch
            masks[j] = 0
            n_pairs += 1
        masks[j] |= piece
    return n_pairs, free


@njit(cache=True)
def grundy(nbr, core, e1, e2, cores, ends, vals, stats, deadline):
    """The Grundy value of the safe-move game on ``core`` between the cells ``e1`` and
    ``e2`` (bit indices; ``core`` holds neither). The cells whose walling separates e1 from
    e2 can never be walled (cut cells), so they split the core into pieces in series, each
    between two consecutive ones: a disjunctive sum, whose value is the xor of the pieces'
    (Sprague-Grundy). A piece that touches one of them only lies on no e1-e2 path: each of
    its cells is one free move (*1). A piece with no cut cell inside is a block: its value
    is the mex of its children's, walling any of its cells (none is cut), the cells that
    then fall off the core becoming free moves. Memoised by (cells, ends)."""
    end_pair = e1 * 64 + e2
    slot = _memo_slot(cores, ends, core, end_pair)
    if cores[slot] == core and ends[slot] == end_pair:
        return np.int64(vals[slot])
    _tick(stats, deadline)
    if stats[1]:
        return np.int64(0)
    n = _popcount(core) + 2
    pairs = np.empty(n, np.int64)
    masks = np.empty(n, np.int64)
    n_blocks, free = _split(nbr, core, e1, e2, pairs, masks)
    g = np.int64(free & 1)
    if n_blocks != 1 or free or masks[0] != core:
        for j in range(n_blocks):
            touch = pairs[j]
            a = _low_index(touch & -touch)
            b = _low_index(touch ^ (touch & -touch))
            g ^= grundy(nbr, masks[j], a, b, cores, ends, vals, stats, deadline)
            if stats[1]:
                return np.int64(0)
    else:
        seen = np.uint64(0)
        size = _popcount(core)
        f = core
        while f:
            low = f & -f
            f ^= low
            child = core_of(nbr, core ^ low, e1, e2)
            v = grundy(nbr, child, e1, e2, cores, ends, vals, stats, deadline) ^ (
                (size - 1 - _popcount(child)) & 1)
            if stats[1]:
                return np.int64(0)
            if v < 64:
                seen |= np.uint64(1) << np.uint64(v)
        while g < 64 and (seen >> np.uint64(g)) & np.uint64(1):
            g += 1
    slot = _memo_slot(cores, ends, core, end_pair)
    cores[slot] = core
    ends[slot] = end_pair
    vals[slot] = g
    return g


@njit(cache=True)
def _slot(keys, key):
    mask = keys.size - 1
    h = np.int64(mix(key) & np.uint64(mask))
    for probe in range(4):
        s = (h + probe) & mask
        if keys[s] == key or keys[s] == -1:
            return s
    return h


@njit(cache=True)
def _children(nbr, core, parity, s_bit, t_bit, out_core, out_parity, out_cell):
    """The moves of (core, parity), the core shrinking most first: each child's core and
    parity and the cell walled (-1: a free cell). Returns how many."""
    size = _popcount(core)
    k = 0
    f = core
    while f:
        low = f & -f
        f ^= low
        child = core_of(nbr, core ^ low, s_bit, t_bit)
        if child < 0:
            continue  # a cut cell: walling it loses at once
        out_core[k] = child
        out_parity[k] = (parity + size - 1 - _popcount(child)) & 1
        out_cell[k] = _low_index(low)
        k += 1
    if parity:
        out_core[k] = core
        out_parity[k] = 0
        out_cell[k] = -1
        k += 1
    for i in range(1, k):  # insertion sort: smallest child core first
        c, p, m = out_core[i], out_parity[i], out_cell[i]
        j = i - 1
        while j >= 0 and _popcount(out_core[j]) > _popcount(c):
            out_core[j + 1], out_parity[j + 1], out_cell[j + 1] = \
                out_core[j], out_parity[j], out_cell[j]
            j -= 1
        out_core[j + 1], out_parity[j + 1], out_cell[j + 1] = c, p, m
    return k


@njit(cache=True)
def _largest(masks, n):
    top = 0
    for j in range(n):
        top = max(top, _popcount(masks[j]))
    return top


@njit(cache=True)
def _wins(nbr, core, parity, s_bit, t_bit, keys, vals, memo, stats, deadline):
    """Does the player to move win (core, parity)? Once cut cells split the core into
    blocks in series, by the xor of their Grundy values (:func:`grundy`, ``memo``: its
    three arrays); while it is one block, by trying the moves, the core shrinking most
    first, and stopping at the first that wins. stats: [nodes, stopped]."""
    key = (core << 1) | parity
    s = _slot(keys, key)
    if keys[s] == key:
        return vals[s] == _WIN
    _tick(stats, deadline)
    if stats[1]:
        return False
    n = _popcount(core) + 2
    pairs = np.empty(n, np.int64)
    masks = np.empty(n, np.int64)
    n_blocks, free = _split(nbr, core, s_bit, t_bit, pairs, masks)
    if (n_blocks != 1 or free or masks[0] != core) and _largest(masks, n_blocks) <= SMALL:
        g = np.int64((free + parity) & 1)
        for j in range(n_blocks):
            touch = pairs[j]
            g ^= grundy(nbr, masks[j], _low_index(touch & -touch),
                        _low_index(touch ^ (touch & -touch)), memo[0], memo[1], memo[2],
                        stats, deadline)
        if stats[1]:
            return False
        s = _slot(keys, key)
        keys[s] = key
        vals[s] = _WIN if g else _LOSS
        return g != 0
    n = _popcount(core) + 1
    kids = np.empty(n, np.int64)
    pars = np.empty(n, np.int64)
    cells = np.empty(n, np.int64)
    k = _children(nbr, core, parity, s_bit, t_bit, kids, pars, cells)
    win = False
    for i in range(k):  # a child known lost in the table ends the search at once
        ks = _slot(keys, (kids[i] << 1) | pars[i])
        if keys[ks] == (kids[i] << 1) | pars[i] and vals[ks] == _LOSS:
            win = True
            break
    if not win:
        for i in range(k):
            if not _wins(nbr, kids[i], pars[i], s_bit, t_bit, keys, vals, memo, stats,
                         deadline):
                win = True
                break
            if stats[1]:
                return False
    if stats[1]:
        return False
    s = _slot(keys, key)
    keys[s] = key
    vals[s] = _WIN if win else _LOSS
    return win


@dataclass(frozen=True)
class SearchOutcome:
    """What the search proved: whether the first player wins, the winning first moves
    (cells), the core's size, the free cells and the nodes searched."""

    first_wins: bool
    winning_cells: list[int]
    core_cells: int
    free_cells: int
    nodes: int
    seconds: float


def search_winner(board: Board, seconds: float = 60.0) -> SearchOutcome:
    """The winner of Closing the Portal on any board by proof search (see the module doc),
    with the first player's winning moves; a :class:`LimitError` naming the time when the
    search has not finished within ``seconds``."""
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
    core = int(core_of(nbr, (1 << k) - 1, k, k + 1)) if reach[t] else -1
    if core < 0:
        return SearchOutcome(False, [], 0, empty, 0, 0.0)
    free = empty - _popcount(core)
    bits = min(TABLE_BITS, max(16, _popcount(core) - 2))
    keys = np.full(1 << bits, -1, np.int64)
    vals = np.zeros(1 << bits, np.int8)
    memo = (np.full(1 << MEMO_BITS, -1, np.int64), np.zeros(1 << MEMO_BITS, np.int64),
            np.zeros(1 << MEMO_BITS, np.int16))
    stats = np.zeros(2, np.int64)
    deadline = start + seconds
    wins = bool(_wins(nbr, core, free & 1, k, k + 1, keys, vals, memo, stats, deadline))
    if stats[1]:
        raise LimitError(f"proof search did not finish within {seconds:g} s "
                         f"({int(stats[0]):,} positions searched, {_popcount(core)} cells "
                         "in play)")
    winning: list[int] = []
    if wins:
        n = _popcount(core) + 1
        kids, pars, cells = (np.empty(n, np.int64) for _ in range(3))
        m = _children(nbr, core, free & 1, k, k + 1, kids, pars, cells)
        for i in range(m):
            if not _wins(nbr, kids[i], pars[i], k, k + 1, keys, vals, memo, stats,
                         deadline + 60):
                winning.append(-1 if cells[i] < 0 else comp[int(cells[i])])
        if free >= 2 and not free & 1 and not _wins(nbr, core, 1, k, k + 1, keys, vals,
                                                    memo, stats, deadline + 60):
            winning.append(-1)  # an even number of free cells, one taken: odd left
        if -1 in winning:  # a free cell: any cell off the core is such a move
            winning = [c for c in winning if c >= 0] + [
                c for c in np.flatnonzero(board.empty).tolist()
                if c not in bit or not (core >> bit[c]) & 1]
    return SearchOutcome(wins, sorted(winning), _popcount(core), free, int(stats[0]),
                         time.perf_counter() - start)
