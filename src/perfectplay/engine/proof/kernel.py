"""The compiled half of proof search: an alpha-beta kernel and its transposition table.

Everything here runs in numba with no Python per node (and as plain Python under
``NUMBA_DISABLE_JIT=1``). :mod:`.driver` drives it.

**Scores.** One int64 orders every outcome for the player to move, so that plain alpha-beta
finds the engine's own value *and* remoteness (winner fastest, loser slowest):

- win/lose games: a win in r plies scores ``MATE - r``, a loss in r plies ``-(MATE - r)``, a
  tie 0. A move that passes the turn turns the child's score s into ``-s`` moved one step
  towards 0 (the win or loss is a ply further away); a move that keeps the turn (``player``)
  moves s itself one step towards 0. Both maps are monotone, so windows map exactly.
- scored games: the point margin; a move worth ``pay`` turns s into ``pay - s`` (or
  ``pay + s`` when the mover moves again). Remoteness is found afterwards, by the driver.

**Table.** One int64 array of two-slot buckets, 32 bytes each (one cache miss a look-up). A
slot is two words: the data packs a lower and an upper bound of the score (21 bits each), a
hint (the best move + 1 when it is in 0..254, with a bit saying whether the position that
stored it was its canonical code or a symmetric image of it) and the log2 of the nodes the
result cost (its "work"); the other word holds the position's key XOR the data, so that a
slot torn by two threads writing at once reads as a miss (Hyatt and Mann's lockless hashing)
and the table can be shared by parallel searches with no lock. A new result replaces the slot
of the same key (bounds merged), else an empty slot, else the slot of the two that cost less
work: deep results stay. A hint is the move that cut off or reached the exact score; a
node that failed low keeps the hint it had (its best move is then only the least bad of
moves that all failed). A hint is used only by a position of the same orientation as the
one that stored it (a move of a board is not the same move of its mirror image).

**Forced nodes.** A position whose ``search_moves`` lists one move (below the root) is
passed through: no canonical code, no table look-up or entry, no enhanced cut-off; its score
is its child's. Connect Four's blocks and lone safe moves are two positions in five of its
search trees: skipping their table traffic saves a fifth of the time, for a few more nodes
(their entries answered a few transpositions). Steininger's c4 plays such moves inside its
static evaluation and does not count them as nodes; they are counted here.

**Exact leaves.** A win/lose game's ``static_bounds`` may say ``WINS_IN_1`` (a move wins at
once) or ``LOSES_IN_2`` (every move lets the opponent win at once): below the root such a
node returns its exact score with no child entered, as Pons' solver answers ``canWinNext``
and positions with no non-losing move (Connect Four: 14-19 % fewer nodes). A forced node
reads its one child's static bounds before entering it: an exact child (Connect Four: the
opponent left two threats by the win-in-3 move listed alone) is then never entered, as
Steininger's c4 evaluates every child statically before it searches any (10 % fewer nodes
counted); a child that is entered reuses the move made and the bounds read (with them, 9 %
less CPU).

**The game's endgame.** A scored game's ``endgame`` hook may take a position below the root
whole: it returns the position's fail-soft score in the window and the nodes it searched,
which are counted as the search's (Othello: the last 10 empty squares on bitboards, with no
table, symmetry or decoding, as mame's o66 searches them); it answers (0, 0) to leave the
position to the kernel.

**Threads.** Several threads run the same probe over the shared table; where subtrees are
big each marks the node it is expanding in a small ``busy`` table, and a thread that meets
a child another thread is searching takes its other moves first and comes back to that one
last (its result is then often in the table). The first move of a node is never put off.
This is ABDADA's idea (Weill 1996) on top of lazy SMP; plain lazy SMP (every thread alone,
helpers' root moves rotated) gained nothing on Connect Four, where a proof needs one child
at its OR nodes, so a helper's other root moves are wasted work.

References: Knuth and Moore (1975) for alpha-beta; Plaat et al. (1996) for null-window
searches with a table (MTD(f)); J.-C. Weill, "The ABDADA distributed minimax search
algorithm" (1996); Pascal Pons' Connect Four solver for the bounded score range.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ...bits import lowest_bit
from ..compiled import mix
from ..protocol import CANNOT_LOSE, CANNOT_WIN, LOSES_IN_2, MUST_LOSE, NOT_SOONER, WINS_IN_1
from ..protocol import LOSE_CODE as LOSE
from ..protocol import TIE_CODE as TIE
from ..protocol import UNKNOWN as ONGOING
from ..protocol import WIN_CODE as WIN
from ..status import (
    ABORTED,
    BAD_OUTCOME,
    BAD_PLAYER,
    BAD_SEARCH_MOVES,
    BEYOND_LIMIT,
    CYCLE,
    OK,
    TOO_DEEP,
)
from ..tiers import find_key, tier_index
from .plan import (
    BEST,
    DONE,
    LIMIT,
    LO,
    MAIN,
    MATE,
    ONE,
    PHASE,
    PROBES,
    QUICK,
    plan_next,
    plan_result,
    plan_start,
    quick_left,
    score_top,
)

# MATE: a win in r plies scores MATE - r; LIMIT = MATE - 2: the largest margin (scored
# games) and longest line the scores can hold
INF = MATE + 1  # "no bound"
_OFFSET = 1 << 20  # bounds are stored as score + _OFFSET in 21 bits
_BOUND = (1 << 21) - 1
_VALID = 1 << 62

_ENTER, _RETURN, _NEXT = range(3)  # the kernel's states: a node begins, ends, next child


class Kind(NamedTuple):
    """What kind of game the kernels search (they read it at run time)."""

    scored: bool  # values are margins
    with_player: bool  # player() says who moves (extra turns)
    with_horizon: bool  # horizon() is the game's
    symmetric: bool  # canonical() keys the table
    acyclic: bool  # tier() is declared: no line can repeat a position
    max_moves: int
    parallel: bool  # threads share the table: put off moves another thread is searching
    ordered: bool  # search_moves is the game's: no history heuristic
    bounded: bool = False  # margin_bound() is the game's (scored games)
    with_leaf: bool = False  # a solved store of the game's last tiers answers at the leaves
    stepped: bool = False  # step() gives child and payoff in one call (scored games)
    with_endgame: bool = False  # endgame() searches positions near the end (scored games)


class Leaf(NamedTuple):
    """Solved positions the search reads instead of searching them (an endgame store's
    tiers, loaded by :func:`perfectplay.store.leaf.leaf_of`): tier ``numbers[i]`` holds slots
    ``base[i]..base[i+1]-1`` of ``keys`` (mixed canonical codes, sorted, with a bucket index
    as in a store), each with its search score (``scores``: a margin, or MATE - r for a win
    in r) and its remoteness (``rems``)."""

    numbers: np.ndarray
    base: np.ndarray
    keys: np.ndarray
    ibase: np.ndarray
    bits: np.ndarray
    buckets: np.ndarray
    scores: np.ndarray
    rems: np.ndarray
    gate: int = LIMIT  # no position above this margin_bound is held: none is looked up
    #: a dense endgame table (int8 margins): every position whose margin_bound is at most
    #: ``dense_gate`` is entry ``rules.dense_index(p)`` (no remoteness: the walk searches)
    dense: np.ndarray = np.zeros(0, np.int8)
    dense_gate: int = -1


def dense_leaf(table: np.ndarray, gate: int) -> Leaf:
    """The :class:`Leaf` of a dense endgame table alone: ``table[rules.dense_index(p)]`` is
    the exact margin of every position whose ``margin_bound`` is at most ``gate`` (Kalah:
    :meth:`perfectplay.catalog.kalah.Kalah.dense_endgame`). O(1) a look-up."""
    z = np.zeros(1, np.int64)
    return Leaf(z, np.zeros(2, np.int64), np.zeros(0, np.uint64), z, z, z,
                np.zeros(0, np.int32), np.zeros(0, np.int32), gate=-1,
                dense=np.ascontiguousarray(table, np.int8), dense_gate=int(gate))


@cache
def no_leaf() -> Leaf:
    """The empty :class:`Leaf` (a search without a store), of the dtypes a store's leaf
    has (scores and remoteness as int32, ``perfectplay.store.leaf_of``), so a search with a
    store and one without share one compiled probe. One a process (the kernels only read
    it): a search's set-up makes no arrays for it."""
    z = np.zeros(1, np.int64)
    return Leaf(z, np.zeros(2, np.int64), np.zeros(0, np.uint64), z, z, z,
                np.zeros(0, np.int32), np.zeros(0, np.int32))


