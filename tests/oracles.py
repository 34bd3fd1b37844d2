"""Independent exact methods the fast code is checked against. Written plainly, on purpose:
no shared code with the solvers under test."""

from __future__ import annotations

import math
from functools import cache

from perfectplay import Value


def winlose_by_rounds(succ: dict, terminal: dict) -> dict:
    """(value, remoteness) of every node of a win/lose/tie game graph by level rounds.

    succ: node -> list of children (every move passes the turn); terminal: node -> Value.
    Round r settles exactly the positions whose remoteness is r, so no queue is needed: a
    deliberately different method from the engine's. O(n * depth).
    """
    res = {}
    for v, out in terminal.items():
        if out in (Value.WIN, Value.LOSE):
            res[v] = (out, 0)
    for v, kids in succ.items():
        if v not in terminal and not kids:
            res[v] = (Value.LOSE, 0)
    r = 0
    while True:
        r += 1
        new = {}
        for v, kids in succ.items():
            if v in res or v in terminal or not kids:
                continue
            known = [res.get(c) for c in kids]
            if any(k is not None and k[0] is Value.LOSE and k[1] == r - 1 for k in known):
                new[v] = (Value.WIN, r)
            elif all(k is not None and k[0] is Value.WIN for k in known) and \
                    max(k[1] for k in known) == r - 1:
                new[v] = (Value.LOSE, r)
        if not new:
            break
        res.update(new)
    # ties: shortest distance to a tied terminal through unsettled positions
    frontier = [v for v, out in terminal.items() if out is Value.TIE]
    for v in frontier:
        res[v] = (Value.TIE, 0)
    r = 0
    while frontier:
        r += 1
        nxt = []
        for v, kids in succ.items():
            if v not in res and any(res.get(c) == (Value.TIE, r - 1) for c in kids):
                res[v] = (Value.TIE, r)
                nxt.append(v)
        frontier = nxt
    for v in succ:
        res.setdefault(v, (Value.DRAW, None))
    return res


def minimax_value(game, pos):
    """Plain recursive negamax with memo: value only (WIN > TIE > LOSE). Acyclic games."""

    @cache
    def go(p):
        out = game.outcome(p)
        if out is not None:
            return {Value.WIN: 1, Value.TIE: 0, Value.LOSE: -1}[out]
        ms = list(game.moves(p))
        if not ms:
            return -1
        return max(-go(game.play(p, m)) for m in ms)

    return {1: Value.WIN, 0: Value.TIE, -1: Value.LOSE}[go(pos)]


def cost_game_by_iteration(succ: dict, cost: dict, payer_node: dict, final: dict) -> dict:
    """Values of a cost game by value iteration from +inf (the seed's method, in general).

    succ: node -> children; cost[(u, v)] >= 0; payer_node[u]: the payer moves at u (min) or
    not (max); final: terminal node -> cost. Returns node -> cost for the payer (inf =
    endless). Terminates for integer costs.
    """
    val = {v: final.get(v, math.inf) for v in succ}
    changed = True
    while changed:
        changed = False
        for u, kids in succ.items():
            if u in final:
                continue
            if not kids:
                new = 0
            else:
                opts = [cost[(u, c)] + val[c] for c in kids]
                new = min(opts) if payer_node[u] else max(opts)
            if new != val[u]:
                val[u] = new
                changed = True
    return val
