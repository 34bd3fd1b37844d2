"""Scored games: point margins instead of win/lose.

Two solvers, both exact in Python arithmetic (ints of any size, Fractions, floats):

- :func:`negamax_acyclic`: an acyclic game, in reverse topological order. The margin of a
  position is the best, over its moves, of ``payoff`` plus (or minus, when the move passes the
  turn) the margin of the position reached. O(positions + moves).
- :func:`label_setting`: a game with cycles played as a *cost game*: one player, the payer, only
  pays (its payoffs are <= 0) and the other only gains (>= 0); endless play costs the payer
  infinity. Knuth's generalisation of Dijkstra's algorithm (Knuth 1977, "A generalization of
  Dijkstra's algorithm", IPL 6(1)) fixes positions in increasing cost: a payer's position as
  soon as it is the cheapest open one, an opponent's position once all its moves are known
  (its value, a max of costs plus non-negative steps, is a *superior* function). Ties in cost
  are broken by remoteness: the payer hurries, the opponent delays. O(moves log positions).
"""

from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING, Any

from ...errors import GameError, show
from ...numbaboot import numpy_on_use
from ..discovery import GameGraph

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve


def scored_option(pay: Any, child: Any, child_rem: int, passes: bool) -> tuple[Any, int]:
    """(margin, remoteness) a move gives its mover: the payoff minus the child's margin when
    the move passes the turn, plus it when it does not; one move more than the child.

    >>> scored_option(3, 5, 2, True), scored_option(3, 5, 2, False)
    ((-2, 3), (8, 3))
    """
    return (pay - child if passes else pay + child), child_rem + 1


def negamax_acyclic(graph: GameGraph, order: np.ndarray) -> tuple[list[Any], list[int]]:
    """Margins and remoteness of every position of an acyclic scored game."""
    return negamax_exact(order, graph.offsets, graph.children, graph.payoffs, graph.finals,
                         graph.player)


def negamax_exact(order: np.ndarray, offsets: np.ndarray, children: np.ndarray,
                  payoffs: Any, finals: Any, player: np.ndarray | None,
                  leaf_rems: list[int] | None = None) -> tuple[list[Any], list[int]]:
    """Margins and remoteness of an acyclic scored graph in exact Python arithmetic,
    positions taken in ``order`` (children first): a position with moves takes the best,
    by :class:`~perfectplay.engine.protocol.Score`, of ``payoff - child`` (``+ child``
    when the move keeps the turn: ``player`` equal), remoteness one more than the child's;
    a position without moves its ``finals`` entry, with remoteness 0 or its ``leaf_rems``
    entry (a store seeds the positions of a tier with their solved children this way).
    O(positions + moves)."""
    n = offsets.size - 1
    values: list[Any] = [0] * n
    rems: list[int] = [0] * n
    offs, kids = offsets.tolist(), children.tolist()
    pays, fin = _exact(payoffs), _exact(finals)
    who = player.tolist() if player is not None else None
    for p in order.tolist():
        lo, hi = offs[p], offs[p + 1]
        if lo == hi:
            values[p] = fin[p]
            rems[p] = 0 if leaf_rems is None else leaf_rems[p]
            continue
        best_key = None
        for k in range(lo, hi):
            c = kids[k]
            v, r = scored_option(pays[k], values[c], rems[c], who is None or who[p] != who[c])
            # Score(v, r).key, written out: a Score a move would cost this loop 2 us a move
            # (tests/test_saved.py checks the two orders agree)
            key = (v, -r if v >= 0 else r)
            if best_key is None or key > best_key:
                best_key, values[p], rems[p] = key, v, r
    return values, rems