@njit
def leaf_slot(leaf, rules, kind, p):
    """The slot of position ``p`` in ``leaf``, or -1 (not held). O(log tiers) + O(1)."""
    c = rules.canonical(p) if kind.symmetric else p
    ti = tier_index(leaf.numbers, rules.tier(c), 0)
    if ti < 0:
        return -1
    lo = leaf.base[ti]
    return find_key(leaf.keys, lo, leaf.base[ti + 1] - lo, leaf.buckets, leaf.ibase[ti],
                    leaf.bits[ti], mix(c))


# Enhanced transposition cutoffs (Plaat et al. 1996) where subtrees are big: more than this
# many plies left (games with a horizon), or this close to the root (the others).
ETC_HORIZON = 10  # 15 until issue 45 (10: 8 % fewer nodes; 5: 12 % fewer, but slower)
ETC_DEPTH = 8
BUSY_HORIZON = 15  # (threads) nodes with more plies left mark themselves busy (ABDADA)
HISTORY_MASK = 4095  # the history heuristic counts moves by their low 12 bits


@njit(cache=True)
def _hash(key):
    """The store's :func:`~..compiled.codetable.mix` (splitmix64's finaliser) as an int64, so that
    a mask picks a slot: spreads a position's key over the table's slots."""
    return np.int64(mix(key))


@njit(cache=True)
def pack(lo, hi, hint, work):
    """One table word: the bounds, the hint (move + 1, or 0, plus 256 when stored by a
    position that is not its own canonical code) and the work (0..63)."""
    return (_VALID | (work << 51) | (hint << 42) | ((hi + _OFFSET) << 21)
            | (lo + _OFFSET))


@njit(cache=True)
def unpack(word):
    """(lo, hi, hint, work) of a table word."""
    lo = (word & _BOUND) - _OFFSET
    hi = ((word >> 21) & _BOUND) - _OFFSET
    return lo, hi, (word >> 42) & 0x1FF, (word >> 51) & 0x3F


@njit(cache=True)
def _bucket(table, key):
    """The index of ``key``'s bucket: two slots of (key XOR word, word), 32 bytes, so one
    cache line holds the whole bucket."""
    return (_hash(key) & ((table.size >> 2) - 1)) << 2


@njit(cache=True)
def tt_probe(table, key):
    """(found, lo, hi, hint) stored for ``key``: hint is the best move + 1, or 0, plus 256
    when a symmetric image of the canonical position stored it."""
    b = _bucket(table, key)
    for i in range(b, b + 4, 2):
        word = table[i + 1]
        if word & _VALID and table[i] ^ word == key:
            lo, hi, hint, _ = unpack(word)
            return True, lo, hi, hint
    return False, -INF, INF, 0


@njit(cache=True)
def tt_store(table, key, lo, hi, move, work, image=0):
    """Keep bounds ``lo <= score <= hi`` for ``key`` (see the module doc for which slot);
    ``move`` (-1: none, the old hint stays) becomes the hint, marked as stored by a symmetric
    image of the canonical position when ``image`` is 1."""
    b = _bucket(table, key)
    hint = (move + 1) | (image << 8) if 0 <= move < 255 else 0
    target = -1
    for i in range(b, b + 4, 2):
        word = table[i + 1]
        if word & _VALID and table[i] ^ word == key:
            old_lo, old_hi, old_hint, old_work = unpack(word)
            if max(lo, old_lo) <= min(hi, old_hi):  # both right: keep the tighter of each
                lo = max(lo, old_lo)
                hi = min(hi, old_hi)
            if hint == 0:
                hint = old_hint
            work = max(work, old_work)
            target = i
            break
    if target < 0:
        first = table[b + 1]
        second = table[b + 3]
        if not first & _VALID:
            target = b
        elif not second & _VALID:
            target = b + 2
        else:
            target = b if unpack(first)[3] <= unpack(second)[3] else b + 2
    word = pack(lo, hi, hint, work)
    table[target + 1] = word
    table[target] = key ^ word


