"""Retrograde analysis in plain Python, for the small win/lose games a user writes in Python.

The numba kernel (:func:`perfectplay.engine.compiled.kernels.retrograde`) costs its start-up
before it runs: numba itself and the cached kernel read back, about 0.7 s of CPU, while a game
of a few thousand positions is solved here in a few milliseconds. :func:`solve_small` is the
same algorithm, step for step, in Python lists: the same FIFO queue, parents visited in
increasing order, so it gives the same value and remoteness at every position (tests/
test_engine.py cross-checks the two on random games). :func:`is_small` says where it pays.

Time O(positions + moves) Python steps (about a microsecond a move); memory a few Python
lists of the graph's size.
"""

from __future__ import annotations

from array import array
from typing import Any

from .protocol import DRAW_CODE as DRAW
from .protocol import LOSE_CODE as LOSE
from .protocol import TIE_CODE as TIE
from .protocol import UNKNOWN
from .protocol import WIN_CODE as WIN

#: Up to this many moves (edges), a win/lose game is solved in Python. Measured on Connect
#: Four 4x4 (304,574 moves): 0.25 s here, against numba's import and the cached kernel's
#: load, 0.7-1.0 s of CPU a process, before the kernel's own 0.006 s; the two meet near a
#: million moves, and the bound stays below, where the Python pass still wins clearly.
SMALL_MOVES = 600_000


def is_small(moves: int) -> bool:
    """Is a win/lose game of ``moves`` moves solved quicker here than by the kernel?

    >>> is_small(10_000), is_small(10**7)
    (True, False)
    """
    return moves <= SMALL_MOVES


def solve_small(offsets: Any, children: Any, terminal: Any, player: Any | None
                ) -> tuple[array[int], array[int]]:
    """Value codes (int8) and remoteness (int32, -1 for a draw) of every position of a
    win/lose game graph in CSR form (``offsets``, ``children``, ``terminal`` as discovery
    gives them: sequences of ints), as the kernel computes them. ``player`` (one 0/1 a
    position) when the game says whose turn it is, else None (every move passes the turn).

    >>> offs, kids, term = [0, 2, 3, 3, 3], [1, 2, 3], [0, 0, 2, 3]
    >>> [list(a) for a in solve_small(offs, kids, term, None)]  # 0 -> {1, lost}; 1 -> tied
    [[1, 3, 2, 3], [1, 1, 0, 0]]
    """
    off, kids = _ints(offsets), _ints(children)
    n = len(off) - 1
    parents: list[list[int]] = [[] for _ in range(n)]
    for p in range(n):
        for c in kids[off[p]:off[p + 1]]:
            parents[c].append(p)
    ends = _ints(terminal)
    value = [UNKNOWN] * n
    rem = [-1] * n
    unresolved = [off[i + 1] - off[i] for i in range(n)]
    queue = _seed(ends, value, rem, unresolved)
    turns = None if player is None else _ints(player)
    _spread_wins_losses(parents, turns, unresolved, value, rem, queue)
    ties = [i for i in range(n) if ends[i] == TIE]
    for i in ties:
        value[i] = TIE
        rem[i] = 0
    _spread_ties(parents, value, rem, ties)
    return (array("b", [DRAW if v == UNKNOWN else v for v in value]), array("i", rem))


def _ints(seq: Any) -> list[int]:
    """A numpy array, an ``array.array`` or a list as a list of Python ints."""
    return seq.tolist() if hasattr(seq, "tolist") else list(seq)


def _seed(ends: list[int], value: list[int], rem: list[int], unresolved: list[int]
          ) -> list[int]:
    """The won and lost ends, and the positions with no moves (lost: normal play), at
    remoteness 0, in id order (tied ends wait for the second phase)."""
    queue = []
    for i, t in enumerate(ends):
        if t == WIN or t == LOSE or (t == UNKNOWN and unresolved[i] == 0):
            value[i] = t if t != UNKNOWN else LOSE
            rem[i] = 0
            queue.append(i)
    return queue


def _spread_wins_losses(parents: list[list[int]], turns: list[int] | None,
                        unresolved: list[int], value: list[int], rem: list[int],
                        queue: list[int]) -> None:
    """Phase 1: a parent with a winning move is WIN (first found: quickest); a parent
    whose last move settles as losing is LOSE (slowest). ``queue`` grows as it is read."""
    head = 0
    while head < len(queue):
        c = queue[head]
        head += 1
        child = value[c]
        r = rem[c] + 1
        for p in parents[c]:
            if value[p] != UNKNOWN:
                continue
            passes = turns is None or turns[p] != turns[c]
            if (child == LOSE) if passes else (child == WIN):
                value[p] = WIN
            else:
                unresolved[p] -= 1
                if unresolved[p]:
                    continue
                value[p] = LOSE
            rem[p] = r
            queue.append(p)


def _spread_ties(parents: list[list[int]], value: list[int], rem: list[int],
                 queue: list[int]) -> None:
    """Phase 2: TIE spreads from tied ends to every parent still unknown, nearest first."""
    head = 0
    while head < len(queue):
        c = queue[head]
        head += 1
        r = rem[c] + 1
        for p in parents[c]:
            if value[p] == UNKNOWN:
                value[p] = TIE
                rem[p] = r
                queue.append(p)