def cost_players(graph: GameGraph, player: np.ndarray) -> int:
    """Which player pays in a cyclic scored game; a :class:`GameError` if none can.

    The payer's payoffs are all <= 0, the other player's all >= 0, and some payoff is not 0.
    """
    assert graph.payoffs is not None
    src = graph.edge_sources()
    sign_seen: dict[tuple[int, int], int | None] = {
        (0, -1): None, (0, 1): None, (1, -1): None, (1, 1): None}
    for k, pay in enumerate(_exact(graph.payoffs)):
        if pay != 0:
            key = (int(player[src[k]]), -1 if pay < 0 else 1)
            if sign_seen[key] is None:
                sign_seen[key] = k
    for payer in (0, 1):
        other = 1 - payer
        wrong = sign_seen[(payer, 1)], sign_seen[(other, -1)]
        used = sign_seen[(payer, -1)], sign_seen[(other, 1)]
        if wrong == (None, None) and used != (None, None):
            return payer
    bad = next((k for k in sign_seen.values() if k is not None), None)
    hint = ""
    if bad is not None:
        p = int(src[bad])
        move = graph.moves_of(p)[bad - int(graph.offsets[p])]
        hint = (f" (for example move {show(move)} from {graph.position(p)!r} pays "
                f"{show(graph.payoffs[bad])})")
    raise GameError(
        "this scored game has cycles; the engine solves cyclic scored games as cost games, "
        "where one player's payoffs are all <= 0 and the other's all >= 0, not all zero"
        + hint)


def label_setting(graph: GameGraph, player: np.ndarray, payer: int,
                  rev_off: np.ndarray, rev_src_order: tuple[np.ndarray, np.ndarray]
                  ) -> tuple[list[Any], list[int | None]]:
    """Margins (for the player to move) and remoteness of a cost game; see the module doc.

    ``rev_src_order`` is (parent of each reversed move, index of that move). Positions never
    fixed are endless: margin -inf for the payer, +inf for the other, remoteness None.
    """
    assert graph.payoffs is not None and graph.finals is not None
    n = graph.size
    offsets = graph.offsets.tolist()
    rev_off_l = rev_off.tolist()
    rev_src, rev_edge = (a.tolist() for a in rev_src_order)
    payoffs = _exact(graph.payoffs)
    finals = _exact(graph.finals)
    who = player.tolist()
    fixed = [False] * n
    cost: list[Any] = [None] * n
    rem: list[int | None] = [None] * n
    pending = [offsets[i + 1] - offsets[i] for i in range(n)]
    best: list[tuple[Any, int] | None] = [None] * n
    heap: list[tuple[Any, int, int]] = []
    for i in range(n):
        if pending[i] == 0:
            score = finals[i]
            heap.append((-score if who[i] == payer else score, 0, i))
    heapq.heapify(heap)
    while heap:
        c_cost, c_rem, c = heapq.heappop(heap)
        if fixed[c]:
            continue
        fixed[c] = True
        cost[c], rem[c] = c_cost, c_rem
        for k in range(rev_off_l[c], rev_off_l[c + 1]):
            p = rev_src[k]
            if fixed[p]:
                continue
            pay = payoffs[rev_edge[k]]
            step = -pay if who[p] == payer else pay
            if step < 0:
                e = rev_edge[k]
                move = graph.moves_of(p)[e - offsets[p]]
                raise GameError(f"a cost game's payoffs must not change sign: move "
                                f"{show(move)} from {graph.position(p)!r}")
            cand = (c_cost + step, c_rem + 1)
            if who[p] == payer:
                if best[p] is None or cand < best[p]:
                    best[p] = cand
                    heapq.heappush(heap, (cand[0], cand[1], p))
            else:
                if best[p] is None or cand > best[p]:
                    best[p] = cand
                pending[p] -= 1
                if pending[p] == 0:
                    bp = best[p]
                    heapq.heappush(heap, (bp[0], bp[1], p))
    margins: list[Any] = [0] * n
    for i in range(n):
        if cost[i] is None:
            margins[i] = -math.inf if who[i] == payer else math.inf
        else:
            margins[i] = -cost[i] if who[i] == payer else cost[i]
    return margins, rem


def _exact(seq: Any) -> list[Any]:
    """Numbers as Python objects (an int64 array becomes a list of exact ints)."""
    return seq.tolist() if isinstance(seq, np.ndarray) else seq