@njit(cache=True)
def log2_work(nodes):
    """The table's measure of a result's cost: floor(log2(nodes)) (0 for one node)."""
    w = 0
    while nodes > 1 and w < 63:
        nodes >>= 1
        w += 1
    return w


@njit(cache=True)
def toward_zero(s):
    """A win or a loss one ply further away (ties stay 0)."""
    if s > 0:
        return s - 1
    if s < 0:
        return s + 1
    return s


@njit(cache=True)
def exact_score(known):
    """The exact score that ``static_bounds``' exact flags give (a win/lose game): a win
    in 1 for ``WINS_IN_1``, else a loss in 2 (``LOSES_IN_2``)."""
    return MATE - 1 if known & WINS_IN_1 else -(MATE - 2)


@njit(cache=True)
def parent_score(s, passes, pay, scored):
    """The score of a move to its mover, from the score ``s`` of the position it leads to."""
    if scored:
        return pay - s if passes else pay + s
    return toward_zero(-s) if passes else toward_zero(s)


@njit(cache=True)
def _away_from_zero(x):
    if x > 0:
        return x + 1
    if x < 0:
        return x - 1
    return x


@njit(cache=True)
def child_bound(x, passes, pay, scored):
    """The child score that :func:`parent_score` maps onto ``x`` (its inverse on scores a
    line shorter than LIMIT can have): windows pass to children exactly through it."""
    if scored:
        return pay - x if passes else x - pay
    return _away_from_zero(-x) if passes else _away_from_zero(x)


@njit  # not cached: it takes the game's function
def terminal_score(o, pos, score, scored):
    """(status, score) of an ended position: its points in a scored game, else a win, loss
    or tie at remoteness 0."""
    if scored:
        v = score(pos)
        if v > LIMIT or v < -LIMIT:
            return BEYOND_LIMIT, 0
        return OK, v
    if o == WIN:
        return OK, MATE
    if o == LOSE:
        return OK, -MATE
    if o == TIE:
        return OK, 0
    return BAD_OUTCOME, 0


@njit  # not cached: it takes the game's functions
def make_move(p, m, line, d, rules, kind):
    """(status, child, passes, pay) of move ``m`` from ``p``, the position at depth ``d`` of
    ``line``: the child, whether the turn passes (``player``), the mover's payoff; CYCLE
    when the child repeats a position of the line (unless the game is acyclic), BAD_PLAYER
    or BEYOND_LIMIT (a payoff beyond LIMIT) when the game answers out of range."""
    pay = 0
    if kind.stepped:
        c, pay = rules.step(p, m)
    else:
        c = rules.play(p, m)
    if not kind.acyclic:
        for j in range(d + 1):
            if line[j] == c:
                return CYCLE, c, True, 0
    passes = True
    if kind.with_player:
        wp = rules.player(p)
        wc = rules.player(c)
        if (wp != 0 and wp != 1) or (wc != 0 and wc != 1):
            return BAD_PLAYER, c, True, 0
        passes = wp != wc
    if kind.scored:
        if not kind.stepped:
            pay = rules.payoff(p, m)
        if pay > LIMIT or pay < -LIMIT:
            return BEYOND_LIMIT, p, True, 0
    return OK, c, passes, pay


@njit  # not cached: it takes the game's functions
def _table_cutoff(p, buf, base, k, beta, line, d, rules, kind, table):
    """Enhanced transposition cutoff: a score >= beta that some move of ``p`` is already
    known (from its child's table entry) to reach, else -INF - 1. Costs a look-up a move, so
    it is used where a cut-off saves a big subtree."""
    for i in range(base, base + k):
        m = buf[i]
        status, c, passes, pay = make_move(p, m, line, d, rules, kind)
        if status != OK:
            return -INF - 1  # the search itself will meet it and report it
        found, c_lo, c_hi, _ = tt_probe(table, rules.canonical(c) if kind.symmetric else c)
        if not found:
            continue
        known = c_hi if passes else c_lo  # the child's bound that bounds the move from below
        if known >= INF or known <= -INF:
            continue
        s = parent_score(known, passes, pay, kind.scored)
        if s >= beta:
            return s
    return -INF - 1


@njit  # not cached: it takes the game's functions
def _busy(c, busy, rules, kind):
    """Is another thread searching position c? (Its key is in the busy table.)"""
    k = rules.canonical(c) if kind.symmetric else c
    return busy[_hash(k) & (busy.size - 1)] == k


@njit(cache=True)
def _by_history(buf, base, k, history):
    """Sort buf[base:base+k] by the history heuristic (Schaeffer 1989): moves that cut off
    big subtrees before first, stable (the game's order on ties). Insertion sort: k is a
    branching factor."""
    for i in range(base + 1, base + k):
        m = buf[i]
        h = history[m & HISTORY_MASK]
        j = i
        while j > base and history[buf[j - 1] & HISTORY_MASK] < h:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = m


@njit(cache=True)
def _to_front(buf, base, k, hint):
    """Move the hinted move (hint = move + 1) to the front of buf[base:base+k], keeping the
    others' order; nothing when it is not listed."""
    if hint == 0:
        return
    move = hint - 1
    for i in range(base, base + k):
        if buf[i] == move:
            for j in range(i, base, -1):
                buf[j] = buf[j - 1]
            buf[base] = move
            return


class Shared(NamedTuple):
    """What the threads of one search share: the transposition table (two-slot buckets,
    see the module doc), the ``busy`` table of positions being searched (ABDADA), the
    ``stop`` flag (``stop[0] != 0``: abort), each thread's node count (``stats``, for
    progress lines) and each thread's count of branching nodes (``branching[8 * thread]``,
    a cache line a thread: nodes that went on to search two or more moves, and a probe's
    root that searched its moves, added up over the search; Steininger's c4 counts about
    these, as it plays forced moves and reads table cut-offs and ended games without a
    node)."""

    table: np.ndarray
    busy: np.ndarray
    stop: np.ndarray
    stats: np.ndarray
    branching: np.ndarray


