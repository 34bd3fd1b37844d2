"""Which door to take with a Python game: the whole solve, or the search of one position.

A game written as a Python class can be solved whole (``perfectplay solve``: every
position's value and remoteness, its cost in proportion to the number of positions, some
10-15 us and 200 bytes each in Python) or searched one position at a time (``perfectplay
search``: one position proved by alpha-beta search, its cost in proportion to the proof,
not to the game). Neither is better everywhere: Connect Four 4x5 (1.7 million positions)
takes about 25 s to solve and about 1 s to search from the start; Nim (3, 5, 7) (192
positions) is solved whole in the time one search takes to start. The commands ask this
module what to tell the user, so that each says when the other door is the better one:

- :func:`solve_hint`: the line ``perfectplay solve`` prints when a Python game's solve is
  still running after :data:`SOLVE_HINT_SECONDS` (the game is big: a search proves one
  position in far less);
- :func:`search_hint`: the line ``perfectplay search`` prints when the whole game has at
  most :data:`SMALL_GAME` positions (found by a discovery that stops there: a few hundredths
  of a second), so that one solve answers every position.

A :class:`~perfectplay.engine.CompiledGame` gets no hint: its doors run at native speed.

>>> class Subtract:  # take 1 or 2 from a heap of 7; who cannot move loses
...     def initial(self): return 7
...     def moves(self, n): return [k for k in (1, 2) if k <= n]
...     def play(self, n, k): return n - k
...     def outcome(self, n): return None
>>> search_hint(Subtract(), "subtract.py:Subtract").split(": ")[:2]
['tip', 'the whole game has 8 positions']
"""

from __future__ import annotations

import shlex

from ..errors import LimitError
from .discovery import discover
from .protocol import Game, is_compiled

__all__ = ["SMALL_GAME", "SOLVE_HINT_SECONDS", "search_hint", "solve_hint"]

#: seconds of a Python game's solve after which ``perfectplay solve`` points to search
SOLVE_HINT_SECONDS = 10.0
#: the most positions of a game ``perfectplay search`` calls small enough to solve whole
#: (a Python solve of that many takes about 0.1 s)
SMALL_GAME = 10_000


def solve_hint(game: Game, target: str) -> str | None:
    """The line to print when the solve of ``game`` (loaded from ``target``) has run
    :data:`SOLVE_HINT_SECONDS` and is still going; None for a compiled game.

    >>> class Big:
    ...     def initial(self): return 0
    ...     def moves(self, n): return [1]
    ...     def play(self, n, k): return n + k
    ...     def outcome(self, n): return None
    >>> solve_hint(Big(), "big.py:Big").startswith("still solving: a Python game's solve")
    True
    """
    if is_compiled(game):
        return None
    return (f"still solving: a Python game's solve numbers every position it can reach "
            f"before it answers. For one position's value, perfectplay search "
            f"{shlex.quote(target)} (with --moves for another position) proves it by search, "
            "its time in proportion to the proof, not to the game.")


def search_hint(game: Game, target: str) -> str | None:
    """The line to print after a search of ``game`` (loaded from ``target``) when the whole
    game has at most :data:`SMALL_GAME` positions (a solve then answers every position at
    once); None for a bigger or a compiled game. The count is a discovery that stops past
    :data:`SMALL_GAME` positions (at most about 0.1 s for a Python game)."""
    if is_compiled(game):
        return None
    try:
        n = discover(game, max_positions=SMALL_GAME, progress=False).size
    except LimitError:
        return None
    return (f"tip: the whole game has {n:,} positions: perfectplay solve "
            f"{shlex.quote(target)} gives every position's value and remoteness at once")
