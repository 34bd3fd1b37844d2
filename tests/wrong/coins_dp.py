"""CSES 1097 by the O(n^2) difference DP: correct (the stress tester must find nothing)."""

import sys

data = sys.stdin.read().split()
n = int(data[0])
a = list(map(int, data[1:1 + n]))
d = a[:]  # d[i] = best margin on a[i .. i + length - 1]
for length in range(2, n + 1):
    d = [max(a[i] - d[i + 1], a[i + length - 1] - d[i]) for i in range(n - length + 1)]
print((sum(a) + d[0]) // 2 if n else 0)
