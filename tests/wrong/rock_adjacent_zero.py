"""UVa 10381 by the seed's method, with the bug of one accepted public solution: E next to X
prints 0 (it should be 1)."""

import sys
from collections import deque


def solve(rows):
    R, C = len(rows), len(rows[0])
    cells = [(r, c) for r in range(R) for c in range(C) if rows[r][c] != "#"]
    adj = {u: [(u[0] + dr, u[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
               if (u[0] + dr, u[1] + dc) in set(cells)] for u in cells}
    E = next(u for u in cells if rows[u[0]][u[1]] == "E")
    X = next(u for u in cells if rows[u[0]][u[1]] == "X")
    if X in adj[E]:
        return 0  # the bug
    INF = float("inf")

    def bfs(blocked):
        d = {X: 0}
        q = deque([X])
        while q:
            u = q.popleft()
            for w in adj[u]:
                if w != blocked and w not in d:
                    d[w] = d[u] + 1
                    q.append(w)
        return d

    g = {v: bfs(v) for v in cells if v != X}
    f = {u: INF for u in cells}
    f[X] = 0
    changed = True
    while changed:
        changed = False
        for u in cells:
            if u == X:
                continue
            walk = min((1 + f[v] for v in adj[u]), default=INF)
            block = max((g[v].get(u, INF) for v in adj[u] if v != X), default=-INF)
            new = max(walk, block)
            if new != f[u]:
                f[u], changed = new, True
    return f[E] if f[E] != INF else -1


def main():
    data = sys.stdin.read().split("\n")
    tokens = iter(data)
    t = int(next(tokens).split()[0])
    for _ in range(t):
        line = next(tokens).strip()
        while not line:
            line = next(tokens).strip()
        r, c = map(int, line.split())
        rows = [next(tokens).strip() for _ in range(r)]
        print(solve(rows))


main()
