"""Crashes on rows with a negative number."""

import sys

data = sys.stdin.read().split()
a = list(map(int, data[1:]))
if min(a) < 0:
    raise ValueError("negative coin")
print(sum(a))
