"""Engine throughput: positions per second on games of >= 10^6 positions, beside baselines
run in the same process (a textbook memoised minimax for the acyclic game, a plain Python
retrograde pass for the cyclic one, where memoised minimax would recurse forever).

    python benchmarks/engine.py [--size 1000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from functools import cache

from perfectplay import Value, solve


class TwoCounters:
    """Acyclic: a position a*W + b; a move takes 1 or 2 from a, or 1 or 3 from b."""

    def __init__(self, w: int) -> None:
        self.w = w
        # the legal moves depend only on min(a, 2) and min(b, 3): a small table
        self.table = [[tuple(m for m, ok in ((-w, a >= 1), (-2 * w, a >= 2), (-1, b >= 1),
                                             (-3, b >= 3)) if ok)
                       for b in range(4)] for a in range(3)]

    def initial(self) -> int:
        return (self.w - 1) * self.w + (self.w - 1)

    def moves(self, p: int) -> tuple[int, ...]:
        a, b = divmod(p, self.w)
        return self.table[a if a < 2 else 2][b if b < 3 else 3]

    def play(self, p: int, m: int) -> int:
        return p + m

    def outcome(self, p: int) -> None:
        return None


class Torus:
    """Cyclic: a token on a W x W torus; a move steps right or down; cells on the diagonal
    x == y (other than the start) end the game, lost for the player to move there."""

    def __init__(self, w: int) -> None:
        self.w = w
        self.n = w * w

    def initial(self) -> int:
        return 1

    def moves(self, p: int) -> tuple[int, int]:
        return (1, self.w)

    def play(self, p: int, m: int) -> int:
        x, y = divmod(p, self.w)
        return ((x + (m == self.w)) % self.w) * self.w + (y + (m == 1)) % self.w

    def outcome(self, p: int) -> Value | None:
        x, y = divmod(p, self.w)
        return Value.LOSE if x == y and (x * 7 + 3) % 5 == 0 else None


def textbook_minimax(game) -> tuple[int, float]:
    sys.setrecursionlimit(1_000_000)

    @cache
    def value(p):
        out = game.outcome(p)
        if out is not None:
            return -1
        best = -1
        for m in game.moves(p):
            best = max(best, -value(game.play(p, m)))
        return best

    t = time.perf_counter()
    value(game.initial())
    return value.cache_info().currsize, time.perf_counter() - t


def plain_retrograde(game) -> tuple[int, float]:
    t = time.perf_counter()
    start = game.initial()
    seen, order = {start}, [start]
    kids: dict = {}
    parents: dict = {}
    i = 0
    while i < len(order):
        p = order[i]
        i += 1
        cs = [] if game.outcome(p) is not None else [game.play(p, m) for m in game.moves(p)]
        kids[p] = cs
        for c in cs:
            parents.setdefault(c, []).append(p)
            if c not in seen:
                seen.add(c)
                order.append(c)
    val, count = {}, {p: len(cs) for p, cs in kids.items()}
    q = deque(p for p in order if not kids[p])
    for p in q:
        val[p] = -1
    while q:
        c = q.popleft()
        for p in parents.get(c, ()):
            if p in val:
                continue
            if val[c] == -1:
                val[p] = 1
                q.append(p)
            else:
                count[p] -= 1
                if count[p] == 0:
                    val[p] = -1
                    q.append(p)
    return len(order), time.perf_counter() - t


def run(name: str, game, baseline, label: str) -> None:
    solve(type(game)(8))  # compile/load the kernels outside the timing
    t = time.perf_counter()
    s = solve(game, progress=False)
    dt = time.perf_counter() - t
    n = len(s)
    nb, tb = baseline(game)
    print(f"{name:8s} {n:>10,} positions  perfectplay {dt:6.2f} s = {n / dt:>9,.0f} pos/s   "
          f"{label} {tb:6.2f} s = {nb / tb:>9,.0f} pos/s   speed-up {tb / dt:5.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, default=1000, help="W: the games have W*W positions")
    args = ap.parse_args()
    run("acyclic", TwoCounters(args.size), textbook_minimax, "memoised minimax")
    run("cyclic", Torus(args.size), plain_retrograde, "plain retrograde")


if __name__ == "__main__":
    main()
