"""The page's computer player, perfect or weaker, from the values of the legal moves.

``strength`` s in [0, 1] (the page's slider; the same scale as ``perfectplay play
--strength``):

- **s = 1, perfect**: the best move, the engine's order (the best value; a win as quick as
  possible, a loss as slow as possible): a won position is never let go, and the win is
  the quickest.
- **s < 1**: with chance s a move drawn uniformly among those that *keep the value* (the
  best move's value: every winning move of a won position, whatever its remoteness; a
  scored game's moves of the best margin), else a move drawn uniformly among *all* legal
  moves. So a move that keeps the value has chance s / k + (1 - s) / n (k of the n moves
  keep it), any other (1 - s) / n; at s = 0 every move is equally likely.

The draw is seeded: ``seed`` and the ply make the random generator
(``random.Random(f"{seed}:{ply}")``), so the same game with the same seed is replayed the
same way, and the tests count the choices' frequencies exactly.

>>> moves = [("4", "win", None, 5), ("3", "win", None, 9), ("1", "lose", None, 2)]
>>> choose_move(moves, 1.0, seed=7, ply=0)
'4'
>>> sorted({choose_move(moves, 0.5, seed=s, ply=0) for s in range(40)})
['1', '3', '4']
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from ..engine.protocol import Worth
from ..errors import InputError

#: One legal move as the computer sees it, best first: (name, value word, margin or None,
#: remoteness).
Choice = tuple[str, str, "Worth | None", int | None]


def check_strength(strength: float | str) -> float:
    """``strength`` as a float in [0, 1], else an :class:`InputError` saying so."""
    try:
        s = float(strength)
    except (TypeError, ValueError):
        raise InputError(f"strength must be a number from 0 to 1, not {strength!r}") from None
    if not 0.0 <= s <= 1.0:
        raise InputError(f"strength must be a number from 0 to 1, not {strength!r}")
    return s


def check_seed(seed: object) -> int | None:
    """``seed`` as an int (None: no seed), else an :class:`InputError` saying so: a whole
    number of at most 20 digits, as a URL's ``seed=`` or a JSON body gives it."""
    if seed is None:
        return None
    text = str(seed).strip()
    if isinstance(seed, bool) or not re.fullmatch(r"-?[0-9]{1,20}", text):
        raise InputError(f"seed must be a whole number, not {str(seed)[:40]!r}")
    return int(text)


def keeps_value(moves: Sequence[Choice]) -> list[Choice]:
    """The moves whose value is the best move's (``moves`` best first): its word, and in
    a scored game its margin too."""
    top = moves[0]
    return [m for m in moves if m[1] == top[1] and m[2] == top[2]]


def choose_move(moves: Sequence[Choice], strength: float | str, seed: object = None,
                ply: int = 0) -> str:
    """The computer's move (its name) among ``moves`` (best first, as the engine orders
    them) at ``strength`` (see the module doc); ``seed`` and ``ply`` seed the draw (None: a
    fresh random one). O(n) for n moves."""
    if not moves:
        raise InputError("the game is over: the computer has no move")
    s = check_strength(strength)
    seed = check_seed(seed)
    if s >= 1.0:
        return moves[0][0]
    rng = random.Random(None if seed is None else f"{seed}:{ply}")
    if rng.random() < s:
        return rng.choice(keeps_value(moves))[0]
    return rng.choice(list(moves))[0]