class Workspace(NamedTuple):
    """The explicit stack of one :func:`probe`, an int64 a ply in each row (index d: the
    node at depth d), allocated once per thread by :func:`workspace`."""

    pos: np.ndarray  # the position
    lo: np.ndarray  # its window (lo, hi), narrowed as children return
    hi: np.ndarray
    alpha0: np.ndarray  # the window's lower end when the children began (fail-low test)
    best: np.ndarray  # the best child score so far
    best_move: np.ndarray  # the move that reached it (-1: none)
    n_moves: np.ndarray  # the moves listed
    next_move: np.ndarray  # the index of the next move to take
    key: np.ndarray  # the table's key (canonical code)
    start_nodes: np.ndarray  # the node count when the node began (its work)
    passes: np.ndarray  # 1 when the move being searched passes the turn
    pay: np.ndarray  # its payoff (scored games)
    move: np.ndarray  # the move being searched
    deferred: np.ndarray  # bit i: move i put off while another thread has it
    marked: np.ndarray  # bit 0: the node marks itself in the busy table; bit 1: forced
    child_known: np.ndarray  # a forced node's child's static bounds + 1 (0: not read)
    history: np.ndarray  # the history heuristic's counters (HISTORY_MASK + 1)
    buf: np.ndarray  # the moves of every ply, max_moves + 1 a ply


class WalkSpace(NamedTuple):
    """The explicit stack of one :func:`walk_remoteness` (an int64 a ply in each row), from
    :func:`walk_workspace`."""

    pos: np.ndarray  # the position
    score: np.ndarray  # its exact score
    next_move: np.ndarray  # the index of the next move to take
    n_moves: np.ndarray  # the moves listed
    best: np.ndarray  # the best remoteness so far (-1: none)
    move: np.ndarray  # the move that reached it
    key: np.ndarray  # the memo's key (canonical code)
    buf: np.ndarray  # the moves of every ply (max_moves + 1 a ply); the last ply's slot is
    # _settle's scratch


def workspace(max_depth: int, max_moves: int) -> Workspace:
    """The stack a probe needs, allocated once per thread: 16 rows of one int64 a ply, the
    history heuristic's counters, and the moves of every ply (max_moves + 1 a ply)."""
    rows = [np.empty(max_depth + 1, np.int64) for _ in range(16)]
    history = np.zeros(HISTORY_MASK + 1, np.int64)
    return Workspace._make([*rows, history,
                           np.empty((max_depth + 1) * (max_moves + 1), np.int64)])


def walk_workspace(max_depth: int, max_moves: int) -> WalkSpace:
    """The stack :func:`walk_remoteness` needs: 7 rows of one int64 a ply and the moves of
    every ply."""
    rows = [np.empty(max_depth + 1, np.int64) for _ in range(7)]
    return WalkSpace._make([*rows, np.empty((max_depth + 1) * (max_moves + 1), np.int64)])


