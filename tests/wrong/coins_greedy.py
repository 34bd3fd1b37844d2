"""CSES 1097 by the greedy strategy (both players take the larger end): wrong."""

import sys

data = sys.stdin.read().split()
n = int(data[0])
a = list(map(int, data[1:1 + n]))
lo, hi, turn, score = 0, n - 1, 0, [0, 0]
while lo <= hi:
    if a[lo] >= a[hi]:
        score[turn] += a[lo]
        lo += 1
    else:
        score[turn] += a[hi]
        hi -= 1
    turn ^= 1
print(score[0])
