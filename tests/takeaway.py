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


#: This file's text, to be written as a user's game file.
SOURCE = Path(__file__).read_text()
