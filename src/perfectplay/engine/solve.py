"""``solve(game)``: discovery, then the right exact solver for the kind of game."""

from __future__ import annotations

import numpy as np

from ..errors import GameError
from .graph import DEFAULT_MAX_POSITIONS, GameGraph, discover, turn_parity
from .kernels import retrograde, topological_order
from .protocol import Game
from .scored import cost_players, label_setting, negamax_acyclic
from .solution import COST, MARGIN, WINLOSE, Solution


def solve(game: Game, *, max_positions: int = DEFAULT_MAX_POSITIONS,
          progress: bool | None = None) -> Solution:
    """Strongly solve ``game``: value and remoteness of every position reachable from its start.

    - win/lose games, acyclic or cyclic: retrograde analysis with move counters (positions
      never resolved are certified DRAW); O(positions + moves) after discovery;
    - scored acyclic games: margins by reverse topological order, exact arithmetic;
    - scored cyclic games: label setting as a cost game (see :mod:`perfectplay.engine.scored`).

    Loops only, no recursion: a game a million plies deep solves. ``progress`` shows a bar on
    a terminal (default: when stderr is a TTY).

    >>> class Subtract:  # take 1 or 2 from a heap of 7; who cannot move loses
    ...     def initial(self): return 7
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> s = solve(Subtract())
    >>> s.value(), s.remoteness(), s.best_move()
    (<Value.WIN: 'win'>, 5, 1)
    """
    graph = discover(game, max_positions=max_positions, progress=progress)
    return solve_graph(game, graph)


def solve_graph(game: Game, graph: GameGraph) -> Solution:
    """Solve an already discovered game graph (see :func:`solve`)."""
    rev_off, rev_src, rev_edge = graph.reverse()
    if not graph.scored:
        alternate = graph.player is None
        player = graph.player if graph.player is not None else np.zeros(1, np.int8)
        values, rems = retrograde(graph.offsets, graph.children, rev_off, rev_src,
                                  graph.terminal, player, alternate)
        return Solution(game, graph, WINLOSE, values, rems, cyclic=None)
    order, k = topological_order(graph.offsets, rev_off, rev_src)
    if k == graph.size:
        values, rems = negamax_acyclic(graph, order)
        return Solution(game, graph, MARGIN, values, rems, cyclic=False)
    player = graph.player
    if player is None:
        player, conflict = turn_parity(graph)
        if conflict is not None:
            a, b = conflict
            raise GameError(
                "a cyclic scored game must say whose turn it is: positions "
                f"{graph.positions[a]!r} and {graph.positions[b]!r} are joined by a move but "
                "are both reached after an even (or both after an odd) number of moves; "
                "define player(pos)")
    payer = cost_players(graph, player)
    margins, rems = label_setting(graph, player, payer, rev_off, (rev_src, rev_edge))
    return Solution(game, graph, COST, margins, rems, player=player, payer=payer, cyclic=True)
