"""``solve(game)``: the default check, discovery, then the right exact solver for the kind of
game (:mod:`.exact`)."""

from __future__ import annotations

from .check import precheck
from .compiled import CompiledGame
from .exact import Method, check_method, discover_graph, solve_exact, solve_graph
from .protocol import Game
from .solved import Solution
from .tiers import TierSolution

__all__ = ["Method", "discover_graph", "solve", "solve_graph"]


def solve(game: Game | CompiledGame, *, max_positions: int | None = None,
          progress: bool | None = None, method: Method = "auto",
          check: bool = True) -> Solution | TierSolution:
    """Strongly solve ``game``: value and remoteness of every position reachable from its start.

    - win/lose games, acyclic or cyclic: retrograde analysis with move counters (positions
      never resolved are certified DRAW); O(positions + moves) after discovery;
    - scored acyclic games: margins by reverse topological order, in int64 by a numba kernel
      when every number fits (an overflow is detected and the game is solved again in exact
      Python arithmetic), else in exact Python numbers (big ints, fractions);
    - scored cyclic games: label setting as a cost game (see
      :mod:`perfectplay.engine.solved.scored`).

    ``method``: "auto" solves a :class:`~perfectplay.engine.CompiledGame` tier by tier when
    it defines ``tier`` (no stored moves), else by compiled discovery into CSR arrays
    ("graph"); a Python game by Python discovery. "python" takes any game, compiled ones
    included, through the Python protocol (the tests use it as the independent twin).

    ``check`` (on by default): first a bounded check of the rules and hooks
    (:func:`~perfectplay.engine.check.precheck`: a few hundred positions along random games
    from the start, each move played twice, the hooks asked twice and round-tripped, state
    kept on the game object looked for), so the classic mistakes (whose turn it is kept on
    ``self`` and flipped in ``play``) are refused with a :class:`~perfectplay.GameError`
    instead of answered wrongly. It costs a few per cent of a solve; ``check=False`` skips
    it, and the catalog's games (checked by the test suite) skip it anyway.

    Loops only, no recursion: a game a million plies deep solves. ``progress`` shows a bar on
    a terminal (default: when stderr is a TTY). ``max_positions`` (default: what the memory
    available now holds at this path's measured bytes per position, see
    :func:`~perfectplay.engine.discovery.position_limit`) stops the solve with a
    :class:`~perfectplay.LimitError` before memory runs out.

    >>> class Subtract:  # take 1 or 2 from a heap of 7; who cannot move loses
    ...     def initial(self): return 7
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> s = solve(Subtract())
    >>> s.value(), s.remoteness(), s.best_move()
    (<Value.WIN: 'win'>, 5, 1)
    """
    check_method(method)
    if check:
        # only the tier solver takes the tiers one by one (every move must rise); elsewhere
        # a move may stay in its tier
        tiers = isinstance(game, CompiledGame) and (
            method == "tiers" or (method == "auto" and game.tiered))
        precheck(game, tiers_rise=None if tiers else False)
    return solve_exact(game, max_positions=max_positions, progress=progress, method=method)