@njit(nogil=True)
def probe(root, alpha, beta, rules, kind, leaf, shared, ws, node_limit, thread):
    """Fail-soft alpha-beta from ``root`` inside the window (alpha, beta), iterative (an
    explicit stack ``ws`` from :func:`workspace`, so a line thousands of plies deep needs no
    recursion).

    Returns (status, score, best move, nodes). With status OK the score s is a bound of the
    true score v: s <= alpha means v <= s, s >= beta means v >= s, otherwise v == s; the best
    move is the root's move that reached s (-1 when none did). ABORTED: ``stop[0]`` was set
    or ``node_limit`` nodes were searched; nothing is claimed, but every finished subtree's
    result is in the table. ``stats[thread]`` is kept at the node count for progress.
    ``shared`` is the :class:`Shared` tables and flags, ``ws`` this thread's
    :class:`Workspace`.

    Each node: outcome (ended: its score), bounds from the score range, the game's
    ``static_bounds`` (``bounds``: cannot win, cannot lose, and ``MUST_LOSE``, a loss
    within the ``horizon``), moves (``smoves``, the game's ``search_moves`` or ``moves``;
    none at all: a loss, or 0 points, as the engine's solvers say; one alone below the root:
    a forced node, passed through with no table), the table, the table's move first, then
    the children in order with their window mapped by :func:`child_bound`. Time O(nodes);
    memory O(max_depth * max_moves) besides the table. Cycles: without ``acyclic`` every
    child is compared with the line above it (O(depth)) and a repeat stops the search with
    CYCLE.
    """
    moves, smoves, outcome, score = rules.moves, rules.search_moves, rules.outcome, rules.score
    canonical, bounds, horizon = rules.canonical, rules.static_bounds, rules.horizon
    scored, with_horizon, symmetric = kind.scored, kind.with_horizon, kind.symmetric
    max_moves = kind.max_moves
    table, busy, stop, stats = shared.table, shared.busy, shared.stop, shared.stats
    branching = shared.branching
    pos, lo_w, hi_w, alpha0, best = ws.pos, ws.lo, ws.hi, ws.alpha0, ws.best
    best_move, count, index, key = ws.best_move, ws.n_moves, ws.next_move, ws.key
    start_nodes, passes, pay, move = ws.start_nodes, ws.passes, ws.pay, ws.move
    deferred, marked, history, buf = ws.deferred, ws.marked, ws.history, ws.buf
    child_known = ws.child_known
    max_depth = pos.size - 1
    stride = max_moves + 1
    top = LIMIT if scored else MATE - 1  # best a position with a move can score
    nodes = np.int64(0)
    d = np.int64(0)  # not the literal 0: numba would compile callees for it too
    pos[0] = root
    lo_w[0] = alpha
    hi_w[0] = beta
    best_move[0] = -1
    state = _ENTER
    ret = 0
    while True:
        if state == _ENTER:
            nodes += 1
            if (nodes & 1023) == 0:
                stats[thread] = nodes
                if stop[0] != 0:
                    return ABORTED, 0, -1, nodes
            if nodes > node_limit:
                return ABORTED, 0, -1, nodes
            p = pos[d]
            best_move[d] = -1
            start_nodes[d] = nodes
            state = _RETURN  # unless the node has children to search
            o = outcome(p)
            if o != ONGOING:
                status, ret = terminal_score(o, p, score, scored)
                if status != OK:
                    return status, p, -1, nodes
                continue
            mb = rules.margin_bound(p) if kind.bounded else LIMIT
            if kind.with_leaf and d > 0 and mb <= leaf.dense_gate:  # a dense table's
                ret = int(leaf.dense[rules.dense_index(p)])
                continue
            if kind.with_leaf and d > 0 and mb <= leaf.gate:
                slot = leaf_slot(leaf, rules, kind, p)
                if slot >= 0:  # solved in the store: its exact score
                    ret = leaf.scores[slot]
                    continue
            a = lo_w[d]
            b = hi_w[d]
            if kind.bounded:  # the margin cannot leave [-bound, bound]
                if b > mb:
                    b = mb
                    if a >= b:
                        ret = b
                        continue
                if a < -mb:
                    a = -mb
                    if a >= b:
                        ret = a
                        continue
            if kind.with_endgame and d > 0:  # the game's own endgame search (module doc)
                s_end, n_end = rules.endgame(p, a, b)
                if n_end > 0:
                    nodes += n_end - 1  # this node is counted already
                    ret = s_end
                    continue
            if not scored and b > top:  # a win takes at least one ply
                b = top
                if a >= b:
                    ret = b
                    continue
            if d > 0 and child_known[d - 1] > 0:  # read already by the forced node above
                known = child_known[d - 1] - 1
            else:
                known = bounds(p)  # the game's static bounds: cannot win, cannot lose, loses
            if not scored and d > 0 and known & (WINS_IN_1 | LOSES_IN_2):
                ret = exact_score(known)  # exact: no child
                continue
            if not scored and known & NOT_SOONER:  # a win takes 3 plies, a loss 4
                if b > MATE - 3:
                    b = MATE - 3
                    if a >= b:
                        ret = b
                        continue
                if a < -(MATE - 4):
                    a = -(MATE - 4)
                    if a >= b:
                        ret = a
                        continue
            if known & CANNOT_WIN and b > 0:
                b = 0
                if a >= b:
                    ret = b
                    continue
            if known & CANNOT_LOSE and a < 0:
                a = 0
                if a >= b:
                    ret = a
                    continue
            if known & MUST_LOSE:  # a loss within the horizon (scored: a margin below 0)
                cap = -1 if scored else -(MATE - horizon(p)) if with_horizon \
                    else -(MATE - LIMIT)
                if b > cap:
                    b = cap
                    if a >= b:
                        ret = b
                        continue
            base = d * stride
            k = smoves(p, buf[base:base + stride])
            if k < 0 or k > max_moves:
                return BAD_SEARCH_MOVES, p, -1, nodes
            forced = k == 1 and d > 0  # passed through: no table (see the module doc)
            child_known[d] = 0
            if forced and not scored:  # its one child's static bounds read here first
                status, c, turn_passes, pay[d] = make_move(p, buf[base], pos, d, rules, kind)
                if status != OK:
                    return status, c, -1, nodes
                if outcome(c) == ONGOING:
                    ck = bounds(c)
                    if ck & (WINS_IN_1 | LOSES_IN_2):  # exact: the child is not entered
                        ret = parent_score(exact_score(ck), turn_passes, 0, False)
                        continue
                    if d < max_depth:  # (else the push stops with TOO_DEEP)
                        child_known[d] = ck + 1  # kept for the child, which reads it,
                        pos[d + 1] = c  # and the move made, which the push takes as it is
                        passes[d] = 1 if turn_passes else 0
            found, t_lo, t_hi, hint = False, -INF, INF, 0
            k_key = p
            if not forced:
                k_key = canonical(p) if symmetric else p
                found, t_lo, t_hi, hint = tt_probe(table, k_key)
            key[d] = k_key
            if found and d > 0:  # the root always searches, so that it names its best move
                if t_lo >= b:
                    ret = t_lo
                    continue
                if t_hi <= a:
                    ret = t_hi
                    continue
                a = max(a, t_lo)
                b = min(b, t_hi)
                if a >= b:  # the table knows the exact score
                    ret = a
                    continue
            if k == 0:
                if moves(p, buf[base:base + stride]) != 0:
                    return BAD_SEARCH_MOVES, p, -1, nodes
                ret = 0 if scored else -MATE  # no move: a loss (or 0 points) at once
                continue
            if not kind.ordered and k > 1:
                _by_history(buf, base, k, history)
            if (hint >> 8) != (1 if p != k_key else 0):
                hint = 0  # stored by the mirror image: its move is not this position's
            _to_front(buf, base, k, hint & 0xFF)
            left = horizon(p) if with_horizon else 0
            big = not forced and (left > BUSY_HORIZON if with_horizon else d < ETC_DEPTH)
            if d > 0 and not forced and (left > ETC_HORIZON if with_horizon
                                         else d < ETC_DEPTH):
                cut = _table_cutoff(p, buf, base, k, b, pos, d, rules, kind, table)
                if cut > -INF:
                    ret = cut
                    continue
            deferred[d] = 0
            marked[d] = (1 if kind.parallel and big else 0) | (2 if forced else 0)
            if not forced:
                branching[thread << 3] += 1
            if marked[d] & 1:
                busy[_hash(k_key) & (busy.size - 1)] = k_key  # "I am searching this node"
            lo_w[d] = a
            hi_w[d] = b
            alpha0[d] = a
            best[d] = -INF - 1
            count[d] = k
            index[d] = 0
            state = _NEXT
        elif state == _RETURN:
            # the node at depth d is done and scores ``ret``: give it to its parent
            if d == 0:
                return OK, ret, best_move[0], nodes
            d -= 1
            s = parent_score(ret, passes[d] != 0, pay[d], scored)
            if scored and (s > LIMIT or s < -LIMIT):
                return BEYOND_LIMIT, pos[d], -1, nodes
            if s > best[d]:
                best[d] = s
                best_move[d] = move[d]
            if s > lo_w[d]:
                lo_w[d] = s
            if lo_w[d] >= hi_w[d]:
                index[d] = count[d]  # cut-off: the other moves cannot matter
                deferred[d] = 0
                if not kind.ordered:  # the history heuristic: weight by the work saved
                    history[move[d] & HISTORY_MASK] += nodes - start_nodes[d + 1] + 1
            state = _NEXT
        else:
            # the next child of the node at depth d, or the node is done
            p = pos[d]
            first_pass = index[d] < count[d]
            if first_pass:
                i = index[d]
                index[d] += 1
            elif deferred[d] != 0:  # the moves put off while another thread had them
                i = lowest_bit(deferred[d])
                deferred[d] &= deferred[d] - 1
            else:
                v = best[d]
                t_lo = v if v > alpha0[d] else -INF
                t_hi = v if v < hi_w[d] else INF
                if not marked[d] & 2:  # a forced node keeps no entry
                    # a node that failed low keeps its old hint: its best is only the least bad
                    tt_store(table, key[d], t_lo, t_hi, best_move[d] if v > alpha0[d] else -1,
                             log2_work(nodes - start_nodes[d] + 1),
                             1 if pos[d] != key[d] else 0)
                if marked[d] & 1:
                    slot = _hash(key[d]) & (busy.size - 1)
                    if busy[slot] == key[d]:
                        busy[slot] = 0
                ret = v
                state = _RETURN
                continue
            m = buf[d * stride + i]
            if child_known[d] > 0:  # a forced node's one move, made when its child was read
                c, turn_passes = pos[d + 1], passes[d] != 0
            else:
                status, c, turn_passes, pay[d] = make_move(p, m, pos, d, rules, kind)
                if status != OK:
                    return status, c, -1, nodes
            if (marked[d] & 1 and first_pass and 0 < i < 63
                    and (index[d] < count[d] or deferred[d] != 0)
                    and _busy(c, busy, rules, kind)):
                # another thread is searching this child: take the other moves first and
                # come back to it (its result is then often in the table: ABDADA's idea)
                deferred[d] |= np.int64(1) << i
                continue
            passes[d] = 1 if turn_passes else 0
            move[d] = m
            if d + 1 > max_depth:
                return TOO_DEEP, c, -1, nodes
            ca = child_bound(hi_w[d], passes[d] != 0, pay[d], scored)
            cb = child_bound(lo_w[d], passes[d] != 0, pay[d], scored)
            if ca > cb:  # a move that keeps the turn keeps the order
                ca, cb = cb, ca
            d += 1
            pos[d] = c
            lo_w[d] = ca
            hi_w[d] = cb
            state = _ENTER


