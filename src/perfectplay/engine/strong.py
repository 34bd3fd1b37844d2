"""``solve(game)``: the default check, discovery, then the right exact solver for the kind of
game (:mod:`.exact`; a small win/lose game in plain Python, :mod:`.retro`).

A Python game's solve loads the compiled door (numba) only when it needs it: a compiled
game, a scored game, or a win/lose game too large for :func:`~.retro.solve_small` to beat the
kernel's start-up. Nim or a small Connect Four then costs what its own rules cost (issue 70).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .check import precheck
from .discovery import GameGraph, discover, refuse_too_big, solve_path
from .protocol import Game, Method, capabilities, check_method, is_compiled
from .retro import is_small, solve_small
from .solved import WINLOSE, Solution

if TYPE_CHECKING:
    from .compiled import CompiledGame
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

    :param game: the rules: a Python game (the :class:`~perfectplay.engine.Game` protocol)
        or a :class:`~perfectplay.engine.CompiledGame`.
    :param max_positions: the most positions to hold (None: what the memory available
        now holds).
    :param progress: show a progress bar (None: when stderr is a terminal).
    :param method: "auto", "python", "graph" or "tiers" (see above).
    :param check: run the bounded check of the rules and hooks first.
    :returns: a :class:`~perfectplay.engine.Solution` (a ``TierSolution``, which answers
        the same questions, when a compiled game is solved tier by tier): the value,
        remoteness and every move's value of each position reachable from the start.
    :raises GameError: the rules or hooks break the protocol (found by the check, or
        while solving), named with the position.
    :raises LimitError: the game has more positions than ``max_positions``.
    :raises ValueError: ``method`` is not one of the four.
    """
    check_method(method)
    compiled = is_compiled(game)
    caps = capabilities(game)  # a game too big for the memory stops here, before any work
    refuse_too_big(caps, solve_path(caps, compiled, method), max_positions)
    if check:
        # only the tier solver takes the tiers one by one (every move must rise); elsewhere
        # a move may stay in its tier
        tiers = compiled and (method == "tiers" or (method == "auto" and caps.tiered))
        precheck(game, tiers_rise=None if tiers else False)
    if (compiled and method != "python") or method in ("graph", "tiers"):
        from .exact import solve_exact  # the compiled door: numba
        return solve_exact(game, max_positions=max_positions, progress=progress,
                           method=method)
    graph = discover(game, max_positions=max_positions, progress=progress)
    return solve_graph(game, graph)


def solve_graph(game: Game, graph: GameGraph) -> Solution:
    """Solve an already discovered game graph (see :func:`solve`): a small win/lose game
    in plain Python (:func:`~.retro.solve_small`, the same answers as the kernel), any
    other by :func:`.exact.solve_graph`.

    :param game: the game the graph was discovered from.
    :param graph: its positions and moves, from :func:`~perfectplay.engine.discover`.
    :returns: the :class:`~perfectplay.engine.Solution` of every position of ``graph``.
    """
    if not graph.scored and is_small(len(graph.children)):
        values, rems = solve_small(graph.offsets, graph.children, graph.terminal, graph.player)
        # int8 and int32 Python arrays: what the kernel's numpy arrays hold, read alike
        return Solution(game, graph, WINLOSE, cast("list[Any]", values),
                        cast("list[int | None]", rems), cyclic=None)
    from .exact import solve_graph as solve_large  # numba's kernels
    return solve_large(game, graph)


def discover_graph(game: CompiledGame, max_positions: int) -> GameGraph:
    """Compiled discovery of every reachable position into a :class:`GameGraph` (see
    :func:`.exact.discover_graph`)."""
    from .exact import discover_graph as discover_compiled  # numba
    return discover_compiled(game, max_positions)
