"""Closing the Portal by the parity rule, forgetting that disconnected portals lose at once:
when no path exists it uses the Manhattan distance as if there were one."""

import sys
from collections import deque


def winner(rows):
    R, C = len(rows), len(rows[0])
    cells = {(r, c) for r in range(R) for c in range(C) if rows[r][c] != "#"}
    a, b = [(r, c) for r in range(R) for c in range(C) if rows[r][c] == "O"]
    d = {a: 0}
    q = deque([a])
    while q:
        u = q.popleft()
        for w in ((u[0] + 1, u[1]), (u[0] - 1, u[1]), (u[0], u[1] + 1), (u[0], u[1] - 1)):
            if w in cells and w not in d:
                d[w] = d[u] + 1
                q.append(w)
    path_cells = d.get(b, abs(a[0] - b[0]) + abs(a[1] - b[1])) + 1  # the bug
    empty = sum(row.count(".") for row in rows)
    return "Alif" if (empty - (path_cells - 2)) % 2 else "Bella"


lines = sys.stdin.read().split()
t, k = int(lines[0]), 1
for _ in range(t):
    r, c = int(lines[k]), int(lines[k + 1])
    rows = lines[k + 2:k + 2 + r]
    k += 2 + r
    print(winner(rows))