@njit(nogil=True, inline="always")  # no library of its own: see pin_many_cached
def _ended_score(c, rules, kind, buf):
    """(status, score, over): the score of ``c`` when it has ended or has no move (``over``),
    read without a probe. ``buf``: room for the moves."""
    o = rules.outcome(c)
    if o != ONGOING:
        status, s = terminal_score(o, c, rules.score, kind.scored)
        return status, s, True
    if rules.moves(c, buf) == 0:
        return OK, 0 if kind.scored else -MATE, True
    return OK, 0, False


@njit(nogil=True, inline="always")  # no library of its own: see pin_many_cached
def _settle(c, target, rules, kind, leaf, shared, ws, node_limit, buf):
    """(status, equal, nodes): is the exact score of ``c`` ``target``? Its own score when it
    has ended or has no move, else two null-window probes (the table makes them cheap)."""
    status, s, over = _ended_score(c, rules, kind, buf)
    if over:
        return status, s == target, 0
    # thread 0 as an int64, not the literal 0: a literal argument is a signature of its own,
    # and numba would compile the whole probe a second time for the walk (6 s a game)
    thread = np.int64(0)
    status, s, _, n1 = probe(c, target - 1, target, rules, kind, leaf, shared, ws, node_limit,
                             thread)
    if status != OK or s < target:
        return status, False, n1
    status, s, _, n2 = probe(c, target, target + 1, rules, kind, leaf, shared, ws,
                             node_limit - n1, thread)
    return status, status == OK and s <= target, n1 + n2


@njit(nogil=True, inline="always")  # no library of its own: see pin_many_cached
def pin(root, st, want_best, rules, kind, leaf, shared, ws, node_limit, thread):
    """(status, code, nodes): every probe of the plan ``st`` (:mod:`.plan`) for ``root``,
    made in this one call, and then (``want_best``) a best move when the probes named none
    (a lost position's probes all fail low): the first move of the game's order (``moves``)
    whose child's exact score keeps the root's, two null windows a move at most. OK: the
    plan has ended (``st[PHASE]``: done, or a contradiction the caller reports). ABORTED:
    the node budget ran out (or ``stop[0]``); ``st`` is as it was before the probe under way,
    so a caller can carry the plan on. Any other status is the probe's (``code`` the
    position it names). One call site of :func:`probe` serves both (fewer functions to
    compile). ``want_best`` is for a plan that pins a score, not a plan of one probe (whose
    answer is only a bound). O(probes) probes."""
    stride = kind.max_moves + 1
    nodes = np.int64(0)
    k = -1  # the root's moves listed for the best move (-1: the plan's probes)
    i = 0  # the move whose child is being checked
    second = False  # its second null window
    at, target = root, np.int64(0)
    lo, hi = np.int64(0), np.int64(0)
    buf = np.empty(0, np.int64)
    line = np.full(1, root)
    while True:
        if k < 0:
            x = plan_next(st)
            if st[PHASE] == QUICK or st[PHASE] == MAIN or st[PHASE] == ONE:
                at, lo, hi = root, x - 1, x
            elif want_best and st[PHASE] == DONE and st[BEST] < 0 and \
                    rules.outcome(root) == ONGOING:
                buf = np.empty(2 * stride, np.int64)  # the root's moves, then a child's
                k = rules.moves(root, buf[:stride])
                if k < 0 or k > kind.max_moves:
                    return BAD_SEARCH_MOVES, root, nodes
                continue
            else:
                return OK, 0, nodes
        elif not second:
            if i >= k:
                return OK, 0, nodes  # no move keeps it (rules that changed): none named
            status, at, passes, pay = make_move(root, buf[i], line, np.int64(0), rules, kind)
            if status != OK:
                return status, at, nodes
            target = child_bound(st[LO], passes, pay, kind.scored)
            status, s, over = _ended_score(at, rules, kind, buf[stride:])
            if status != OK:
                return status, at, nodes
            if over:
                if s == target:
                    st[BEST] = buf[i]
                    return OK, 0, nodes
                i += 1
                continue
            lo, hi = target - 1, target
        else:
            lo, hi = target, target + 1
        status, s, move, n = probe(at, lo, hi, rules, kind, leaf, shared, ws,
                                   node_limit - nodes, thread)
        nodes += n
        if status != OK:
            return status, s, nodes
        if k < 0:
            plan_result(st, s, move)
            continue
        st[PROBES] += 1  # the best move's probes count as the plan's do
        if not second:
            second = s >= target  # at least the target: is it at most?
            if not second:
                i += 1
        elif s <= target:
            st[BEST] = buf[i]
            return OK, 0, nodes
        else:
            second = False
            i += 1


