"""The small compiled game the tests use as a user's own file: take 1, 2 or 3 of n
counters, who cannot move loses. Tests import its rules, or write :data:`SOURCE` (this
file's text) into a folder and run ``perfectplay ... take.py:Take`` on it, so the game is
written once."""

from pathlib import Path

from perfectplay.engine import ONGOING, CompiledGame


def moves(n, out):
    k = 0
    for take in (1, 2, 3):
        if take <= n:
            out[k] = take
            k += 1
    return k


def play(n, take):
    return n - take


def outcome(n):
    return ONGOING


class Take(CompiledGame):
    """Take 1, 2 or 3 of n counters; who cannot move loses (10: win in 5, by taking 2)."""

    def __init__(self, n=10):
        super().__init__(n, moves, play, outcome, max_moves=3)


class Countdown:
    """The Python door's chain: take 1 from a heap of ``n`` (one move everywhere), who
    cannot move loses. No compiling."""

    def __init__(self, n=6):
        self.n = n

    def initial(self):
        return self.n

    def moves(self, n):
        return [1] if n else []

    def play(self, n, k):
        return n - k

    def outcome(self, n):
        return None


class Subtract(Countdown):
    """Take 1 or 2 from a heap of ``n`` (7 unless said); who cannot move loses."""

    def __init__(self, n=7):
        super().__init__(n)

    def moves(self, n):
        return [k for k in (1, 2) if k <= n]


#: This file's text, to be written as a user's game file.
SOURCE = Path(__file__).read_text()