@njit(nogil=True, inline="always")  # no library of its own: see pin_many_cached
def start_plan(st, p, rules, kind, buf):
    """Begin the plan ``st`` of position ``p`` knowing nothing of it: its score range (a
    margin within ``margin_bound``, or any win or loss) and, for a win/lose/tie game with a
    ``horizon``, the quick probes (:func:`.plan.plan_start`). A position that has ended
    or has no move scores what no position with a move can (a loss at once, a win on the
    board): its range is every score, with no quick probes, and a probe or two read it.
    ``buf``: room for the moves."""
    if _ended_score(p, rules, kind, buf)[2]:
        top = LIMIT if kind.scored else MATE
        plan_start(st, -top, top, -top, top, 0, 1 if kind.scored else 0)
        return
    bound = rules.margin_bound(p) if kind.bounded else LIMIT
    top = score_top(kind.scored, bound)
    left = quick_left(kind.scored, rules.horizon(p) if kind.with_horizon else 0)
    plan_start(st, -top, top, -top, top, left, 1 if kind.scored else 0)


@njit(nogil=True, inline="always")  # no library of its own: see pin_many_cached
def read_remoteness(p, s, rules, kind, buf):
    """The remoteness of ``p``, whose exact score is ``s``, where it is read without a
    walk (as :meth:`perfectplay.engine.proof.driver.SearchRun.remoteness` reads it): a win's or a
    loss's off the score; 0 for an ended position or one with no move; a tie's the
    horizon; else -1 (a margin, or a tie of a game with no ``horizon``: the walk's).
    ``buf``: room for the moves. O(1) rule calls."""
    if not kind.scored and s != 0:
        return MATE - abs(s)
    if _ended_score(p, rules, kind, buf)[2]:
        return 0 * s
    if not kind.scored and kind.with_horizon:
        return rules.horizon(p)
    return -1 + 0 * s


#: the columns of a row of :func:`pin_many`'s ``out``
OUT_STATUS, OUT_CODE, OUT_NODES, OUT_BRANCHING, OUT_REMOTENESS = 0, 1, 2, 3, 4
OUT_SCORE, OUT_BEST, OUT_PROBES, OUT_WHOLE = 5, 6, 7, 8
OUT_COLUMNS = 9


@njit(nogil=True)
def pin_many(codes, plans, out, fresh, want_best, rules, kind, leaf, shared, ws, node_limit,
             thread, pass_nodes, want_remoteness):
    """Carry out the plan of every position of ``codes`` in one call (the searches of a set
    of positions, with no Python between them): position i's plan is ``plans[i]``, begun
    here knowing nothing (:func:`start_plan`) when ``fresh``, else as the caller made it (a
    plan of one probe, :func:`.plan.plan_one`, is one probe). ``out[i]`` (OUT_COLUMNS
    wide) gets (status, code, nodes) of :func:`pin`, the branching nodes among them, the
    remoteness where it is read without a walk (:func:`read_remoteness`; else -1), the
    plan's score, best move (or -1) and probes, and 1 when that is all of the position's
    result (whole: the score proven, the remoteness when ``want_remoteness``, a best move
    unless the game has ended there), else 0. Each position is given ``node_limit`` nodes
    at most (an ABORTED position's plan is left for the caller to carry on). The table is
    shared by all, as one search's is. The call returns how many positions it went
    through: all of them, or fewer when their nodes reached ``pass_nodes`` (so that the
    caller can look at its clock between calls however easy the positions are) or when a
    position's status was an error (the caller reports it at once). This is the search's
    one compiled entry point besides the remoteness walk. O(total probes)."""
    branching = shared.branching
    spent = 0
    for i in range(codes.size):
        st = plans[i]
        if fresh:
            start_plan(st, codes[i], rules, kind, ws.buf[:kind.max_moves + 1])
        before = branching[thread << 3]
        status, code, nodes = pin(codes[i], st, want_best, rules, kind, leaf, shared, ws,
                                  node_limit, thread)
        rem = -1
        if status == OK and st[PHASE] == DONE:
            rem = read_remoteness(codes[i], st[LO], rules, kind, ws.buf[:kind.max_moves + 1])
        row = out[i]
        row[OUT_STATUS] = status
        row[OUT_CODE] = code
        row[OUT_NODES] = nodes
        row[OUT_BRANCHING] = branching[thread << 3] - before
        row[OUT_REMOTENESS] = rem
        row[OUT_SCORE] = st[LO]
        row[OUT_BEST] = st[BEST]
        row[OUT_PROBES] = st[PROBES]
        row[OUT_WHOLE] = status == OK and st[PHASE] == DONE and \
            (rem >= 0 or not want_remoteness) and (st[BEST] >= 0 or rem == 0)
        spent += nodes
        if (status != OK and status != ABORTED) or spent >= pass_nodes:
            return i + 1
    return codes.size


# The walk's memo: a typed dict, its operations behind cached functions, so that the dict's
# own code (hashing, growing, 0.8 s) compiles once a machine, not into each game's walk.
@njit(cache=True)
def new_memo():
    """An empty int64 -> int64 dict (a position's key -> its remoteness)."""
    memo = {np.int64(0): np.int64(0)}
    memo.pop(np.int64(0))
    return memo


@njit(cache=True)
def memo_put(memo, key, rem):
    memo[key] = rem


@njit(cache=True)
def memo_get(memo, key):
    """The remoteness kept for ``key``, or -1."""
    return memo.get(key, np.int64(-1))


@njit(nogil=True)
def walk_remoteness(root, root_score, rules, kind, leaf, shared, ws, walk_ws, node_limit):
    """(status, remoteness, best move, nodes) of ``root`` whose exact score is known: the
    engine's tie-break among the moves that keep the score, which no single negamax score
    can hold. A tie: the quickest of the tying moves (both players hurry to a tie); a
    margin m: the quickest when m >= 0, the slowest when m < 0; the first such move in the
    game's order. Depth-first over the moves that keep the score (each checked by
    :func:`_settle`), each position's remoteness memoised (by ``canonical``): O(positions
    of that subgraph x moves) probes, most of them answered by the table. ``ws`` is the
    probes' :class:`Workspace`, ``walk_ws`` the walk's own :class:`WalkSpace`."""
    moves, outcome, canonical = rules.moves, rules.outcome, rules.canonical
    scored, symmetric, max_moves = kind.scored, kind.symmetric, kind.max_moves
    w_pos, w_score, w_index = walk_ws.pos, walk_ws.score, walk_ws.next_move
    w_count = walk_ws.n_moves
    w_best, w_move, w_key, w_buf = walk_ws.best, walk_ws.move, walk_ws.key, walk_ws.buf
    stop = shared.stop
    max_depth = w_pos.size - 1
    stride = max_moves + 1
    memo = new_memo()
    nodes = np.int64(0)
    d = np.int64(0)
    w_pos[0] = root
    w_score[0] = root_score
    entering = True
    ret = 0
    while True:
        if entering:
            entering = False
            p = w_pos[d]
            w_key[d] = canonical(p) if symmetric else p
            w_best[d] = -1
            w_move[d] = -1
            w_index[d] = 0
            w_count[d] = 0
            slot = -1
            if kind.with_leaf and d > 0 and (not kind.bounded
                                             or rules.margin_bound(p) <= leaf.gate):
                slot = leaf_slot(leaf, rules, kind, p)
            if slot >= 0:  # solved in the store: its remoteness too
                w_best[d] = leaf.rems[slot]
            elif outcome(p) == ONGOING:
                k = moves(p, w_buf[d * stride:(d + 1) * stride])
                if k < 0 or k > max_moves:
                    return BAD_SEARCH_MOVES, p, -1, nodes
                w_count[d] = k
            if w_count[d] == 0 and slot < 0:
                w_best[d] = 0  # ended, or no move: remoteness 0
        else:
            # the child just walked has remoteness ``ret``
            memo_put(memo, w_key[d + 1], np.int64(ret))
            r = ret + 1
            _consider(w_best, w_move, d, r, w_buf[d * stride + w_index[d] - 1],
                      scored, w_score[d])
        # the next move of the position at depth d that keeps its score
        descended = False
        while w_index[d] < w_count[d]:
            if stop[0] != 0 or nodes > node_limit:
                return ABORTED, 0, -1, nodes
            p = w_pos[d]
            m = w_buf[d * stride + w_index[d]]
            w_index[d] += 1
            status, c, passes, pay = make_move(p, m, w_pos, d, rules, kind)
            if status != OK:
                return status, c, -1, nodes
            target = child_bound(w_score[d], passes, pay, scored)
            status, equal, n = _settle(c, target, rules, kind, leaf, shared, ws,
                                       node_limit - nodes, w_buf[max_depth * stride:])
            nodes += n
            if status != OK:
                return status, c, -1, nodes
            if not equal:
                continue
            c_key = canonical(c) if symmetric else c
            known = memo_get(memo, c_key)
            if known >= 0:
                _consider(w_best, w_move, d, known + 1, m, scored, w_score[d])
                continue
            if d + 1 >= max_depth:
                return TOO_DEEP, c, -1, nodes
            w_pos[d + 1] = c
            w_score[d + 1] = target
            d += 1
            descended = True
            entering = True
            break
        if descended:
            continue
        if w_best[d] < 0:
            return BAD_OUTCOME, w_pos[d], -1, nodes  # no move keeps the score: rules changed
        ret = w_best[d]
        if d == 0:
            return OK, ret, w_move[0], nodes
        d -= 1


@njit(cache=True)
def _consider(w_best, w_move, d, r, m, scored, s):
    """Keep move m of remoteness r at depth d if it beats the best so far (strictly: the
    first of equals stays): quicker for a tie or a margin >= 0, slower below 0."""
    hurry = (not scored) or s >= 0
    if w_best[d] < 0 or (r < w_best[d] if hurry else r > w_best[d]):
        w_best[d] = r
        w_move[d] = m


# The two entry points again, cached on disk: called with a StaticRules
# (engine/compiled/staticrules.py: the rules' numba type is named by a digest of their code,
# the same in every process), a process loads the machine code another compiled instead of
# compiling it (5-10 s a game).
# Both call the one probe dispatcher, so a process that compiles both compiles the probe once,
# and each stored entry holds all it calls.
#: :func:`pin_many` itself, cached on disk (``rules`` a StaticRules): the same function, not
#: a wrapper that calls it, and its helpers inlined, since each function between it and the
#: probe is a library numba optimises again with the probe linked in (0.8 s a level, a game)
pin_many_cached = njit(nogil=True, cache=True)(getattr(pin_many, "py_func", pin_many))


#: :func:`walk_remoteness` itself, cached on disk (``rules`` a StaticRules), as above
walk_remoteness_cached = njit(nogil=True, cache=True)(getattr(walk_remoteness, "py_func",
                                                                 walk_remoteness))
